/**
 * `POST /_cache/clear` and `POST /{index}/_cache/clear` (RestClearIndicesCacheAction): a broadcast over the
 * shard copies of the resolved open indices, on the nodes that hold them (a named closed index is index_closed_exception), answered with
 * the `_shards` header.
 *
 * Gannet has none of the caches ES names (no query cache, no shard request cache, doc values instead of
 * fielddata). The caches it has are the stored fields' decoded blocks and chunk tables of each segment, which
 * none of the flags names either, so they go where ES clears "everything": IndexService.clearCaches falls back
 * to clearing every index cache when neither `query` nor `fielddata` was asked and no `fields` were given
 * (`request=true` alone still takes that path there, as the request cache is handled apart).
 */
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../cluster/indices-options.js';
import { json, type Route } from '../rest.js';
import { broadcast, shardsBody } from './broadcast-actions.js';
import { openShard, type BroadcastOperation } from '../broadcast-by-node.js';

export const CLEAR_CACHE_ACTION = 'indices:admin/cache/clear';

export const clearCacheOnShard: BroadcastOperation = async (_services, args: { clearsEverything: boolean }, local) => {
  const shard = openShard(local);
  if (args.clearsEverything) shard.clearCaches();
};

const PARAMS = ['query', 'fielddata', 'request', 'fields', ...INDICES_OPTIONS_PARAMS];

const clearCacheHandler: Route['handler'] = async (request, context) => {
  const query = request.paramBool('query', false);
  const fielddata = request.paramBool('fielddata', false);
  request.paramBool('request', false);
  const fields = request.paramList('fields');
  const clearsEverything = !query && !fielddata && fields.length === 0;
  return json(shardsBody(await broadcast(request, context, STRICT_EXPAND_OPEN_FORBID_CLOSED, CLEAR_CACHE_ACTION, { clearsEverything })));
};

export const cacheClearRoutes: Route[] = [
  { method: 'POST', path: '/_cache/clear', action: CLEAR_CACHE_ACTION, params: PARAMS, handler: clearCacheHandler },
  { method: 'POST', path: '/{index}/_cache/clear', action: CLEAR_CACHE_ACTION, params: PARAMS, handler: clearCacheHandler },
];
