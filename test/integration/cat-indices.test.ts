/**
 * `_cat/indices`, `_cat/shards`, `_cat/count` and `_cat/segments` against a real node (rest-api-spec
 * cat.indices, cat.shards, cat.count, cat.segments YAML tests), and ES's document routing observed through
 * per-shard document counts: ids land on the shard numbers ES's IndexRoutingTests expect.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ oneNode: "asserts one node's shard placement (yellow, unassigned replicas, primaries on this node); across nodes: test/cluster/broadcast-across-nodes", settings: { 'node.name': 'cat-idx-node' } });
  await node.request('PUT', '/logs', { body: { settings: { number_of_shards: 2, number_of_replicas: 1 } } });
  await node.request('PUT', '/logs/_doc/1', { body: { msg: 'a' } });
  await node.request('PUT', '/logs/_doc/2', { body: { msg: 'b' } });
  await node.request('DELETE', '/logs/_doc/2');
  await node.request('POST', '/logs/_refresh');
});
after(async () => {
  await node.stop();
});

test('_cat/indices: ES 8.19 default columns and values', async () => {
  const res = await node.request('GET', '/_cat/indices?v');
  assert.equal(res.status, 200);
  const [header, row] = res.text.split('\n');
  assert.deepEqual(header!.trim().split(/\s+/), ['health', 'status', 'index', 'uuid', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size', 'dataset.size']);
  const cells = row!.trim().split(/\s+/);
  assert.deepEqual(cells.slice(0, 3), ['yellow', 'open', 'logs']);
  assert.match(cells[3]!, /^[\w-]{22}$/);
  assert.deepEqual(cells.slice(4, 7), ['2', '1', '1']);
  assert.match(cells[8]!, /^\d+(\.\d+)?[kmg]?b$/);
});

test('_cat/indices: json rows, h with aliases, pri siblings, health filter, bytes', async () => {
  const json = await node.request('GET', '/_cat/indices?format=json&h=i,dc,ss&bytes=b');
  assert.equal(json.status, 200);
  assert.equal(json.body.length, 1);
  // Aliases in `h` are also the names the rows use, as in ES.
  assert.deepEqual(Object.keys(json.body[0]), ['i', 'dc', 'ss']);
  assert.match(json.body[0]['ss'], /^\d+$/);
  const pri = await node.request('GET', '/_cat/indices?h=index,indexing.index_total&pri&format=json');
  assert.deepEqual(Object.keys(pri.body[0]), ['index', 'indexing.index_total', 'pri.indexing.index_total']);
  assert.equal(pri.body[0]['indexing.index_total'], '2');
  const green = await node.request('GET', '/_cat/indices?health=green&format=json');
  assert.deepEqual(green.body, []);
  const bad = await node.request('GET', '/_cat/indices?health=purple');
  assert.equal(bad.status, 400);
  const missing = await node.request('GET', '/_cat/indices/nope');
  assert.equal(missing.status, 404);
  const help = await node.request('GET', '/_cat/indices?help');
  assert.match(help.text, /^health +\| h +\| current health status +\n/);
  assert.match(help.text, /\npri\.store\.size +\| +\| store size of primaries +\n/);
});

test('_cat/shards: a row per copy, the unassigned replicas included', async () => {
  const res = await node.request('GET', '/_cat/shards/logs?format=json&s=shard,prirep');
  assert.equal(res.body.length, 4);
  assert.deepEqual(Object.keys(res.body[0]), ['index', 'shard', 'prirep', 'state', 'docs', 'store', 'dataset', 'ip', 'node']);
  const primaries = res.body.filter((row: Record<string, string>) => row['prirep'] === 'p');
  assert.ok(primaries.every((row: Record<string, string>) => row['state'] === 'STARTED' && row['node'] === 'cat-idx-node'));
  const replicas = res.body.filter((row: Record<string, string>) => row['prirep'] === 'r');
  assert.ok(replicas.every((row: Record<string, string | null>) => row['state'] === 'UNASSIGNED' && row['node'] === null && row['docs'] === null));
  const reason = await node.request('GET', '/_cat/shards/logs?h=prirep,unassigned.reason,recoverysource.type&format=json&s=prirep');
  assert.equal(reason.body[2]['unassigned.reason'], 'INDEX_CREATED');
  assert.equal(reason.body[2]['recoverysource.type'], 'peer');
  const text = await node.request('GET', '/_cat/shards?v');
  assert.match(text.text.split('\n')[0]!, /^index\s+shard\s+prirep\s+state\s+docs\s+store\s+dataset\s+ip\s+node\s*$/);
});

test('_cat/count counts the refreshed documents of primaries', async () => {
  const res = await node.request('GET', '/_cat/count/logs?format=json');
  assert.deepEqual(Object.keys(res.body[0]), ['epoch', 'timestamp', 'count']);
  assert.equal(res.body[0].count, '1');
  const text = await node.request('GET', '/_cat/count?v');
  assert.match(text.text, /^epoch\s+timestamp\s+count\n\d+\s+\d\d:\d\d:\d\d\s+\d+\n$/);
});

test('_cat/count also answers POST, as ES 9.3 does (the Python client 9.x sends POST)', async () => {
  const res = await node.request('POST', '/_cat/count/logs?format=json');
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body[0].count, '1');
  const all = await node.request('POST', '/_cat/count?v');
  assert.equal(all.status, 200, all.text);
  assert.match(all.text, /^epoch\s+timestamp\s+count\n/);
});

test('_cat/segments lists segments with ES columns', async () => {
  const res = await node.request('GET', '/_cat/segments/logs?v');
  const header = res.text.split('\n')[0]!.trim().split(/\s+/);
  assert.deepEqual(header, ['index', 'shard', 'prirep', 'ip', 'segment', 'generation', 'docs.count', 'docs.deleted', 'size', 'size.memory', 'committed', 'searchable', 'version', 'compound']);
  const rows = await node.request('GET', '/_cat/segments/logs?format=json');
  assert.ok(rows.body.length >= 1);
  assert.ok(rows.body.every((row: Record<string, string>) => row['index'] === 'logs' && /^_/.test(row['segment']!)));
});

test('/_cat lists the new endpoints in ES order', async () => {
  const res = await node.request('GET', '/_cat');
  const lines = res.text.split('\n');
  const order = ['/_cat/allocation', '/_cat/shards', '/_cat/nodes', '/_cat/tasks', '/_cat/indices', '/_cat/segments', '/_cat/count', '/_cat/health'];
  const positions = order.map((line) => lines.indexOf(line));
  assert.ok(positions.every((position) => position >= 0), res.text);
  assert.deepEqual([...positions].sort((a, b) => a - b), positions);
});

/** ES's IndexRoutingTests.testBWC: with 8 routing shards these ids belong to these shards. */
const BWC_SHARDS: Record<string, number> = {
  sEERfFzPSI: 1, cNRiIrjzYd: 7, BgfLBXUyWT: 5, cnepjZhQnb: 3, OKCmuYkeCK: 6, OutXGRQUja: 5, yCdyocKWou: 1, KXuNWWNgVj: 2,
  DGJOYrpESx: 4, upLDybdTGs: 5, yhZhzCPQby: 1, EyCVeiCouA: 1, tFyVdQauWR: 6, nyeRYDnDQr: 6, hswhrppvDH: 0, BSiWvDOsNE: 5,
};

test('documents land on the shard numbers ES computes for them', async () => {
  await node.request('PUT', '/routing8', { body: { settings: { number_of_shards: 8, number_of_routing_shards: 8, number_of_replicas: 0 } } });
  const expected = new Map<number, number>();
  const lines: string[] = [];
  for (const [id, shard] of Object.entries(BWC_SHARDS)) {
    lines.push(JSON.stringify({ index: { _index: 'routing8', _id: id } }), '{}');
    expected.set(shard, (expected.get(shard) ?? 0) + 1);
  }
  const bulk = await node.request('POST', '/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false);
  const shards = await node.request('GET', '/_cat/shards/routing8?format=json&h=shard,docs');
  for (const row of shards.body as Array<{ shard: string; docs: string }>) {
    assert.equal(Number(row.docs), expected.get(Number(row.shard)) ?? 0, `shard ${row.shard}`);
  }
  // With ES's default routing shards (1024 for 2 shards), id "1" is on shard 0 (IndexRoutingTests).
  await node.request('PUT', '/routing2', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
  await node.request('PUT', '/routing2/_doc/1?refresh=true', { body: {} });
  const two = await node.request('GET', '/_cat/shards/routing2?format=json&h=shard,docs&s=shard');
  assert.deepEqual(two.body, [{ shard: '0', docs: '1' }, { shard: '1', docs: '0' }]);
});

test('_cat/indices and _cat/shards h=*: version-conflict failures after index_failed, memory.total before bulk, vector counts last', async () => {
  await node.request('PUT', '/conflicts', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
  assert.equal((await node.request('PUT', '/conflicts/_create/1', { body: { a: 1 } })).status, 201);
  assert.equal((await node.request('PUT', '/conflicts/_create/1', { body: { a: 2 } })).status, 409);
  const all = await node.request('GET', '/_cat/indices/conflicts?h=*&format=json');
  assert.equal(all.status, 200, all.text);
  const names = Object.keys(all.body[0]);
  const at = (name: string) => {
    const index = names.indexOf(name);
    assert.ok(index >= 0, `${name} missing from h=*`);
    return index;
  };
  assert.equal(at('indexing.index_failed_due_to_version_conflict'), at('pri.indexing.index_failed') + 1);
  assert.equal(at('pri.indexing.index_failed_due_to_version_conflict'), at('indexing.index_failed_due_to_version_conflict') + 1);
  assert.equal(at('merges.current'), at('pri.indexing.index_failed_due_to_version_conflict') + 1);
  assert.deepEqual(names.slice(at('pri.suggest.total') + 1, at('bulk.total_operations')), ['memory.total', 'pri.memory.total', 'search.throttled']);
  assert.deepEqual(names.slice(at('pri.bulk.avg_size_in_bytes') + 1), [
    'dense_vector.value_count',
    'pri.dense_vector.value_count',
    'sparse_vector.value_count',
    'pri.sparse_vector.value_count',
  ]);
  // The figures are _stats' own.
  const stats = await node.request('GET', '/conflicts/_stats/indexing,dense_vector,sparse_vector');
  const indexing = stats.body.indices.conflicts.total.indexing;
  assert.ok(indexing.index_failed_due_to_version_conflict >= 1, JSON.stringify(indexing));
  assert.equal(all.body[0]['indexing.index_failed_due_to_version_conflict'], String(indexing.index_failed_due_to_version_conflict));
  assert.equal(all.body[0]['iifvc'], undefined);
  const alias = await node.request('GET', '/_cat/indices/conflicts?h=iifvc,dvc,svc&format=json');
  assert.deepEqual(alias.body, [{ iifvc: String(indexing.index_failed_due_to_version_conflict), dvc: '0', svc: '0' }]);
  const shards = await node.request('GET', '/_cat/shards/conflicts?h=*&format=json');
  const shardNames = Object.keys(shards.body[0]);
  assert.equal(shardNames.indexOf('indexing.index_failed_due_to_version_conflict'), shardNames.indexOf('indexing.index_failed') + 1);
  assert.equal(shards.body[0]['indexing.index_failed_due_to_version_conflict'], String(indexing.index_failed_due_to_version_conflict));
});
