/**
 * A filtered alias narrows what a search sees on its indices (ES's AliasFilter): the shard runs the request's
 * query as a `bool` with the query as `must` and the alias filter as `filter` (DefaultSearchContext
 * .buildFilteredQuery), so scores are the query's own. Only the query phase sees the filter; fetch, highlighting
 * and dfs statistics work from the request's query, as ES's parsedQuery does. `_explain` explains the filtered
 * query (ContextIndexSearcher.explain), and a point in time keeps the filters it was opened with.
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
  return { ...request, query: filteredQuery(request.query, filter) };
}

/** The query a shard runs under an alias filter: `bool` with the query (match_all when absent) as `must`. */
export function filteredQuery(query: QueryAst | undefined, filter: QueryAst | undefined): QueryAst {
  const main: QueryAst = query ?? { kind: 'match_all', boost: 1 };
  if (filter === undefined) return main;
  return { kind: 'bool', boost: 1, must: [main], filter: [filter], should: [], mustNot: [], adjustPureNegative: true };
}
