/**
 * `POST /_aliases` as the master applies it: TransportIndicesAliasesAction resolves each requested action to
 * concrete indices and aliases (indices: open ones, wildcards allowed, never through an alias; removals expand alias
 * wildcards), then MetadataIndexAliasesService applies them in one state change: index removals first (so an alias
 * may take a removed index's name), then adds and removes in request order, and finally each touched alias is
 * checked as Metadata.Builder does (one write index at most, the same is_hidden everywhere). Nothing is applied when
 * any action fails.
 */
import { setOwnValue } from '../../common/own-keys.js';
import { aliasErrors, errors, type EsError } from '../../common/errors.js';
import { simpleMatch } from '../../common/wildcards.js';
import { aliasOf, hasAlias, type AliasMetadata, type IndexAliases } from '../alias-metadata.js';
import type { ClusterState, IndexMetadata } from '../cluster-state.js';
import { resolveDateMathExpression } from '../date-math-index-name.js';
import { resolveConcreteIndexNames } from '../index-name-resolver.js';
import type { IndicesOptions } from '../indices-options.js';
import { validateNewAlias } from './alias-definitions.js';
import { removeIndices } from './index-updates.js';
import { fromWireError, toWireError, type WireError } from '../../transport/index.js';
import type { MasterResultCodec } from '../master-requests.js';

export type AliasActionType = 'add' | 'remove' | 'remove_index';

/** One entry of the request's `actions`, as parsed (IndicesAliasesRequest.AliasActions). */
export interface AliasActionRequest {
  readonly type: AliasActionType;
  readonly indices: readonly string[];
  /** Empty for remove_index. */
  readonly aliases: readonly string[];
  /** For add: the new alias's definition. */
  readonly definition?: AliasMetadata;
  /** For remove: fail (404) when the alias is not there. */
  readonly mustExist?: boolean;
}

/** Per requested action, as IndicesAliasesResponse reports it: a removal that removed nothing is a 404. */
export interface AliasActionOutcome {
  readonly action: AliasActionRequest;
  readonly error: EsError | undefined;
}

/**
 * The master's answer to a node that forwarded `POST /_aliases` ({acknowledged, value: outcomes}): an EsError inside
 * a value does not survive msgpack as one (its type and status were lost, so a removal that found nothing
 * answered status 200 from any node but the master), so each error crosses as a WireError.
 */
export const ALIAS_OUTCOMES_CODEC: MasterResultCodec = {
  encode(result) {
    const acked = result as { acknowledged: boolean; value: readonly AliasActionOutcome[] };
    return { ...acked, value: acked.value.map((outcome) => ({ action: outcome.action, error: outcome.error === undefined ? undefined : toWireError(outcome.error) })) };
  },
  decode(wire) {
    const acked = wire as { acknowledged: boolean; value: ReadonlyArray<{ action: AliasActionRequest; error?: WireError }> };
    return { ...acked, value: acked.value.map((outcome) => ({ action: outcome.action, error: outcome.error === undefined || outcome.error === null ? undefined : fromWireError(outcome.error) })) };
  },
};

/** IndicesAliasesRequest.INDICES_OPTIONS: every name must exist, wildcards open indices only, no aliases. */
const ALIAS_ACTION_INDICES_OPTIONS: IndicesOptions = Object.freeze({
  ignoreUnavailable: false,
  allowNoIndices: false,
  expandOpen: true,
  expandClosed: false,
  expandHidden: false,
  allowAliasesToMultipleIndices: true,
  forbidClosedIndices: false,
  ignoreAliases: true,
  ignoreThrottled: false,
});

type ConcreteAction =
  | { readonly kind: 'add'; readonly index: string; readonly alias: string; readonly definition: AliasMetadata }
  | { readonly kind: 'remove'; readonly index: string; readonly alias: string; readonly mustExist: boolean }
  | { readonly kind: 'remove_index'; readonly index: string };

/**
 * Metadata.findAliases for one index: the aliases matching the patterns (`_all`, wildcards, `-exclusions`
 * that apply to what earlier patterns matched), in name order. No pattern means every alias.
 */
export function matchingAliases(metadata: IndexMetadata, patterns: readonly string[]): string[] {
  const names = Object.keys(metadata.aliases).sort();
  if (patterns.length === 0) return names;
  return names.filter((alias) => {
    let matched = false;
    for (const pattern of patterns) {
      if (pattern.startsWith('-')) {
        if (matched) matched = !simpleMatch(pattern.slice(1), alias);
      } else if (!matched) {
        matched = pattern === '_all' || simpleMatch(pattern, alias);
      }
    }
    return matched;
  });
}

function resolveActions(state: ClusterState, request: AliasActionRequest): { concrete: ConcreteAction[]; outcome: AliasActionOutcome } {
  const indices = resolveConcreteIndexNames(state, ALIAS_ACTION_INDICES_OPTIONS, request.indices).sort();
  const now = Date.now();
  const concrete: ConcreteAction[] = [];
  let removed = 0;
  for (const index of indices) {
    const metadata = state.indices.get(index)!;
    if (request.type === 'add') {
      // TransportIndicesAliasesAction: a date math alias name (`<alias-{now/M}>`) adds the dated alias.
      for (const alias of request.aliases) concrete.push({ kind: 'add', index, alias: resolveDateMathExpression(alias, now), definition: request.definition ?? {} });
    } else if (request.type === 'remove') {
      let aliases = matchingAliases(metadata, request.aliases);
      // A required alias that matches nothing is kept by name so that its removal fails with ES's message.
      if (aliases.length === 0 && request.mustExist === true) aliases = [...request.aliases];
      for (const alias of aliases) concrete.push({ kind: 'remove', index, alias, mustExist: request.mustExist === true });
      removed += aliases.length;
    } else {
      concrete.push({ kind: 'remove_index', index });
    }
  }
  const error = request.type === 'remove' && removed === 0 ? aliasErrors.aliasesNotFound(request.aliases) : undefined;
  return { concrete, outcome: { action: request, error } };
}

function sameDefinition(a: AliasMetadata, b: AliasMetadata): boolean {
  return (
    JSON.stringify(a.filter ?? null) === JSON.stringify(b.filter ?? null) &&
    a.indexRouting === b.indexRouting &&
    a.searchRouting === b.searchRouting &&
    a.isWriteIndex === b.isWriteIndex &&
    a.isHidden === b.isHidden
  );
}

/** Metadata.Builder's per-alias checks over the resulting indices. */
export function validateAliasConsistency(indices: ReadonlyMap<string, IndexMetadata>, alias: string): void {
  const members = [...indices.values()].filter((metadata) => hasAlias(metadata, alias)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const writeIndices = members.filter((metadata) => aliasOf(metadata, alias)?.isWriteIndex === true).map((metadata) => metadata.name);
  if (writeIndices.length > 1) throw aliasErrors.moreThanOneWriteIndex(alias, writeIndices);
  const hiddenOn = members.filter((metadata) => aliasOf(metadata, alias)?.isHidden === true).map((metadata) => metadata.name);
  const visibleOn = members.filter((metadata) => aliasOf(metadata, alias)?.isHidden !== true).map((metadata) => metadata.name);
  if (hiddenOn.length > 0 && visibleOn.length > 0) throw aliasErrors.hiddenMismatch(alias, hiddenOn, visibleOn);
}

/** The next state with the request's alias actions applied, and the per-action outcomes for the response. */
export function applyAliasActions(state: ClusterState, requests: readonly AliasActionRequest[]): { state: ClusterState; outcomes: AliasActionOutcome[] } {
  const concrete: ConcreteAction[] = [];
  const outcomes: AliasActionOutcome[] = [];
  const requestedAliases = new Set<string>();
  for (const request of requests) {
    const resolved = resolveActions(state, request);
    concrete.push(...resolved.concrete);
    outcomes.push(resolved.outcome);
    for (const alias of request.aliases) requestedAliases.add(alias);
  }
  if (concrete.length === 0 && requests.length > 0) throw aliasErrors.aliasesNotFound([...requestedAliases]);

  const removedIndices = [...new Set(concrete.flatMap((action) => (action.kind === 'remove_index' ? [action.index] : [])))];
  const base = removeIndices(state, removedIndices);
  const indices = new Map(base.indices);
  const touched = new Set<string>();
  for (const action of concrete) {
    if (action.kind === 'remove_index') continue;
    const metadata = indices.get(action.index);
    // An index removed by this same request.
    if (metadata === undefined) throw errors.indexNotFound(action.index);
    const aliases: Record<string, AliasMetadata> = { ...metadata.aliases };
    if (action.kind === 'add') {
      validateNewAlias(action.alias, action.definition, (name) => indices.has(name));
      const current = aliasOf(metadata, action.alias);
      if (current !== undefined && sameDefinition(current, action.definition)) continue;
      setOwnValue(aliases, action.alias, action.definition);
    } else {
      if (!hasAlias(metadata, action.alias)) {
        if (action.mustExist) throw aliasErrors.requiredAliasMissing(action.alias);
        continue;
      }
      delete aliases[action.alias];
    }
    indices.set(action.index, { ...metadata, aliases: aliases as IndexAliases });
    touched.add(action.alias);
  }
  for (const alias of touched) validateAliasConsistency(indices, alias);
  if (touched.size === 0 && removedIndices.length === 0) return { state, outcomes };
  return { state: { ...base, indices }, outcomes };
}
