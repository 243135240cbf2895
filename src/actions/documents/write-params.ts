/**
 * The write request parameters ES's REST layer reads (refresh, routing, timeout, wait_for_active_shards, version,
 * version_type, if_seq_no, if_primary_term, op_type, pipeline, require_alias), parsed with ES's messages, and
 * the per-operation validation of IndexRequest/DeleteRequest/UpdateRequest.validate().
 */
import { errors, EsError } from '../../common/errors.js';
import type { VersionType } from '../../engine/engine.js';
import type { RestRequest } from '../rest.js';

export type RefreshPolicy = 'none' | 'immediate' | 'wait_for';

/** WriteRequest.RefreshPolicy.parse. */
export function parseRefreshPolicy(value: string | undefined): RefreshPolicy {
  if (value === undefined || value === 'false') return 'none';
  if (value === '' || value === 'true') return 'immediate';
  if (value === 'wait_for') return 'wait_for';
  throw errors.illegalArgument(`Unknown value for refresh: [${value}].`);
}

/** VersionType.fromString. */
export function parseVersionType(value: string | undefined): VersionType {
  if (value === undefined || value === 'internal') return 'internal';
  if (value === 'external') return 'external';
  if (value === 'external_gte') return 'external_gte';
  throw errors.illegalArgument(`No version type match [${value}]`);
}

function parseLongParam(request: RestRequest, name: string): number | undefined {
  const value = request.param(name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) {
    throw new EsError('illegal_argument_exception', `Failed to parse long parameter [${name}] with value [${value}]`, {
      causedBy: errors.numberFormat(value),
    });
  }
  return Number(value);
}

/** Parameters every single-document write reads. */
export const WRITE_PARAMS = ['routing', 'refresh', 'timeout', 'wait_for_active_shards', 'if_seq_no', 'if_primary_term', 'version', 'version_type'] as const;

export interface WriteParams {
  readonly routing: string | undefined;
  readonly refresh: RefreshPolicy;
  readonly timeoutMillis: number;
  readonly waitForActiveShards: string | undefined;
  readonly version: number | undefined;
  readonly versionType: VersionType;
  readonly ifSeqNo: number | undefined;
  readonly ifPrimaryTerm: number | undefined;
}

/** ES's default write timeout (ReplicationRequest.DEFAULT_TIMEOUT). */
export const DEFAULT_WRITE_TIMEOUT_MILLIS = 60_000;

export function readWriteParams(request: RestRequest): WriteParams {
  const ifSeqNo = parseLongParam(request, 'if_seq_no');
  const ifPrimaryTerm = parseLongParam(request, 'if_primary_term');
  if (ifSeqNo !== undefined && ifSeqNo < 0 && ifSeqNo !== -2) throw errors.illegalArgument(`sequence numbers must be non negative. got [${ifSeqNo}].`);
  if (ifPrimaryTerm !== undefined && ifPrimaryTerm < 0) throw errors.illegalArgument(`primary term must be non negative. got [${ifPrimaryTerm}]`);
  return {
    routing: request.param('routing'),
    refresh: parseRefreshPolicy(request.param('refresh')),
    timeoutMillis: request.paramTimeMillis('timeout', DEFAULT_WRITE_TIMEOUT_MILLIS),
    waitForActiveShards: request.param('wait_for_active_shards'),
    version: parseLongParam(request, 'version'),
    versionType: parseVersionType(request.param('version_type')),
    ifSeqNo: ifSeqNo === -2 ? undefined : ifSeqNo,
    ifPrimaryTerm: ifPrimaryTerm === 0 ? undefined : ifPrimaryTerm,
  };
}

/** VersionType.validateVersionForWrites (absent means MATCH_ANY, -3). */
function validVersionForWrites(versionType: VersionType, version: number | undefined): boolean {
  if (versionType === 'internal') return version === undefined || version > 0;
  return version !== undefined && version >= 0;
}

export interface VersionedOp {
  readonly op: 'index' | 'create' | 'update' | 'delete';
  readonly index: string | undefined;
  readonly id: string | undefined;
  readonly version: number | undefined;
  readonly versionType: VersionType;
  readonly ifSeqNo: number | undefined;
  readonly ifPrimaryTerm: number | undefined;
  readonly hasSource?: boolean;
}

/** DocWriteRequest.validateSeqNoBasedCASParams. */
function casProblems(op: VersionedOp, problems: string[]): void {
  if (!validVersionForWrites(op.versionType, op.version)) {
    problems.push(`illegal version value [${op.version ?? -3}] for version type [${op.versionType.toUpperCase()}]`);
  }
  if (op.versionType === 'internal' && op.version !== undefined) {
    problems.push('internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead');
  }
  if (op.ifSeqNo !== undefined && (op.versionType !== 'internal' || op.version !== undefined)) problems.push('compare and write operations can not use versioning');
  if (op.ifSeqNo !== undefined && op.ifPrimaryTerm === undefined) problems.push('ifSeqNo is set, but primary term is [0]');
  if (op.ifSeqNo === undefined && op.ifPrimaryTerm !== undefined) problems.push(`ifSeqNo is unassigned, but primary term is [${op.ifPrimaryTerm}]`);
}

function idLengthProblem(id: string | undefined, problems: string[]): void {
  if (id !== undefined && Buffer.byteLength(id, 'utf8') > 512) {
    problems.push(`id [${id}] is too long, must be no longer than 512 bytes but was: ${Buffer.byteLength(id, 'utf8')}`);
  }
}

/** IndexRequest/DeleteRequest.validate() (UpdateRequest's own checks live with the update body): ES's order and words. */
export function validationProblems(op: VersionedOp, hasSource = op.hasSource): string[] {
  const problems: string[] = [];
  if (op.index === undefined) problems.push('index is missing');
  if (op.op === 'index' || op.op === 'create') {
    if (hasSource === false) problems.push('source is missing');
    idLengthProblem(op.id, problems);
    if (op.op === 'create') {
      if (op.versionType !== 'internal') problems.push('create operations only support internal versioning. use index instead');
      else if (op.version !== undefined) problems.push('create operations do not support explicit versions. use index instead');
      else if (op.ifSeqNo !== undefined || op.ifPrimaryTerm !== undefined) problems.push('create operations do not support compare and set. use index instead');
      return problems;
    }
    casProblems(op, problems);
    return problems;
  }
  if (op.id === undefined || op.id === '') problems.push('id is missing');
  casProblems(op, problems);
  if (op.op === 'update') idLengthProblem(op.id, problems);
  return problems;
}
