import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { NodeProcess } from '../helpers/node-process.js';

const TRANSIENT_WARNING =
  '[transient settings removal] Updating cluster settings through transient settings is deprecated. Some Elastic products may make use of ' +
  'transient settings and those should not be changed. Any custom use of transient settings should be replaced by persistent settings.';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.attr.rack': 'r1' } });
});
after(async () => {
  await node.stop();
});

function errorOf(type: string, reason: string) {
  return { error: { root_cause: [{ type, reason }], type, reason }, status: 400 };
}

test('an untouched cluster answers empty persistent and transient settings', async () => {
  const res = await node.request('GET', '/_cluster/settings');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { persistent: {}, transient: {} });
});

test('put and reset persistent settings (flat and nested forms), as the ES YAML test does', async () => {
  const put = await node.request('PUT', '/_cluster/settings?flat_settings=true', { body: { persistent: { 'cluster.routing.allocation.enable': 'none' } } });
  assert.equal(put.status, 200);
  assert.deepEqual(put.body, { acknowledged: true, persistent: { 'cluster.routing.allocation.enable': 'none' }, transient: {} });
  assert.equal(put.headers['warning'], undefined);
  const nested = await node.request('GET', '/_cluster/settings');
  assert.deepEqual(nested.body, { persistent: { cluster: { routing: { allocation: { enable: 'none' } } } }, transient: {} });
  const reset = await node.request('PUT', '/_cluster/settings?flat_settings=true', { body: { persistent: { cluster: { routing: { allocation: { enable: null } } } } } });
  assert.deepEqual(reset.body, { acknowledged: true, persistent: {}, transient: {} });
  assert.deepEqual((await node.request('GET', '/_cluster/settings?flat_settings=true')).body, { persistent: {}, transient: {} });
});

test('transient settings carry the deprecation warning and win over persistent ones', async () => {
  const put = await node.request('PUT', '/_cluster/settings?flat_settings=true', {
    body: { transient: { 'search.max_buckets': 7 }, persistent: { 'search.max_buckets': 9 } },
  });
  assert.equal(put.status, 200);
  assert.deepEqual(put.body, { acknowledged: true, persistent: { 'search.max_buckets': '9' }, transient: { 'search.max_buckets': '7' } });
  assert.match(String(put.headers['warning']), /^299 Elasticsearch-\S+ "/);
  assert.ok(String(put.headers['warning']).includes(TRANSIENT_WARNING));
  // The effective limit is the transient 7: eight buckets are too many.
  await node.request('PUT', '/buckets/_doc/1?refresh=true', { body: { n: 1 } });
  const tooMany = await node.request('POST', '/buckets/_search', { body: { size: 0, aggs: { h: { histogram: { field: 'n', interval: 1, extended_bounds: { min: 0, max: 7 } } } } } });
  assert.equal(tooMany.status, 400, JSON.stringify(tooMany.body));
  assert.match(JSON.stringify(tooMany.body), /Must be less than or equal to: \[7\]/);
  await node.request('PUT', '/_cluster/settings', { body: { transient: { 'search.*': null }, persistent: { 'search.max_buckets': null } } });
  const fine = await node.request('POST', '/buckets/_search', { body: { size: 0, aggs: { h: { histogram: { field: 'n', interval: 1, extended_bounds: { min: 0, max: 7 } } } } } });
  assert.equal(fine.status, 200, JSON.stringify(fine.body));
  assert.deepEqual((await node.request('GET', '/_cluster/settings')).body, { persistent: {}, transient: {} });
});

test('action.auto_create_index and action.destructive_requires_name take effect on the next request', async () => {
  await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'action.auto_create_index': '-nope*,+*' } } });
  const refused = await node.request('PUT', '/nope-1/_doc/1', { body: { a: 1 } });
  assert.equal(refused.status, 404);
  assert.equal(refused.body.error.reason, 'no such index [nope-1] and [action.auto_create_index] contains [-nope*] which forbids automatic creation of the index');
  assert.equal((await node.request('PUT', '/yes-1/_doc/1', { body: { a: 1 } })).status, 201);
  await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'action.auto_create_index': null, 'action.destructive_requires_name': false } } });
  assert.equal((await node.request('DELETE', '/yes-*')).status, 200);
  assert.equal((await node.request('GET', '/yes-1')).status, 404);
  await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'action.destructive_requires_name': null } } });
});

test('unknown settings, bad values and empty updates get ES errors and change nothing', async () => {
  const unknown = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'no.such.setting': 1 } } });
  assert.deepEqual(unknown.body, errorOf('illegal_argument_exception', 'persistent setting [no.such.setting], not recognized'));
  const unknownTransient = await node.request('PUT', '/_cluster/settings', { body: { transient: { 'no.such.setting': null } } });
  assert.deepEqual(unknownTransient.body, errorOf('illegal_argument_exception', 'transient setting [no.such.setting], not recognized'));
  const badInt = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'search.max_buckets': 'many', 'action.destructive_requires_name': false } } });
  assert.equal(badInt.status, 400);
  assert.equal(badInt.body.error.reason, 'Failed to parse value [many] for setting [search.max_buckets]');
  assert.equal(badInt.body.error.caused_by.type, 'number_format_exception');
  const negative = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.max_shards_per_node': 0 } } });
  assert.equal(negative.body.error.reason, 'Failed to parse value [0] for setting [cluster.max_shards_per_node] must be >= 1');
  const badEnum = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.allocation.enable': 'some' } } });
  assert.equal(badEnum.body.error.reason, 'Illegal allocation.enable value [SOME]');
  const badBool = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'action.destructive_requires_name': 'yes' } } });
  assert.equal(badBool.body.error.reason, 'Failed to parse value [yes] as only [true] or [false] are allowed.');
  const badTime = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'search.default_search_timeout': '5 parsecs' } } });
  assert.equal(badTime.body.error.reason, 'failed to parse setting [search.default_search_timeout] with value [5 parsecs] as a time value: unit is missing or unrecognized');
  const empty = await node.request('PUT', '/_cluster/settings', { body: {} });
  assert.deepEqual(empty.body, errorOf('action_request_validation_exception', 'Validation Failed: 1: no settings to update;'));
  assert.deepEqual((await node.request('GET', '/_cluster/settings')).body, { persistent: {}, transient: {} });
});

test('indices.recovery.max_concurrent_file_chunks: an integer from 1 to 8 (ES intSetting(2, 1, 8)), dynamic; indices.recovery.chunk_size is not a setting', async () => {
  const key = 'indices.recovery.max_concurrent_file_chunks';
  const tooMany = await node.request('PUT', '/_cluster/settings', { body: { persistent: { [key]: 9 } } });
  assert.equal(tooMany.status, 400);
  assert.deepEqual(tooMany.body, errorOf('illegal_argument_exception', `Failed to parse value [9] for setting [${key}] must be <= 8`));
  const none = await node.request('PUT', '/_cluster/settings', { body: { transient: { [key]: '0' } } });
  assert.deepEqual(none.body, errorOf('illegal_argument_exception', `Failed to parse value [0] for setting [${key}] must be >= 1`));
  const word = await node.request('PUT', '/_cluster/settings', { body: { persistent: { [key]: 'two' } } });
  assert.equal(word.body.error.reason, `Failed to parse value [two] for setting [${key}]`);
  assert.equal(word.body.error.caused_by.type, 'number_format_exception');
  // ES registers chunk_size only in its test framework: a cluster refuses it as unknown.
  const chunkSize = await node.request('PUT', '/_cluster/settings', { body: { transient: { 'indices.recovery.chunk_size': '1mb' } } });
  assert.deepEqual(chunkSize.body, errorOf('illegal_argument_exception', 'transient setting [indices.recovery.chunk_size], not recognized'));
  assert.deepEqual((await node.request('GET', '/_cluster/settings')).body, { persistent: {}, transient: {} });
  const defaults = await node.request('GET', '/_cluster/settings?include_defaults=true&flat_settings=true');
  assert.equal(defaults.body.defaults[key], '2');
  const put = await node.request('PUT', '/_cluster/settings', { body: { transient: { [key]: 8 } } });
  assert.deepEqual(put.body, { acknowledged: true, persistent: {}, transient: { indices: { recovery: { max_concurrent_file_chunks: '8' } } } });
  const nested = await node.request('GET', '/_cluster/settings');
  assert.equal(nested.body.transient.indices.recovery.max_concurrent_file_chunks, '8');
  await node.request('PUT', '/_cluster/settings', { body: { transient: { [key]: null } } });
  assert.deepEqual((await node.request('GET', '/_cluster/settings')).body, { persistent: {}, transient: {} });
});

test('include_defaults lists node settings and the defaults of known cluster settings not set in the cluster', async () => {
  await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'search.max_buckets': 100 } } });
  const res = await node.request('GET', '/_cluster/settings?include_defaults=true&flat_settings=true');
  assert.deepEqual(res.body.persistent, { 'search.max_buckets': '100' });
  assert.equal(res.body.defaults['node.attr.rack'], 'r1');
  assert.equal(res.body.defaults['indices.recovery.max_bytes_per_sec'], '40mb');
  assert.equal(res.body.defaults['search.max_buckets'], undefined);
  const nested = await node.request('GET', '/_cluster/settings?include_defaults=true');
  assert.equal(nested.body.defaults.node.attr.rack, 'r1');
  await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'search.max_buckets': null } } });
});

test('cluster.routing.allocation.enable none keeps a new index unassigned until allocation is enabled again', async () => {
  const off = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.allocation.enable': 'none' } } });
  assert.equal(off.status, 200, off.text);
  try {
    const created = await node.request('PUT', '/gated?wait_for_active_shards=0', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
    assert.deepEqual(created.body, { acknowledged: true, shards_acknowledged: true, index: 'gated' });
    const waiting = await node.request('GET', '/_cluster/health/gated?wait_for_status=green&timeout=300ms');
    assert.equal(waiting.body.timed_out, true, waiting.text);
    assert.equal(waiting.body.unassigned_primary_shards, 2, waiting.text);
  } finally {
    const on = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.allocation.enable': null } } });
    assert.equal(on.status, 200, on.text);
  }
  const green = await node.request('GET', '/_cluster/health/gated?wait_for_status=green&timeout=30s');
  assert.equal(green.body.status, 'green', green.text);
  assert.equal((await node.request('PUT', '/gated/_doc/1?refresh=true', { body: { a: 1 } })).status, 201);
  assert.equal((await node.request('DELETE', '/gated')).status, 200);
});

test('persistent settings survive a restart, transient ones do not', async () => {
  const first = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true });
  const dataPath = first.dataPath;
  try {
    await first.request('PUT', '/_cluster/settings', { body: { persistent: { 'search.max_buckets': 123 }, transient: { 'search.default_keep_alive': '2m' } } });
    assert.equal(await first.stop(), 0);
    const second = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true });
    try {
      const res = await second.request('GET', '/_cluster/settings?flat_settings=true');
      assert.deepEqual(res.body, { persistent: { 'search.max_buckets': '123' }, transient: {} });
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
});
