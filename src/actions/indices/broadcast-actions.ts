/**
 * `_refresh`, `_flush` and `_forcemerge` on the resolved indices. Force merge: each started shard copy runs it on
 * its node (broadcast-by-node.ts: one `<action>[n]` request per node). Refresh and flush go through each shard's
 * primary to every copy it replicates to (replicated-broadcast.ts), as ES's. The answer counts every copy in
 * `total` (unassigned replicas included, as ES does), the ones that ran in `successful`, and lists failures.
 */
import { errors } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED, indicesOptionsFromParams } from '../../cluster/indices-options.js';
import type { IndicesOptions } from '../../cluster/indices-options.js';
import { json, type ActionContext, type RestRequest, type Route } from '../rest.js';
import { errorXContent } from '../documents/write-response.js';
import { expressionsOf, resolveIndices } from './resolve-indices.js';
import { runDetached } from '../tasks/detached-task.js';
import { refreshThroughPrimaries } from './replicated-refresh.js';
import { flushThroughPrimaries } from './replicated-flush.js';
import { activeCopy, allShardCopies, broadcastByNode, openShard, type BroadcastByNodeOutcome, type BroadcastOperation } from '../broadcast-by-node.js';

export const REFRESH_ACTION = 'indices:admin/refresh';
export const FLUSH_ACTION = 'indices:admin/flush';
export const FORCE_MERGE_ACTION = 'indices:admin/forcemerge';
import { warningHeaders } from '../deprecation-warnings.js';

/** The operation on every started copy of the request's indices, across the nodes that hold them. */
export async function broadcast(request: RestRequest, context: ActionContext, defaults: IndicesOptions, action: string, args: unknown): Promise<BroadcastByNodeOutcome<unknown>> {
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, defaults);
  return broadcastByNode(context, action, state, allShardCopies(state, names), args, activeCopy);
}

/** RestStatus's name, as DefaultShardOperationFailedException prints a failure's `status`. */
export function statusName(status: number): string {
  const names: Record<number, string> = { 400: 'BAD_REQUEST', 404: 'NOT_FOUND', 409: 'CONFLICT', 429: 'TOO_MANY_REQUESTS', 500: 'INTERNAL_SERVER_ERROR', 503: 'SERVICE_UNAVAILABLE' };
  return names[status] ?? String(status);
}

/** BroadcastResponse's `_shards`, failures as DefaultShardOperationFailedException prints them. */
export function shardsBody(result: BroadcastByNodeOutcome<unknown>): Record<string, unknown> {
  const shards: Record<string, unknown> = { total: result.total, successful: result.successful, failed: result.failed };
  if (result.failures.length > 0) {
    shards['failures'] = result.failures.map((failure) => ({ shard: failure.shard, index: failure.index, status: statusName(failure.cause.status), reason: errorXContent(failure.cause) }));
  }
  return { _shards: shards };
}

export const forceMergeOnShard: BroadcastOperation = async (_services, args: { maxNumSegments: number | undefined; onlyExpungeDeletes: boolean; flush: boolean }, local) =>
  openShard(local).forceMerge({ ...(args.maxNumSegments !== undefined && { maxNumSegments: args.maxNumSegments }), onlyExpungeDeletes: args.onlyExpungeDeletes, flush: args.flush });

/**
 * BroadcastRequest's default for refresh, flush and force merge: wildcards expand to open indices, and a named
 * closed index is an index_closed_exception (skipped with `ignore_unavailable=true`), as a missing one is.
 */
const BROADCAST_DEFAULTS: IndicesOptions = STRICT_EXPAND_OPEN_FORBID_CLOSED;

const refreshHandler: Route['handler'] = async (request, context) => {
  const state = context.services.clusterService.state();
  return json(shardsBody(await refreshThroughPrimaries(context, state, resolveIndices(request, state, BROADCAST_DEFAULTS))));
};

const flushHandler: Route['handler'] = async (request, context) => {
  const force = request.paramBool('force', false);
  const waitIfOngoing = request.paramBool('wait_if_ongoing', true);
  // FlushRequest.validate: a forced flush must wait for one in progress (it would otherwise be a no-op).
  if (force && !waitIfOngoing) throw errors.requestValidation(['wait_if_ongoing must be true for a force flush']);
  const state = context.services.clusterService.state();
  return json(shardsBody(await flushThroughPrimaries(context, state, resolveIndices(request, state, BROADCAST_DEFAULTS), { force })));
};

/** RestSyncedFlushAction's deprecation (ES 7.11+ wording). */
const SYNCED_FLUSH_DEPRECATION = 'Synced flush is deprecated and will be removed in 8.0. Use flush at /_flush or /{index}/_flush instead.';

/**
 * `_flush/synced`, which 7.x clients and tools (Curator, rolling-restart scripts) still send: since 7.6 a flush does
 * what a synced flush did, so it flushes and answers as ES 7 did, `_shards` and each index's counts, 409 when a copy
 * failed, with ES's deprecation warning.
 */
const syncedFlushHandler: Route['handler'] = async (request, context) => {
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, BROADCAST_DEFAULTS);
  const result = await flushThroughPrimaries(context, state, names, { force: false });
  const body: Record<string, unknown> = { _shards: { total: result.total, successful: result.successful, failed: result.failed } };
  for (const index of [...names].sort()) {
    const failures = shardsBody({ ...result, failures: result.failures.filter((failure) => failure.index === index) })['_shards'] as Record<string, unknown>;
    const shards = result.shards.filter((shard) => shard.index === index);
    body[index] = {
      total: shards.reduce((sum, shard) => sum + shard.total, 0),
      successful: shards.reduce((sum, shard) => sum + shard.successful, 0),
      failed: result.failures.filter((failure) => failure.index === index).length,
      ...(failures['failures'] !== undefined && { failures: failures['failures'] }),
    };
  }
  return json(body, result.failed === 0 ? 200 : 409, warningHeaders(context.services, [SYNCED_FLUSH_DEPRECATION]));
};

const forceMergeHandler: Route['handler'] = async (request, context) => {
  const maxNumSegments = request.paramInt('max_num_segments', -1);
  const onlyExpungeDeletes = request.paramBool('only_expunge_deletes', false);
  const flush = request.paramBool('flush', true);
  if (onlyExpungeDeletes && maxNumSegments !== -1) {
    throw errors.requestValidation(['cannot set only_expunge_deletes and max_num_segments at the same time, those two parameters are mutually exclusive']);
  }
  // ForceMergeRequest.getDescription, shown by the tasks APIs and kept in the stored record.
  context.task.description = `Force-merge indices [${expressionsOf(request).join(', ')}], maxSegments[${maxNumSegments}], onlyExpungeDeletes[${onlyExpungeDeletes}], flush[${flush}]`;
  const forceMerge = async () =>
    shardsBody(await broadcast(request, context, BROADCAST_DEFAULTS, FORCE_MERGE_ACTION, { maxNumSegments: maxNumSegments === -1 ? undefined : maxNumSegments, onlyExpungeDeletes, flush }));
  if (request.paramBool('wait_for_completion', true)) return json(await forceMerge());
  // ES resolves the indices inside the task, so a missing index becomes the stored error; bad options fail now.
  indicesOptionsFromParams((name) => request.param(name), BROADCAST_DEFAULTS);
  return runDetached(context, forceMerge);
};

export const broadcastRoutes: Route[] = [
  { method: ['GET', 'POST'], path: '/_flush/synced', action: FLUSH_ACTION, params: INDICES_OPTIONS_PARAMS, handler: syncedFlushHandler },
  { method: ['GET', 'POST'], path: '/{index}/_flush/synced', action: FLUSH_ACTION, params: INDICES_OPTIONS_PARAMS, handler: syncedFlushHandler },
  { method: ['GET', 'POST'], path: '/_refresh', action: REFRESH_ACTION, params: INDICES_OPTIONS_PARAMS, handler: refreshHandler },
  { method: ['GET', 'POST'], path: '/{index}/_refresh', action: REFRESH_ACTION, params: INDICES_OPTIONS_PARAMS, handler: refreshHandler },
  { method: ['GET', 'POST'], path: '/_flush', action: FLUSH_ACTION, params: ['force', 'wait_if_ongoing', ...INDICES_OPTIONS_PARAMS], handler: flushHandler },
  { method: ['GET', 'POST'], path: '/{index}/_flush', action: FLUSH_ACTION, params: ['force', 'wait_if_ongoing', ...INDICES_OPTIONS_PARAMS], handler: flushHandler },
  {
    method: 'POST',
    path: '/_forcemerge',
    action: FORCE_MERGE_ACTION,
    params: ['max_num_segments', 'only_expunge_deletes', 'flush', 'wait_for_completion', ...INDICES_OPTIONS_PARAMS],
    handler: forceMergeHandler,
  },
  {
    method: 'POST',
    path: '/{index}/_forcemerge',
    action: FORCE_MERGE_ACTION,
    params: ['max_num_segments', 'only_expunge_deletes', 'flush', 'wait_for_completion', ...INDICES_OPTIONS_PARAMS],
    handler: forceMergeHandler,
  },
];
