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
 * Like ES, the filters govern where a copy may be *allocated*: a primary whose data is already on a node is
 * force-allocated back there whatever the filters say (ES's canForceAllocatePrimary), and Gannet does not yet move a
 * started copy away from a node the filters now exclude (ES relocates it when another node qualifies).
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

function filtersOf(metadata: IndexMetadata, kind: FilterKind): Filter[] {
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

/** Whether `node` may take a copy of the index (new primaries and replicas). */
export function allocationFiltersAllow(state: ClusterState, metadata: IndexMetadata, node: DiscoveryNode): boolean {
  if (!filtersOf(metadata, 'require').every((filter) => matches(node, filter))) return false;
  const include = filtersOf(metadata, 'include');
  if (include.length > 0 && !include.some((filter) => matches(node, filter))) return false;
  if (filtersOf(metadata, 'exclude').some((filter) => matches(node, filter))) return false;
  const preference = metadata.settings[TIER_PREFERENCE];
  if (preference !== undefined && preference.trim() !== '') {
    const tiers = preference.split(',').map((tier) => tier.trim()).filter((tier) => tier !== '');
    const nodes = [...state.nodes.values()];
    const firstPresent = tiers.find((tier) => nodes.some((candidate) => isInTier(candidate, tier)));
    if (firstPresent === undefined || !isInTier(node, firstPresent)) return false;
  }
  return true;
}

/** Whether a settings change touches the filters (so unassigned copies get another chance). */
export function touchesAllocationFilters(keys: Iterable<string>): boolean {
  for (const key of keys) if (key.startsWith(`${PREFIX}require.`) || key.startsWith(`${PREFIX}include.`) || key.startsWith(`${PREFIX}exclude.`)) return true;
  return false;
}
