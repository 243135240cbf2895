/**
 * A filtered alias narrows what a search sees on its indices (ES's AliasFilter): the shard runs the request's
 * query as a `bool` with the query as `must` and the alias filter as `filter` (DefaultSearchContext
 * .buildFilteredQuery), so scores are the query's own. Only the query phase sees the filter; fetch, highlighting
 * and dfs statistics work from the request's query, as ES's parsedQuery does.
 */
import { errors, toEsError } from '../../common/errors.js';
import { parseQuery, type JsonValue, type QueryAst, type SearchRequest } from '../../search/dsl/index.js';
import type { SearchTargets } from '../../cluster/index.js';

/** Each concrete index's alias filter, parsed once per request. */
export function aliasFiltersOf(targets: SearchTargets): Map<string, QueryAst> {
  const filters = new Map<string, QueryAst>();
  for (const index of targets.indices) {
    const filter = targets.aliasFilterOf(index);
    if (filter === undefined) continue;
    try {
      filters.set(index, parseQuery(filter as { readonly [key: string]: JsonValue }));
    } catch (err) {
      throw errors.illegalArgument(`failed to parse filter for alias of index [${index}]`, toEsError(err));
    }
  }
  return filters;
}

export function withAliasFilter(request: SearchRequest, filter: QueryAst | undefined): SearchRequest {
  if (filter === undefined) return request;
  const query: QueryAst = {
    kind: 'bool',
    boost: 1,
    must: [request.query ?? { kind: 'match_all', boost: 1 }],
    filter: [filter],
    should: [],
    mustNot: [],
    adjustPureNegative: true,
  };
  return { ...request, query };
}
