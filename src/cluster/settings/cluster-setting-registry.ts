/**
 * The dynamic cluster settings Gannet accepts through `PUT _cluster/settings` (ES's ClusterSettings, restricted to
 * what Gannet can stand behind), with the default ES prints under `include_defaults` and ES's validator.
 *
 * `effect` says what a value changes here, so nobody mistakes an accepted key for a working feature:
 * - `live`: read on every use through the node's settings, so a PUT takes effect on the next request;
 * - `stored`: accepted, validated, kept and reported, but nothing in Gannet reads it yet.
 */
import {
  allocationEnumValue,
  autoCreateIndexValue,
  booleanValue,
  byteSizeValue,
  doubleValue,
  intValue,
  memorySizeValue,
  timeValue,
  type SettingValidator,
} from './setting-validators.js';
import { parseTimeValueMillis } from '../../common/time-value.js';
import {
  DISK_THRESHOLD_ENABLED,
  FLOOD_STAGE_WATERMARK,
  HIGH_WATERMARK,
  INFO_UPDATE_INTERVAL,
  LOW_WATERMARK,
  WATERMARK_DEFAULTS,
  watermarkValue,
} from '../routing/disk-watermarks.js';
import { errors } from '../../common/errors.js';
import { settingTypes as t, type SettingType } from '../../common/setting-types.js';

export interface ClusterSettingDefinition {
  readonly key: string;
  /** ES's type of the setting (what README's settings table shows); `validate` holds ES's exact checks. */
  readonly type: SettingType;
  readonly defaultValue: string;
  readonly validate: SettingValidator;
  readonly effect: 'live' | 'stored';
  /** One line for README's settings table. */
  readonly description: string;
}

const ALLOCATION_VALUES = ['ALL', 'PRIMARIES', 'NEW_PRIMARIES', 'NONE'];

/** Setting.timeSetting with a minimum: ES's "failed to parse value [1s] for setting [key], must be >= [10s]". */
function timeAtLeast(minMillis: number, minText: string): SettingValidator {
  return (value, key) => {
    if (parseTimeValueMillis(value, key) < minMillis) throw errors.illegalArgument(`failed to parse value [${value}] for setting [${key}], must be >= [${minText}]`);
  };
}
const REBALANCE_VALUES = ['ALL', 'PRIMARIES', 'REPLICAS', 'NONE'];

const DEFINITIONS: readonly ClusterSettingDefinition[] = [
  {
    key: 'action.auto_create_index',
    type: t.string,
    defaultValue: 'true',
    validate: autoCreateIndexValue,
    effect: 'live',
    description: '`false`, `true` or index patterns (`+logs-*,-*`) that writes may create',
  },
  {
    key: 'action.destructive_requires_name',
    type: t.boolean,
    defaultValue: 'true',
    validate: booleanValue,
    effect: 'live',
    description: '`false` lets deletes and closes name indices by wildcard or `_all`',
  },
  {
    key: INFO_UPDATE_INTERVAL,
    type: t.time(10_000),
    defaultValue: '30s',
    validate: timeAtLeast(10_000, '10s'),
    effect: 'live',
    description: 'how often the node checks its disk against the watermarks',
  },
  {
    key: 'cluster.max_shards_per_node',
    type: t.integer(1),
    defaultValue: '1000',
    validate: intValue(1),
    effect: 'stored',
    description: 'accepted and kept; not enforced yet',
  },
  // Read by the disk threshold monitor (cluster/routing/disk-threshold-monitor.ts) on every check.
  {
    key: DISK_THRESHOLD_ENABLED,
    type: t.boolean,
    defaultValue: 'true',
    validate: booleanValue,
    effect: 'live',
    description: '`false` stops the disk watermarks (blocks already set stay)',
  },
  {
    key: FLOOD_STAGE_WATERMARK,
    type: t.string,
    defaultValue: WATERMARK_DEFAULTS[FLOOD_STAGE_WATERMARK]!,
    validate: watermarkValue,
    effect: 'live',
    description: 'disk use (or free bytes left) past which indices on the node get `index.blocks.read_only_allow_delete`',
  },
  {
    key: HIGH_WATERMARK,
    type: t.string,
    defaultValue: WATERMARK_DEFAULTS[HIGH_WATERMARK]!,
    validate: watermarkValue,
    effect: 'live',
    description: 'disk use below which the flood stage block is released again',
  },
  {
    key: LOW_WATERMARK,
    type: t.string,
    defaultValue: WATERMARK_DEFAULTS[LOW_WATERMARK]!,
    validate: watermarkValue,
    effect: 'live',
    description: 'disk use past which a warning is logged (replicas are not allocated to the node)',
  },
  // Read by the master's allocation (cluster/routing/allocation.ts) on every reroute.
  {
    key: 'cluster.routing.allocation.enable',
    type: t.oneOf(['all', 'primaries', 'new_primaries', 'none'], true),
    defaultValue: 'all',
    validate: allocationEnumValue('allocation.enable', ALLOCATION_VALUES),
    effect: 'live',
    description: 'which shard copies the master may allocate',
  },
  {
    key: 'cluster.routing.allocation.node_concurrent_recoveries',
    type: t.integer(0),
    defaultValue: '2',
    validate: intValue(0),
    effect: 'live',
    description: 'recoveries a node may run at once',
  },
  {
    key: 'cluster.routing.rebalance.enable',
    type: t.oneOf(['all', 'primaries', 'replicas', 'none'], true),
    defaultValue: 'all',
    validate: allocationEnumValue('rebalance.enable', REBALANCE_VALUES),
    effect: 'live',
    description: 'which started copies the master may move for balance alone',
  },
  {
    key: 'cluster.routing.allocation.allow_rebalance',
    type: t.oneOf(['always', 'indices_primaries_active', 'indices_all_active'], true),
    defaultValue: 'indices_all_active',
    validate: (value, key) => {
      if (!['always', 'indices_primaries_active', 'indices_all_active'].includes(value.toLowerCase())) throw errors.illegalArgument(`Illegal value for ${key}: ${value}`);
    },
    effect: 'live',
    description: 'when rebalancing may start: once every copy is active, once every primary is, or always',
  },
  {
    key: 'cluster.routing.allocation.cluster_concurrent_rebalance',
    type: t.integer(-1),
    defaultValue: '2',
    validate: intValue(-1),
    effect: 'live',
    description: 'relocations the cluster runs at once for balance (-1: no limit)',
  },
  {
    key: 'cluster.routing.allocation.node_concurrent_incoming_recoveries',
    type: t.integer(0),
    defaultValue: '2',
    validate: intValue(0),
    effect: 'live',
    description: 'peer recoveries into one node at once (default: node_concurrent_recoveries)',
  },
  {
    key: 'cluster.routing.allocation.node_concurrent_outgoing_recoveries',
    type: t.integer(0),
    defaultValue: '2',
    validate: intValue(0),
    effect: 'live',
    description: 'peer recoveries one node serves at once (default: node_concurrent_recoveries)',
  },
  {
    key: 'cluster.routing.allocation.node_initial_primaries_recoveries',
    type: t.integer(0),
    defaultValue: '4',
    validate: intValue(0),
    effect: 'live',
    description: 'primaries one node recovers from its own store at once',
  },
  {
    key: 'cluster.routing.allocation.balance.shard',
    type: t.double(0),
    defaultValue: '0.45',
    validate: doubleValue(0),
    effect: 'live',
    description: 'weight of the copies per node in the balance',
  },
  {
    key: 'cluster.routing.allocation.balance.index',
    type: t.double(0),
    defaultValue: '0.55',
    validate: doubleValue(0),
    effect: 'live',
    description: "weight of an index's copies per node in the balance",
  },
  {
    key: 'cluster.routing.allocation.balance.threshold',
    type: t.double(1),
    defaultValue: '1.0',
    validate: doubleValue(1),
    effect: 'live',
    description: 'weight difference between two nodes below which nothing moves for balance',
  },
  // The circuit breakers (common/circuit-breakers.ts) read these on every check.
  {
    key: 'indices.breaker.fielddata.limit',
    type: t.string,
    defaultValue: '40%',
    validate: memorySizeValue,
    effect: 'live',
    description: 'limit of the fielddata breaker (global ordinals and term strings of aggregations): a share of the heap or a size',
  },
  {
    key: 'indices.breaker.fielddata.overhead',
    type: t.double(0),
    defaultValue: '1.03',
    validate: doubleValue(0),
    effect: 'live',
    description: 'factor the fielddata breaker multiplies estimates by',
  },
  {
    key: 'indices.breaker.request.limit',
    type: t.string,
    defaultValue: '60%',
    validate: memorySizeValue,
    effect: 'live',
    description: 'limit of the request breaker (aggregation buckets of the requests running)',
  },
  {
    key: 'indices.breaker.request.overhead',
    type: t.double(0),
    defaultValue: '1.0',
    validate: doubleValue(0),
    effect: 'live',
    description: 'factor the request breaker multiplies estimates by',
  },
  {
    key: 'indices.breaker.total.limit',
    type: t.string,
    defaultValue: '95%',
    validate: memorySizeValue,
    effect: 'live',
    description: 'limit of the parent breaker over the heap really used (V8 heap plus Buffers)',
  },
  {
    // MappingUpdatedAction's master_timeout for the mapping update a new field needs (a positive time setting).
    key: 'indices.mapping.dynamic_timeout',
    type: t.time(0),
    defaultValue: '30s',
    validate: timeAtLeast(0, '0ms'),
    effect: 'live',
    description: 'how long a write that adds a field waits for the master to take the mapping update; then its item fails (503 `master_not_discovered_exception`)',
  },
  {
    key: 'indices.recovery.max_bytes_per_sec',
    type: t.bytes,
    defaultValue: '40mb',
    validate: byteSizeValue,
    effect: 'live',
    description: 'the rate at which a node sends shard files in file-based peer recovery (all its recoveries together)',
  },
  {
    // RecoverySettings.INDICES_RECOVERY_MAX_CONCURRENT_FILE_CHUNKS_SETTING: intSetting(2, 1, 8), read when a recovery starts.
    key: 'indices.recovery.max_concurrent_file_chunks',
    type: t.integer(1, 8),
    defaultValue: '2',
    validate: intValue(1, 8),
    effect: 'live',
    description: 'file chunks a recovery sends before it waits for the target to answer one (recoveries starting after a change use it)',
  },
  {
    // TransportReplicationAction.REPLICATION_RETRY_TIMEOUT: any time value, as ES's plain timeSetting takes.
    key: 'indices.replication.retry_timeout',
    type: t.time(-1),
    defaultValue: '60s',
    validate: timeValue,
    effect: 'live',
    description: "how long a refresh or flush keeps retrying a copy whose node it cannot reach while the copy stays in the shard's group; then the copy is listed in `_shards.failures`",
  },
  {
    key: 'network.breaker.inflight_requests.limit',
    type: t.string,
    defaultValue: '100%',
    validate: memorySizeValue,
    effect: 'live',
    description: 'limit of the in-flight requests breaker (request bodies being read and handled)',
  },
  {
    key: 'network.breaker.inflight_requests.overhead',
    type: t.double(0),
    defaultValue: '2.0',
    validate: doubleValue(0),
    effect: 'live',
    description: 'factor the in-flight requests breaker multiplies body sizes by',
  },
  {
    key: 'search.default_keep_alive',
    type: t.time(-1),
    defaultValue: '5m',
    validate: timeValue,
    effect: 'live',
    description: 'keep-alive of a scroll or point in time that names none',
  },
  {
    key: 'search.default_search_timeout',
    type: t.time(-1),
    defaultValue: '-1',
    validate: timeValue,
    effect: 'stored',
    description: 'accepted and kept; not applied yet',
  },
  {
    key: 'search.max_buckets',
    type: t.integer(0),
    defaultValue: '65536',
    validate: intValue(0),
    effect: 'live',
    description: 'most buckets one aggregation response may hold',
  },
  {
    key: 'search.max_keep_alive',
    type: t.time(-1),
    defaultValue: '24h',
    validate: timeValue,
    effect: 'live',
    description: 'longest keep-alive a scroll or point in time may ask for',
  },
];

const BY_KEY = new Map(DEFINITIONS.map((definition) => [definition.key, definition]));

export function clusterSettingDefinition(key: string): ClusterSettingDefinition | undefined {
  return BY_KEY.get(key);
}

export function clusterSettingDefinitions(): readonly ClusterSettingDefinition[] {
  return DEFINITIONS;
}
