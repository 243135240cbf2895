/**
 * What travels from a primary to the other copies of its shard: the operations it sequenced (index with the
 * source bytes as received, delete, no-op), each with its seqNo, primary term and version, never the request
 * that produced them (an update is replicated as the index or delete it became, so it is never run twice).
 * Serializable values for the transport; the translog's own operations have the same shape, so peer
 * recovery sends translog history as it is.
 */
import type { TranslogOperation } from '../../engine/index.js';
import { column, isRecordColumns, toColumns, type RecordColumns } from '../../transport/index.js';
import type { RetentionLeasesView } from './retention-leases.js';

export type ReplicatedOperation =
  | {
      readonly type: 'index';
      readonly id: string;
      readonly seqNo: number;
      readonly primaryTerm: number;
      readonly version: number;
      readonly source: Uint8Array;
      readonly routing?: string;
    }
  | { readonly type: 'delete'; readonly id: string; readonly seqNo: number; readonly primaryTerm: number; readonly version: number }
  | { readonly type: 'noop'; readonly seqNo: number; readonly primaryTerm: number; readonly reason: string };

/** `indices:data/write/bulk[s][r]`: a shard request's operations for one replica. */
export interface ReplicaRequest {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  /** The copy this is for: a request meant for another allocation of the shard is refused. */
  readonly targetAllocationId: string;
  readonly primaryTerm: number;
  /** The primary's global checkpoint, sampled before the replication group was read. */
  readonly globalCheckpoint: number;
  /** As columns on the wire (operationsToWire); a plain array is accepted too. */
  readonly operations: WireOperations;
  /** `refresh=true|wait_for` runs on every copy. */
  readonly refresh: 'none' | 'immediate' | 'wait_for';
}

/** What a copy answers to a replica request, a global checkpoint sync or a batch of recovery operations. */
export interface ReplicaResponse {
  /** Persisted (fsynced) local checkpoint. */
  readonly localCheckpoint: number;
  readonly globalCheckpoint: number;
  /** The lowest seqNo this copy would ask for after a restart (its persisted global checkpoint + 1: a restart replays its own translog up to there). */
  readonly retainFromSeqNo: number;
}

export const REPLICA_ACTION = 'indices:data/write/bulk[s][r]';
export const GLOBAL_CHECKPOINT_SYNC_ACTION = 'indices:admin/seq_no/global_checkpoint_sync[r]';

/** `indices:admin/seq_no/global_checkpoint_sync[r]`: the primary's global checkpoint when no write carries it. */
export interface GlobalCheckpointSyncRequest {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly targetAllocationId: string;
  readonly primaryTerm: number;
  readonly globalCheckpoint: number;
  /** The primary's retention leases (ES syncs them to every copy; here they ride on this sync). */
  readonly retentionLeases?: RetentionLeasesView;
}

/** A logged operation as it travels to another copy (peer recovery's history, a promoted primary's resync). */
export function replicatedFromTranslog(operation: TranslogOperation): ReplicatedOperation {
  if (operation.type === 'index') {
    return { type: 'index', id: operation.id, seqNo: operation.seqNo, primaryTerm: operation.primaryTerm, version: operation.version, source: operation.source, routing: operation.routing };
  }
  if (operation.type === 'delete') return { type: 'delete', id: operation.id, seqNo: operation.seqNo, primaryTerm: operation.primaryTerm, version: operation.version };
  return { type: 'noop', seqNo: operation.seqNo, primaryTerm: operation.primaryTerm, reason: operation.reason };
}

/** Operations as a replica request carries them: columns (operationsToWire), or a plain array. */
export type WireOperations = readonly ReplicatedOperation[] | RecordColumns;

const OPERATION_KEYS = ['type', 'id', 'seqNo', 'primaryTerm', 'version', 'source', 'routing', 'reason'] as const;
type AnyOperationKey = (typeof OPERATION_KEYS)[number];

/** Operations as columns: one array per field instead of a map per operation (record-columns.ts says why). */
export function operationsToWire(operations: readonly ReplicatedOperation[]): RecordColumns {
  return toColumns(operations as readonly Partial<Record<AnyOperationKey, unknown>>[], OPERATION_KEYS);
}

/** The operations of a replica request, whichever form it arrived in, rebuilt one shape per type. */
export function operationsFromWire(wire: WireOperations): ReplicatedOperation[] {
  if (!isRecordColumns(wire)) return wire as ReplicatedOperation[];
  const [types, ids, seqNos, terms, versions, sources, routings, reasons] = OPERATION_KEYS.map((key) => column(wire, key));
  const operations: ReplicatedOperation[] = new Array(wire.count);
  for (let i = 0; i < wire.count; i++) {
    const type = types![i];
    const seqNo = seqNos![i] as number;
    const primaryTerm = terms![i] as number;
    if (type === 'index') {
      operations[i] = { type, id: ids![i] as string, seqNo, primaryTerm, version: versions![i] as number, source: sources![i] as Uint8Array, routing: routings![i] as string | undefined };
    } else if (type === 'delete') {
      operations[i] = { type, id: ids![i] as string, seqNo, primaryTerm, version: versions![i] as number };
    } else if (type === 'noop') {
      operations[i] = { type, seqNo, primaryTerm, reason: reasons![i] as string };
    } else {
      throw new TypeError(`unknown replicated operation type [${String(type)}]`);
    }
  }
  return operations;
}
