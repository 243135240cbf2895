/**
 * `_refresh`, `_flush` and `_forcemerge` on the resolved indices (ES's broadcast actions): each shard copy this
 * node holds runs the operation; the answer counts every copy in `total` (unassigned replicas included, as ES
 * does), the ones that ran in `successful`, and lists failures.
 */
import { errors, toEsError } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED, indicesOptionsFromParams } from '../../cluster/indices-options.js';
import type { IndicesOptions } from '../../cluster/indices-options.js';
import type { IndexShard } from '../../indices/index.js';
import { json, type ActionContext, type RestRequest, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { errorXContent } from '../documents/write-response.js';
import { expressionsOf, resolveIndices } from './resolve-indices.js';
import { runDetached } from '../tasks/detached-task.js';

interface BroadcastResult {
  total: number;
  successful: number;
  failed: number;
  failures: Record<string, unknown>[];
}

export async function broadcast(
  request: RestRequest,
  context: ActionContext,
  defaults: IndicesOptions,
  operation: (shard: IndexShard) => Promise<void>,
): Promise<BroadcastResult> {
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, defaults);
  const { service } = indicesOf(context.services);
  const result: BroadcastResult = { total: 0, successful: 0, failed: 0, failures: [] };
  const work: Promise<void>[] = [];
  for (const name of names) {
    for (const copies of state.routing.get(name) ?? []) {
      for (const copy of copies) {
        result.total++;
        if (copy.state !== 'STARTED' && copy.state !== 'RELOCATING') continue;
        const shard = copy.nodeId === context.services.localNode.id ? service.shard(name, copy.shard) : undefined;
        if (shard === undefined) continue;
        work.push(
          operation(shard).then(
            () => {
              result.successful++;
            },
            (err) => {
              result.failed++;
              result.failures.push({ shard: copy.shard, index: name, status: statusName(toEsError(err).status), reason: errorXContent(toEsError(err)) });
            },
          ),
        );
      }
    }
  }
  await Promise.all(work);
  return result;
}

function statusName(status: number): string {
  const names: Record<number, string> = { 400: 'BAD_REQUEST', 404: 'NOT_FOUND', 409: 'CONFLICT', 429: 'TOO_MANY_REQUESTS', 500: 'INTERNAL_SERVER_ERROR', 503: 'SERVICE_UNAVAILABLE' };
  return names[status] ?? String(status);
}

export function shardsBody(result: BroadcastResult): Record<string, unknown> {
  const shards: Record<string, unknown> = { total: result.total, successful: result.successful, failed: result.failed };
  if (result.failures.length > 0) shards['failures'] = result.failures;
  return { _shards: shards };
}

/**
 * BroadcastRequest's default for refresh, flush and force merge: wildcards expand to open indices, and a named
 * closed index is an index_closed_exception (skipped with `ignore_unavailable=true`), as a missing one is.
 */
const BROADCAST_DEFAULTS: IndicesOptions = STRICT_EXPAND_OPEN_FORBID_CLOSED;

const refreshHandler: Route['handler'] = async (request, context) =>
  json(shardsBody(await broadcast(request, context, BROADCAST_DEFAULTS, (shard) => shard.refresh('api'))));

const flushHandler: Route['handler'] = async (request, context) => {
  const force = request.paramBool('force', false);
  request.paramBool('wait_if_ongoing', true);
  return json(shardsBody(await broadcast(request, context, BROADCAST_DEFAULTS, (shard) => shard.flush(force))));
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
    shardsBody(
      await broadcast(request, context, BROADCAST_DEFAULTS, (shard) =>
        shard.forceMerge({ maxNumSegments: maxNumSegments === -1 ? undefined : maxNumSegments, onlyExpungeDeletes, flush }),
      ),
    );
  if (request.paramBool('wait_for_completion', true)) return json(await forceMerge());
  // ES resolves the indices inside the task, so a missing index becomes the stored error; bad options fail now.
  indicesOptionsFromParams((name) => request.param(name), BROADCAST_DEFAULTS);
  return runDetached(context, forceMerge);
};

export const broadcastRoutes: Route[] = [
  { method: ['GET', 'POST'], path: '/_refresh', action: 'indices:admin/refresh', params: INDICES_OPTIONS_PARAMS, handler: refreshHandler },
  { method: ['GET', 'POST'], path: '/{index}/_refresh', action: 'indices:admin/refresh', params: INDICES_OPTIONS_PARAMS, handler: refreshHandler },
  { method: ['GET', 'POST'], path: '/_flush', action: 'indices:admin/flush', params: ['force', 'wait_if_ongoing', ...INDICES_OPTIONS_PARAMS], handler: flushHandler },
  { method: ['GET', 'POST'], path: '/{index}/_flush', action: 'indices:admin/flush', params: ['force', 'wait_if_ongoing', ...INDICES_OPTIONS_PARAMS], handler: flushHandler },
  {
    method: 'POST',
    path: '/_forcemerge',
    action: 'indices:admin/forcemerge',
    params: ['max_num_segments', 'only_expunge_deletes', 'flush', 'wait_for_completion', ...INDICES_OPTIONS_PARAMS],
    handler: forceMergeHandler,
  },
  {
    method: 'POST',
    path: '/{index}/_forcemerge',
    action: 'indices:admin/forcemerge',
    params: ['max_num_segments', 'only_expunge_deletes', 'flush', 'wait_for_completion', ...INDICES_OPTIONS_PARAMS],
    handler: forceMergeHandler,
  },
];
