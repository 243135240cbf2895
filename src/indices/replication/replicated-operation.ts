/**
 * What travels from a primary to the other copies of its shard: the operations it sequenced (index with the
 * source bytes as received, delete, no-op), each with its seqNo, primary term and version, never the request
 * that produced them (an update is replicated as the index or delete it became, so it is never run twice).
 * Serializable values for the transport; the translog's own operations have the same shape, so peer
 * recovery sends translog history as it is.
 */
import type { TranslogOperation } from '../../engine/index.js';
import { TrailingBytesBody } from '../../transport/index.js';
import { decodeOperations, encodeOperations } from './replicated-operations-codec.js';
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
  /**
   * The primary's max seqNo of updates and deletes (Engine.maxSeqNoOfUpdatesOrDeletes), sampled after it applied
   * these operations (ES's ReplicationOperation): absent, the copy looks up every id of the request.
   */
  readonly maxSeqNoOfUpdatesOrDeletes?: number;
  /** One byte string on the wire (operationsToWire); a plain array is read too. */
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

/**
 * Operations as a replica request carries them: one byte string (operationsToWire, replicated-operations-codec.ts),
 * or a plain array (a test's request). Nodes of transport version 1 sent columns (decision 0018); the handshake
 * refuses them now, so no column form is read.
 */
export type WireOperations = readonly ReplicatedOperation[] | Uint8Array;

/** Operations as one byte string: two loops over the records instead of msgpack columns (the codec's comment says why). */
export function operationsToWire(operations: readonly ReplicatedOperation[]): Uint8Array {
  return encodeOperations(operations);
}

/**
 * A replica request as it crosses a socket (the transport's `encodeRequest`): its operations' byte string is the
 * body's last value, so the frame sends it as a second chunk of the same write instead of copying it into the
 * packer's buffer (frame.ts, TrailingBytesBody). The replica reads an ordinary request.
 */
export function replicaRequestToWire(body: unknown): unknown {
  const request = body as ReplicaRequest;
  const operations = request.operations;
  if (!(operations instanceof Uint8Array)) return request;
  return new TrailingBytesBody(operations, (last) => ({
    index: request.index,
    indexUuid: request.indexUuid,
    shard: request.shard,
    targetAllocationId: request.targetAllocationId,
    primaryTerm: request.primaryTerm,
    globalCheckpoint: request.globalCheckpoint,
    maxSeqNoOfUpdatesOrDeletes: request.maxSeqNoOfUpdatesOrDeletes,
    refresh: request.refresh,
    operations: last,
  }));
}

/** The operations of a replica request, whichever form it arrived in. */
export function operationsFromWire(wire: WireOperations): ReplicatedOperation[] {
  return wire instanceof Uint8Array ? decodeOperations(wire) : (wire as ReplicatedOperation[]);
}
