/**
 * Index allocation filtering, as ES's FilterAllocationDecider and DataTierAllocationDecider decide where a copy may
 * go. From the index's settings:
 * - `index.routing.allocation.require.<attr>`: the node must match every one;
 * - `index.routing.allocation.include.<attr>`: when any is set, the node must match at least one;
 * - `index.routing.allocation.exclude.<attr>`: the node must match none;
 * - `index.routing.allocation.include._tier_preference`: the first listed tier that has a node in the cluster; only
 *   its nodes qualify (a node with the generic `data` role belongs to every tier).
 * A value is a comma list of patterns (`*` wildcards), any of which may match. `<attr>` is a `node.attr.*` name or
 * one of ES's built-ins: `_name`, `_id`, `_host` (host name or address), `_ip`, `_host_ip` and `_publish_ip`.
 *
 * The filter and data tier deciders (deciders/filter.ts) print what `filterMismatch` and `tierMismatch` find; a
 * primary whose data is already on a node is force-allocated back there whatever the filters say (ES's
 * canForceAllocatePrimary), and a started copy on a node the filters now exclude is moved away (canRemain).
 */
import { simpleMatch } from '../../common/wildcards.js';
import type { ClusterState, IndexMetadata } from '../cluster-state.js';
import type { DiscoveryNode } from '../discovery-node.js';

const PREFIX = 'index.routing.allocation.';
const TIER_PREFERENCE = 'index.routing.allocation.include._tier_preference';

type FilterKind = 'require' | 'include' | 'exclude';

interface Filter {
  readonly attribute: string;
  readonly patterns: readonly string[];
}

/** Parsed filters per settings object (an allocation round asks for every copy on every node). */
const parsedFilters = new WeakMap<object, Record<FilterKind, Filter[]>>();

function filtersOf(metadata: IndexMetadata, kind: FilterKind): Filter[] {
  let parsed = parsedFilters.get(metadata.settings);
  if (parsed === undefined) {
    parsed = { require: parseFilters(metadata, 'require'), include: parseFilters(metadata, 'include'), exclude: parseFilters(metadata, 'exclude') };
    parsedFilters.set(metadata.settings, parsed);
  }
  return parsed[kind];
}

function parseFilters(metadata: IndexMetadata, kind: FilterKind): Filter[] {
  const prefix = `${PREFIX}${kind}.`;
  const filters: Filter[] = [];
  for (const [key, value] of Object.entries(metadata.settings)) {
    if (!key.startsWith(prefix) || key === TIER_PREFERENCE) continue;
    const patterns = value.split(',').map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
    if (patterns.length > 0) filters.push({ attribute: key.slice(prefix.length), patterns });
  }
  return filters;
}

/** The node's values for an attribute (DiscoveryNodeFilters.match). */
function nodeValues(node: DiscoveryNode, attribute: string): string[] {
  switch (attribute) {
    case '_name':
      return [node.name];
    case '_id':
      return [node.id];
    case '_host':
      return [node.host, node.ip];
    case '_ip':
    case '_host_ip':
    case '_publish_ip':
      return [node.ip];
    default: {
      const value = Object.hasOwn(node.attributes, attribute) ? node.attributes[attribute] : undefined;
      return value === undefined ? [] : [value];
    }
  }
}

function matches(node: DiscoveryNode, filter: Filter): boolean {
  const values = nodeValues(node, filter.attribute);
  return filter.patterns.some((pattern) => values.some((value) => simpleMatch(pattern, value)));
}

/** The tier roles a node is in: every tier for the generic `data` role. */
function isInTier(node: DiscoveryNode, tier: string): boolean {
  return node.roles.includes('data') || (node.roles as readonly string[]).includes(tier);
}

/** The first filter kind the node fails, with that kind's filters (ES's FilterAllocationDecider order). */
export function filterMismatch(metadata: IndexMetadata, node: DiscoveryNode): { kind: FilterKind; filters: string } | undefined {
  const require = filtersOf(metadata, 'require');
  if (!require.every((filter) => matches(node, filter))) return { kind: 'require', filters: describeFilters(require) };
  const include = filtersOf(metadata, 'include');
  if (include.length > 0 && !include.some((filter) => matches(node, filter))) return { kind: 'include', filters: describeFilters(include) };
  const exclude = filtersOf(metadata, 'exclude');
  if (exclude.some((filter) => matches(node, filter))) return { kind: 'exclude', filters: describeFilters(exclude) };
  return undefined;
}

/** DiscoveryNodeFilters.toString: `attr:"a OR b", other:"c"`. */
function describeFilters(filters: readonly Filter[]): string {
  return filters.map((filter) => `${filter.attribute}:"${filter.patterns.join(' OR ')}"`).join(', ');
}

/** The index's tier preference, if it has one. */
export function tierPreference(metadata: IndexMetadata): string[] | undefined {
  const preference = metadata.settings[TIER_PREFERENCE];
  if (preference === undefined || preference.trim() === '') return undefined;
  return preference.split(',').map((tier) => tier.trim()).filter((tier) => tier !== '');
}

/**
 * Why the node is outside the index's preferred tier: `no_tier` when no node of any preferred tier is in the
 * cluster, else the first present tier, which the node is not in. Undefined when the node qualifies.
 */
export function tierMismatch(state: ClusterState, metadata: IndexMetadata, node: DiscoveryNode): { tier: string | undefined } | undefined {
  const tiers = tierPreference(metadata);
  if (tiers === undefined) return undefined;
  const nodes = [...state.nodes.values()];
  const firstPresent = tiers.find((tier) => nodes.some((candidate) => isInTier(candidate, tier)));
  if (firstPresent === undefined) return { tier: undefined };
  return isInTier(node, firstPresent) ? undefined : { tier: firstPresent };
}

/** The first preferred tier present in the cluster that the node is in (the data tier decider's YES). */
export function nodeTier(state: ClusterState, metadata: IndexMetadata): string | undefined {
  const nodes = [...state.nodes.values()];
  return tierPreference(metadata)?.find((tier) => nodes.some((candidate) => isInTier(candidate, tier)));
}

/** Whether `node` may take a copy of the index (new primaries and replicas). */
export function allocationFiltersAllow(state: ClusterState, metadata: IndexMetadata, node: DiscoveryNode): boolean {
  return filterMismatch(metadata, node) === undefined && tierMismatch(state, metadata, node) === undefined;
}

/** Whether a settings change touches the filters (so unassigned copies get another chance). */
export function touchesAllocationFilters(keys: Iterable<string>): boolean {
  for (const key of keys) if (key.startsWith(`${PREFIX}require.`) || key.startsWith(`${PREFIX}include.`) || key.startsWith(`${PREFIX}exclude.`)) return true;
  return false;
}
