/**
 * Index admin APIs over HTTP against a real node, as ES 8.19 answers them: FlushRequest's validation,
 * `human=true`'s readable settings (indices.get/10_basic.yml), `_cat/segments` on a closed index,
 * `_field_caps` field `meta`, the index settings ES registers (IndexScopedSettings) with their types,
 * dynamic-or-not and validation messages, and GetIndexRequest's wildcard defaults.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { assertError } from '../helpers/es-error-assertions.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'index-admin-node' } });
});
after(async () => {
  await node.stop();
});

test('_flush: force needs wait_if_ongoing (FlushRequest.validate)', async () => {
  await node.request('PUT', '/flushed', { body: { settings: { number_of_replicas: 0 } } });
  assertError(
    await node.request('POST', '/flushed/_flush?force=true&wait_if_ongoing=false'),
    400,
    'action_request_validation_exception',
    'Validation Failed: 1: wait_if_ongoing must be true for a force flush;',
  );
  assert.equal((await node.request('POST', '/flushed/_flush?force=true')).status, 200);
  assert.equal((await node.request('POST', '/flushed/_flush?wait_if_ongoing=false')).status, 200);
  await node.request('DELETE', '/flushed');
});

test('human=true adds creation_date_string and version.created_string to get index and get settings', async () => {
  await node.request('PUT', '/readable', { body: { settings: { number_of_replicas: 0 } } });
  const plain = await node.request('GET', '/readable/_settings?flat_settings=true');
  const settings = plain.body.readable.settings;
  assert.equal(settings['index.creation_date_string'], undefined);
  const created = Number(settings['index.version.created']);
  const release = `${Math.floor(created / 1_000_000)}.${Math.floor(created / 10_000) % 100}.${Math.floor(created / 100) % 100}`;
  // ZonedDateTime.toString: seconds and millis only when not zero.
  const date = new Date(Number(settings['index.creation_date'])).toISOString().replace(/\.000Z$/, 'Z').replace(/:00Z$/, 'Z');

  const human = await node.request('GET', '/readable/_settings?human=true&flat_settings=true');
  assert.equal(human.body.readable.settings['index.creation_date_string'], date);
  assert.equal(human.body.readable.settings['index.version.created_string'], release);
  const nested = await node.request('GET', '/readable?human=true');
  assert.equal(nested.body.readable.settings.index.creation_date_string, date);
  assert.equal(nested.body.readable.settings.index.version.created_string, release);
  assert.equal((await node.request('GET', '/readable')).body.readable.settings.index.creation_date_string, undefined);
  // Added before the name filter, so it can be asked for by name.
  const named = await node.request('GET', '/readable/_settings/index.creation_date_string?human&flat_settings=true');
  assert.deepEqual(named.body, { readable: { settings: { 'index.creation_date_string': date } } });
  await node.request('DELETE', '/readable');
});

test('_cat/segments names a closed index: 400 index_closed_exception; a wildcard skips it', async () => {
  await node.request('PUT', '/seg-closed', { body: { settings: { number_of_replicas: 0 } } });
  await node.request('PUT', '/seg-open/_doc/1?refresh=true', { body: { a: 1 } });
  await node.request('POST', '/seg-closed/_close');
  const closed = await node.request('GET', '/_cat/segments/seg-closed');
  assert.equal(closed.status, 400, closed.text);
  assert.equal(closed.body.error.type, 'index_closed_exception');
  assert.equal(closed.body.error.reason, 'closed');
  assert.equal(closed.body.error.index, 'seg-closed');
  const wildcard = await node.request('GET', '/_cat/segments/seg-*?h=index&format=json');
  assert.equal(wildcard.status, 200, wildcard.text);
  assert.deepEqual([...new Set(wildcard.body.map((row: { index: string }) => row.index))], ['seg-open']);
  assert.equal((await node.request('GET', '/_cat/segments/seg-closed?ignore_unavailable=true')).status, 200);
  await node.request('DELETE', '/seg-closed,seg-open');
});

test('_field_caps merges each field type\'s meta across indices, keys and values sorted', async () => {
  await node.request('PUT', '/caps-1', { body: { mappings: { properties: { latency: { type: 'long', meta: { unit: 'ms', metric_type: 'gauge' } }, plain: { type: 'keyword' } } } } });
  await node.request('PUT', '/caps-2', { body: { mappings: { properties: { latency: { type: 'long', meta: { unit: 's' } }, name: { type: 'text', fields: { raw: { type: 'keyword', meta: { a: 'b' } } } } } } } });
  const caps = await node.request('GET', '/caps-*/_field_caps?fields=latency,plain,name.raw');
  assert.equal(caps.status, 200, caps.text);
  assert.deepEqual(caps.body.fields.latency.long.meta, { metric_type: ['gauge'], unit: ['ms', 's'] });
  assert.deepEqual(Object.keys(caps.body.fields.latency.long), ['type', 'metadata_field', 'searchable', 'aggregatable', 'meta']);
  assert.equal(caps.body.fields.plain.keyword.meta, undefined);
  assert.deepEqual(caps.body.fields['name.raw'].keyword.meta, { a: ['b'] });
  await node.request('DELETE', '/caps-1,caps-2');
});

test('index settings ES registers are accepted with their types, dynamic-or-not and messages', async () => {
  const settings = {
    'index.query_string.lenient': true,
    'index.query.parse.allow_unmapped_fields': true,
    'index.warmer.enabled': false,
    'index.translog.flush_threshold_age': '10m',
    'index.flush_after_merge': '1gb',
    'index.soft_deletes.retention.operations': 10,
    'index.mapping.ignore_above': 256,
    'index.routing.allocation.total_shards_per_node': 2,
    'index.routing.allocation.enable': 'primaries',
    'index.routing.rebalance.enable': 'none',
    'index.allocation.max_retries': 3,
    'index.store.type': 'niofs',
    'index.fielddata.cache': 'none',
    'index.shard.check_on_startup': 'checksum',
    'index.merge.scheduler.auto_throttle': false,
    number_of_replicas: 0,
  };
  const created = await node.request('PUT', '/tuned', { body: { settings, mappings: { properties: { n: { type: 'long' } } } } });
  assert.equal(created.status, 200, created.text);
  const stored = (await node.request('GET', '/tuned/_settings?flat_settings=true')).body.tuned.settings;
  assert.equal(stored['index.query_string.lenient'], 'true');
  assert.equal(stored['index.routing.allocation.enable'], 'primaries');
  const defaults = (await node.request('GET', '/tuned/_settings?flat_settings=true&include_defaults=true')).body.tuned.defaults;
  assert.equal(defaults['index.translog.flush_threshold_age'], undefined);
  assert.equal(defaults['index.warmer.enabled'], undefined);

  // index.query_string.lenient is acted on: a bad value for a numeric field matches nothing instead of failing.
  await node.request('PUT', '/tuned/_doc/1?refresh=true', { body: { n: 1 } });
  const lenient = await node.request('POST', '/tuned/_search', { body: { query: { query_string: { query: 'n:abc' } } } });
  assert.equal(lenient.status, 200, lenient.text);
  assert.equal(lenient.body.hits.total.value, 0);

  // Static settings change only on a closed index; dynamic ones on an open one.
  assertError(
    await node.request('PUT', '/tuned/_settings', { body: { 'index.query_string.lenient': false } }),
    400,
    'illegal_argument_exception',
    `Can't update non dynamic settings [[index.query_string.lenient]] for open indices [[tuned/${(await node.request('GET', '/tuned/_settings/index.uuid?flat_settings=true')).body.tuned.settings['index.uuid']}]]`,
  );
  assert.equal((await node.request('PUT', '/tuned/_settings', { body: { 'index.routing.rebalance.enable': 'all', 'index.warmer.enabled': true } })).status, 200);
  await node.request('POST', '/tuned/_close');
  assert.equal((await node.request('PUT', '/tuned/_settings', { body: { 'index.query_string.lenient': false } })).status, 200);
  await node.request('POST', '/tuned/_open');

  const invalid: Array<[Record<string, unknown>, string]> = [
    [{ 'index.shard.check_on_startup': 'maybe' }, 'unknown value for [index.shard.check_on_startup] must be one of [true, false, checksum] but was: maybe'],
    [{ 'index.routing.allocation.enable': 'some' }, 'Illegal allocation.enable value [some]'],
    [{ 'index.routing.rebalance.enable': 'some' }, 'Illegal rebalance.enable value [some]'],
    [{ 'index.routing.allocation.total_shards_per_node': -2 }, 'Failed to parse value [-2] for setting [index.routing.allocation.total_shards_per_node] must be >= -1'],
    [{ 'index.translog.flush_threshold_age': '2h' }, 'failed to parse value [2h] for setting [index.translog.flush_threshold_age], must be <= [1h]'],
    [{ 'index.translog.flush_threshold_age': '10ms' }, 'failed to parse value [10ms] for setting [index.translog.flush_threshold_age], must be >= [1s]'],
    [{ 'index.store.type': 'ramfs' }, 'Unknown store type [ramfs]'],
    [{ 'index.fielddata.cache': 'all' }, 'failed to parse [all] must be one of [node,none]'],
    [{ 'index.query_string.lenient': 'yes' }, 'Failed to parse value [yes] as only [true] or [false] are allowed.'],
    [{ 'index.soft_deletes.retention.operations': -1 }, 'Failed to parse value [-1] for setting [index.soft_deletes.retention.operations] must be >= 0'],
    [{ 'index.merge.policy.expunge_deletes_allowed': -1 }, 'Failed to parse value [-1] for setting [index.merge.policy.expunge_deletes_allowed] must be >= 0.0'],
    // Only the include/exclude/require groups take any key under index.routing.allocation.
    [{ 'index.routing.allocation.colour': 'red' }, 'unknown setting [index.routing.allocation.colour] did you mean [index.routing.allocation.enable]?'],
  ];
  for (const [bad, reason] of invalid) {
    assertError(await node.request('PUT', '/tuned-bad', { body: { settings: bad } }), 400, 'illegal_argument_exception', reason);
  }
  assert.equal((await node.request('PUT', '/tuned-ok?wait_for_active_shards=0', { body: { settings: { 'index.routing.allocation.require.zone': 'a', number_of_replicas: 0 } } })).status, 200);
  await node.request('DELETE', '/tuned,tuned-ok');
});

test('GET /{index} expands wildcards to open indices only (GetIndexRequest.strictExpandOpen); a named closed index answers', async () => {
  await node.request('PUT', '/getidx-open', { body: { settings: { number_of_replicas: 0 } } });
  await node.request('PUT', '/getidx-closed', { body: { settings: { number_of_replicas: 0 } } });
  await node.request('POST', '/getidx-closed/_close');
  assert.deepEqual(Object.keys((await node.request('GET', '/getidx-*')).body), ['getidx-open']);
  assert.deepEqual(Object.keys((await node.request('GET', '/getidx-*?expand_wildcards=closed')).body), ['getidx-closed']);
  assert.deepEqual(Object.keys((await node.request('GET', '/getidx-closed')).body), ['getidx-closed']);
  assert.equal((await node.request('HEAD', '/getidx-closed')).status, 200);
  await node.request('DELETE', '/getidx-open,getidx-closed');
});
