/**
 * The peer recovery protocol between a recovering copy (target) and its shard's primary (source), with ES's
 * action names. The target asks once (`start_recovery`) and waits; the source drives the rest by calling the
 * target: file metadata, file chunks, moving the files into place, opening the engine, batches of history,
 * finalize, and for a relocating primary the handoff of the primary context. The source answers
 * `start_recovery` when the copy is in sync (docs/decisions/0012-replication-and-retention.md).
 */
import type { RecoveryNode } from '../recovery-state.js';
import type { CopyCheckpoint } from '../replication/replication-tracker.js';
import type { RetentionLease } from '../replication/retention-leases.js';
import type { WireOperations } from '../replication/replicated-operation.js';

export const START_RECOVERY_ACTION = 'internal:index/shard/recovery/start_recovery';
export const FILES_INFO_ACTION = 'internal:index/shard/recovery/filesInfo';
export const FILE_CHUNK_ACTION = 'internal:index/shard/recovery/file_chunk';
export const CLEAN_FILES_ACTION = 'internal:index/shard/recovery/clean_files';
export const PREPARE_TRANSLOG_ACTION = 'internal:index/shard/recovery/prepare_translog';
export const TRANSLOG_OPS_ACTION = 'internal:index/shard/recovery/translog_ops';
export const FINALIZE_ACTION = 'internal:index/shard/recovery/finalize';
export const HANDOFF_PRIMARY_CONTEXT_ACTION = 'internal:index/shard/recovery/handoff_primary_context';

export interface StartRecoveryRequest {
  readonly recoveryId: string;
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly targetAllocationId: string;
  readonly targetNode: RecoveryNode & { readonly address: string };
  /** The first seqNo an operations-based recovery would replay (the target's safe commit + 1), or -2 (none). */
  readonly startingSeqNo: number;
  /** The history the target's store belongs to (absent for an empty store). */
  readonly historyUUID: string | undefined;
  /** The target is the relocation target of this primary: the primary context is handed over at the end. */
  readonly primaryRelocation: boolean;
}

export interface StartRecoveryResponse {
  readonly fileBased: boolean;
  readonly filesCopied: number;
  readonly bytesCopied: number;
  readonly operations: number;
  readonly tookMillis: number;
}

export interface FilesInfoRequest {
  readonly recoveryId: string;
  readonly files: ReadonlyArray<{ readonly name: string; readonly length: number }>;
}

export interface FileChunkRequest {
  readonly recoveryId: string;
  readonly name: string;
  readonly position: number;
  readonly data: Uint8Array;
  readonly lastChunk: boolean;
  /** Milliseconds the source waited on its rate limit before sending this chunk. */
  readonly sourceThrottleMillis: number;
}

export interface CleanFilesRequest {
  readonly recoveryId: string;
  /** The commit point file (`segments_N`) the copied files belong to. */
  readonly commitName: string;
}

export interface PrepareTranslogRequest {
  readonly recoveryId: string;
  readonly totalOperations: number;
  readonly globalCheckpoint: number;
  /** The primary term the copy's operations run under. */
  readonly primaryTerm: number;
}

export interface TranslogOpsRequest {
  readonly recoveryId: string;
  /** One byte string (operationsToWire), as a replica request carries them. */
  readonly operations: WireOperations;
  readonly totalOperations: number;
  readonly globalCheckpoint: number;
  /** The primary's max seqNo of updates and deletes, sampled after these operations were read (decision 0033). */
  readonly maxSeqNoOfUpdatesOrDeletes?: number;
}

export interface FinalizeRequest {
  readonly recoveryId: string;
  readonly globalCheckpoint: number;
}

export interface HandoffPrimaryContextRequest {
  readonly recoveryId: string;
  readonly globalCheckpoint: number;
  readonly checkpoints: Array<[string, CopyCheckpoint]>;
  readonly appliedStateVersion: number;
  readonly leases: RetentionLease[];
}
