/**
 * The primary's side of a peer recovery (ES's RecoverySourceHandler), run for one `start_recovery` request:
 *
 * 1. wait until this primary has applied the cluster state that names the recovering copy (it must be in the
 *    replication group to be tracked);
 * 2. decide: operations-based when the copy's store belongs to this history (same history uuid), its safe
 *    commit gives a starting seqNo, and the translog still holds every operation from there; else file-based;
 * 3. a retention lease for the copy's node keeps that history while the recovery runs (and after);
 * 4. file-based: flush, hold the commit, send its files in chunks under the node's rate limit
 *    (`indices.recovery.max_bytes_per_sec`), and have the target move them into place;
 * 5. the target opens its engine on those files (or its own store) with an empty translog; then it is
 *    *tracked*: every write from now on is sent to it as well;
 * 6. history from the starting seqNo (a snapshot taken after tracking began, so every operation is either in it
 *    or replicated live, or both; duplicates are harmless, applied by seqNo) is sent in batches;
 * 7. finalize: the copy's global checkpoint is set and it is marked in sync once its local checkpoint reached the
 *    global checkpoint; the target then reports itself started to the master;
 * 8. a relocating primary then hands its primary context to the target, with every write blocked meanwhile:
 *    writes after that are forwarded to the new primary.
 */
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { replicationErrors, toEsError } from '../../common/errors.js';
import type { IndexShard } from '../index-shard.js';
import type { IndicesService } from '../indices-service.js';
import { peerRecoveryLeaseId } from '../replication/retention-leases.js';
import { recordReplicaResponse } from '../replication/replication-operation.js';
import { operationsToWire, replicatedFromTranslog, type ReplicaResponse, type ReplicatedOperation } from '../replication/replicated-operation.js';
import type { ReplicationServices } from '../replication/replication-services.js';
import { scheduleGlobalCheckpointSync } from '../replication/global-checkpoint-sync.js';
import type { TransportNode } from '../../transport/index.js';
import {
  CLEAN_FILES_ACTION,
  FILE_CHUNK_ACTION,
  FILES_INFO_ACTION,
  FINALIZE_ACTION,
  HANDOFF_PRIMARY_CONTEXT_ACTION,
  PREPARE_TRANSLOG_ACTION,
  TRANSLOG_OPS_ACTION,
  type FileChunkRequest,
  type StartRecoveryRequest,
  type StartRecoveryResponse,
} from './recovery-messages.js';
import type { RecoveryRateLimiter } from './rate-limiter.js';
import { sendFileChunks } from './file-chunk-sender.js';
import { FILE_CHUNK_BYTES, type RecoverySettings } from './recovery-settings.js';

/** A batch of history: up to this many bytes of sources (ES's 512kb) or operations. */
const OPS_BATCH_BYTES = 512 * 1024;
const OPS_BATCH_COUNT = 1000;
/** Batches of history sent before the first answer is awaited. */
const CONCURRENT_OPS_BATCHES = 2;
/** How long the primary waits to apply the state that names the copy (ES delays and the target retries). */
const WAIT_FOR_TARGET_MILLIS = 30_000;
const HANDOFF_WAIT_MILLIS = 30 * 60_000;
const TARGET_REQUEST_TIMEOUT_MILLIS = 120_000;

export async function runRecoverySource(
  indices: IndicesService,
  services: ReplicationServices,
  limiter: RecoveryRateLimiter,
  settings: RecoverySettings,
  request: StartRecoveryRequest,
): Promise<StartRecoveryResponse> {
  const started = Date.now();
  // Taken once per recovery, as ES's RecoverySourceHandler takes it when it is created.
  const maxConcurrentChunks = settings.maxConcurrentFileChunks();
  const shard = await primaryNamingTarget(indices, services, request);
  const engine = shard.replicationEngine;
  const target: TransportNode = { id: request.targetNode.id, name: request.targetNode.name, address: request.targetNode.address };
  const send = (action: string, body: unknown): Promise<unknown> => services.send(target, action, body, { timeoutMillis: TARGET_REQUEST_TIMEOUT_MILLIS });
  const leaseId = peerRecoveryLeaseId(request.targetNode.id);

  const sameHistory = request.historyUUID === engine.historyUUID;
  const retained = request.startingSeqNo >= 0 && sameHistory ? await engine.historyFrom(request.startingSeqNo) : undefined;
  const opsBased = retained?.complete === true;
  // ES logs its choice at trace; a file copy where operations were hoped for is worth a line an operator can find.
  const why = opsBased
    ? `operations-based from seqNo [${request.startingSeqNo}]`
    : request.startingSeqNo < 0
      ? 'file-based: the copy has no safe commit'
      : !sameHistory
        ? 'file-based: the copy belongs to another history'
        : `file-based: history from seqNo [${request.startingSeqNo}] is no longer retained`;
  services.logger.info(
    { event: 'peer_recovery_start', index: request.index, shard: request.shard, target: request.targetNode.id, starting_seq_no: request.startingSeqNo, operations_based: opsBased },
    `[${request.index}][${request.shard}] peer recovery to [${request.targetNode.name}]: ${why}`,
  );
  let startingSeqNo = request.startingSeqNo;
  let filesCopied = 0;
  let bytesCopied = 0;
  if (opsBased) {
    shard.leases.addOrRenew(leaseId, startingSeqNo, Date.now(), true);
    shard.maintainLeases();
  } else {
    // Keep history from the current commit on before the flush below replaces it.
    shard.leases.addOrRenew(leaseId, engine.lastCommitLocalCheckpoint + 1, Date.now(), true);
    shard.maintainLeases();
    const commit = await engine.acquireLastCommit(true);
    try {
      startingSeqNo = commit.commit.userData.localCheckpoint + 1;
      shard.leases.addOrRenew(leaseId, startingSeqNo, Date.now(), true);
      shard.maintainLeases();
      // The lengths on disk (the commit holds the files, so they cannot change or go while it is held).
      const directory = join(shard.path, 'index');
      const files = await Promise.all(commit.files.map(async (file) => ({ name: file.name, length: (await stat(join(directory, file.name))).size })));
      await send(FILES_INFO_ACTION, { recoveryId: request.recoveryId, files });
      const copied = await sendFiles(directory, files, request.recoveryId, limiter, maxConcurrentChunks, send);
      filesCopied = files.length;
      bytesCopied = copied;
      const commitName = files[files.length - 1]!.name;
      await send(CLEAN_FILES_ACTION, { recoveryId: request.recoveryId, commitName });
    } finally {
      commit.release();
    }
  }

  const filesDone = Date.now();
  // The count of an operations-based recovery came with the decision; after a file copy, history from its commit.
  const totalOperations = opsBased ? retained!.operations : (await engine.historyFrom(startingSeqNo)).operations;
  await send(PREPARE_TRANSLOG_ACTION, {
    recoveryId: request.recoveryId,
    totalOperations,
    globalCheckpoint: shard.tracker.knownGlobalCheckpoint,
    primaryTerm: shard.operationPrimaryTerm,
  });
  // From here on every write is sent to the copy too; the history snapshot below is taken after this.
  shard.tracker.initiateTracking(request.targetAllocationId);
  const prepared = Date.now();
  const operations = await sendHistory(shard, startingSeqNo, totalOperations, request, send);
  const historySent = Date.now();

  const finalized = (await send(FINALIZE_ACTION, { recoveryId: request.recoveryId, globalCheckpoint: shard.tracker.knownGlobalCheckpoint })) as ReplicaResponse;
  recordReplicaResponse(shard, request.targetAllocationId, request.targetNode.id, finalized);
  await shard.tracker.markInSync(request.targetAllocationId, finalized.localCheckpoint);
  scheduleGlobalCheckpointSync(shard, services);

  if (request.primaryRelocation) await handOff(shard, request, send);
  const done = Date.now();
  // ES traces each phase's time; one line per recovery says where a slow one spent it.
  services.logger.info(
    {
      event: 'peer_recovery_done',
      index: request.index,
      shard: request.shard,
      target: request.targetNode.id,
      files_millis: filesDone - started,
      prepare_translog_millis: prepared - filesDone,
      history_millis: historySent - prepared,
      finalize_millis: done - historySent,
      starting_seq_no: startingSeqNo,
      files: filesCopied,
      operations,
    },
    `[${request.index}][${request.shard}] peer recovery to [${request.targetNode.name}] done in [${done - started}ms]: files [${filesDone - started}ms] (${filesCopied} files, ${bytesCopied} bytes), ` +
      `prepare translog [${prepared - filesDone}ms], history [${historySent - prepared}ms] (${operations} operations), finalize [${done - historySent}ms]`,
  );
  return { fileBased: !opsBased, filesCopied, bytesCopied, operations, tookMillis: done - started };
}

/** The local primary once it has applied a state in which the copy is part of the shard's group. */
async function primaryNamingTarget(indices: IndicesService, services: ReplicationServices, request: StartRecoveryRequest): Promise<IndexShard> {
  const deadline = Date.now() + WAIT_FOR_TARGET_MILLIS;
  for (;;) {
    const service = indices.indexService(request.index);
    if (service === undefined || service.uuid !== request.indexUuid) throw replicationErrors.shardNotFound(request.index, request.indexUuid, request.shard);
    const shard = service.shards.get(request.shard);
    if (shard === undefined || shard.state !== 'started') throw replicationErrors.shardNotFound(request.index, request.indexUuid, request.shard, 'no started primary on this node');
    if (!shard.isPrimaryMode) throw replicationErrors.notInPrimaryMode(request.index, request.indexUuid, request.shard, shard.relocated ? 'RELOCATED' : 'STARTED');
    if (shard.tracker.checkpoint(request.targetAllocationId) !== undefined) return shard;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw replicationErrors.delayRecovery(`source node does not have the shard listed in its state as allocated on the node [${request.targetNode.id}]`);
    }
    await services.waitForNewerState(Math.min(remaining, 1000));
  }
}

/** Sends every file of the commit (file-chunk-sender.ts), read from the shard's `index` folder. */
async function sendFiles(
  directory: string,
  files: ReadonlyArray<{ name: string; length: number }>,
  recoveryId: string,
  limiter: RecoveryRateLimiter,
  maxConcurrentChunks: number,
  send: (action: string, body: unknown) => Promise<unknown>,
): Promise<number> {
  const { bytes } = await sendFileChunks({
    files,
    chunkBytes: FILE_CHUNK_BYTES,
    maxConcurrentChunks,
    limiter,
    openFile: async (name) => {
      const handle = await open(join(directory, name), 'r');
      return {
        read: async (buffer, position) => (await handle.read(buffer, 0, buffer.length, position)).bytesRead,
        close: () => handle.close(),
      };
    },
    sendChunk: (chunk) => {
      const request: FileChunkRequest = {
        recoveryId,
        name: chunk.name,
        position: chunk.position,
        data: chunk.data,
        lastChunk: chunk.lastChunk,
        sourceThrottleMillis: chunk.throttleMillis,
      };
      return send(FILE_CHUNK_ACTION, request);
    },
  });
  return bytes;
}

/**
 * Sends history from `fromSeqNo` in batches, two in flight (the target applies operations by seqNo, in any
 * order): the source reads and encodes the next batch while the target parses, indexes and fsyncs the last.
 */
async function sendHistory(
  shard: IndexShard,
  fromSeqNo: number,
  totalOperations: number,
  request: StartRecoveryRequest,
  send: (action: string, body: unknown) => Promise<unknown>,
): Promise<number> {
  let sent = 0;
  let batch: ReplicatedOperation[] = [];
  let batchBytes = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const flushBatch = async (): Promise<void> => {
    if (batch.length === 0) return;
    const operations = batch;
    batch = [];
    batchBytes = 0;
    const sending = (async () => {
      const response = (await send(TRANSLOG_OPS_ACTION, {
        recoveryId: request.recoveryId,
        operations: operationsToWire(operations),
        totalOperations: Math.max(totalOperations, sent),
        globalCheckpoint: shard.tracker.knownGlobalCheckpoint,
        // Read after these operations were: any update or delete among them is at or below it (decision 0033).
        maxSeqNoOfUpdatesOrDeletes: shard.replicationEngine.maxSeqNoOfUpdatesOrDeletes,
      })) as ReplicaResponse;
      recordReplicaResponse(shard, request.targetAllocationId, request.targetNode.id, response);
    })().catch((err: unknown) => {
      failure ??= err;
    });
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
    if (inFlight.size >= CONCURRENT_OPS_BATCHES) await Promise.race(inFlight);
    if (failure !== undefined) throw failure;
  };
  const snapshot = shard.replicationEngine.historySnapshot(fromSeqNo);
  try {
    for await (const operation of snapshot) {
      if (operation.seqNo < fromSeqNo) continue;
      batch.push(replicatedFromTranslog(operation));
      sent++;
      batchBytes += operation.type === 'index' ? operation.source.length + 64 : 64;
      if (batchBytes >= OPS_BATCH_BYTES || batch.length >= OPS_BATCH_COUNT) await flushBatch();
    }
    await flushBatch();
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
  } catch (err) {
    throw toEsError(err);
  } finally {
    await Promise.all(inFlight);
    await snapshot.close();
  }
  return sent;
}


/**
 * Primary relocation's handoff (ES's relocated()): with every write of this primary finished and new ones
 * waiting, the target receives the checkpoints of every copy and the leases and enters primary mode; this copy
 * leaves primary mode, so the writes that were waiting (and every later one) are forwarded to the target.
 */
async function handOff(shard: IndexShard, request: StartRecoveryRequest, send: (action: string, body: unknown) => Promise<unknown>): Promise<void> {
  await shard.permits.blockOperations(HANDOFF_WAIT_MILLIS, async () => {
    const context = shard.tracker.primaryContext();
    await send(HANDOFF_PRIMARY_CONTEXT_ACTION, { recoveryId: request.recoveryId, ...context, leases: shard.leases.list() });
    shard.relocated = true;
    shard.relocatedTo = request.targetAllocationId;
    shard.tracker.deactivatePrimaryMode();
  });
}
