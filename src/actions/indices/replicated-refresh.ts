/**
 * Refresh as ES runs it (TransportRefreshAction over TransportShardRefreshAction): a replication action, not a
 * broadcast to the copies the coordinating node sees started. Per shard, `indices:admin/refresh[s]` goes to the
 * primary's node; the primary refreshes, then sends `indices:admin/refresh[s][r]` to every other copy of the
 * replication group it applied, the recovering ones included.
 *
 * Why through the primary: a copy takes writes from the moment its primary tracks it (recovery's prepare_translog
 * step), long before the master marks it started. Its recovery ends with a refresh, but writes can reach it after
 * that and before it is started; a refresh sent only to the copies the coordinator saw STARTED missed it, and once
 * started it served searches from before those writes until its next scheduled refresh (never, with
 * `refresh_interval: -1`). The primary's group names every copy it replicates to (a copy is tracked only once the
 * primary applied a state naming it), so whatever a write reached, the refresh reaches. A copy whose engine is not
 * open yet is not tracked: it received nothing live, and its recovery's own refresh covers what it replays.
 *
 * Counts are ES's broadcast-replication counts: `total` is every copy of the shard (unassigned ones included),
 * `successful` the primary and each copy it refreshed, a copy that is not there (closed, moved, not open yet)
 * counts in `total` only, and a shard whose primary request failed counts every copy as failed.
 */
import { EsError, errors, replicationErrors, toEsError } from '../../common/errors.js';
import type { ClusterState } from '../../cluster/index.js';
import type { Task } from '../../tasks/index.js';
import { fromWireError, toWireError, type WireError } from '../../transport/index.js';
import type { NodeServices } from '../context.js';
import { isPrimaryMoved, isShardNotAvailable } from '../copy-unavailable.js';
import { indicesOf } from '../indices-services.js';
import type { ActionContext } from '../rest.js';
import { sendToNode } from '../remote-node.js';
import type { BroadcastByNodeOutcome, BroadcastShardFailure } from '../broadcast-by-node.js';

export const REFRESH_SHARD_ACTION = 'indices:admin/refresh[s]';
export const REFRESH_REPLICA_ACTION = 'indices:admin/refresh[s][r]';

/** How long a shard's refresh keeps looking for its primary when the primary moved or its node went away. */
const PRIMARY_RETRY_MILLIS = 30_000;

export interface ShardRefreshRequest {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
}

interface ReplicaRefreshRequest extends ShardRefreshRequest {
  readonly targetAllocationId: string;
}

/** What the primary answers: how many copies it refreshed (itself included) and each copy that failed. */
interface ShardRefreshAnswer {
  readonly successful: number;
  readonly failures: Array<{ readonly nodeId: string; readonly error: WireError }>;
}

/** Refreshes every shard of `indices` through its primary; the answer counts as ES's `_shards` of `_refresh`. */
export async function refreshThroughPrimaries(context: ActionContext, state: ClusterState, indices: readonly string[]): Promise<BroadcastByNodeOutcome<unknown>> {
  const shards: Array<{ request: ShardRefreshRequest; copies: number }> = [];
  for (const index of indices) {
    const metadata = state.indices.get(index);
    if (metadata === undefined) continue;
    (state.routing.get(index) ?? []).forEach((copies, shard) => shards.push({ request: { index, indexUuid: metadata.uuid, shard }, copies: copies.length }));
  }
  const answers = await Promise.all(shards.map(({ request }) => refreshShard(context, request)));
  let total = 0;
  let successful = 0;
  const failures: BroadcastShardFailure[] = [];
  shards.forEach(({ request, copies }, i) => {
    const answer = answers[i]!;
    total += copies;
    if (answer instanceof EsError) {
      // The shard request itself failed: every copy counts as failed, unless the shard is simply not there.
      if (isShardNotAvailable(answer)) return;
      for (let copy = 0; copy < copies; copy++) failures.push({ index: request.index, shard: request.shard, nodeId: undefined, cause: answer });
      return;
    }
    successful += answer.successful;
    for (const failure of answer.failures) failures.push({ index: request.index, shard: request.shard, nodeId: failure.nodeId, cause: fromWireError(failure.error) });
  });
  return { total, successful, failed: failures.length, results: [], failures };
}

/** One shard's refresh on its primary, routed again while the primary moves; an error when it could not run. */
async function refreshShard(context: ActionContext, request: ShardRefreshRequest): Promise<ShardRefreshAnswer | EsError> {
  const services = context.services;
  const deadline = Date.now() + PRIMARY_RETRY_MILLIS;
  for (;;) {
    const state = services.clusterService.state();
    const primary = state.routing.get(request.index)?.[request.shard]?.find((copy) => copy.primary);
    const node = primary?.nodeId === undefined ? undefined : state.nodes.get(primary.nodeId);
    // No active primary: nothing to refresh (an unassigned or initializing primary has served no search yet).
    if (primary === undefined || node === undefined || (primary.state !== 'STARTED' && primary.state !== 'RELOCATING')) return { successful: 0, failures: [] };
    let error: EsError;
    try {
      return (await sendToNode(services, node, REFRESH_SHARD_ACTION, request, context.task)) as ShardRefreshAnswer;
    } catch (err) {
      error = toEsError(err);
    }
    if (error.type === 'task_cancelled_exception') throw error;
    if (!isPrimaryMoved(error) || Date.now() >= deadline || context.task.isCancelled) return error;
    await services.clusterService.waitFor((next) => next.version > state.version, Math.min(1000, Math.max(0, deadline - Date.now())), context.task.signal);
  }
}

/**
 * `[s]` on the primary's node: this copy, then every other copy of the group it applied. A relocated primary
 * (its context handed to the target, the master not done yet) still serves searches and knows the same copies.
 */
export async function refreshOnPrimary(services: NodeServices, request: ShardRefreshRequest, task: Task): Promise<ShardRefreshAnswer> {
  task.description = `BasicReplicationRequest{[${request.index}][${request.shard}]}`;
  const service = indicesOf(services).service.indexService(request.index);
  const shard = service?.uuid === request.indexUuid ? service.shards.get(request.shard) : undefined;
  if (shard === undefined || shard.state === 'closed') throw replicationErrors.shardNotFound(request.index, request.indexUuid, request.shard);
  if (!shard.isPrimaryMode && !shard.relocated) throw replicationErrors.notInPrimaryMode(request.index, request.indexUuid, request.shard, shard.state.toUpperCase());
  await shard.refresh('api');
  let successful = 1;
  const failures: ShardRefreshAnswer['failures'] = [];
  const others = (shard.replicationGroup?.copies ?? []).filter((copy) => copy.allocationId !== shard.allocationId);
  await Promise.all(
    others.map(async (copy) => {
      try {
        if (copy.node === undefined) return;
        const node = services.clusterService.state().nodes.get(copy.nodeId);
        if (node === undefined) return;
        await sendToNode(services, node, REFRESH_REPLICA_ACTION, { ...request, targetAllocationId: copy.allocationId } satisfies ReplicaRefreshRequest, task);
        successful++;
      } catch (err) {
        const error = toEsError(err);
        if (error.type === 'task_cancelled_exception') throw error;
        // Not there (gone, or its engine not open yet: not tracked, so it took no write) or its node left.
        if (isShardNotAvailable(error) || error.type === 'node_not_connected_exception' || error.type === 'node_disconnected_exception') return;
        failures.push({ nodeId: copy.nodeId, error: toWireError(error) });
      }
    }),
  );
  return { successful, failures };
}

/** `[s][r]` on a copy's node: that very copy (by allocation id), open in any state but closed. */
export async function refreshOnReplica(services: NodeServices, request: ReplicaRefreshRequest, task: Task): Promise<Record<string, never>> {
  task.description = `BasicReplicationRequest{[${request.index}][${request.shard}]}`;
  const service = indicesOf(services).service.indexService(request.index);
  if (service === undefined || service.uuid !== request.indexUuid) throw errors.indexNotFound(request.index);
  const shard = service.shards.get(request.shard);
  if (shard === undefined || shard.state === 'closed' || shard.allocationId !== request.targetAllocationId) {
    throw replicationErrors.shardNotFound(request.index, request.indexUuid, request.shard);
  }
  await shard.refresh('api');
  return {};
}
