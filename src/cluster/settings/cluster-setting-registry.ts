/**
 * The dynamic cluster settings Gannet accepts through `PUT _cluster/settings` (ES's ClusterSettings, restricted to
 * what Gannet can stand behind), with the default ES prints under `include_defaults` and ES's validator.
 *
 * `effect` says what a value changes here, so nobody mistakes an accepted key for a working feature:
 * - `live`: read on every use through the node's settings, so a PUT takes effect on the next request;
 * - `single-node`: accepted and kept as ES does, but a single embedded node has nothing it governs (no
 *   rebalancing, no peer recovery to throttle);
 * - `stored`: accepted, validated, kept and reported, but nothing in Gannet reads it yet.
 */
import {
  allocationEnumValue,
  autoCreateIndexValue,
  booleanValue,
  byteSizeValue,
  intValue,
  timeValue,
  type SettingValidator,
} from './setting-validators.js';

export interface ClusterSettingDefinition {
  readonly key: string;
  readonly defaultValue: string;
  readonly validate: SettingValidator;
  readonly effect: 'live' | 'single-node' | 'stored';
}

const ALLOCATION_VALUES = ['ALL', 'PRIMARIES', 'NEW_PRIMARIES', 'NONE'];
const REBALANCE_VALUES = ['ALL', 'PRIMARIES', 'REPLICAS', 'NONE'];

const DEFINITIONS: readonly ClusterSettingDefinition[] = [
  { key: 'action.auto_create_index', defaultValue: 'true', validate: autoCreateIndexValue, effect: 'live' },
  { key: 'action.destructive_requires_name', defaultValue: 'true', validate: booleanValue, effect: 'live' },
  { key: 'cluster.max_shards_per_node', defaultValue: '1000', validate: intValue(1), effect: 'stored' },
  // Read by the master's allocation (cluster/routing/allocation.ts) on every reroute.
  { key: 'cluster.routing.allocation.enable', defaultValue: 'all', validate: allocationEnumValue('allocation.enable', ALLOCATION_VALUES), effect: 'live' },
  { key: 'cluster.routing.allocation.node_concurrent_recoveries', defaultValue: '2', validate: intValue(0), effect: 'live' },
  { key: 'cluster.routing.rebalance.enable', defaultValue: 'all', validate: allocationEnumValue('rebalance.enable', REBALANCE_VALUES), effect: 'single-node' },
  { key: 'indices.recovery.max_bytes_per_sec', defaultValue: '40mb', validate: byteSizeValue, effect: 'single-node' },
  { key: 'search.default_keep_alive', defaultValue: '5m', validate: timeValue, effect: 'live' },
  { key: 'search.default_search_timeout', defaultValue: '-1', validate: timeValue, effect: 'stored' },
  { key: 'search.max_buckets', defaultValue: '65536', validate: intValue(0), effect: 'live' },
  { key: 'search.max_keep_alive', defaultValue: '24h', validate: timeValue, effect: 'live' },
];

const BY_KEY = new Map(DEFINITIONS.map((definition) => [definition.key, definition]));

export function clusterSettingDefinition(key: string): ClusterSettingDefinition | undefined {
  return BY_KEY.get(key);
}

export function clusterSettingDefinitions(): readonly ClusterSettingDefinition[] {
  return DEFINITIONS;
}
