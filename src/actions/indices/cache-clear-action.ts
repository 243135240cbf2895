/**
 * `POST /_cache/clear` and `POST /{index}/_cache/clear` (RestClearIndicesCacheAction): a broadcast over the
 * shard copies of the resolved open indices (a named closed index is index_closed_exception), answered with
 * the `_shards` header. `query`, `fielddata`, `request` and `fields` choose what ES clears; Gannet has none of
 * those caches (no query cache, no shard request cache, doc values instead of fielddata), so each shard has
 * nothing to drop and the answer counts the copies that were reached.
 */
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../cluster/indices-options.js';
import { json, type Route } from '../rest.js';
import { broadcast, shardsBody } from './broadcast-actions.js';

const PARAMS = ['query', 'fielddata', 'request', 'fields', ...INDICES_OPTIONS_PARAMS];

const clearCacheHandler: Route['handler'] = async (request, context) => {
  request.paramBool('query', false);
  request.paramBool('fielddata', false);
  request.paramBool('request', false);
  request.paramList('fields');
  return json(shardsBody(await broadcast(request, context, STRICT_EXPAND_OPEN_FORBID_CLOSED, async () => undefined)));
};

export const cacheClearRoutes: Route[] = [
  { method: 'POST', path: '/_cache/clear', action: 'indices:admin/cache/clear', params: PARAMS, handler: clearCacheHandler },
  { method: 'POST', path: '/{index}/_cache/clear', action: 'indices:admin/cache/clear', params: PARAMS, handler: clearCacheHandler },
];
