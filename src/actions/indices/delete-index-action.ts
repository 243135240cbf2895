/**
 * `DELETE /{index}` (RestDeleteIndexAction): wildcards and `_all` are refused while
 * `action.destructive_requires_name` is true (ES 8's default); a missing concrete name is a 404.
 */
import { indexErrors } from '../../common/errors.js';
import { json, type Route } from '../rest.js';
import { INDICES_OPTIONS_PARAMS } from '../../cluster/indices-options.js';
import { indicesOf } from '../indices-services.js';
import { expressionsOf, resolveIndices, STRICT_EXPAND_OPEN_CLOSED_ALLOW_NO } from './resolve-indices.js';

/** DestructiveOperations.hasWildcardUsage: nothing, `_all`, or a wildcard that selects (exclusions do not count). */
function usesWildcards(expressions: readonly string[]): boolean {
  if (expressions.length === 0) return true;
  return expressions.some((expression) => expression === '_all' || (expression.includes('*') && !expression.startsWith('-')));
}

export const deleteIndexRoutes: Route[] = [
  {
    method: 'DELETE',
    path: '/{index}',
    action: 'indices:admin/delete',
    params: ['timeout', 'master_timeout', ...INDICES_OPTIONS_PARAMS],
    describe: (request) => `delete-index [${request.pathParams['index']}]`,
    handler: async (request, context) => {
      const expressions = expressionsOf(request);
      const destructiveRequiresName = context.services.settings.getString('action.destructive_requires_name', 'true') !== 'false';
      if (destructiveRequiresName && usesWildcards(expressions)) throw indexErrors.wildcardsNotAllowed();
      const names = resolveIndices(request, context.services.clusterService.state(), STRICT_EXPAND_OPEN_CLOSED_ALLOW_NO);
      if (names.length > 0) await indicesOf(context.services).metadata.deleteIndices(names);
      return json({ acknowledged: true });
    },
  },
];
