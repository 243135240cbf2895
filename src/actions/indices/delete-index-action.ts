/**
 * `DELETE /{index}` (RestDeleteIndexAction + TransportDeleteIndexAction): wildcards and `_all` are refused while
 * `action.destructive_requires_name` is true (ES 8's default); names resolve to concrete indices only, never through
 * an alias (DELETE_INDEX_OPTIONS), so naming an alias is a 400 and a wildcard never reaches an index by its alias;
 * a missing concrete name is a 404. Resolution fails before anything is deleted, so a request is all or nothing.
 */
import { json, type Route } from '../rest.js';
import { INDICES_OPTIONS_PARAMS } from '../../cluster/indices-options.js';
import { indicesOf } from '../indices-services.js';
import { DELETE_INDEX_OPTIONS, expressionsOf, resolveIndices } from './resolve-indices.js';
import { failDestructive } from './destructive-operations.js';
import { ackOptions } from '../acked-request.js';

export const deleteIndexRoutes: Route[] = [
  {
    method: 'DELETE',
    path: '/{index}',
    action: 'indices:admin/delete',
    params: ['timeout', 'master_timeout', ...INDICES_OPTIONS_PARAMS],
    describe: (request) => `delete-index [${request.pathParams['index']}]`,
    handler: async (request, context) => {
      const expressions = expressionsOf(request);
      failDestructive(context.services.settings, expressions);
      const names = resolveIndices(request, context.services.clusterService.state(), DELETE_INDEX_OPTIONS);
      const acknowledged = names.length === 0 || (await indicesOf(context.services).metadata.deleteIndices(names, ackOptions(request, context))).acknowledged;
      return json({ acknowledged });
    },
  },
];
