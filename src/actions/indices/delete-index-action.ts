/**
 * `DELETE /{index}` (RestDeleteIndexAction): wildcards and `_all` are refused while
 * `action.destructive_requires_name` is true (ES 8's default); a missing concrete name is a 404.
 */
import { json, type Route } from '../rest.js';
import { INDICES_OPTIONS_PARAMS } from '../../cluster/indices-options.js';
import { indicesOf } from '../indices-services.js';
import { expressionsOf, resolveIndices, STRICT_EXPAND_OPEN_CLOSED_ALLOW_NO } from './resolve-indices.js';
import { failDestructive } from './destructive-operations.js';

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
      const names = resolveIndices(request, context.services.clusterService.state(), STRICT_EXPAND_OPEN_CLOSED_ALLOW_NO);
      if (names.length > 0) await indicesOf(context.services).metadata.deleteIndices(names);
      return json({ acknowledged: true });
    },
  },
];
