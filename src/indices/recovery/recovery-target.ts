/**
 * The recovering copy's side of a peer recovery (ES's PeerRecoveryTargetService + RecoveryTarget). `recover`
 * first recovers the copy locally (its safe commit, every operation in it at or below the global checkpoint the
 * store persisted, so history the primary has too, plus its own translog replayed up to that checkpoint), asks
 * the primary's node to recover it from there, and serves the primary's calls while it drives the recovery:
 *
 * - filesInfo / file_chunk: files arrive under temporary names (`recovery.<id>.<name>`), counted in the
 *   recovery state as they come; a file is synced in the background once its last chunk is written;
 * - clean_files: every copied file synced, the store becomes exactly the copied commit (old files deleted,
 *   temporary names renamed), which ends the index stage;
 * - prepare_translog: the engine opens that commit (or the store kept for an operations-based recovery) with a
 *   new, empty translog, and the copy joins the shard's group here in replica mode, ready for live writes;
 * - translog_ops: history applied by seqNo (alongside live writes, in any order);
 * - finalize: the global checkpoint, an fsync, the copy becomes `post_recovery` and refreshes (its first refresh
 *   since it opened: a recovering copy runs no scheduled refresh, as ES's); the primary then marks it in sync;
 * - handoff_primary_context: a relocating primary's target takes over primary mode.
 *
 * `recover` resolves when the primary answered `start_recovery` (the copy is in sync); the caller then reports
 * the copy started to the master. On failure the partial copy is closed and its temporary files removed.
 */
import { mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { EsError, replicationErrors, toEsError } from '../../common/errors.js';
import { fsyncDirectory } from '../../common/atomic-file.js';
import { randomBase64Uuid } from '../../common/uuid.js';
import { INDEX_FOLDER, prestartSegmentWorker, TRANSLOG_FOLDER } from '../../engine/index.js';
import type { TransportService, TransportNode } from '../../transport/index.js';
import type { IndexService } from '../index-service.js';
import type { IndexShard } from '../index-shard.js';
import type { IndicesService } from '../indices-service.js';
import { ShardRecoveryState, type RecoveryNode } from '../recovery-state.js';
import { acquireReplicaPermit, applyOperations, replicaResponse } from '../replication/replica-apply.js';
import { operationsFromWire } from '../replication/replicated-operation.js';
import type { ReplicationServices } from '../replication/replication-services.js';
import {
  CLEAN_FILES_ACTION,
  FILE_CHUNK_ACTION,
  FILES_INFO_ACTION,
  FINALIZE_ACTION,
  HANDOFF_PRIMARY_CONTEXT_ACTION,
  PREPARE_TRANSLOG_ACTION,
  START_RECOVERY_ACTION,
  TRANSLOG_OPS_ACTION,
  type CleanFilesRequest,
  type FileChunkRequest,
  type FilesInfoRequest,
  type FinalizeRequest,
  type HandoffPrimaryContextRequest,
  type PrepareTranslogRequest,
  type StartRecoveryRequest,
  type StartRecoveryResponse,
  type TranslogOpsRequest,
} from './recovery-messages.js';

const TEMP_PREFIX = 'recovery.';
/** How long a target keeps asking a source that is not ready yet (ES's retry_delay_state_sync, 500ms, per try). */
const RETRY_DELAY_MILLIS = 500;
const RETRY_FOR_MILLIS = 60_000;

export interface PeerRecoveryRequest {
  readonly index: string;
  readonly shard: number;
  readonly allocationId: string;
  readonly primary: boolean;
  readonly primaryTerm: number;
  /** The primary's node. */
  readonly source: TransportNode & RecoveryNode;
  /** This node. */
  readonly target: TransportNode & RecoveryNode;
  readonly primaryRelocation: boolean;
}

interface OngoingRecovery {
  readonly id: string;
  readonly request: PeerRecoveryRequest;
  readonly service: IndexService;
  readonly state: ShardRecoveryState;
  readonly indexPath: string;
  readonly handles: Map<string, FileHandle>;
  /** Files whose last chunk came: each synced and closed in the background; clean_files waits for them all. */
  readonly syncing: Array<Promise<void>>;
  shard: IndexShard | undefined;
  cancelled: boolean;
}

export class PeerRecoveryTargetService {
  private readonly ongoing = new Map<string, OngoingRecovery>();
  /** The recovery running (or last run) for each `<index>/<shard>`, which the next one of that shard waits for. */
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    private readonly indices: IndicesService,
    private readonly services: ReplicationServices,
  ) {}

  /** The transport handlers the primary calls while it drives a recovery to this node. */
  registerHandlers(transport: TransportService): void {
    transport.registerHandler(FILES_INFO_ACTION, async (body) => this.filesInfo(body as FilesInfoRequest));
    transport.registerHandler(FILE_CHUNK_ACTION, async (body) => this.fileChunk(body as FileChunkRequest));
    transport.registerHandler(CLEAN_FILES_ACTION, async (body) => this.cleanFiles(body as CleanFilesRequest));
    transport.registerHandler(PREPARE_TRANSLOG_ACTION, async (body) => this.prepareTranslog(body as PrepareTranslogRequest));
    transport.registerHandler(TRANSLOG_OPS_ACTION, async (body) => this.translogOps(body as TranslogOpsRequest));
    transport.registerHandler(FINALIZE_ACTION, async (body) => this.finalize(body as FinalizeRequest));
    transport.registerHandler(HANDOFF_PRIMARY_CONTEXT_ACTION, async (body) => this.handoff(body as HandoffPrimaryContextRequest));
  }

  /** Whether a recovery of this allocation is running here. */
  isRecovering(allocationId: string): boolean {
    for (const recovery of this.ongoing.values()) if (recovery.request.allocationId === allocationId) return true;
    return false;
  }

  /** Whether a recovery into this node's copy of the shard is running (its store is being written). */
  isRecoveringShard(index: string, shard: number): boolean {
    for (const recovery of this.ongoing.values()) if (recovery.request.index === index && recovery.request.shard === shard) return true;
    return false;
  }

  /** Stops the recoveries of a copy that no longer belongs here (the primary's next call to it fails). */
  cancel(index: string, shard: number): void {
    for (const recovery of this.ongoing.values()) if (recovery.request.index === index && recovery.request.shard === shard) recovery.cancelled = true;
  }

  /**
   * One recovery per shard directory at a time (ES holds the shard lock): a recovery of the same shard under
   * another allocation id (the copy failed and was allocated here again) waits until the last one let go of the
   * store, so two never open engines on the same files.
   */
  async recover(request: PeerRecoveryRequest): Promise<StartRecoveryResponse> {
    const key = `${request.index}/${request.shard}`;
    // A newer allocation of the shard here makes the older one's recovery moot: it stops at its next step.
    for (const recovery of this.ongoing.values()) {
      if (recovery.request.index === request.index && recovery.request.shard === request.shard && recovery.request.allocationId !== request.allocationId) recovery.cancelled = true;
    }
    const previous = this.running.get(key);
    const run = (async () => {
      await previous?.catch(() => undefined);
      return this.recoverExclusively(request);
    })();
    this.running.set(key, run);
    try {
      return await run;
    } finally {
      if (this.running.get(key) === run) this.running.delete(key);
    }
  }

  private async recoverExclusively(request: PeerRecoveryRequest): Promise<StartRecoveryResponse> {
    const service = this.indices.indexService(request.index);
    if (service === undefined) throw new Error(`index [${request.index}] is not known on this node`);
    await this.indices.waitForClose(request.index, request.shard);
    const shardPath = this.indices.shardPath(service.uuid, request.shard);
    const state = new ShardRecoveryState(request.index, request.shard, request.primary, 'PEER');
    state.sourceNode = request.source;
    state.targetNode = request.target;
    this.indices.setRecoveryState(request.index, request.shard, state);
    const recovery: OngoingRecovery = {
      id: randomBase64Uuid(),
      request,
      service,
      state,
      indexPath: join(shardPath, INDEX_FOLDER),
      handles: new Map(),
      syncing: [],
      shard: undefined,
      cancelled: false,
    };
    this.ongoing.set(recovery.id, recovery);
    try {
      // The copy's own history first: from its safe commit (only operations every in-sync copy had, at or below
      // the global checkpoint it persisted) its translog is replayed up to that checkpoint, so the primary sends
      // only what lies above it (ES's recoverLocallyUpToGlobalCheckpoint).
      const local = await this.indices.recoverLocallyUpToGlobalCheckpoint(request.index, request.shard, request.primaryTerm);
      state.recordLocalOperations(local.localOperations);
      if (recovery.cancelled) throw new EsError('illegal_state_exception', `recovery of ${label(request)} was cancelled`);
      const start: StartRecoveryRequest = {
        recoveryId: recovery.id,
        index: request.index,
        indexUuid: service.uuid,
        shard: request.shard,
        targetAllocationId: request.allocationId,
        targetNode: { ...request.target },
        startingSeqNo: local.startingSeqNo,
        historyUUID: local.historyUUID,
        primaryRelocation: request.primaryRelocation,
      };
      // A returning copy (it has a safe commit, so the primary may send it only operations) has its indexing worker
      // started while the primary prepares, not when the first history arrives (decision 0029). A new copy waits for
      // files first, and its engine starts its worker when it needs one, as before: no spare left waiting unused.
      if (local.startingSeqNo >= 0) prestartSegmentWorker();
      const response = await this.startWithRetries(request.source, start, recovery);
      const shard = recovery.shard;
      if (shard === undefined || recovery.cancelled) throw new EsError('illegal_state_exception', `recovery of ${label(request)} ended without an open copy`);
      shard.state = 'started';
      state.finishPeer();
      return response;
    } catch (err) {
      const cause = toEsError(err);
      await this.abandon(recovery);
      throw replicationErrors.recoveryFailed(request.index, request.shard, nodeLabel(request.source), nodeLabel(request.target), cause);
    } finally {
      this.ongoing.delete(recovery.id);
      await closeHandles(recovery);
    }
  }

  private async startWithRetries(source: TransportNode, start: StartRecoveryRequest, recovery: OngoingRecovery): Promise<StartRecoveryResponse> {
    const deadline = Date.now() + RETRY_FOR_MILLIS;
    for (;;) {
      try {
        return (await this.services.send(source, START_RECOVERY_ACTION, start)) as StartRecoveryResponse;
      } catch (err) {
        const error = toEsError(err);
        const notReady = error.type === 'delay_recovery_exception' || (error.type === 'shard_not_found_exception' && recovery.shard === undefined);
        if (!notReady || recovery.cancelled || Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MILLIS));
      }
    }
  }

  private async abandon(recovery: OngoingRecovery): Promise<void> {
    recovery.cancelled = true;
    if (recovery.shard !== undefined) await this.indices.closeShard(recovery.request.index, recovery.request.shard).catch(() => undefined);
    await closeHandles(recovery);
    await removeTempFiles(recovery.indexPath, `${TEMP_PREFIX}${recovery.id}.`);
  }

  private recovery(recoveryId: string): OngoingRecovery {
    const recovery = this.ongoing.get(recoveryId);
    if (recovery === undefined || recovery.cancelled) throw new EsError('illegal_state_exception', `recovery [${recoveryId}] is not running on this node`);
    return recovery;
  }

  private async filesInfo(request: FilesInfoRequest): Promise<object> {
    const recovery = this.recovery(request.recoveryId);
    await mkdir(recovery.indexPath, { recursive: true });
    // Files replace the store: what the copy replayed locally does not count any more.
    recovery.state.recordLocalOperations(0);
    recovery.state.startPeerIndexStage(request.files, false);
    return {};
  }

  private async fileChunk(request: FileChunkRequest): Promise<object> {
    const recovery = this.recovery(request.recoveryId);
    const tempName = `${TEMP_PREFIX}${recovery.id}.${request.name}`;
    let handle = recovery.handles.get(request.name);
    if (handle === undefined) {
      handle = await open(join(recovery.indexPath, tempName), 'w');
      recovery.handles.set(request.name, handle);
    }
    await handle.write(request.data, 0, request.data.length, request.position);
    recovery.state.addRecoveredBytes(request.name, request.data.length);
    recovery.state.sourceThrottleMillis += request.sourceThrottleMillis;
    if (request.lastChunk) {
      recovery.handles.delete(request.name);
      // The answer says the chunk is written, not yet durable: the file is synced in the background, and clean_files
      // waits for every sync before a copied file takes its real name, so nothing unsynced ever joins the store.
      // (ES syncs before answering; that put an fsync into the answer of every file's last chunk, and a commit's small
      // files, one chunk each, went at one fsync per slot: 5-30 ms each against a chunk's 12.5 ms at 40mb.)
      const written = handle;
      const syncing = written.sync().finally(() => written.close());
      syncing.catch(() => undefined);
      recovery.syncing.push(syncing);
    }
    return {};
  }

  /** The store becomes the copied commit: every other file goes, the temporary names become the real ones. */
  private async cleanFiles(request: CleanFilesRequest): Promise<object> {
    const recovery = this.recovery(request.recoveryId);
    await closeHandles(recovery);
    // Every copied file is on disk before any takes its real name (a failed sync fails the recovery here).
    await Promise.all(recovery.syncing);
    const prefix = `${TEMP_PREFIX}${recovery.id}.`;
    for (const name of await readdir(recovery.indexPath)) {
      if (!name.startsWith(prefix)) await rm(join(recovery.indexPath, name), { force: true });
    }
    for (const name of await readdir(recovery.indexPath)) {
      if (name.startsWith(prefix)) await rename(join(recovery.indexPath, name), join(recovery.indexPath, name.slice(prefix.length)));
    }
    await fsyncDirectory(recovery.indexPath);
    // The copy's old translog belongs to another history: the engine starts a new one on the copied commit.
    await rm(join(recovery.indexPath, '..', TRANSLOG_FOLDER), { recursive: true, force: true });
    recovery.state.finishPeerIndexStage();
    return {};
  }

  private async prepareTranslog(request: PrepareTranslogRequest): Promise<object> {
    const recovery = this.recovery(request.recoveryId);
    if (recovery.state.stage === 'INIT') recovery.state.startPeerIndexStage([], true);
    const { index, shard: shardId, allocationId, primary } = recovery.request;
    recovery.shard = await this.indices.openRecoveringShard(index, shardId, {
      primary,
      primaryTerm: Math.max(recovery.request.primaryTerm, request.primaryTerm),
      allocationId,
      globalCheckpoint: request.globalCheckpoint,
    });
    if (recovery.cancelled) throw new EsError('illegal_state_exception', `recovery of ${label(recovery.request)} was cancelled`);
    recovery.state.startPeerTranslogStage(request.totalOperations);
    return {};
  }

  private async translogOps(request: TranslogOpsRequest): Promise<object> {
    const recovery = this.recovery(request.recoveryId);
    const shard = openShardOf(recovery);
    const operations = operationsFromWire(request.operations);
    const release = await acquireReplicaPermit(shard, shard.operationPrimaryTerm);
    try {
      shard.tracker.updateGlobalCheckpointOnReplica(request.globalCheckpoint);
      shard.syncGlobalCheckpointToEngine();
      await applyOperations(shard, recovery.service, this.services, operations, 'peer_recovery', request.maxSeqNoOfUpdatesOrDeletes);
      recovery.state.addRecoveredOperations(operations.length, request.totalOperations);
      return replicaResponse(shard);
    } finally {
      release();
    }
  }

  private async finalize(request: FinalizeRequest): Promise<object> {
    const recovery = this.recovery(request.recoveryId);
    const shard = openShardOf(recovery);
    recovery.state.startFinalizeStage();
    const started = performance.now();
    shard.tracker.updateGlobalCheckpointOnReplica(request.globalCheckpoint);
    shard.syncGlobalCheckpointToEngine();
    await shard.replicationEngine.syncTranslog();
    const synced = performance.now();
    // From here on the copy counts as serving reads (ES's POST_RECOVERY, decision 0029): it refreshes on schedule
    // again and a `refresh=wait_for` write waits for a refresh. Until now it ran no scheduled refresh and answered
    // such writes at once (IndexShard.waitForRefresh); every one of those is in the buffer the refresh below writes.
    if (shard.state === 'recovering') shard.state = 'post_recovery';
    // Searches may go to this copy once it is started: make what it recovered visible now. Most of a finalize's
    // time is here: the indexing worker first inverts whatever history it has not caught up with, then writes the
    // buffer as a segment (the whole history's: no scheduled refresh wrote any of it).
    await shard.refresh('recovery');
    // Its indexing workers kept the process's priority while the recovered documents went through them.
    shard.replicationEngine.recoveryFinalized?.();
    this.logFinalize(recovery, shard, synced - started, performance.now() - synced);
    return replicaResponse(shard);
  }

  /** One line per recovery on where the finalize's time went (the primary's peer_recovery_done gives the phases). */
  private logFinalize(recovery: OngoingRecovery, shard: IndexShard, syncMillis: number, refreshMillis: number): void {
    const written = shard.replicationEngine.lastBufferWrite;
    const { index, shard: shardId } = recovery.request;
    const worker = written === undefined ? '' : `; its last segment: ${written.docs} documents, inverted over [${written.invertMillis}ms], written in [${written.writeMillis}ms]`;
    this.services.logger.info(
      {
        event: 'recovery_finalize',
        index,
        shard: shardId,
        sync_millis: Math.round(syncMillis),
        refresh_millis: Math.round(refreshMillis),
        ...(written !== undefined && { segment_docs: written.docs, invert_millis: written.invertMillis, write_millis: written.writeMillis }),
      },
      `[${index}][${shardId}] recovery finalize: translog sync [${Math.round(syncMillis)}ms], refresh [${Math.round(refreshMillis)}ms]${worker}`,
    );
  }

  private async handoff(request: HandoffPrimaryContextRequest): Promise<object> {
    const recovery = this.recovery(request.recoveryId);
    const shard = openShardOf(recovery);
    for (const lease of request.leases) shard.leases.addOrRenew(lease.id, lease.retainingSeqNo, lease.timestampMillis, true);
    shard.setRoutingPrimary(true);
    // A primary from now on: what it holds counts as updated for the copies it feeds, as on a promotion (0033).
    shard.replicationEngine.advanceMaxSeqNoOfUpdatesOrDeletes(shard.replicationEngine.maxSeqNo);
    shard.tracker.activateWithPrimaryContext(request, shard.replicationEngine.persistedLocalCheckpoint);
    shard.syncGlobalCheckpointToEngine();
    shard.maintainLeases();
    return {};
  }
}

function openShardOf(recovery: OngoingRecovery): IndexShard {
  if (recovery.shard === undefined) throw new EsError('illegal_state_exception', `recovery of ${label(recovery.request)} has no open copy yet`);
  return recovery.shard;
}

function label(request: PeerRecoveryRequest): string {
  return `[${request.index}][${request.shard}]`;
}

function nodeLabel(node: RecoveryNode): string {
  return `{${node.name}}{${node.id}}{${node.transportAddress}}`;
}

async function closeHandles(recovery: OngoingRecovery): Promise<void> {
  const handles = [...recovery.handles.values()];
  recovery.handles.clear();
  await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
  // Syncs under way close their own files; a failed recovery removes its files only after they are closed.
  await Promise.all(recovery.syncing.map((syncing) => syncing.catch(() => undefined)));
}

async function removeTempFiles(directory: string, prefix: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(prefix)) await rm(join(directory, name), { force: true });
}
