/**
 * The index APIs against a real node (rest-api-spec indices.create, indices.delete, indices.get,
 * indices.exists, indices.put_mapping/get_mapping, indices.put_settings/get_settings, indices.refresh,
 * indices.flush, indices.forcemerge, indices.stats and indices.analyze YAML tests): responses and ES errors.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dataNodeCount } from '../helpers/topology.js';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'indices-node' } });
});
after(async () => {
  await node.stop();
});

test('create index: acknowledged body, settings/mappings/aliases, and ES errors', async () => {
  const res = await node.request('PUT', '/idx', {
    body: { settings: { index: { number_of_shards: 2, number_of_replicas: 0 } }, mappings: { properties: { title: { type: 'text' } } }, aliases: { al: {} } },
  });
  assert.equal(res.status, 200);
  assert.equal(res.text, '{"acknowledged":true,"shards_acknowledged":true,"index":"idx"}');
  const again = await node.request('PUT', '/idx');
  assert.equal(again.status, 400);
  assert.equal(again.body.error.type, 'resource_already_exists_exception');
  assert.match(again.body.error.reason, /^index \[idx\/[\w-]{22}\] already exists$/);
  assert.equal(again.body.error.index, 'idx');
  const upper = await node.request('PUT', '/IDX');
  assert.equal(upper.body.error.type, 'invalid_index_name_exception');
  assert.equal(upper.body.error.reason, 'Invalid index name [IDX], must be lowercase');
  const underscore = await node.request('PUT', '/_idx');
  assert.equal(underscore.status, 400);
  const hashed = await node.request('PUT', '/a%23b');
  assert.equal(hashed.body.error.reason, "Invalid index name [a#b], must not contain '#'");
  const star = await node.request('PUT', '/a*b');
  assert.equal(star.body.error.reason, 'Invalid index name [a*b], must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]');
  const dots = await node.request('PUT', '/..');
  assert.equal(dots.body.error.reason, "Invalid index name [..], must not be '.' or '..'");
  const long = await node.request('PUT', `/${'a'.repeat(256)}`);
  assert.equal(long.body.error.reason, `Invalid index name [${'a'.repeat(256)}], index name is too long, (256 > 255)`);
  const zeroShards = await node.request('PUT', '/idx2', { body: { settings: { number_of_shards: 0 } } });
  assert.equal(zeroShards.body.error.reason, 'Failed to parse value [0] for setting [index.number_of_shards] must be >= 1');
  const tooMany = await node.request('PUT', '/idx2', { body: { settings: { number_of_shards: 1025 } } });
  assert.equal(tooMany.body.error.reason, 'Failed to parse value [1025] for setting [index.number_of_shards] must be <= 1024');
  const typo = await node.request('PUT', '/idx2', { body: { settings: { numer_of_shards: 1 } } });
  assert.equal(typo.body.error.reason, 'unknown setting [index.numer_of_shards] did you mean [index.number_of_shards]?');
  const unknown = await node.request('PUT', '/idx2', { body: { settings: { 'index.zzz': 1 } } });
  assert.equal(
    unknown.body.error.reason,
    'unknown setting [index.zzz] please check that any required plugins are installed, or check the breaking changes documentation for removed settings',
  );
  const badKey = await node.request('PUT', '/idx2', { body: { setings: {} } });
  assert.equal(badKey.body.error.type, 'parse_exception');
  assert.equal(badKey.body.error.reason, 'unknown key [setings] for create index');
  const badMapping = await node.request('PUT', '/idx2', { body: { mappings: { properties: { f: { type: 'nonsense' } } } } });
  assert.equal(badMapping.body.error.type, 'mapper_parsing_exception');
  const badAnalyzer = await node.request('PUT', '/idx2', { body: { settings: { analysis: { analyzer: { my: { tokenizer: 'nope' } } } } } });
  assert.equal(badAnalyzer.body.error.reason, 'Custom Analyzer [my] failed to find tokenizer under name [nope]');
  assert.equal((await node.request('HEAD', '/idx2')).status, 404);
  const tooManyWait = await node.request('PUT', '/idx2?wait_for_active_shards=3', { body: { settings: { number_of_replicas: 1 } } });
  assert.equal(tooManyWait.body.error.reason, 'invalid wait_for_active_shards[3]: cannot be greater than number of shard copies [2]');
});

test('get index and exists', async () => {
  const res = await node.request('GET', '/idx');
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body.idx), ['aliases', 'mappings', 'settings']);
  assert.deepEqual(res.body.idx.aliases, { al: {} });
  assert.deepEqual(res.body.idx.mappings, { properties: { title: { type: 'text' } } });
  const index = res.body.idx.settings.index;
  assert.deepEqual(Object.keys(index), ['routing', 'number_of_shards', 'provided_name', 'creation_date', 'number_of_replicas', 'uuid', 'version']);
  assert.equal(index.number_of_shards, '2');
  assert.equal(index.provided_name, 'idx');
  assert.deepEqual(index.routing, { allocation: { include: { _tier_preference: 'data_content' } } });
  assert.equal((await node.request('HEAD', '/idx')).status, 200);
  assert.equal((await node.request('HEAD', '/al')).status, 200, 'an alias exists too');
  assert.equal((await node.request('HEAD', '/nope')).status, 404);
  assert.equal((await node.request('HEAD', '/nope*')).status, 404);
  const missing = await node.request('GET', '/nope');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, 'index_not_found_exception');
  const features = await node.request('GET', '/idx?features=mappings');
  assert.deepEqual(Object.keys(features.body.idx), ['mappings']);
});

test('settings: get (nested, flat, by name, defaults) and update (dynamic only)', async () => {
  const flat = await node.request('GET', '/idx/_settings?flat_settings=true');
  assert.equal(flat.body.idx.settings['index.number_of_shards'], '2');
  const byName = await node.request('GET', '/idx/_settings/index.number_*');
  assert.deepEqual(byName.body, { idx: { settings: { index: { number_of_shards: '2', number_of_replicas: '0' } } } });
  const defaults = await node.request('GET', '/idx/_settings?include_defaults=true&flat_settings=true');
  assert.equal(defaults.body.idx.defaults['index.refresh_interval'], '1s');
  assert.equal(defaults.body.idx.defaults['index.max_result_window'], '10000');
  const nonDynamic = await node.request('PUT', '/idx/_settings', { body: { number_of_shards: 3 } });
  assert.equal(nonDynamic.status, 400);
  assert.match(nonDynamic.body.error.reason, /^Can't update non dynamic settings \[\[index\.number_of_shards\]\] for open indices \[\[idx\/[\w-]{22}\]\]$/);
  const ok = await node.request('PUT', '/idx/_settings', { body: { index: { refresh_interval: '5s', max_result_window: 500 } } });
  assert.deepEqual(ok.body, { acknowledged: true });
  const after = await node.request('GET', '/idx/_settings?flat_settings=true');
  assert.equal(after.body.idx.settings['index.refresh_interval'], '5s');
  assert.equal(after.body.idx.settings['index.max_result_window'], '500');
  const reset = await node.request('PUT', '/idx/_settings', { body: { settings: { 'index.refresh_interval': null } } });
  assert.equal(reset.status, 200);
  assert.equal((await node.request('GET', '/idx/_settings?flat_settings=true')).body.idx.settings['index.refresh_interval'], undefined);
  const badValue = await node.request('PUT', '/idx/_settings', { body: { 'index.refresh_interval': 'soon' } });
  assert.equal(badValue.status, 400);
  assert.equal(badValue.body.error.reason, 'failed to parse setting [index.refresh_interval] with value [soon] as a time value: unit is missing or unrecognized');
  const empty = await node.request('PUT', '/idx/_settings', { body: {} });
  assert.equal(empty.body.error.reason, 'Validation Failed: 1: no settings to update;');
  const durability = await node.request('PUT', '/idx/_settings', { body: { 'index.translog.durability': 'sometimes' } });
  assert.equal(durability.body.error.reason, 'No enum constant org.elasticsearch.index.translog.Translog.Durability.SOMETIMES');
});

test('mappings: get, put (merge), conflicts, and mapping errors', async () => {
  const put = await node.request('PUT', '/idx/_mapping', { body: { properties: { tag: { type: 'keyword' } } } });
  assert.deepEqual(put.body, { acknowledged: true });
  const get = await node.request('GET', '/idx/_mapping');
  assert.deepEqual(get.body, { idx: { mappings: { properties: { tag: { type: 'keyword' }, title: { type: 'text' } } } } });
  const conflict = await node.request('PUT', '/idx/_mapping', { body: { properties: { title: { type: 'keyword' } } } });
  assert.equal(conflict.status, 400);
  assert.equal(conflict.body.error.type, 'illegal_argument_exception');
  assert.equal(conflict.body.error.reason, 'mapper [title] cannot be changed from type [text] to [keyword]');
  const all = await node.request('GET', '/_mapping');
  assert.ok(all.body.idx);
  const missingIndex = await node.request('PUT', '/nope/_mapping', { body: { properties: {} } });
  assert.equal(missingIndex.status, 404);
  await node.request('PUT', '/idx/_doc/dyn?refresh=true', { body: { newfield: 12, when: '2024-01-02' } });
  const dynamic = await node.request('GET', '/idx/_mapping');
  assert.deepEqual(dynamic.body.idx.mappings.properties.newfield, { type: 'long' });
  assert.deepEqual(dynamic.body.idx.mappings.properties.when, { type: 'date' });
});

test('refresh, flush and force merge answer with _shards over every copy', async () => {
  await node.request('PUT', '/idx/_settings', { body: { number_of_replicas: 1 } });
  for (const [method, path] of [['POST', '/idx/_refresh'], ['GET', '/idx/_refresh'], ['POST', '/idx/_flush'], ['POST', '/idx/_forcemerge?max_num_segments=1']] as const) {
    const res = await node.request(method, path);
    assert.equal(res.status, 200, path);
    assert.deepEqual(res.body, { _shards: { total: 4, successful: 2, failed: 0 } }, path);
  }
  assert.deepEqual((await node.request('POST', '/_refresh')).body._shards.failed, 0);
  const missing = await node.request('POST', '/nope/_refresh');
  assert.equal(missing.status, 404);
  const both = await node.request('POST', '/idx/_forcemerge?max_num_segments=1&only_expunge_deletes=true');
  assert.equal(both.status, 400);
  assert.equal(both.body.error.type, 'action_request_validation_exception');
  await node.request('PUT', '/idx/_settings', { body: { number_of_replicas: 0 } });
});

test('delete index: wildcards refused, missing names 404, deletion removes the data', async () => {
  await node.request('PUT', '/gone', { body: { settings: { number_of_replicas: 0 } } });
  await node.request('PUT', '/gone/_doc/1', { body: { a: 1 } });
  const wildcard = await node.request('DELETE', '/gon*');
  assert.equal(wildcard.status, 400);
  assert.equal(wildcard.body.error.reason, 'Wildcard expressions or all indices are not allowed');
  assert.equal((await node.request('DELETE', '/_all')).status, 400);
  const missing = await node.request('DELETE', '/nope');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.reason, 'no such index [nope]');
  const deleted = await node.request('DELETE', '/gone');
  assert.deepEqual(deleted.body, { acknowledged: true });
  assert.equal((await node.request('HEAD', '/gone')).status, 404);
  // A new index with the old name starts empty.
  await node.request('PUT', '/gone', { body: { settings: { number_of_replicas: 0 } } });
  assert.equal((await node.request('GET', '/gone/_doc/1')).status, 404);
});

test('stats: levels, metric filters, figures that follow the writes', async () => {
  await node.request('PUT', '/st', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
  for (let i = 0; i < 3; i++) await node.request('PUT', `/st/_doc/${i}`, { body: { n: i } });
  await node.request('DELETE', '/st/_doc/0');
  await node.request('GET', '/st/_doc/1');
  await node.request('GET', '/st/_doc/missing');
  await node.request('POST', '/st/_refresh');
  const res = await node.request('GET', '/st/_stats');
  assert.deepEqual(Object.keys(res.body), ['_shards', '_all', 'indices']);
  assert.deepEqual(res.body._shards, { total: 1, successful: 1, failed: 0 });
  const primaries = res.body.indices.st.primaries;
  assert.deepEqual(Object.keys(primaries), [
    'docs', 'shard_stats', 'store', 'indexing', 'get', 'search', 'merges', 'refresh', 'flush', 'warmer', 'query_cache', 'fielddata',
    'completion', 'segments', 'translog', 'request_cache', 'recovery', 'bulk', 'dense_vector', 'sparse_vector',
  ]);
  assert.equal(primaries.docs.count, 2);
  assert.equal(primaries.indexing.index_total, 3);
  assert.equal(primaries.indexing.delete_total, 1);
  assert.equal(primaries.get.total, 2);
  assert.equal(primaries.get.exists_total, 1);
  assert.equal(primaries.get.missing_total, 1);
  assert.ok(primaries.refresh.total >= 1);
  assert.ok(primaries.store.size_in_bytes > 0);
  assert.match(res.text, /"write_load":0\.0/);
  assert.equal(res.body.indices.st.health, 'green');
  assert.equal(res.body.indices.st.status, 'open');
  const metrics = await node.request('GET', '/st/_stats/docs,indexing');
  assert.deepEqual(Object.keys(metrics.body._all.total), ['docs', 'indexing']);
  const cluster = await node.request('GET', '/_stats?level=cluster');
  assert.equal(cluster.body.indices, undefined);
  const shards = await node.request('GET', '/st/_stats/docs?level=shards');
  const copy = shards.body.indices.st.shards['0'][0];
  assert.deepEqual(copy.routing.state, 'STARTED');
  assert.equal(copy.routing.primary, true);
  assert.equal(copy.docs.count, 2);
  const badMetric = await node.request('GET', '/_stats/docz');
  assert.equal(badMetric.status, 400);
  assert.equal(badMetric.body.error.reason, 'request [/_stats/docz] contains unrecognized metric: [docz] -> did you mean [docs]?');
  const badLevel = await node.request('GET', '/_stats?level=node');
  assert.equal(badLevel.body.error.reason, 'level parameter must be one of [cluster] or [indices] or [shards] but was [node]');
});

test('_analyze: analyzer, tokenizer+filter, field, explain, and errors', async () => {
  const standard = await node.request('POST', '/_analyze', { body: { analyzer: 'standard', text: 'Hello World' } });
  assert.deepEqual(standard.body.tokens[0], { token: 'hello', start_offset: 0, end_offset: 5, type: '<ALPHANUM>', position: 0 });
  const custom = await node.request('GET', '/_analyze', { body: { tokenizer: 'whitespace', filter: ['lowercase'], text: ['A B', 'C'] } });
  assert.deepEqual(custom.body.tokens.map((token: { token: string }) => token.token), ['a', 'b', 'c']);
  await node.request('PUT', '/an', { body: { mappings: { properties: { k: { type: 'keyword' }, t: { type: 'text', analyzer: 'whitespace' } } } } });
  const field = await node.request('POST', '/an/_analyze', { body: { field: 't', text: 'Foo Bar' } });
  assert.deepEqual(field.body.tokens.map((token: { token: string }) => token.token), ['Foo', 'Bar']);
  const keyword = await node.request('POST', '/an/_analyze', { body: { field: 'k', text: 'Foo Bar' } });
  assert.deepEqual(keyword.body.tokens.map((token: { token: string }) => token.token), ['Foo Bar']);
  const explain = await node.request('POST', '/_analyze', { body: { tokenizer: 'standard', filter: ['lowercase'], text: 'X', explain: true } });
  assert.equal(explain.body.detail.custom_analyzer, true);
  assert.equal(explain.body.detail.tokenfilters[0].name, 'lowercase');
  const noText = await node.request('POST', '/_analyze', { body: { analyzer: 'standard' } });
  assert.equal(noText.body.error.reason, 'Validation Failed: 1: text is missing;');
  const unknownAnalyzer = await node.request('POST', '/_analyze', { body: { analyzer: 'nope', text: 'x' } });
  assert.equal(unknownAnalyzer.body.error.reason, 'failed to find global analyzer [nope]');
  const indexAnalyzer = await node.request('POST', '/an/_analyze', { body: { analyzer: 'nope', text: 'x' } });
  assert.equal(indexAnalyzer.body.error.reason, 'failed to find analyzer [nope]');
});

test('a single node with replicas is yellow; without, green', async () => {
  // One replica more than there are nodes other than the primary's (one on a single node): one stays unassigned.
  const nodes = dataNodeCount(node);
  await node.request('PUT', '/yellow', { body: { settings: { number_of_replicas: nodes } } });
  const yellow = await node.request('GET', '/_cluster/health/yellow?wait_for_no_initializing_shards=true&timeout=30s');
  assert.equal(yellow.body.status, 'yellow');
  assert.equal(yellow.body.unassigned_shards, 1);
  await node.request('PUT', '/green', { body: { settings: { number_of_replicas: 0 } } });
  assert.equal((await node.request('GET', '/_cluster/health/green')).body.status, 'green');
  await node.request('PUT', '/yellow/_settings', { body: { number_of_replicas: 0 } });
  assert.equal((await node.request('GET', '/_cluster/health/yellow')).body.status, 'green');
  await node.request('PUT', '/autoexp', { body: { settings: { auto_expand_replicas: '0-1' } } });
  const expanded = await node.request('GET', '/autoexp/_settings?flat_settings=true');
  // 0-1 expands to the data nodes but one, at most 1: 0 on one node.
  assert.equal(expanded.body.autoexp.settings['index.number_of_replicas'], String(Math.min(1, nodes - 1)));
});
