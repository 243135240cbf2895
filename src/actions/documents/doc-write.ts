/**
 * One document write as the bulk machinery carries it (an item of ES's BulkRequest: index, create, update or
 * delete), and what comes back for it: a DocWriteResponse's fields, or the failure with the concrete index.
 */
import type { EsError } from '../../common/errors.js';
import type { VersionType } from '../../engine/engine.js';
import type { UpdateSpec } from './update-request.js';
import type { ShardReplicationFailure } from '../../indices/index.js';

export type OpType = 'index' | 'create' | 'update' | 'delete';

export interface DocWriteItem {
  readonly op: OpType;
  readonly index: string | undefined;
  readonly id: string | undefined;
  readonly routing: string | undefined;
  readonly version: number | undefined;
  readonly versionType: VersionType;
  readonly ifSeqNo: number | undefined;
  readonly ifPrimaryTerm: number | undefined;
  /** The document for index/create (the exact bytes sent). */
  readonly source: Uint8Array | undefined;
  readonly update: UpdateSpec | undefined;
  readonly requireAlias: boolean;
  /** True when `source` is known to be valid UTF-8 already (a bulk body is checked once, not per document). */
  readonly sourceIsUtf8?: boolean;
}

export interface ShardInfo {
  total: number;
  successful: number;
  failed: number;
  /** Copies that failed the write (ReplicationResponse.ShardInfo.Failure); printed only when there are some. */
  failures?: readonly ShardReplicationFailure[];
}

export type WriteResultName = 'created' | 'updated' | 'deleted' | 'not_found' | 'noop';

export interface DocWriteSuccess {
  readonly kind: 'success';
  readonly op: OpType;
  readonly index: string;
  readonly id: string;
  readonly version: number;
  readonly result: WriteResultName;
  readonly seqNo: number;
  readonly primaryTerm: number;
  shards: ShardInfo;
  forcedRefresh: boolean;
  /** The update API's `get` block (when `_source` was asked for). */
  readonly get?: Record<string, unknown>;
  /** The routing the document was written with (for the Location header). */
  readonly routing: string | undefined;
}

export interface DocWriteFailure {
  readonly kind: 'failure';
  readonly op: OpType;
  readonly index: string | undefined;
  readonly id: string | undefined;
  readonly error: EsError;
}

export type DocWriteOutcome = DocWriteSuccess | DocWriteFailure;

/** The HTTP status of a successful write (DocWriteResponse.status()). */
export function successStatus(success: DocWriteSuccess): number {
  if (success.result === 'created') return 201;
  if (success.result === 'not_found') return 404;
  return 200;
}
