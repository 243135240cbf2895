/**
 * Refresh and flush as ES runs them (TransportRefreshAction and TransportFlushAction over
 * TransportBroadcastReplicationAction): replication actions, not broadcasts to the copies the coordinating node sees
 * started. Per shard, `<action>[s]` goes to the primary's node; the primary runs the operation, then sends
 * `<action>[s][r]` to every other copy of the replication group it applied, the recovering ones included.
 *
 * Why through the primary: a copy takes writes from the moment its primary tracks it (recovery's prepare_translog
 * step), long before the master marks it started. Its recovery ends with a refresh, but writes can reach it after
 * that and before it is started; a refresh sent only to the copies the coordinator saw STARTED missed it, and once
 * started it served searches from before those writes until its next scheduled refresh (never, with
 * `refresh_interval: -1`); a flush so sent left those writes in its translog only. The primary's group names every
 * copy it replicates to (a copy is tracked only once the primary applied a state naming it), so whatever a write
 * reached, the operation reaches. A copy whose engine is not open yet is not tracked: it received nothing live, and
 * its recovery's own refresh covers what it replays.
 *
 * Counts are ES's broadcast-replication counts: `total` is every copy of the shard (unassigned ones included),
 * `successful` the primary and each copy the operation ran on, a copy that is not there (closed, moved, not open
 * yet) counts in `total` only, and a shard whose primary request failed counts every copy as failed. A copy whose
 * node cannot be reached is tried again until it leaves the group (then it counts in `total` only) or until
 * `indices.replication.retry_timeout` (then it is listed in the failures), as ES's ReplicationOperation does.
 *
 * A copy that fails the operation is listed in the failures and nothing more: ES's replicas proxy for these
 * non-write actions (TransportReplicationAction.ReplicasProxy.failShardIfNeeded) leaves the copy in place, unlike
 * a write's (TransportWriteAction), which has the master fail it; a refresh or flush changes no document, so the
 * copy still holds every acknowledged write.
 */
import { EsError, errors, replicationErrors, toEsError } from '../../common/errors.js';
import type { ClusterState } from '../../cluster/index.js';
import type { IndexShard } from '../../indices/index.js';
import type { Task } from '../../tasks/index.js';
import { fromWireError, toWireError, type WireError } from '../../transport/index.js';
import type { NodeServices } from '../context.js';
import { isPrimaryMoved, isShardNotAvailable } from '../copy-unavailable.js';
import { indicesOf } from '../indices-services.js';
import type { ActionContext } from '../rest.js';
import { sendToNode } from '../remote-node.js';
import type { BroadcastByNodeOutcome, BroadcastShardFailure } from '../broadcast-by-node.js';

/** One replicated operation: its `[s]` action (the `[s][r]` one follows), what it does on a copy, its description. */
export interface ReplicatedOperation<A> {
  /** The shard-level action on the primary, e.g. `indices:admin/refresh[s]`; the copies get `<shardAction>[r]`. */
  readonly shardAction: string;
  /** The shard request's description as ES's request prints it (ReplicationRequest.toString). */
  describe(index: string, shard: number): string;
  run(shard: IndexShard, args: A): Promise<void>;
}

/** The action a primary sends each other copy (ES's `transportReplicaAction`: the primary's with `[r]` appended). */
export function replicaActionOf(operation: ReplicatedOperation<unknown>): string {
  return `${operation.shardAction}[r]`;
}

/** How long a shard's operation keeps looking for its primary when the primary moved or its node went away. */
const PRIMARY_RETRY_MILLIS = 30_000;

export interface ReplicatedShardRequest<A = unknown> {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly args: A;
}

interface ReplicaShardRequest<A> extends ReplicatedShardRequest<A> {
  readonly targetAllocationId: string;
}

/** What the primary answers: how many copies ran the operation (itself included) and each copy that failed. */
interface ShardAnswer {
  readonly successful: number;
  readonly failures: Array<{ readonly nodeId: string; readonly error: WireError }>;
}

/** ES's counts, plus each shard's own (`_flush/synced` prints them per index). */
export interface ReplicatedBroadcastOutcome extends BroadcastByNodeOutcome<unknown> {
  readonly shards: ReadonlyArray<{ readonly index: string; readonly shard: number; readonly total: number; readonly successful: number }>;
}

/** Runs the operation on every shard of `indices` through its primary; the answer counts as ES's `_shards`. */
export async function broadcastThroughPrimaries<A>(
  context: ActionContext,
  state: ClusterState,
  indices: readonly string[],
  operation: ReplicatedOperation<A>,
  args: A,
): Promise<ReplicatedBroadcastOutcome> {
  const shards: Array<{ request: ReplicatedShardRequest<A>; copies: number }> = [];
  for (const index of indices) {
    const metadata = state.indices.get(index);
    if (metadata === undefined) continue;
    (state.routing.get(index) ?? []).forEach((copies, shard) => shards.push({ request: { index, indexUuid: metadata.uuid, shard, args }, copies: copies.length }));
  }
  const answers = await Promise.all(shards.map(({ request }) => runOnShard(context, operation, request)));
  let total = 0;
  let successful = 0;
  const failures: BroadcastShardFailure[] = [];
  const perShard: Array<ReplicatedBroadcastOutcome['shards'][number]> = [];
  shards.forEach(({ request, copies }, i) => {
    const answer = answers[i]!;
    total += copies;
    if (answer instanceof EsError) {
      perShard.push({ index: request.index, shard: request.shard, total: copies, successful: 0 });
      // The shard request itself failed: every copy counts as failed, unless the shard is simply not there.
      if (isShardNotAvailable(answer)) return;
      for (let copy = 0; copy < copies; copy++) failures.push({ index: request.index, shard: request.shard, nodeId: undefined, cause: answer });
      return;
    }
    successful += answer.successful;
    perShard.push({ index: request.index, shard: request.shard, total: copies, successful: answer.successful });
    for (const failure of answer.failures) failures.push({ index: request.index, shard: request.shard, nodeId: failure.nodeId, cause: fromWireError(failure.error) });
  });
  return { total, successful, failed: failures.length, results: [], failures, shards: perShard };
}

/** One shard's operation on its primary, routed again while the primary moves; an error when it could not run. */
async function runOnShard<A>(context: ActionContext, operation: ReplicatedOperation<A>, request: ReplicatedShardRequest<A>): Promise<ShardAnswer | EsError> {
  const services = context.services;
  const deadline = Date.now() + PRIMARY_RETRY_MILLIS;
  for (;;) {
    const state = services.clusterService.state();
    const primary = state.routing.get(request.index)?.[request.shard]?.find((copy) => copy.primary);
    const node = primary?.nodeId === undefined ? undefined : state.nodes.get(primary.nodeId);
    // No active primary: nothing to do (an unassigned or initializing primary has served no search, taken no write).
    if (primary === undefined || node === undefined || (primary.state !== 'STARTED' && primary.state !== 'RELOCATING')) return { successful: 0, failures: [] };
    let error: EsError;
    try {
      return (await sendToNode(services, node, operation.shardAction, request, context.task)) as ShardAnswer;
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
export async function runOnPrimary<A>(services: NodeServices, operation: ReplicatedOperation<A>, request: ReplicatedShardRequest<A>, task: Task): Promise<ShardAnswer> {
  task.description = operation.describe(request.index, request.shard);
  const service = indicesOf(services).service.indexService(request.index);
  const shard = service?.uuid === request.indexUuid ? service.shards.get(request.shard) : undefined;
  if (shard === undefined || shard.state === 'closed') throw replicationErrors.shardNotFound(request.index, request.indexUuid, request.shard);
  if (!shard.isPrimaryMode && !shard.relocated) throw replicationErrors.notInPrimaryMode(request.index, request.indexUuid, request.shard, shard.state.toUpperCase());
  await operation.run(shard, request.args);
  let successful = 1;
  const failures: ShardAnswer['failures'] = [];
  const others = (shard.replicationGroup?.copies ?? []).filter((copy) => copy.allocationId !== shard.allocationId);
  const retryTimeoutMillis = services.settings.getTimeMillis('indices.replication.retry_timeout', DEFAULT_RETRY_TIMEOUT_MILLIS);
  await Promise.all(
    others.map(async (copy) => {
      if (copy.node === undefined) return;
      const outcome = await runOnCopy(services, operation, request, task, shard, copy, retryTimeoutMillis);
      if (outcome === 'done') successful++;
      else if (outcome !== 'not-there') failures.push({ nodeId: copy.nodeId, error: toWireError(outcome) });
    }),
  );
  return { successful, failures };
}

/** ES's default `indices.replication.retry_timeout`. */
const DEFAULT_RETRY_TIMEOUT_MILLIS = 60_000;
/** ES's `indices.replication.initial_retry_backoff_bound`: the first retry waits up to this; each next bound doubles. */
const INITIAL_RETRY_BACKOFF_MILLIS = 50;

/** ES's ConnectTransportException family: the copy's node could not be reached, so nothing ran there. */
const CONNECT_FAILURES = new Set(['node_not_connected_exception', 'node_disconnected_exception', 'connect_transport_exception']);

/**
 * `[s][r]` to one other copy of the group, as ES's ReplicationOperation sends it: `done`, `not-there` (counted in
 * `total` only) or the failure to list. A copy whose node cannot be reached is tried again (ES's RetryableAction)
 * while it stays in the group the primary applied: once it leaves (its node removed, the copy failed or moved) it
 * is `not-there` (ES cancels the retry with IndexShardClosedException, a shard-not-available one); still unreachable
 * after `indices.replication.retry_timeout`, it is listed with that error. A copy whose node this node's state does
 * not know is listed at once (ES's ReplicasProxy: NoNodeAvailableException "unknown node").
 */
async function runOnCopy<A>(
  services: NodeServices,
  operation: ReplicatedOperation<A>,
  request: ReplicatedShardRequest<A>,
  task: Task,
  shard: IndexShard,
  copy: { readonly allocationId: string; readonly nodeId: string },
  retryTimeoutMillis: number,
): Promise<'done' | 'not-there' | EsError> {
  const deadline = Date.now() + retryTimeoutMillis;
  const replicaRequest: ReplicaShardRequest<A> = { ...request, targetAllocationId: copy.allocationId };
  let backoffBound = INITIAL_RETRY_BACKOFF_MILLIS;
  for (;;) {
    const state = services.clusterService.state();
    const node = state.nodes.get(copy.nodeId);
    if (node === undefined) return replicationErrors.unknownNode(copy.nodeId);
    let error: EsError;
    try {
      await sendToNode(services, node, replicaActionOf(operation as ReplicatedOperation<unknown>), replicaRequest, task);
      return 'done';
    } catch (err) {
      error = toEsError(err);
    }
    if (error.type === 'task_cancelled_exception') throw error;
    // Not there (gone, or its engine not open yet: not tracked, so it took no write).
    if (isShardNotAvailable(error)) return 'not-there';
    // Listed, and the copy stays: see the header (ES fails a copy only for a failed write).
    if (!CONNECT_FAILURES.has(error.type)) return error;
    if (!inGroup(shard, copy.allocationId)) return 'not-there';
    const remaining = deadline - Date.now();
    if (remaining <= 0) return error;
    // A newer cluster state may take the copy out of the group: look again then, or after the backoff.
    const delay = Math.min(remaining, 1 + Math.floor(Math.random() * backoffBound));
    backoffBound *= 2;
    await services.clusterService.waitFor((next) => next.version > state.version, delay, task);
    if (!inGroup(shard, copy.allocationId)) return 'not-there';
  }
}

/** Whether the primary still replicates to this copy (the group follows the cluster states it applies). */
function inGroup(shard: IndexShard, allocationId: string): boolean {
  return shard.state !== 'closed' && (shard.replicationGroup?.copies ?? []).some((copy) => copy.allocationId === allocationId);
}

/** `[s][r]` on a copy's node: that very copy (by allocation id), open in any state but closed. */
export async function runOnReplica<A>(services: NodeServices, operation: ReplicatedOperation<A>, request: ReplicaShardRequest<A>, task: Task): Promise<Record<string, never>> {
  task.description = operation.describe(request.index, request.shard);
  const service = indicesOf(services).service.indexService(request.index);
  if (service === undefined || service.uuid !== request.indexUuid) throw errors.indexNotFound(request.index);
  const shard = service.shards.get(request.shard);
  if (shard === undefined || shard.state === 'closed' || shard.allocationId !== request.targetAllocationId) {
    throw replicationErrors.shardNotFound(request.index, request.indexUuid, request.shard);
  }
  await operation.run(shard, request.args);
  return {};
}
