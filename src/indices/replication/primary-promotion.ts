/**
 * A replica the master promoted to primary (ES's IndexShard.updateShardState promotion branch, then
 * PrimaryReplicaSyncer), started by the cluster layer when an applied state names this copy the primary under a
 * newer primary term (cluster/routing/primary-promotion.ts raised it):
 *
 * 1. inside an operation-permit block (no write of the old primary is half-applied here, none of the new one
 *    starts): the translog rolls to the new term, every seqNo the copy never received between its local
 *    checkpoint and its highest seqNo becomes a no-op under the new term (fillSeqNoGaps: without it the local
 *    and global checkpoints could never pass the hole the old primary left), and the tracker enters primary mode
 *    with the checkpoints it learned from the master's in-sync set;
 * 2. then, with writes already accepted again (operations apply by seqNo, so order does not matter), the
 *    **resync**: every other tracked copy is sent this copy's operations above the global checkpoint, under the
 *    new term. A copy that sees the new term and holds operations above the global checkpoint that this primary
 *    may not have refuses and is failed (replica-apply.ts: it recovers from this primary instead, which is the
 *    rollback); a copy that cannot be resynced is failed through the master (marked stale) like any copy that
 *    misses a write; in-sync ids without a routing entry (the old primary's, its node gone) are marked stale.
 *
 * Why the new primary can keep everything it has: it was in sync, so it holds every acknowledged operation (the
 * old primary acknowledged only what every in-sync copy had fsynced); operations above the global checkpoint
 * that it holds and others lack were never acknowledged or are acknowledged and held here, and the resync makes
 * every remaining copy hold exactly them.
 */
import { EsError, toEsError } from '../../common/errors.js';
import type { IndexShard } from '../index-shard.js';
import { otherCopies } from './replication-group.js';
import { operationsToWire, REPLICA_ACTION, replicatedFromTranslog, type ReplicaRequest, type ReplicaResponse, type ReplicatedOperation } from './replicated-operation.js';
import type { ReplicationServices } from './replication-services.js';
import { failCopy, markUnavailableCopiesStale, recordReplicaResponse } from './replication-operation.js';
import { peerRecoveryLeaseId } from './retention-leases.js';
import { scheduleGlobalCheckpointSync } from './global-checkpoint-sync.js';

/** How long a promotion waits for the old term's operations on this copy to finish. */
const PROMOTION_WAIT_MILLIS = 30 * 60_000;
const RESYNC_BATCH_OPERATIONS = 512;
const RESYNC_BATCH_BYTES = 512 * 1024;
const RESYNC_REQUEST_TIMEOUT_MILLIS = 120_000;

/**
 * Promotes `shard` to primary under `newTerm` (once: a second call while one runs shares it). Resolves when the
 * copy is in primary mode; the resync runs on in the background (`shard.resync`). `formerPrimaryNodeId`: the node of
 * the primary this copy followed, which gets a retention lease (see there).
 */
export function promoteToPrimary(shard: IndexShard, services: ReplicationServices, newTerm: number, formerPrimaryNodeId?: string): Promise<void> {
  if (shard.promotion !== undefined) return shard.promotion;
  const started = Date.now();
  // blockOperations raises its block synchronously, so writes routed here by the same state wait for step 1.
  const promotion = shard.permits
    .blockOperations(PROMOTION_WAIT_MILLIS, async () => {
      if (shard.state === 'closed' || shard.tracker.isPrimaryMode) return false;
      const engine = shard.replicationEngine;
      if (newTerm > shard.operationPrimaryTerm) {
        await engine.bumpPrimaryTerm(newTerm);
        shard.operationPrimaryTerm = newTerm;
      }
      const filled = await engine.fillSeqNoGaps(shard.operationPrimaryTerm);
      // As ES: a new primary cannot tell which of the operations it holds were updates, so every one counts as one
      // for the copies it now feeds (decision 0033).
      engine.advanceMaxSeqNoOfUpdatesOrDeletes(engine.maxSeqNo);
      shard.setRoutingPrimary(true);
      shard.tracker.activatePrimaryMode(engine.persistedLocalCheckpoint);
      shard.syncGlobalCheckpointToEngine();
      // Leases for the copies that stay, so their later recoveries can be operations-based from here.
      const from = shard.tracker.knownGlobalCheckpoint + 1;
      for (const copy of otherCopies(shard.replicationGroup ?? emptyGroup, shard.allocationId)) shard.leases.addOrRenew(peerRecoveryLeaseId(copy.nodeId), Math.max(0, from), Date.now());
      // None for this node: a Gannet primary keeps no lease for itself (decision 0027), and nothing renews one. A
      // lease here stayed at the promotion's seqNo for its 12 h period, and every flush kept the translog from there.
      // And for the former primary's node: ES's promoted replica holds every lease its primary synced to it, the
      // primary's own among them, so the master gives the old primary's copy back to its node when that node
      // returns (ReplicaShardAllocator: a lease means an operations-based recovery) instead of copying every file
      // to whichever node weighs least. The lease only steers placement and keeps history from here on; the
      // recovery source still checks that the history the copy asks for is there (else it copies files).
      if (formerPrimaryNodeId !== undefined && formerPrimaryNodeId !== services.localNodeId) {
        shard.leases.addOrRenew(peerRecoveryLeaseId(formerPrimaryNodeId), Math.max(0, from), Date.now());
      }
      services.logger.info(
        { event: 'primary_promoted', shard: shard.label, primary_term: shard.operationPrimaryTerm, global_checkpoint: shard.tracker.knownGlobalCheckpoint, max_seq_no: engine.maxSeqNo, gaps_filled: filled, took_ms: Date.now() - started },
        `${shard.label} promoted to primary in term [${shard.operationPrimaryTerm}]`,
      );
      return true;
    })
    .then((promoted) => {
      if (promoted) shard.resync = resyncReplicas(shard, services).catch((err) => services.logger.warn({ err: toEsError(err), shard: shard.label }, 'primary-replica resync failed'));
    })
    .finally(() => {
      shard.promotion = undefined;
    });
  shard.promotion = promotion;
  return promotion;
}

const emptyGroup = { stateVersion: -1, primaryTerm: 0, inSyncAllocationIds: [], copies: [], unassignedCopies: 0, allStarted: true };

/**
 * ES's PrimaryReplicaSyncer: the operations above the global checkpoint to every other tracked copy, in batches,
 * under this primary's term. Every copy gets at least one (possibly empty) request, so each learns the new term
 * and rolls back if it must. Resolves with the number of operations sent per copy.
 */
export async function resyncReplicas(shard: IndexShard, services: ReplicationServices): Promise<number> {
  const group = shard.replicationGroup;
  if (group === undefined || !shard.isPrimaryMode) return 0;
  const primaryTerm = shard.operationPrimaryTerm;
  const globalCheckpoint = shard.tracker.knownGlobalCheckpoint;
  const fromSeqNo = globalCheckpoint + 1;
  const staleMarks = markUnavailableCopiesStale(shard, services, group);
  const complete = await shard.replicationEngine.hasCompleteHistory(fromSeqNo);
  const batches = complete ? await readBatches(shard, fromSeqNo) : [];
  const targets = new Set(shard.tracker.replicationTargets());
  const started = Date.now();
  const operations = batches.reduce((sum, batch) => sum + batch.length, 0);
  await Promise.all(
    otherCopies(group, shard.allocationId)
      .filter((copy) => targets.has(copy.allocationId))
      .map(async (copy) => {
        try {
          if (!complete) throw new EsError('illegal_state_exception', `${shard.label} no longer holds every operation above the global checkpoint [${globalCheckpoint}] to resync [${copy.allocationId}]`);
          if (copy.node === undefined) throw new EsError('node_not_connected_exception', `[${copy.nodeId}] node is not in the cluster`);
          for (const batch of batches.length === 0 ? [[]] : batches) {
            const request: ReplicaRequest = {
              index: shard.indexName,
              indexUuid: shard.indexUuid,
              shard: shard.shardId,
              targetAllocationId: copy.allocationId,
              primaryTerm,
              globalCheckpoint,
              maxSeqNoOfUpdatesOrDeletes: shard.replicationEngine.maxSeqNoOfUpdatesOrDeletes,
              operations: operationsToWire(batch),
              refresh: 'none',
            };
            const response = (await services.send(copy.node, REPLICA_ACTION, request, { timeoutMillis: RESYNC_REQUEST_TIMEOUT_MILLIS })) as ReplicaResponse;
            recordReplicaResponse(shard, copy.allocationId, copy.nodeId, response);
          }
        } catch (err) {
          const error = toEsError(err);
          if (error.type === 'shard_not_found_exception' || error.type === 'index_not_found_exception') return;
          await failCopy(shard, services, copy.allocationId, primaryTerm, `primary-replica resync to replica ${shard.label} on node [${copy.nodeId}] failed`, error).catch(() => undefined);
        }
      }),
  );
  await staleMarks;
  scheduleGlobalCheckpointSync(shard, services);
  services.logger.info(
    { event: 'primary_replica_resync', shard: shard.label, primary_term: primaryTerm, from_seq_no: fromSeqNo, operations, copies: targets.size, took_ms: Date.now() - started },
    `${shard.label} primary-replica resync completed with [${operations}] operations`,
  );
  return operations;
}

async function readBatches(shard: IndexShard, fromSeqNo: number): Promise<ReplicatedOperation[][]> {
  const batches: ReplicatedOperation[][] = [];
  let batch: ReplicatedOperation[] = [];
  let bytes = 0;
  const seen = new Set<number>();
  const snapshot = shard.replicationEngine.historySnapshot(fromSeqNo);
  try {
    for await (const operation of snapshot) {
      // A translog may hold a seqNo twice (an operation replayed by recovery and replicated live): send it once.
      if (operation.seqNo < fromSeqNo || seen.has(operation.seqNo)) continue;
      seen.add(operation.seqNo);
      batch.push(replicatedFromTranslog(operation));
      bytes += operation.type === 'index' ? operation.source.length + 64 : 64;
      if (batch.length >= RESYNC_BATCH_OPERATIONS || bytes >= RESYNC_BATCH_BYTES) {
        batches.push(batch);
        batch = [];
        bytes = 0;
      }
    }
  } finally {
    await snapshot.close();
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
