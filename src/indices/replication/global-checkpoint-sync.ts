/**
 * Brings the copies' global checkpoint up to date when no write carries it (ES's GlobalCheckpointSyncAction,
 * run after operations when copies lag behind): a replica persists it in its translog checkpoint, which is what
 * lets a restarted copy prove its last commit holds only history every in-sync copy has (a safe commit) and so
 * recover by operations. It runs once writes pause for SYNC_DELAY_MILLIS, and under writes that never pause at
 * least every MAX_SYNC_DELAY_MILLIS: while writes flow, each replica request already carries the global checkpoint
 * and the copy persists it with that request's fsync, so a sync every 100 ms under a bulk load only added a
 * translog fsync on every copy and a round trip (ten a second) to what the bulk pays (decision 0018).
 */
import { toEsError } from '../../common/errors.js';
import type { IndexShard } from '../index-shard.js';
import { otherCopies } from './replication-group.js';
import { GLOBAL_CHECKPOINT_SYNC_ACTION, type GlobalCheckpointSyncRequest, type ReplicaResponse } from './replicated-operation.js';
import type { ReplicationServices } from './replication-services.js';
import { recordReplicaResponse } from './replication-operation.js';

/** Quiet time after the last write before the sync runs. */
const SYNC_DELAY_MILLIS = 100;
/** The longest a sync waits for writes to pause (the retention leases ride on it too). */
const MAX_SYNC_DELAY_MILLIS = 1000;

export function scheduleGlobalCheckpointSync(shard: IndexShard, services: ReplicationServices): void {
  if (!shard.isPrimaryMode || shard.replicationGroup === undefined || shard.state === 'closed') return;
  if (shard.tracker.copiesBehindGlobalCheckpoint().length === 0) return;
  const now = Date.now();
  const deadline = (shard.globalCheckpointSyncDeadline ??= now + MAX_SYNC_DELAY_MILLIS);
  if (shard.globalCheckpointSyncTimer !== undefined) clearTimeout(shard.globalCheckpointSyncTimer);
  shard.globalCheckpointSyncTimer = setTimeout(
    () => {
      shard.globalCheckpointSyncTimer = undefined;
      shard.globalCheckpointSyncDeadline = undefined;
      void syncGlobalCheckpoint(shard, services);
    },
    Math.max(0, Math.min(SYNC_DELAY_MILLIS, deadline - now)),
  );
  shard.globalCheckpointSyncTimer.unref();
}

async function syncGlobalCheckpoint(shard: IndexShard, services: ReplicationServices): Promise<void> {
  const group = shard.replicationGroup;
  if (!shard.isPrimaryMode || group === undefined || shard.state === 'closed') return;
  const behind = new Set(shard.tracker.copiesBehindGlobalCheckpoint());
  const globalCheckpoint = shard.tracker.knownGlobalCheckpoint;
  try {
    // The primary's own translog checkpoint first: its copy of the global checkpoint is then durable too.
    await shard.replicationEngine.syncTranslog();
  } catch {
    return;
  }
  await Promise.all(
    otherCopies(group, shard.allocationId)
      .filter((copy) => behind.has(copy.allocationId) && copy.node !== undefined)
      .map(async (copy) => {
        const request: GlobalCheckpointSyncRequest = {
          index: shard.indexName,
          indexUuid: shard.indexUuid,
          shard: shard.shardId,
          targetAllocationId: copy.allocationId,
          primaryTerm: shard.operationPrimaryTerm,
          globalCheckpoint,
          retentionLeases: shard.retentionLeasesView(),
        };
        try {
          const response = (await services.send(copy.node!, GLOBAL_CHECKPOINT_SYNC_ACTION, request, { timeoutMillis: 30_000 })) as ReplicaResponse;
          recordReplicaResponse(shard, copy.allocationId, copy.nodeId, response);
        } catch (err) {
          services.logger.debug({ err: toEsError(err), shard: shard.label, allocationId: copy.allocationId }, 'global checkpoint sync failed');
        }
      }),
  );
  // The checkpoint may have moved on while the sync ran (a copy that failed waits for the next write).
  if (shard.tracker.knownGlobalCheckpoint > globalCheckpoint) scheduleGlobalCheckpointSync(shard, services);
}
