/**
 * What `GET [/{index}]/_alias[/{name}]` finds (TransportGetAliasesAction + RestGetAliasesAction.buildRestResponse):
 * per concrete index (hidden and closed ones included), its aliases matching the requested names; indices without
 * a match are listed with no aliases only when no name was asked for. Names asked for explicitly (no wildcard, not
 * excluded by a later `-pattern`) that nothing returned make the answer a 404 whose body keeps the found aliases
 * beside an `error` string and a `status`: not ES's usual error shape.
 */
import { simpleMatch, isSimplePattern } from '../../common/wildcards.js';
import { matchingAliases } from '../../cluster/metadata/alias-updates.js';
import { resolveConcreteIndexNames, splitCommaLikeJava, type ClusterState, type IndicesOptions } from '../../cluster/index.js';
import { aliasesXContent } from './alias-xcontent.js';

/** GetAliasesRequest.DEFAULT_INDICES_OPTIONS: IndicesOptions.strictExpandHidden(). */
export const GET_ALIASES_OPTIONS: IndicesOptions = Object.freeze({
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandOpen: true,
  expandClosed: true,
  expandHidden: true,
  allowAliasesToMultipleIndices: true,
  forbidClosedIndices: false,
  ignoreAliases: false,
  ignoreThrottled: false,
});

export interface AliasLookup {
  /** index name -> its matching alias names, in index-name order. */
  readonly byIndex: ReadonlyMap<string, readonly string[]>;
  /** The alias names asked for (`_all`/`*` alone counts as none). */
  readonly requested: readonly string[];
}

/** RestRequest.paramAsStringArrayOrEmptyIfAll. */
export function requestedAliasNames(raw: string | undefined): string[] {
  const names = raw === undefined ? [] : splitCommaLikeJava(raw);
  if (names.length === 1 && (names[0] === '_all' || names[0] === '*')) return [];
  return names;
}

export function findAliases(state: ClusterState, options: IndicesOptions, indexExpressions: readonly string[], requested: readonly string[]): AliasLookup {
  const indices = resolveConcreteIndexNames(state, options, indexExpressions).sort();
  const byIndex = new Map<string, string[]>();
  for (const index of indices) {
    const metadata = state.indices.get(index)!;
    const aliases = matchingAliases(metadata, requested);
    if (aliases.length > 0 || requested.length === 0) byIndex.set(index, aliases);
  }
  return { byIndex, requested };
}

/** The explicitly requested names nothing returned, sorted (a TreeSet in ES). */
export function missingAliases(lookup: AliasLookup): string[] {
  const requested = lookup.requested;
  const returned = new Set<string>();
  for (const aliases of lookup.byIndex.values()) for (const alias of aliases) returned.add(alias);
  let firstWildcard = requested.length;
  for (let i = 0; i < requested.length; i++) {
    if (isSimplePattern(requested[i]!)) {
      firstWildcard = i;
      break;
    }
  }
  const missing = new Set<string>();
  for (let i = 0; i < requested.length; i++) {
    const name = requested[i]!;
    if (name === '_all' || isSimplePattern(name) || (i > firstWildcard && name.startsWith('-'))) continue;
    let excluded = false;
    for (let j = Math.max(i + 1, firstWildcard); j < requested.length; j++) {
      const later = requested[j]!;
      if (later.startsWith('-') && (simpleMatch(later.slice(1), name) || later.slice(1) === '_all')) {
        excluded = true;
        break;
      }
    }
    if (!excluded && !returned.has(name)) missing.add(name);
  }
  return [...missing].sort();
}

/** RestGetAliasesAction.buildRestResponse: the status and the body. */
export function getAliasesResponse(state: ClusterState, lookup: AliasLookup, namesProvided: boolean): { status: number; body: Record<string, unknown> } {
  const missing = missingAliases(lookup);
  const body: Record<string, unknown> = {};
  let status = 200;
  if (missing.length > 0) {
    status = 404;
    body['error'] = missing.length === 1 ? `alias [${missing[0]}] missing` : `aliases [${missing.join(',')}] missing`;
    body['status'] = 404;
  }
  for (const [index, aliases] of lookup.byIndex) {
    // With names asked for, only indices that have one of them are shown.
    if (namesProvided && aliases.length === 0) continue;
    body[index] = { aliases: aliasesXContent(state.indices.get(index)!, aliases) };
  }
  return { status, body };
}
