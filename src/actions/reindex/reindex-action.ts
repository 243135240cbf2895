/**
 * `POST /_reindex` (RestReindexAction -> ReindexRequest.fromXContent, ReindexRequest.validate,
 * ReindexValidator.initialValidation): copies the documents a source search matches into a destination index,
 * as the cancellable task `indices:data/write/reindex` described `reindex from [src] to [dst]`.
 * Reindexing from a remote cluster is refused as ES refuses a host missing from its (empty) whitelist;
 * ingest pipelines are refused until Gannet has them. A `script` (painless subset, src/script/) is compiled
 * before the task starts and applied to each hit (src/reindex/script-applier.ts).
 */
import { setOwnValue } from '../../common/own-keys.js';
import { isAlias, resolveConcreteIndexNames } from '../../cluster/index.js';
import { STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../cluster/indices-options.js';
import { errors, indexErrors, reindexErrors } from '../../common/errors.js';
import { FULL_STATUS, MAX_DOCS_ALL_MATCHES, DEFAULT_SCROLL_SIZE, type DestRouting, type WriteVersionType } from '../../reindex/index.js';
import type { ActionContext, RestRequest, RestResponse, Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { rejectPipeline } from '../documents/bulk-request-parser.js';
import { parseVersionType } from '../documents/write-params.js';
import { resolveWriteIndex } from '../documents/write-executor.js';
import { abortOnConflicts, bodyObject, checkMaxDocs, COMMON_PARAMS, mergeMaxDocs, readCommonOptions, tokenName } from './common-params.js';
import { compileRequestScript } from './request-script.js';
import { runBulkByScroll } from './run-bulk-by-scroll.js';

export const REINDEX_ACTION = 'indices:data/write/reindex';

interface ReindexBody {
  sourceIndices: string[];
  sourceBody: Record<string, unknown>;
  batchSize: number;
  remote: Record<string, unknown> | undefined;
  destIndex: string | undefined;
  opType: 'index' | 'create';
  versionType: WriteVersionType;
  routing: string | undefined;
  maxDocs: number | undefined;
  conflicts: string | undefined;
  script: unknown;
}

function objectField(parser: string, field: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw reindexErrors.fieldType(parser, field, tokenName(value));
  return value as Record<string, unknown>;
}

function stringField(parser: string, field: string, value: unknown): string {
  if (typeof value !== 'string') throw reindexErrors.fieldType(parser, field, tokenName(value));
  return value;
}

function intField(parser: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw reindexErrors.fieldType(parser, field, tokenName(value));
  return value;
}

/** `source.index`: a comma list or an array of names. */
function indexNames(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').filter((name) => name.length > 0);
  if (Array.isArray(value)) return value.flatMap((item) => String(item).split(',')).filter((name) => name.length > 0);
  throw reindexErrors.fieldType('source', 'index', tokenName(value));
}

function parseBody(raw: Record<string, unknown>): ReindexBody {
  const out: ReindexBody = {
    sourceIndices: [],
    sourceBody: {},
    batchSize: DEFAULT_SCROLL_SIZE,
    remote: undefined,
    destIndex: undefined,
    opType: 'index',
    versionType: 'internal',
    routing: undefined,
    maxDocs: undefined,
    conflicts: undefined,
    script: undefined,
  };
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'source':
        for (const [sourceKey, sourceValue] of Object.entries(objectField('reindex', 'source', value))) {
          if (sourceKey === 'index') out.sourceIndices = indexNames(sourceValue);
          else if (sourceKey === 'remote') out.remote = objectField('source', 'remote', sourceValue);
          else if (sourceKey === 'size') out.batchSize = intField('source', 'size', sourceValue);
          // Everything else is the source search (query, _source, sort, slice, ...), parsed by the search DSL.
          else setOwnValue(out.sourceBody, sourceKey, sourceValue);
        }
        break;
      case 'dest':
        for (const [destKey, destValue] of Object.entries(objectField('reindex', 'dest', value))) {
          if (destKey === 'index') out.destIndex = stringField('dest', 'index', destValue);
          else if (destKey === 'op_type') {
            const opType = stringField('dest', 'op_type', destValue);
            if (opType !== 'index' && opType !== 'create') throw errors.illegalArgument(`opType must be 'create' or 'index', found: [${opType}]`);
            out.opType = opType;
          } else if (destKey === 'version_type') out.versionType = parseVersionType(stringField('dest', 'version_type', destValue));
          else if (destKey === 'routing') out.routing = destValue === null ? undefined : stringField('dest', 'routing', destValue);
          else if (destKey === 'pipeline') rejectPipeline(stringField('dest', 'pipeline', destValue));
          else throw reindexErrors.unknownField('dest', destKey);
        }
        break;
      // ES 8 dropped the body's `size` (7.x's name for max_docs): it is an unknown field like any other.
      case 'max_docs':
        out.maxDocs = checkMaxDocs(intField('reindex', key, value));
        break;
      case 'conflicts':
        out.conflicts = stringField('reindex', 'conflicts', value);
        break;
      case 'script':
        // ObjectParser.ValueType.OBJECT: unlike update_by_query, reindex takes no script as a bare string.
        out.script = objectField('reindex', 'script', value);
        break;
      default:
        throw reindexErrors.unknownField('reindex', key);
    }
  }
  return out;
}

/** ReindexRequest.validate (with AbstractBulkByScrollRequest.validate first). */
function validate(body: ReindexBody): void {
  const problems: string[] = [];
  if (typeof body.sourceBody['from'] === 'number' && body.sourceBody['from'] > 0) problems.push('using [from] is not allowed in a scroll context');
  if (body.sourceBody['from'] !== undefined) problems.push('from is not supported in this context');
  if (body.sourceBody['stored_fields'] !== undefined) problems.push('stored_fields is not supported in this context');
  if (body.sourceIndices.length === 0) problems.push('use _all if you really want to copy from all existing indexes');
  if (body.sourceBody['_source'] === false) problems.push('_source:false is not supported in this context');
  if (body.destIndex === undefined) {
    problems.push('index must be specified');
    throw errors.requestValidation(problems);
  }
  const routing = body.routing;
  if (routing !== undefined && routing !== 'keep' && routing !== 'discard' && !routing.startsWith('=')) problems.push('routing must be unset, [keep], [discard] or [=<some new value>]');
  if (problems.length > 0) throw errors.requestValidation(problems);
}

/** ReindexValidator.checkAllowedRemote: Gannet's remote whitelist is empty, so every remote host is refused. */
function rejectRemote(remote: Record<string, unknown>): never {
  const host = typeof remote['host'] === 'string' ? remote['host'] : '';
  const match = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/:]+|\[[^\]]+\]):(\d+)(\/.*)?$/.exec(host);
  if (match === null) throw reindexErrors.remoteHostForm(host);
  throw reindexErrors.remoteNotWhitelisted(`${match[1]}:${match[2]}`);
}

/**
 * ReindexValidator.validateAgainstAliases, run before the task starts (so `wait_for_completion=false` starts
 * nothing either): `require_alias` on a name that is no alias is 404; a destination that does not exist must be
 * one `action.auto_create_index` (or a matching template's `allow_auto_create`) lets the write create, else ES's
 * 404 (AutoCreateIndex.shouldAutoCreate); an existing destination resolves to its write index (an alias without
 * one is refused); and that index may not be one of the sources.
 */
function validateDestination(body: ReindexBody, requireAlias: boolean, context: ActionContext): void {
  const state = context.services.clusterService.state();
  const dest = body.destIndex!;
  if (requireAlias && !isAlias(state, dest)) throw indexErrors.indexNotFoundBecause(dest, `[require_alias] request flag is [true] and [${dest}] is not an alias`);
  let target = dest;
  if (state.indices.has(dest) || isAlias(state, dest)) target = resolveWriteIndex(state, dest).name;
  // A destination that does not exist yet is auto-created, so it cannot be a source; unless creation is forbidden.
  else indicesOf(context.services).metadata.checkAutoCreate(dest);
  const sources = resolveConcreteIndexNames(state, STRICT_EXPAND_OPEN_FORBID_CLOSED, body.sourceIndices);
  if (sources.includes(target)) throw errors.requestValidation([`reindex cannot write into an index its reading from [${target}]`]);
}

function destRouting(routing: string | undefined): DestRouting {
  if (routing === undefined || routing === 'keep') return { kind: 'keep' };
  if (routing === 'discard') return { kind: 'discard' };
  return { kind: 'value', value: routing.slice(1) };
}

/** ReindexRequest.toString: `reindex from [a, b] to [dest]`. */
function describe(request: RestRequest): string | undefined {
  try {
    const raw = request.hasBody ? (JSON.parse(request.body().toString('utf8')) as Record<string, unknown>) : {};
    const source = (raw['source'] ?? {}) as Record<string, unknown>;
    const dest = (raw['dest'] ?? {}) as Record<string, unknown>;
    const indices = source['index'] === undefined ? [] : indexNames(source['index']);
    return `reindex from ${indices.length === 0 ? '[all indices]' : `[${indices.join(', ')}]`} to [${String(dest['index'] ?? 'null')}]`;
  } catch {
    return undefined;
  }
}

async function handleReindex(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const common = readCommonOptions(request);
  const body = parseBody(bodyObject(request, 'reindex'));
  const maxDocs = mergeMaxDocs(body.maxDocs, common.maxDocsParam);
  const abort = abortOnConflicts(body.conflicts ?? 'abort');
  validate(body);
  if (body.remote !== undefined) rejectRemote(body.remote);
  validateDestination(body, request.paramBool('require_alias', false), context);
  // ES fetches source versions only for external versioning; a script sees ctx._version -1 otherwise.
  const script = body.script === undefined ? undefined : compileRequestScript(body.script, 'reindex', body.versionType !== 'internal');
  return runBulkByScroll(
    {
      source: { indices: body.sourceIndices, body: body.sourceBody, params: {} },
      batchSize: body.batchSize,
      maxDocs: maxDocs === MAX_DOCS_ALL_MATCHES ? MAX_DOCS_ALL_MATCHES : maxDocs,
      abortOnVersionConflict: abort,
      requestsPerSecond: common.requestsPerSecond,
      refresh: common.refresh,
      timeoutMillis: common.timeoutMillis,
      waitForActiveShards: common.waitForActiveShards,
      scrollKeepAliveMillis: common.scrollKeepAliveMillis,
      conversion: {
        kind: 'reindex',
        destIndex: body.destIndex!,
        opType: body.opType,
        versionType: body.versionType,
        routing: destRouting(body.routing),
        requireAlias: request.paramBool('require_alias', false),
      },
      script,
      slice: undefined,
    },
    common.waitForCompletion,
    FULL_STATUS,
    context,
    common.slices,
  );
}

export const reindexRoutes: Route[] = [
  {
    method: 'POST',
    path: '/_reindex',
    action: REINDEX_ACTION,
    cancellable: true,
    body: 'required',
    params: [...COMMON_PARAMS, 'require_alias'],
    describe,
    handler: handleReindex,
  },
];
