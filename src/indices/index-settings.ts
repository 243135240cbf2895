/**
 * Index settings: the ones Gannet knows (ES's IndexScopedSettings, with their defaults, whether they may change
 * on an open index, and their validators), normalisation of a request's `settings` object into ES's flat
 * `index.*` keys, and the typed view the shard code reads. Values are stored as strings, as ES stores them;
 * list values are stored ES-legacy style as `key.0`, `key.1`, ... and turned back into arrays when printed.
 */
import { EsError, errors } from '../common/errors.js';
import { checkSettingValue, settingTypes as t, unknownSettingError, type SettingType } from '../common/setting-types.js';
import { parseByteSize } from '../common/byte-size.js';
import { parseTimeValueMillis, parseTimeValueNanos } from '../common/time-value.js';
import { ownValue, setOwnValue } from '../common/own-keys.js';
import { DEFAULT_MAPPING_SETTINGS, type MappingSettings } from '../mapping/index.js';
import { defaultRoutingNumShards } from './operation-routing.js';
import { SLOW_LOG_LEVELS, type SlowLogSettings, type SlowLogThresholds } from './slow-log.js';

export type FlatSettings = Record<string, string>;

interface SettingDef {
  readonly key: string;
  readonly dynamic: boolean;
  /** Default as ES prints it with include_defaults; undefined when it depends on other settings. */
  readonly defaultValue?: string;
  /** Throws ES's error for a bad value. */
  readonly validate?: (value: string, key: string) => void;
}

// ---- validators, with Setting.java's wording ----

function parseInt32(value: string, key: string): number {
  if (!/^[-+]?\d+$/.test(value.trim())) {
    throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]`, {
      causedBy: errors.numberFormat(value),
    });
  }
  const parsed = Number(value.trim());
  if (parsed > 2147483647 || parsed < -2147483648) {
    throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]`, {
      causedBy: errors.numberFormat(value),
    });
  }
  return parsed;
}

function intSetting(min: number, max = 2147483647) {
  return (value: string, key: string): void => {
    const parsed = parseInt32(value, key);
    if (parsed < min) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${min}`);
    if (parsed > max) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be <= ${max}`);
  };
}

function boolSetting(value: string, key: string): void {
  if (value !== 'true' && value !== 'false') {
    throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`, {
      metadata: {},
    });
  }
  void key;
}

function timeSetting(minMillis: number | undefined) {
  return (value: string, key: string): void => {
    const millis = parseTimeValueMillis(value, key);
    if (minMillis !== undefined && millis < minMillis) {
      throw errors.illegalArgument(`failed to parse value [${value}] for setting [${key}], must be >= [${minMillis === -1 ? '-1' : `${minMillis}ms`}]`);
    }
  };
}

function bytesSetting(value: string, key: string): void {
  parseByteSize(value, key);
}

function enumSetting(enumClass: string, allowed: readonly string[]) {
  return (value: string): void => {
    if (!allowed.includes(value.toUpperCase())) throw errors.noEnumConstant(enumClass, value.toUpperCase());
  };
}

function autoExpandReplicas(value: string, key: string): void {
  if (value === 'false') return;
  const dash = value.indexOf('-');
  if (dash <= 0) {
    throw errors.illegalArgument(`failed to parse [${key}] from value: [${value}] at index -1`);
  }
  const min = value.slice(0, dash);
  const max = value.slice(dash + 1);
  if (!/^\d+$/.test(min)) throw errors.illegalArgument(`failed to parse [${key}] from value: [${value}] at index ${dash}`);
  if (max !== 'all' && !/^\d+$/.test(max)) throw errors.illegalArgument(`failed to parse [${key}] from value: [${value}] at index ${dash}`);
}

function activeShardCount(value: string, key: string): void {
  if (value === 'all' || value === 'index-setting') return;
  if (!/^\d+$/.test(value)) throw errors.illegalArgument(`cannot parse ActiveShardCount[${value}]`);
  void key;
}

function longSetting(min: number) {
  return (value: string, key: string): void => {
    if (!/^[-+]?\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value.trim()))) {
      throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]`, { causedBy: errors.numberFormat(value) });
    }
    if (Number(value.trim()) < min) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${min}`);
  };
}

function doubleSetting(min: number) {
  return (value: string, key: string): void => {
    const parsed = Number(value.trim());
    if (value.trim() === '' || Number.isNaN(parsed)) {
      throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]`, { causedBy: errors.numberFormat(value) });
    }
    if (parsed < min) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${min.toFixed(1)}`);
  };
}

/** Setting.timeSetting with both bounds (index.translog.flush_threshold_age). */
function boundedTimeSetting(minMillis: number, maxMillis: number, minText: string, maxText: string) {
  return (value: string, key: string): void => {
    const millis = parseTimeValueMillis(value, key);
    if (millis < minMillis) throw errors.illegalArgument(`failed to parse value [${value}] for setting [${key}], must be >= [${minText}]`);
    if (millis > maxMillis) throw errors.illegalArgument(`failed to parse value [${value}] for setting [${key}], must be <= [${maxText}]`);
  };
}

/** A string setting whose parser accepts a fixed set of values, with that setting's own message. */
function oneOf(allowed: readonly string[], message: (value: string) => string) {
  return (value: string): void => {
    if (!allowed.includes(value)) throw errors.illegalArgument(message(value));
  };
}

/** A validator that is exactly the type's check (src/common/setting-types.ts). */
function ofType(type: SettingType) {
  return (value: string, key: string): void => checkSettingValue(type, value, key);
}

const def = (key: string, dynamic: boolean, defaultValue?: string, validate?: SettingDef['validate']): SettingDef => ({
  key,
  dynamic,
  defaultValue,
  validate,
});

/** `<prefix>.warn|info|debug|trace`: dynamic time values, -1 (off) by default, at least -1 (TimeValue.MINUS_ONE). */
function slowLogThresholds(prefix: string): SettingDef[] {
  return SLOW_LOG_LEVELS.map((level) => def(`${prefix}.${level}`, true, '-1', ofType(t.time(-1))));
}

/** IndexingSlowLog's source setting: `true` (all of it), `false` (none) or a number of characters. */
function slowLogSource(value: string, key: string): void {
  if (value === 'true' || value === 'false') return;
  checkSettingValue(t.integer(0), value, key);
}

/** The index settings Gannet accepts. Those it stores without acting on them are known so tools that set them work. */
const SETTINGS: readonly SettingDef[] = [
  def('index.number_of_shards', false, '1', intSetting(1, 1024)),
  def('index.number_of_replicas', true, '1', intSetting(0)),
  def('index.number_of_routing_shards', false, undefined, intSetting(1, 1024)),
  def('index.routing_partition_size', false, '1', intSetting(1)),
  def('index.auto_expand_replicas', true, 'false', autoExpandReplicas),
  def('index.refresh_interval', true, '1s', timeSetting(-1)),
  def('index.max_result_window', true, '10000', intSetting(1)),
  def('index.max_inner_result_window', true, '100', intSetting(1)),
  def('index.max_rescore_window', true, '10000', intSetting(1)),
  def('index.max_docvalue_fields_search', true, '100', intSetting(0)),
  def('index.max_script_fields', true, '32', intSetting(0)),
  def('index.max_terms_count', true, '65536', intSetting(1)),
  def('index.max_regex_length', true, '1000', intSetting(1)),
  def('index.max_ngram_diff', true, '1', intSetting(0)),
  def('index.max_shingle_diff', true, '3', intSetting(0)),
  def('index.max_refresh_listeners', true, '1000', intSetting(0)),
  def('index.max_slices_per_scroll', true, '1024', intSetting(1)),
  def('index.max_adjacency_matrix_filters', true, '100', intSetting(1)),
  def('index.analyze.max_token_count', true, '10000', intSetting(1)),
  def('index.highlight.max_analyzed_offset', true, '1000000', intSetting(1)),
  def('index.highlight.weight_matches_mode.enabled', true, 'true', boolSetting),
  def('index.translog.durability', true, 'REQUEST', enumSetting('org.elasticsearch.index.translog.Translog.Durability', ['REQUEST', 'ASYNC'])),
  def('index.translog.sync_interval', true, '5s', timeSetting(100)),
  def('index.translog.flush_threshold_size', true, '10gb', bytesSetting),
  def('index.translog.retention.size', true, '-1', bytesSetting),
  def('index.translog.retention.age', true, '-1', timeSetting(-1)),
  def('index.translog.generation_threshold_size', true, '64mb', bytesSetting),
  def('index.write.wait_for_active_shards', true, '1', activeShardCount),
  def('index.hidden', true, 'false', boolSetting),
  def('index.codec', false, 'default', (value) => {
    if (!['default', 'best_compression', 'lucene_default', 'legacy_default', 'legacy_best_compression'].includes(value)) {
      throw errors.illegalArgument(`unknown value for [index.codec] must be one of [default, lucene_default, best_compression] but was: ${value}`);
    }
  }),
  def('index.priority', true, '1', intSetting(0)),
  def('index.gc_deletes', true, '60s', timeSetting(-1)),
  def('index.search.idle.after', true, '30s', timeSetting(0)),
  def('index.default_pipeline', true, '_none'),
  def('index.final_pipeline', true, '_none'),
  def('index.query.default_field', true, '*'),
  def('index.mapping.total_fields.limit', true, '1000', ofType(t.long(0))),
  def('index.mapping.total_fields.ignore_dynamic_beyond_limit', true, 'false', boolSetting),
  def('index.mapping.depth.limit', true, '20', ofType(t.long(1))),
  def('index.mapping.nested_fields.limit', true, '50', ofType(t.long(0))),
  def('index.mapping.nested_objects.limit', true, '10000', ofType(t.long(0))),
  def('index.mapping.field_name_length.limit', true, '9223372036854775807', ofType(t.long(1))),
  def('index.mapping.dimension_fields.limit', true, '32768', ofType(t.long(0))),
  def('index.mapping.ignore_malformed', false, 'false', boolSetting),
  def('index.mapping.coerce', false, 'true', boolSetting),
  def('index.blocks.read_only', true, 'false', boolSetting),
  def('index.blocks.read_only_allow_delete', true, 'false', boolSetting),
  def('index.blocks.read', true, 'false', boolSetting),
  def('index.blocks.write', true, 'false', boolSetting),
  def('index.blocks.metadata', true, 'false', boolSetting),
  def('index.load_fixed_bitset_filters_eagerly', false, 'true', boolSetting),
  def('index.shard.check_on_startup', false, 'false', oneOf(['false', 'true', 'checksum'], (value) => `unknown value for [index.shard.check_on_startup] must be one of [true, false, checksum] but was: ${value}`)),
  def('index.sort.field', false),
  def('index.sort.order', false),
  def('index.sort.mode', false),
  def('index.sort.missing', false),
  // Accepted and validated as ES does; Gannet keeps them without acting on them (see docs/compat.md).
  def('index.query_string.lenient', false, 'false', boolSetting),
  def('index.query.parse.allow_unmapped_fields', false, 'true', boolSetting),
  def('index.warmer.enabled', true, 'true', boolSetting),
  def('index.translog.flush_threshold_age', true, '1m', boundedTimeSetting(1000, 3_600_000, '1s', '1h')),
  def('index.flush_after_merge', true, '512mb', bytesSetting),
  def('index.soft_deletes.retention.operations', true, '0', longSetting(0)),
  def('index.mapping.nested_parents.limit', true, '50', longSetting(0)),
  def('index.mapping.ignore_above', false, '2147483647', intSetting(0)),
  def('index.merge.scheduler.auto_throttle', true, 'true', boolSetting),
  def('index.merge.policy.expunge_deletes_allowed', true, '10.0', doubleSetting(0)),
  def('index.routing.allocation.total_shards_per_node', true, '-1', intSetting(-1)),
  def('index.allocation.max_retries', true, '5', intSetting(0)),
  def(
    'index.routing.allocation.enable',
    true,
    'all',
    oneOf(['all', 'primaries', 'new_primaries', 'newprimaries', 'none'], (value) => `Illegal allocation.enable value [${value}]`),
  ),
  def('index.routing.rebalance.enable', true, 'all', oneOf(['all', 'primaries', 'replicas', 'none'], (value) => `Illegal rebalance.enable value [${value}]`)),
  def('index.store.type', false, '', oneOf(['', 'fs', 'niofs', 'mmapfs', 'hybridfs'], (value) => `Unknown store type [${value}]`)),
  def('index.store.preload', false),
  def('index.store.stats_refresh_interval', true, '10s', timeSetting(undefined)),
  def('index.store.fs.fs_lock', false, 'native', oneOf(['native', 'simple'], (value) => `unrecognized [index.store.fs.fs_lock] "${value}": must be native or simple`)),
  def('index.fielddata.cache', false, 'node', oneOf(['node', 'none'], (value) => `failed to parse [${value}] must be one of [node,none]`)),
  def('index.lifecycle.prefer_ilm', true, 'true', boolSetting),
  def('index.unassigned.node_left.delayed_timeout', true, '1m', timeSetting(0)),
  def('index.merge.scheduler.max_thread_count', true, undefined, intSetting(1)),
  def('index.merge.scheduler.max_merge_count', true, undefined, intSetting(1)),
  def('index.merge.policy.segments_per_tier', true, '10.0', ofType(t.double(2))),
  def('index.merge.policy.max_merge_at_once', true, '10', intSetting(2)),
  def('index.merge.policy.floor_segment', true, '2mb', bytesSetting),
  def('index.merge.policy.max_merged_segment', true, '5gb', bytesSetting),
  def('index.merge.policy.deletes_pct_allowed', true, '20.0', ofType(t.double(5, 50))),
  def('index.lifecycle.name', true, ''),
  def('index.lifecycle.rollover_alias', true, ''),
  def('index.lifecycle.indexing_complete', true, 'false', boolSetting),
  def('index.lifecycle.origination_date', true, '-1', ofType(t.long(-1))),
  def('index.lifecycle.parse_origination_date', true, 'false', boolSetting),
  def('index.soft_deletes.enabled', false, 'true', boolSetting),
  def('index.soft_deletes.retention_lease.period', true, '12h', timeSetting(0)),
  def('index.requests.cache.enable', true, 'true', boolSetting),
  def('index.queries.cache.enabled', false, 'true', boolSetting),
  def('index.format', false, '0', intSetting(0)),
  def('index.creation_date', false, undefined, ofType(t.long(-1))),
  // Slow logs (ES's SearchSlowLog and IndexingSlowLog): thresholds per level, -1 (the default) is off.
  ...slowLogThresholds('index.search.slowlog.threshold.query'),
  ...slowLogThresholds('index.search.slowlog.threshold.fetch'),
  def('index.search.slowlog.include.user', true, 'false', boolSetting),
  ...slowLogThresholds('index.indexing.slowlog.threshold.index'),
  def('index.indexing.slowlog.source', true, '1000', slowLogSource),
  def('index.indexing.slowlog.reformat', true, 'true', boolSetting),
  def('index.indexing.slowlog.include.user', true, 'false', boolSetting),
];

/** Group settings: any key under these prefixes is accepted (validated when the group is built). */
const GROUP_PREFIXES: ReadonlyArray<{ prefix: string; dynamic: boolean }> = [
  { prefix: 'index.analysis.', dynamic: false },
  // IndexMetadata's include/exclude/require groups (`_tier_preference`, `_name`, attributes).
  { prefix: 'index.routing.allocation.include.', dynamic: true },
  { prefix: 'index.routing.allocation.exclude.', dynamic: true },
  { prefix: 'index.routing.allocation.require.', dynamic: true },
  { prefix: 'index.similarity.', dynamic: false },
];

/** Settings only the system sets (ES's private index settings). */
export const PRIVATE_SETTINGS: ReadonlySet<string> = new Set([
  'index.uuid',
  'index.version.created',
  'index.provided_name',
  'index.creation_date',
  // Set by `_close` (ES's MetadataIndexStateService.VERIFIED_BEFORE_CLOSE_SETTING), removed by `_open`.
  'index.verified_before_close',
  // Set on the target of `_shrink`, `_split` and `_clone` (IndexMetadata.INDEX_RESIZE_SOURCE_NAME/UUID).
  'index.resize.source.name',
  'index.resize.source.uuid',
]);

const BY_KEY = new Map(SETTINGS.map((setting) => [setting.key, setting]));

/** The setting a flat key belongs to (a list element `key.N` belongs to `key`). */
function lookup(key: string): { known: boolean; dynamic: boolean; def?: SettingDef } {
  const base = key.replace(/\.\d+$/, '');
  const found = BY_KEY.get(key) ?? BY_KEY.get(base);
  if (found) return { known: true, dynamic: found.dynamic, def: found };
  for (const group of GROUP_PREFIXES) if (key.startsWith(group.prefix)) return { known: true, dynamic: group.dynamic };
  if (PRIVATE_SETTINGS.has(key)) return { known: true, dynamic: false };
  return { known: false, dynamic: false };
}

export function isDynamicSetting(key: string): boolean {
  return lookup(key).dynamic;
}

/**
 * A request's settings (nested objects, dotted keys, or both; with or without the `index.` prefix) as ES's
 * flat `index.*` strings. `null` values are kept as null markers (they reset a setting on update).
 */
export function normalizeSettings(input: unknown): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const visit = (value: unknown, prefix: string): void => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) visit(child, prefix === '' ? key : `${prefix}.${key}`);
      return;
    }
    const key = prefix.startsWith('index.') || prefix === 'index' ? prefix : `index.${prefix}`;
    if (Array.isArray(value)) {
      value.forEach((item, position) => {
        if (item !== null && typeof item === 'object') throw errors.illegalArgument(`Failed to load settings from [${JSON.stringify(input)}]`);
        setOwnValue(out, `${key}.${position}`, String(item));
      });
      return;
    }
    setOwnValue(out, key, value === null ? null : String(value));
  };
  if (input === undefined || input === null) return out;
  if (typeof input !== 'object' || Array.isArray(input)) throw errors.illegalArgument(`Failed to load settings from [${JSON.stringify(input)}]`);
  visit(input, '');
  return out;
}

/** Validates user-given settings: every key known and settable, every value well-formed. */
export function validateUserSettings(settings: Record<string, string | null>, context: 'create' | 'update'): void {
  for (const [key, value] of Object.entries(settings)) {
    const found = lookup(key);
    if (!found.known) throw unknownSettingError(key, SETTINGS.map((setting) => setting.key));
    if (key === 'index.uuid' || key === 'index.version.created' || key === 'index.provided_name' || key === 'index.verified_before_close' || key.startsWith('index.resize.source.')) {
      throw errors.illegalArgument(`private index setting [${key}] can not be set explicitly`);
    }
    if (value !== null && found.def?.validate && key === found.def.key) found.def.validate(value, key);
  }
}

/** Defaults of the known settings, for `include_defaults`. */
export function defaultSettings(): FlatSettings {
  const out: FlatSettings = {};
  for (const setting of SETTINGS) if (setting.defaultValue !== undefined) out[setting.key] = setting.defaultValue;
  return out;
}

/** What the shard and document code read from an index's settings. */
export interface IndexSettingsView {
  readonly numberOfShards: number;
  readonly numberOfReplicas: number;
  readonly routingNumShards: number;
  readonly routingPartitionSize: number;
  /** -1 disables periodic refresh. */
  readonly refreshIntervalMillis: number;
  /**
   * Whether the index sets `index.refresh_interval` itself (ES's IndexSettings.isExplicitRefresh): only a shard of
   * an index that does not is skipped by scheduled refreshes once search-idle.
   */
  readonly explicitRefreshInterval: boolean;
  /** `index.search.idle.after`: how long without a searcher access makes a shard search-idle. */
  readonly searchIdleAfterMillis: number;
  readonly durability: 'request' | 'async';
  readonly syncIntervalMillis: number;
  readonly flushThresholdBytes: number;
  readonly gcDeletesMillis: number;
  /** `index.soft_deletes.retention_lease.period`: how long a peer-recovery lease lives without renewal. */
  readonly retentionLeasePeriodMillis: number;
  readonly maxResultWindow: number;
  readonly hidden: boolean;
  readonly mapping: MappingSettings;
  readonly blocks: { readonly write: boolean; readonly readOnly: boolean; readonly read: boolean; readonly metadata: boolean; readonly readOnlyAllowDelete: boolean };
  readonly waitForActiveShards: string;
  /** The `index.analysis.*` settings as a nested object, the form AnalysisRegistry.forIndex reads. */
  readonly analysis: Record<string, unknown>;
  readonly slowLog: SlowLogSettings;
}

function read(settings: FlatSettings, key: string): string {
  return settings[key] ?? BY_KEY.get(key)?.defaultValue ?? '';
}

export function readIndexSettings(settings: FlatSettings): IndexSettingsView {
  const numberOfShards = Number(read(settings, 'index.number_of_shards'));
  const mapping: MappingSettings = {
    ...DEFAULT_MAPPING_SETTINGS,
    totalFieldsLimit: Number(read(settings, 'index.mapping.total_fields.limit')),
    depthLimit: Number(read(settings, 'index.mapping.depth.limit')),
    fieldNameLengthLimit:
      settings['index.mapping.field_name_length.limit'] === undefined ? Number.MAX_SAFE_INTEGER : Number(settings['index.mapping.field_name_length.limit']),
    ignoreDynamicBeyondLimit: read(settings, 'index.mapping.total_fields.ignore_dynamic_beyond_limit') === 'true',
    ignoreMalformed: read(settings, 'index.mapping.ignore_malformed') === 'true',
    coerce: read(settings, 'index.mapping.coerce') !== 'false',
  };
  const bool = (key: string): boolean => read(settings, key) === 'true';
  return {
    numberOfShards,
    numberOfReplicas: Number(read(settings, 'index.number_of_replicas')),
    routingNumShards: settings['index.number_of_routing_shards'] !== undefined ? Number(settings['index.number_of_routing_shards']) : defaultRoutingNumShards(numberOfShards),
    routingPartitionSize: Number(read(settings, 'index.routing_partition_size')),
    refreshIntervalMillis: parseTimeValueMillis(read(settings, 'index.refresh_interval'), 'index.refresh_interval'),
    explicitRefreshInterval: settings['index.refresh_interval'] !== undefined,
    searchIdleAfterMillis: parseTimeValueMillis(read(settings, 'index.search.idle.after'), 'index.search.idle.after'),
    durability: read(settings, 'index.translog.durability').toUpperCase() === 'ASYNC' ? 'async' : 'request',
    syncIntervalMillis: parseTimeValueMillis(read(settings, 'index.translog.sync_interval'), 'index.translog.sync_interval'),
    flushThresholdBytes: parseByteSize(read(settings, 'index.translog.flush_threshold_size'), 'index.translog.flush_threshold_size'),
    gcDeletesMillis: Math.max(0, parseTimeValueMillis(read(settings, 'index.gc_deletes'), 'index.gc_deletes')),
    retentionLeasePeriodMillis: Math.max(0, parseTimeValueMillis(read(settings, 'index.soft_deletes.retention_lease.period'), 'index.soft_deletes.retention_lease.period')),
    maxResultWindow: Number(read(settings, 'index.max_result_window')),
    hidden: bool('index.hidden'),
    mapping,
    blocks: {
      write: bool('index.blocks.write'),
      readOnly: bool('index.blocks.read_only'),
      read: bool('index.blocks.read'),
      metadata: bool('index.blocks.metadata'),
      readOnlyAllowDelete: bool('index.blocks.read_only_allow_delete'),
    },
    waitForActiveShards: read(settings, 'index.write.wait_for_active_shards'),
    analysis: nestedGroup(settings, 'index.analysis.'),
    slowLog: readSlowLogSettings(settings),
  };
}

function readSlowLogSettings(settings: FlatSettings): SlowLogSettings {
  const thresholds = (prefix: string): SlowLogThresholds => {
    const nanos = (level: string): number => parseTimeValueNanos(read(settings, `${prefix}.${level}`), `${prefix}.${level}`);
    return { warn: nanos('warn'), info: nanos('info'), debug: nanos('debug'), trace: nanos('trace') };
  };
  const source = read(settings, 'index.indexing.slowlog.source');
  return {
    query: thresholds('index.search.slowlog.threshold.query'),
    fetch: thresholds('index.search.slowlog.threshold.fetch'),
    index: thresholds('index.indexing.slowlog.threshold.index'),
    sourceChars: source === 'true' ? Number.MAX_SAFE_INTEGER : source === 'false' ? 0 : Number(source),
    reformat: read(settings, 'index.indexing.slowlog.reformat') !== 'false',
  };
}

/** The settings under `prefix` as nested objects, `key.N` runs turned back into arrays. */
export function nestedGroup(settings: FlatSettings, prefix: string): Record<string, unknown> {
  const flat: FlatSettings = {};
  for (const [key, value] of Object.entries(settings)) if (key.startsWith(prefix)) setOwnValue(flat, key.slice(prefix.length), value);
  return toNested(flat);
}

/** Flat dotted keys to nested objects; objects whose keys are exactly 0..n-1 become arrays (ES's convertMapsToArrays). */
export function toNested(flat: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const key of Object.keys(flat).sort()) {
    const parts = key.split('.');
    let node = root;
    for (let i = 0; i < parts.length - 1; i++) {
      // Own properties only: a name such as `__proto__` in a settings key is a key, never the prototype.
      const existing = ownValue(node, parts[i]!);
      if (existing === undefined || typeof existing !== 'object' || existing === null) setOwnValue(node, parts[i]!, {});
      node = ownValue(node, parts[i]!) as Record<string, unknown>;
    }
    setOwnValue(node, parts[parts.length - 1]!, flat[key]);
  }
  return convertMapsToArrays(root) as Record<string, unknown>;
}

/**
 * ES's Settings.convertMapsToArrays: an object whose keys are exactly `0`..`n-1` is a list. Only canonical indices
 * count (ES parses each key, then looks `Integer.toString(i)` up: `00` or `01` keep their object), or a key such as
 * `00` would be lost in the list.
 */
function convertMapsToArrays(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, convertMapsToArrays(child)] as const);
  const keys = entries.map(([key]) => key);
  const isList = keys.length > 0 && keys.every((key) => /^(0|[1-9]\d*)$/.test(key)) && [...keys].map(Number).sort((a, b) => a - b).every((n, i) => n === i);
  if (isList) return [...entries].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, child]) => child);
  return Object.fromEntries(entries);
}

/** Flat settings with `key.N` runs shown as arrays (flat_settings=true output). */
export function flatWithLists(settings: FlatSettings): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of Object.keys(settings).sort()) {
    const match = /^(.*)\.(\d+)$/.exec(key);
    if (match && lookup(key).known && !BY_KEY.has(key)) {
      const list = (ownValue(out, match[1]!) as string[] | undefined) ?? [];
      list[Number(match[2])] = settings[key]!;
      setOwnValue(out, match[1]!, list);
    } else setOwnValue(out, key, settings[key]!);
  }
  return out;
}
