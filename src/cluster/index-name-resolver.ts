/**
 * Turns index expressions (`logs-*,-logs-old,metrics`, `_all`, aliases) into concrete index names against a
 * cluster state, following ES's IndexNameExpressionResolver.concreteIndexNames under the given IndicesOptions:
 *
 * - no expression, `_all` or a lone `*` means every index the wildcard states allow;
 * - `*` patterns match index and alias names; a hidden index matches only with `expand_wildcards=hidden`
 *   (or when both pattern and name start with `.`); closed/open filtering applies to what wildcards find;
 * - `-pattern` excludes, but only after a wildcard has been seen (before that it is a literal name);
 * - a concrete name that does not exist fails with index_not_found_exception unless ignore_unavailable;
 * - an empty result fails unless allow_no_indices.
 *
 * - date math names (`<logs-{now/d}>`) resolve to the dated name first, exclusions included.
 *
 * Not supported: data streams.
 */
import { errors } from '../common/errors.js';
import { simpleMatch } from '../common/wildcards.js';
import { allAliasNames, indicesOfAlias, isHiddenAlias } from './alias-metadata.js';
import type { ClusterState, IndexMetadata } from './cluster-state.js';
import { resolveDateMathExpression } from './date-math-index-name.js';
import type { IndicesOptions } from './indices-options.js';

export function resolveConcreteIndexNames(state: ClusterState, options: IndicesOptions, expressions: readonly string[]): string[] {
  const resources = resolveExpressionsToResources(state, options, expressions);
  const concrete = new Set<string>();
  for (const resource of resources) {
    const metadata = state.indices.get(resource);
    if (metadata !== undefined) {
      if (shouldTrackConcreteIndex(metadata, options)) concrete.add(metadata.name);
      continue;
    }
    const aliased = indicesOfAlias(state, resource);
    if (aliased.length > 1 && !options.allowAliasesToMultipleIndices) {
      throw errors.illegalArgument(
        `alias [${resource}] has more than one index associated with it [${aliased.map((index) => index.name).join(', ')}], can't execute a single index op`,
      );
    }
    for (const index of aliased) if (shouldTrackConcreteIndex(index, options)) concrete.add(index.name);
  }
  if (!options.allowNoIndices && concrete.size === 0) throw errors.indexExpressionNotFound(expressions);
  return [...concrete];
}

/**
 * ES's resolveExpressions with aliases preserved: the index and alias names the expressions select (wildcards
 * expanded to the names they match, an alias kept as itself), or undefined for "all indices" (`_all` or nothing),
 * which no alias filter or alias routing narrows. Missing names are skipped, as ES resolves these leniently.
 */
export function resolveExpressionsPreservingAliases(state: ClusterState, options: IndicesOptions, expressions: readonly string[]): ReadonlySet<string> | undefined {
  if (expressions.length === 0 || (expressions.length === 1 && expressions[0] === '_all')) return undefined;
  const lenient: IndicesOptions = { ...options, ignoreUnavailable: true, allowNoIndices: true };
  return new Set(resolveExpressionsToResources(state, lenient, expressions, true));
}

/**
 * ES's ResolveIndexAction resolution: the index and alias names the expressions select with `options` (missing
 * names fail as the options say), aliases kept as themselves. A lone `*` or `_all` is resolved as `**`, as ES does,
 * so that aliases matching the wildcard are listed too.
 */
export function resolveIndexAbstractions(state: ClusterState, options: IndicesOptions, expressions: readonly string[]): string[] {
  if (expressions.length === 0) return [];
  const names = expressions.length === 1 && (expressions[0] === '_all' || expressions[0] === '*') ? ['**'] : expressions;
  return resolveExpressionsToResources(state, options, names, true);
}

/** Index and alias names the expressions select, before aliases are expanded to their indices. */
function resolveExpressionsToResources(state: ClusterState, options: IndicesOptions, expressions: readonly string[], preserveAliases = false): string[] {
  const expandWildcards = options.expandOpen || options.expandClosed;
  const isAll = expressions.length === 0 || (expressions.length === 1 && expressions[0] === '_all');
  if (!expandWildcards && isAll) return [];
  if (expandWildcards) {
    if (isAll || (expressions.length === 1 && expressions[0] === '*' && !preserveAliases)) return resolveAll(state, options);
    if (expressions.length === 2 && expressions[0] === '*' && expressions[1] === '-*') return [];
  }
  const resources = new Set<string>();
  let wildcardSeen = false;
  const now = Date.now();
  for (const original of expressions) {
    const isExclusion = wildcardSeen && original.startsWith('-');
    const base = resolveDateMathExpression(isExclusion ? original.slice(1) : original, now);
    validateExpression(base, expressions, options);
    const isWildcard = expandWildcards && original.includes('*');
    wildcardSeen ||= isWildcard;
    if (isWildcard) {
      const matching = matchWildcard(state, options, base, preserveAliases);
      if (!options.allowNoIndices && matching.length === 0) throw errors.indexExpressionNotFound([base]);
      for (const name of matching) {
        if (isExclusion) resources.delete(name);
        else resources.add(name);
      }
    } else if (isExclusion) {
      resources.delete(base);
    } else if (aliasOrIndexExists(state, options, base)) {
      resources.add(base);
    }
  }
  return [...resources];
}

function validateExpression(expression: string, expressions: readonly string[], options: IndicesOptions): void {
  if (expression === '') throw errors.indexExpressionNotFound(['']);
  // Names starting with `_` are reserved for APIs; ES answers with a specific error rather than "not found".
  if (expression.startsWith('_')) throw errors.invalidIndexName(expression, "must not start with '_'.");
  if (!options.ignoreUnavailable && isRemoteIndexName(expression)) {
    const remote = expressions.filter(isRemoteIndexName);
    throw errors.illegalArgument(`Cross-cluster calls are not supported in this context but remote indices were requested: [${remote.join(', ')}]`);
  }
}

/** RemoteClusterAware.isRemoteIndexName: `cluster:index` (date math `<...>` may contain `:` and is not remote). */
function isRemoteIndexName(expression: string): boolean {
  if (expression === '' || expression.startsWith('<') || expression.startsWith('-<')) return false;
  return expression.includes(':');
}

function aliasOrIndexExists(state: ClusterState, options: IndicesOptions, name: string): boolean {
  const exists = state.indices.has(name) || (!options.ignoreAliases && indicesOfAlias(state, name).length > 0);
  if (exists) return true;
  if (options.ignoreUnavailable) return false;
  if (options.ignoreAliases && indicesOfAlias(state, name).length > 0) {
    throw errors.illegalArgument(`The provided expression [${name}] matches an alias, specify the corresponding concrete indices instead.`);
  }
  throw errors.indexExpressionNotFound([name]);
}

/** Every index (and alias) the wildcard states allow, for `_all`, `*` or no expression at all. */
function resolveAll(state: ClusterState, options: IndicesOptions): string[] {
  const resolved = new Set<string>();
  for (const metadata of state.indices.values()) {
    if ((isHidden(metadata) && !options.expandHidden) || !stateMatches(metadata, options)) continue;
    resolved.add(metadata.name);
  }
  if (!options.ignoreAliases) {
    // Aliases found this way contribute their indices filtered by open/closed only, as in ES.
    for (const alias of visibleAliasNames(state, options, '*')) for (const name of expandToOpenClosed(state, options, alias)) resolved.add(name);
  }
  return [...resolved];
}

function matchWildcard(state: ClusterState, options: IndicesOptions, pattern: string, preserveAliases: boolean): string[] {
  const matched = new Set<string>();
  const names = [...state.indices.keys(), ...(options.ignoreAliases ? [] : visibleAliasNames(state, options, pattern))].sort();
  for (const name of names) {
    if (!simpleMatch(pattern, name)) continue;
    const metadata = state.indices.get(name);
    // A hidden index that starts with `.` is visible to a pattern that also starts with `.`.
    if (metadata !== undefined && isHidden(metadata) && !options.expandHidden && !implicitHiddenMatch(pattern, name)) continue;
    const indices = expandToOpenClosed(state, options, name);
    if (preserveAliases && metadata === undefined) {
      if (indices.length > 0) matched.add(name);
      continue;
    }
    for (const index of indices) matched.add(index);
  }
  return [...matched];
}

function implicitHiddenMatch(pattern: string, name: string): boolean {
  return pattern.startsWith('.') && name.startsWith('.');
}

/** Alias names a wildcard may match: hidden aliases only with `expand_wildcards=hidden` (or the leading-dot rule). */
function visibleAliasNames(state: ClusterState, options: IndicesOptions, pattern: string): string[] {
  const names = allAliasNames(state);
  if (options.expandHidden) return names;
  return names.filter((alias) => !isHiddenAlias(state, alias) || implicitHiddenMatch(pattern, alias));
}

function expandToOpenClosed(state: ClusterState, options: IndicesOptions, name: string): string[] {
  const metadata = state.indices.get(name);
  const indices = metadata !== undefined ? [metadata] : indicesOfAlias(state, name);
  return indices.filter((index) => stateMatches(index, options)).map((index) => index.name);
}

/** ES's excludeState: with both or neither of open/closed requested, nothing is excluded by state. */
function stateMatches(metadata: IndexMetadata, options: IndicesOptions): boolean {
  if (options.expandOpen === options.expandClosed) return true;
  return options.expandOpen ? metadata.state === 'open' : metadata.state === 'close';
}

function shouldTrackConcreteIndex(metadata: IndexMetadata, options: IndicesOptions): boolean {
  if (metadata.state === 'close') {
    if (options.forbidClosedIndices && !options.ignoreUnavailable) throw errors.indexClosed(metadata.name, metadata.uuid);
    if (options.forbidClosedIndices) return false;
  }
  return !(options.ignoreThrottled && metadata.settings['index.frozen'] === 'true');
}

function isHidden(metadata: IndexMetadata): boolean {
  return metadata.settings['index.hidden'] === 'true';
}

