/** Index settings: normalisation of request shapes, ES's validation messages, the typed view, and name rules. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  flatWithLists,
  normalizeSettings,
  readIndexSettings,
  toNested,
  validateIndexName,
  validateUserSettings,
} from '../../../src/indices/index.js';

test('nested, dotted and unprefixed settings all normalise to flat index.* strings; lists to key.N', () => {
  assert.deepEqual(normalizeSettings({ number_of_shards: 3 }), { 'index.number_of_shards': '3' });
  assert.deepEqual(normalizeSettings({ index: { number_of_shards: 3, refresh_interval: '1s' } }), {
    'index.number_of_shards': '3',
    'index.refresh_interval': '1s',
  });
  assert.deepEqual(normalizeSettings({ 'index.blocks.write': true }), { 'index.blocks.write': 'true' });
  assert.deepEqual(normalizeSettings({ analysis: { analyzer: { a: { filter: ['lowercase', 'stop'] } } } }), {
    'index.analysis.analyzer.a.filter.0': 'lowercase',
    'index.analysis.analyzer.a.filter.1': 'stop',
  });
  assert.deepEqual(normalizeSettings({ refresh_interval: null }), { 'index.refresh_interval': null });
  assert.deepEqual(normalizeSettings(undefined), {});
});

test('lists round-trip: nested arrays for analysis, arrays in flat output', () => {
  const flat = { 'index.analysis.analyzer.a.filter.0': 'lowercase', 'index.analysis.analyzer.a.filter.1': 'stop', 'index.analysis.analyzer.a.tokenizer': 'standard' };
  assert.deepEqual(toNested(flat), { index: { analysis: { analyzer: { a: { filter: ['lowercase', 'stop'], tokenizer: 'standard' } } } } });
  assert.deepEqual(flatWithLists(flat), { 'index.analysis.analyzer.a.filter': ['lowercase', 'stop'], 'index.analysis.analyzer.a.tokenizer': 'standard' });
});

test('validation messages follow ES Setting parsers', () => {
  const fails = (settings: Record<string, string | null>, message: string) =>
    assert.throws(() => validateUserSettings(settings, 'create'), (err: Error) => err.message === message);
  fails({ 'index.number_of_shards': '0' }, 'Failed to parse value [0] for setting [index.number_of_shards] must be >= 1');
  fails({ 'index.number_of_shards': 'x' }, 'Failed to parse value [x] for setting [index.number_of_shards]');
  fails({ 'index.number_of_replicas': '-1' }, 'Failed to parse value [-1] for setting [index.number_of_replicas] must be >= 0');
  fails({ 'index.hidden': 'yes' }, 'Failed to parse value [yes] as only [true] or [false] are allowed.');
  fails({ 'index.highlight.weight_matches_mode.enabled': 'no' }, 'Failed to parse value [no] as only [true] or [false] are allowed.');
  fails({ 'index.refresh_interval': '10' }, 'failed to parse setting [index.refresh_interval] with value [10] as a time value: unit is missing or unrecognized');
  fails({ 'index.translog.durability': 'never' }, 'No enum constant org.elasticsearch.index.translog.Translog.Durability.NEVER');
  fails({ 'index.uuid': 'abc' }, 'private index setting [index.uuid] can not be set explicitly');
  fails({ 'index.refresh_intervl': '1s' }, 'unknown setting [index.refresh_intervl] did you mean [index.refresh_interval]?');
  assert.doesNotThrow(() => validateUserSettings({ 'index.analysis.filter.x.type': 'stop', 'index.routing.allocation.require._name': 'n1' }, 'create'));
  assert.doesNotThrow(() => validateUserSettings({ 'index.refresh_interval': '-1', 'index.translog.durability': 'async' }, 'update'));
  // Dynamic, as ES's IndexSettings.WEIGHT_MATCHES_MODE_ENABLED_SETTING.
  assert.doesNotThrow(() => validateUserSettings({ 'index.highlight.weight_matches_mode.enabled': 'false' }, 'update'));
});

test("setting types are ES's: longs take epoch milliseconds and values past 2^31, doubles take fractions", () => {
  const fails = (settings: Record<string, string | null>, message: string) =>
    assert.throws(() => validateUserSettings(settings, 'create'), (err: Error) => err.message === message);
  // IndexMetadata.SETTING_CREATION_DATE is a long (min -1): epoch milliseconds, which an int cannot hold.
  assert.doesNotThrow(() => validateUserSettings({ 'index.creation_date': '1732752000000' }, 'create'));
  fails({ 'index.creation_date': '17e11' }, 'Failed to parse value [17e11] for setting [index.creation_date]');
  fails({ 'index.creation_date': '-2' }, 'Failed to parse value [-2] for setting [index.creation_date] must be >= -1');
  // MapperService's limits are longs.
  assert.doesNotThrow(() => validateUserSettings({ 'index.mapping.total_fields.limit': '5000000000', 'index.mapping.field_name_length.limit': '9223372036854775807' }, 'update'));
  fails({ 'index.mapping.field_name_length.limit': '9223372036854775808' }, 'Failed to parse value [9223372036854775808] for setting [index.mapping.field_name_length.limit]');
  fails({ 'index.mapping.depth.limit': '0' }, 'Failed to parse value [0] for setting [index.mapping.depth.limit] must be >= 1');
  assert.doesNotThrow(() => validateUserSettings({ 'index.lifecycle.origination_date': '1732752000000' }, 'update'));
  // Merge policy doubles.
  assert.doesNotThrow(() => validateUserSettings({ 'index.merge.policy.segments_per_tier': '7.5', 'index.merge.policy.deletes_pct_allowed': '33' }, 'update'));
  fails({ 'index.merge.policy.deletes_pct_allowed': '60' }, 'Failed to parse value [60] for setting [index.merge.policy.deletes_pct_allowed] must be <= 50.0');
  fails({ 'index.merge.policy.segments_per_tier': 'many' }, 'Failed to parse value [many] for setting [index.merge.policy.segments_per_tier]');
  fails({ 'index.shard.check_on_startup': 'always' }, 'unknown value for [index.shard.check_on_startup] must be one of [true, false, checksum] but was: always');
});

test('the typed view: defaults, routing shards, durability, mapping limits, blocks', () => {
  const defaults = readIndexSettings({});
  assert.equal(defaults.numberOfShards, 1);
  assert.equal(defaults.numberOfReplicas, 1);
  assert.equal(defaults.routingNumShards, 1024);
  assert.equal(defaults.refreshIntervalMillis, 1000);
  assert.equal(defaults.durability, 'request');
  assert.equal(defaults.maxResultWindow, 10000);
  assert.equal(defaults.mapping.totalFieldsLimit, 1000);
  const custom = readIndexSettings({
    'index.number_of_shards': '5',
    'index.refresh_interval': '-1',
    'index.translog.durability': 'async',
    'index.mapping.total_fields.limit': '10',
    'index.blocks.write': 'true',
    'index.number_of_routing_shards': '10',
  });
  assert.equal(custom.routingNumShards, 10);
  assert.equal(custom.refreshIntervalMillis, -1);
  assert.equal(custom.durability, 'async');
  assert.equal(custom.mapping.totalFieldsLimit, 10);
  assert.equal(custom.blocks.write, true);
  assert.equal(readIndexSettings({ 'index.number_of_shards': '5' }).routingNumShards, 640);
});

test('index names: ES rules and messages', () => {
  const fails = (name: string, message: string) => assert.throws(() => validateIndexName(name), (err: Error) => err.message === `Invalid index name [${name}], ${message}`);
  fails('a b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]');
  fails('a|b', 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]');
  fails('a#b', "must not contain '#'");
  fails('a:b', "must not contain ':'");
  fails('_a', "must not start with '_', '-', or '+'");
  fails('-a', "must not start with '_', '-', or '+'");
  fails('+a', "must not start with '_', '-', or '+'");
  fails('.', "must not be '.' or '..'");
  fails('Abc', 'must be lowercase');
  fails('é'.repeat(128), 'index name is too long, (256 > 255)');
  assert.doesNotThrow(() => validateIndexName('.hidden-ok'));
  assert.doesNotThrow(() => validateIndexName('logs-2024.01.01'));
});
