/**
 * What a search's index expressions mean beyond the concrete indices: per index, the routing values to search
 * (IndexNameExpressionResolver.resolveSearchRouting: an alias's `search_routing`, intersected with the request's
 * `routing`) and the filter its filtering aliases impose (filteringAliases + ShardSearchRequest.parseAliasFilter:
 * none when the index was named directly, `_all` was asked, or any alias that reached it does not filter; one
 * alias's filter as is; several combined as `bool.should`).
 */
import { splitCommaLikeJava, type IndicesOptions } from './indices-options.js';
import { aliasOf, indicesOfAlias } from './alias-metadata.js';
import type { ClusterState } from './cluster-state.js';
import { resolveConcreteIndexNames, resolveExpressionsPreservingAliases } from './index-name-resolver.js';

export interface SearchTargets {
  readonly indices: readonly string[];
  /** The routing values for an index (comma separated, as the `routing` parameter), or undefined for every shard. */
  routingOf(index: string): string | undefined;
  /** The alias filter (query JSON) an index's searches must apply, or undefined. */
  aliasFilterOf(index: string): Readonly<Record<string, unknown>> | undefined;
}

export function resolveSearchTargets(state: ClusterState, options: IndicesOptions, expressions: readonly string[], routing: string | undefined): SearchTargets {
  const indices = resolveConcreteIndexNames(state, options, expressions);
  const resolved = resolveExpressionsPreservingAliases(state, options, expressions);
  const routings = resolved === undefined ? undefined : searchRouting(state, resolved, routing);
  return {
    indices,
    routingOf: (index) => {
      if (resolved === undefined) return routing;
      const values = routings?.get(index);
      return values === undefined ? undefined : [...values].join(',');
    },
    aliasFilterOf: (index) => (resolved === undefined ? undefined : aliasFilter(state, index, resolved)),
  };
}

/** resolveSearchRouting for resolved expressions; an index missing from the map searches every shard. */
function searchRouting(state: ClusterState, resolved: ReadonlySet<string>, routing: string | undefined): Map<string, Set<string>> {
  const requested = routing === undefined ? undefined : new Set(splitCommaLikeJava(routing));
  const routings = new Map<string, Set<string>>();
  // Indices reached without alias routing (named directly or through a plain alias): the request's routing only.
  const unrouted = new Set<string>();
  const collect = (index: string): void => {
    if (unrouted.has(index)) return;
    unrouted.add(index);
    if (requested !== undefined) routings.set(index, new Set(requested));
    else routings.delete(index);
  };
  for (const expression of resolved) {
    if (state.indices.has(expression)) {
      collect(expression);
      continue;
    }
    for (const metadata of indicesOfAlias(state, expression)) {
      if (unrouted.has(metadata.name)) continue;
      const searchValues = aliasOf(metadata, expression)?.searchRouting;
      if (searchValues === undefined || searchValues === '') {
        collect(metadata.name);
        continue;
      }
      const values = routings.get(metadata.name) ?? new Set<string>();
      for (const value of splitCommaLikeJava(searchValues)) values.add(value);
      if (requested !== undefined) for (const value of [...values]) if (!requested.has(value)) values.delete(value);
      if (values.size === 0) routings.delete(metadata.name);
      else routings.set(metadata.name, values);
    }
  }
  return routings;
}

function aliasFilter(state: ClusterState, index: string, resolved: ReadonlySet<string>): Readonly<Record<string, unknown>> | undefined {
  const metadata = state.indices.get(index);
  if (metadata === undefined || resolved.has(index)) return undefined;
  const filters: Readonly<Record<string, unknown>>[] = [];
  for (const alias of Object.keys(metadata.aliases).sort()) {
    if (!resolved.has(alias)) continue;
    const filter = aliasOf(metadata, alias)?.filter;
    // An alias without a filter sees the whole index, and so does the search.
    if (filter === undefined) return undefined;
    filters.push(filter);
  }
  if (filters.length === 0) return undefined;
  if (filters.length === 1) return filters[0];
  return { bool: { should: filters } };
}
