/**
 * The primary's side of replicating one shard request (ES's ReplicationOperation), once the primary has
 * executed it and every operation is durable in its own translog:
 *
 * 1. sample the global checkpoint, then read the replication group (in this order, as ES: a copy that starts
 *    being tracked after the sample still gets these operations, either here or from its recovery's history);
 * 2. send the operations to every tracked copy in parallel (`indices:data/write/bulk[s][r]`); copies that are
 *    unassigned or recovering and not tracked yet are skipped (they count in `total`);
 * 3. a copy that fails the request (anything but "the copy is not there") is reported to the master with this
 *    primary's term and `markAsStale`; the write waits until the master has removed it from the in-sync set.
 *    In-sync ids without a routing entry (their node left) are marked stale the same way;
 * 4. if the master answers that this copy is no longer the primary, the copy leaves primary mode and the write
 *    fails (never acknowledged).
 *
 * What makes the acknowledgement true: when `replicate` resolves, every in-sync copy of the shard either
 * answered that it applied and fsynced the operations, or is no longer in the in-sync set the master publishes,
 * so no copy that could be promoted misses an acknowledged write.
 */
import { EsError, replicationErrors, toEsError } from '../../common/errors.js';
import type { IndexShard } from '../index-shard.js';
import { otherCopies, type ReplicationGroupState } from './replication-group.js';
import { operationsToWire, REPLICA_ACTION, replicaRequestToWire, type ReplicaRequest, type ReplicaResponse, type ReplicatedOperation } from './replicated-operation.js';
import type { ReplicationServices } from './replication-services.js';
import { peerRecoveryLeaseId } from './retention-leases.js';
import { scheduleGlobalCheckpointSync } from './global-checkpoint-sync.js';

/** One replica failure as `_shards.failures` lists it (ReplicationResponse.ShardInfo.Failure). */
export interface ShardReplicationFailure {
  readonly index: string;
  readonly shard: number;
  readonly nodeId: string | undefined;
  readonly error: EsError;
  readonly primary: boolean;
}

export interface ReplicationShardInfo {
  readonly total: number;
  readonly successful: number;
  readonly failed: number;
  readonly failures: readonly ShardReplicationFailure[];
}

/** A replica request that meets no copy: the copy is skipped, not failed (TransportActions.isShardNotAvailableException). */
function copyNotThere(error: EsError): boolean {
  return error.type === 'shard_not_found_exception' || error.type === 'index_not_found_exception';
}

/** How long one replica may take to answer before it is failed (ES waits indefinitely; a hung copy must not hang writes forever). */
const REPLICA_REQUEST_TIMEOUT_MILLIS = 120_000;

export async function replicate(
  shard: IndexShard,
  services: ReplicationServices,
  operations: readonly ReplicatedOperation[],
  refresh: ReplicaRequest['refresh'],
  parentTaskId?: string,
): Promise<ReplicationShardInfo> {
  const group = shard.replicationGroup;
  if (group === undefined) {
    // A lone copy the cluster layer never described (no other copy to reach). A copy that tracks others but was
    // never told where they are must not acknowledge what it cannot send them: the coordinator routes it again.
    if (shard.tracker.replicationTargets().length > 0) {
      throw replicationErrors.retryOnPrimary(shard.indexName, shard.indexUuid, shard.shardId, 'the primary does not know its replication group yet');
    }
    return { total: 1, successful: 1, failed: 0, failures: [] };
  }
  const globalCheckpoint = shard.tracker.knownGlobalCheckpoint;
  // After the primary applied these operations, so it covers every update or delete among them (decision 0033).
  const maxSeqNoOfUpdatesOrDeletes = shard.replicationEngine.maxSeqNoOfUpdatesOrDeletes;
  const primaryTerm = shard.operationPrimaryTerm;
  const targets = new Set(shard.tracker.replicationTargets());
  const staleMarks = markUnavailableCopiesStale(shard, services, group);
  let total = 1 + group.unassignedCopies;
  let successful = 1;
  const failures: ShardReplicationFailure[] = [];
  const sends: Array<Promise<void>> = [];
  // Encoded once for every copy (and only when there is one to send to).
  let wireOperations: ReplicaRequest['operations'] | undefined;
  for (const copy of otherCopies(group, shard.allocationId)) {
    total++;
    if (!targets.has(copy.allocationId)) continue;
    const request: ReplicaRequest = {
      index: shard.indexName,
      indexUuid: shard.indexUuid,
      shard: shard.shardId,
      targetAllocationId: copy.allocationId,
      primaryTerm,
      globalCheckpoint,
      maxSeqNoOfUpdatesOrDeletes,
      operations: (wireOperations ??= operationsToWire(operations)),
      refresh,
    };
    sends.push(
      (async () => {
        try {
          if (copy.node === undefined) throw new EsError('node_not_connected_exception', `[${copy.nodeId}] node is not in the cluster`);
          const response = (await services.send(copy.node, REPLICA_ACTION, request, { timeoutMillis: REPLICA_REQUEST_TIMEOUT_MILLIS, parentTaskId, encodeRequest: replicaRequestToWire })) as ReplicaResponse;
          recordReplicaResponse(shard, copy.allocationId, copy.nodeId, response);
          successful++;
        } catch (err) {
          const error = toEsError(err);
          if (copyNotThere(error)) return;
          failures.push({ index: shard.indexName, shard: shard.shardId, nodeId: copy.nodeId, error, primary: false });
          await failCopy(shard, services, copy.allocationId, primaryTerm, `failed to perform ${REPLICA_ACTION} on replica ${shardLabel(shard)}, node[${copy.nodeId}]`, error);
        }
      })(),
    );
  }
  await Promise.all(sends);
  await staleMarks;
  scheduleGlobalCheckpointSync(shard, services);
  return { total, successful, failed: failures.length, failures };
}

function shardLabel(shard: IndexShard): string {
  return `[${shard.indexName}][${shard.shardId}]`;
}

/** A copy answered a replica request, a sync or a recovery batch: its checkpoints and its retention lease move. */
export function recordReplicaResponse(shard: IndexShard, allocationId: string, nodeId: string, response: ReplicaResponse): void {
  shard.tracker.updateLocalCheckpoint(allocationId, response.localCheckpoint);
  shard.tracker.updateGlobalCheckpointForShard(allocationId, response.globalCheckpoint);
  shard.leases.addOrRenew(peerRecoveryLeaseId(nodeId), response.retainFromSeqNo, Date.now());
  shard.syncGlobalCheckpointToEngine();
}

/**
 * Asks the master to fail a copy and take it out of the in-sync set; resolves once it did. Keeps asking while
 * the master cannot be reached (the write waits, as in ES); a master that knows a newer primary term makes this
 * copy leave primary mode and the write fail.
 */
export async function failCopy(shard: IndexShard, services: ReplicationServices, allocationId: string, primaryTerm: number, message: string, cause: EsError): Promise<void> {
  const entry = { index: shard.indexName, indexUuid: shard.indexUuid, shard: shard.shardId, allocationId, primaryTerm, message: `${message}: ${cause.reason}`, markAsStale: true };
  for (let attempt = 0; ; attempt++) {
    try {
      await services.shardFailed(entry);
      return;
    } catch (err) {
      const error = toEsError(err);
      if (error.type === 'no_longer_primary_shard_exception') {
        demote(shard, services, error);
        throw replicationErrors.retryOnPrimary(shard.indexName, shard.indexUuid, shard.shardId, `shard is not in primary mode any more: ${error.reason}`, error);
      }
      if (shard.state === 'closed') throw error;
      services.logger.warn({ err: error, shard: shardLabel(shard), allocationId, attempt }, 'failed to report a failed copy to the master; retrying');
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * (attempt + 1))));
    }
  }
}

/** The master has a newer primary: this copy acknowledges nothing more and asks to be failed itself. */
function demote(shard: IndexShard, services: ReplicationServices, cause: EsError): void {
  if (!shard.tracker.isPrimaryMode) return;
  shard.tracker.deactivatePrimaryMode();
  services.logger.warn({ err: cause, shard: shardLabel(shard) }, 'primary learned it was demoted; failing itself');
  void services
    .shardFailed({ index: shard.indexName, indexUuid: shard.indexUuid, shard: shard.shardId, allocationId: shard.allocationId, primaryTerm: 0, message: 'primary demoted', markAsStale: false })
    .catch(() => undefined);
}

/** In-sync ids without a routing entry (their node left): marked stale before the write is acknowledged. */
export function markUnavailableCopiesStale(shard: IndexShard, services: ReplicationServices, group: ReplicationGroupState): Promise<unknown> {
  const routed = new Set(group.copies.map((copy) => copy.allocationId));
  const marks: Array<Promise<void>> = [];
  for (const allocationId of group.inSyncAllocationIds) {
    if (routed.has(allocationId)) continue;
    let pending = shard.staleMarks.get(allocationId);
    if (pending === undefined) {
      pending = failCopy(shard, services, allocationId, shard.operationPrimaryTerm, 'mark copy as stale', new EsError('shard_not_found_exception', 'no routing entry')).finally(() =>
        shard.staleMarks.delete(allocationId),
      );
      shard.staleMarks.set(allocationId, pending);
    }
    marks.push(pending);
  }
  return Promise.all(marks);
}
