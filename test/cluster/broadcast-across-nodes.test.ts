/**
 * The broadcast and per-shard APIs across a three-node cluster (issue 12): `_refresh`, `_flush`, `_forcemerge`,
 * `_cache/clear`, `_stats` at every level, `_cat/shards`, `_cat/indices`, `_cat/segments`, `_cat/count`,
 * `_recovery`/`_cat/recovery`, `_explain` and `_field_caps` answer the same through each of the three nodes, and
 * the same as one node holding the same data (the figures that do not depend on where a copy lives: counts per
 * shard, `_shards` headers, explanations). Nodes run in this process (in-process-cluster.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessCluster, startSingleNode, type ClusterNode, type InProcessNode } from '../helpers/in-process-cluster.js';

const DOCS = 60;
const bulkBody = Array.from({ length: DOCS }, (_, i) => `{"index":{"_index":"bc","_id":"${i}"}}\n{"n":${i},"text":"quick brown fox ${i % 5} jumps over ${i % 3 === 0 ? 'lazy' : 'busy'} dogs","tag":"t${i % 4}"}\n`).join('');

async function load(node: ClusterNode, replicas: number): Promise<void> {
  const created = await node.request('PUT', '/bc', { body: { settings: { number_of_shards: 3, number_of_replicas: replicas } } });
  assert.equal(created.status, 200, created.text);
  const loaded = await node.request('POST', '/_bulk?refresh=true', { raw: bulkBody, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(loaded.body.errors, false, loaded.text);
}

describe('broadcast and per-shard APIs through every node', () => {
  let cluster: InProcessCluster;
  let single: InProcessNode;
  before(async () => {
    cluster = await InProcessCluster.start(3);
    single = await startSingleNode();
    await load(cluster.nodes[0]!, 0);
    await load(single, 0);
    await cluster.waitFor(cluster.nodes[0]!, '/_cluster/health/bc?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    // The three primaries sit on three nodes, so every API below has remote copies from every node.
    const routing = await cluster.nodes[0]!.request('GET', '/_cluster/state/routing_table/bc');
    const holders = new Set((Object.values(routing.body.routing_table.indices.bc.shards) as Array<Array<{ node: string }>>).map((copies) => copies[0]!.node));
    assert.equal(holders.size, 3, routing.text);
  });
  after(async () => {
    await single?.stop();
    await cluster?.stop();
  });

  const everyNode = () => cluster.nodes;

  test('_refresh, _flush, _forcemerge and _cache/clear count every copy on every node', async () => {
    for (const path of ['/bc/_refresh', '/bc/_flush', '/bc/_forcemerge?max_num_segments=1', '/bc/_cache/clear', '/_refresh']) {
      const expected = await single.request('POST', path);
      assert.equal(expected.status, 200, expected.text);
      for (const node of everyNode()) {
        const answer = await node.request('POST', path);
        assert.equal(answer.status, 200, `${path} through ${node.name}: ${answer.text}`);
        assert.deepEqual(answer.body._shards, expected.body._shards, `${path} through ${node.name}`);
        assert.deepEqual(answer.body._shards, { total: 3, successful: 3, failed: 0 });
      }
    }
  });

  test('_stats at the cluster, indices and shards levels', async () => {
    const expected = (await single.request('GET', '/bc/_stats?level=shards')).body;
    const perShardDocs = (body: any) => Object.fromEntries(Object.entries(body.indices.bc.shards).map(([shard, copies]) => [shard, (copies as any[]).map((copy) => copy.docs.count)]));
    for (const node of everyNode()) {
      const cluster = await node.request('GET', '/_stats/docs?level=cluster');
      assert.equal(cluster.status, 200, cluster.text);
      assert.equal(cluster.body._all.primaries.docs.count, DOCS, cluster.text);
      const indices = (await node.request('GET', '/bc/_stats')).body;
      assert.deepEqual(indices._shards, { total: 3, successful: 3, failed: 0 });
      assert.equal(indices.indices.bc.primaries.docs.count, DOCS);
      assert.equal(indices.indices.bc.primaries.indexing.index_total, DOCS);
      const shards = (await node.request('GET', '/bc/_stats?level=shards')).body;
      assert.deepEqual(perShardDocs(shards), perShardDocs(expected), `per-shard docs through ${node.name}`);
      const state = (await node.request('GET', '/_cluster/state/routing_table/bc')).body;
      for (const [shard, copies] of Object.entries(shards.indices.bc.shards) as Array<[string, any[]]>) {
        assert.equal(copies[0].routing.node, state.routing_table.indices.bc.shards[shard][0].node, 'each copy reported by the node that holds it');
      }
    }
  });

  test('_cat/shards, _cat/indices, _cat/segments and _cat/count', async () => {
    const rows = async (node: ClusterNode, path: string) => (await node.request('GET', path)).body as Array<Record<string, string>>;
    const expectedShards = (await rows(single, '/_cat/shards/bc?format=json&h=index,shard,prirep,state,docs&s=shard')).map((row) => JSON.stringify(row));
    const expectedIndices = await rows(single, '/_cat/indices/bc?format=json&h=health,status,index,pri,rep,docs.count,docs.deleted');
    const expectedSegments = (await rows(single, '/_cat/segments/bc?format=json&h=index,shard,prirep,docs.count&s=shard')).map((row) => JSON.stringify(row));
    const expectedCount = (await rows(single, '/_cat/count/bc?format=json&h=count'))[0]!.count;
    assert.equal(expectedCount, String(DOCS));
    let nodesSeen: string | undefined;
    for (const node of everyNode()) {
      const shards = await rows(node, '/_cat/shards/bc?format=json&h=index,shard,prirep,state,docs,node&s=shard');
      assert.deepEqual(shards.map(({ node: _node, ...row }) => JSON.stringify(row)), expectedShards, `_cat/shards through ${node.name}`);
      const holders = JSON.stringify(shards.map((row) => row.node));
      assert.equal(new Set(shards.map((row) => row.node)).size, 3);
      nodesSeen ??= holders;
      assert.equal(holders, nodesSeen, 'every node names the same holders');
      assert.deepEqual(await rows(node, '/_cat/indices/bc?format=json&h=health,status,index,pri,rep,docs.count,docs.deleted'), expectedIndices);
      assert.deepEqual((await rows(node, '/_cat/segments/bc?format=json&h=index,shard,prirep,docs.count&s=shard')).map((row) => JSON.stringify(row)), expectedSegments);
      assert.equal((await rows(node, '/_cat/count/bc?format=json&h=count'))[0]!.count, expectedCount);
    }
  });

  test('_recovery and _cat/recovery report each copy from its node', async () => {
    const state = (await cluster.nodes[0]!.request('GET', '/_cluster/state/routing_table/bc')).body;
    const holderOf = (shard: number) => state.routing_table.indices.bc.shards[String(shard)][0].node as string;
    let first: string | undefined;
    for (const node of everyNode()) {
      const recovery = await node.request('GET', '/bc/_recovery');
      assert.equal(recovery.status, 200, recovery.text);
      const shards = recovery.body.bc.shards as Array<{ id: number; stage: string; target: { id: string } }>;
      assert.deepEqual(shards.map((shard) => shard.id), [0, 1, 2]);
      for (const shard of shards) {
        assert.equal(shard.stage, 'DONE');
        assert.equal(shard.target.id, holderOf(shard.id));
      }
      const cat = JSON.stringify((await node.request('GET', '/_cat/recovery/bc?format=json&h=index,shard,stage,type,target_node')).body);
      first ??= cat;
      assert.equal(cat, first, `_cat/recovery through ${node.name}`);
    }
  });

  test('_explain runs on the shard copy wherever it lives and explains as one node does', async () => {
    for (const id of ['0', '7', '31']) {
      const body = { query: { match: { text: 'fox lazy' } } };
      const expected = await single.request('POST', `/bc/_explain/${id}?_source=true`, { body });
      assert.equal(expected.status, 200, expected.text);
      for (const node of everyNode()) {
        const answer = await node.request('POST', `/bc/_explain/${id}?_source=true`, { body });
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(answer.body, expected.body, `explain ${id} through ${node.name}`);
      }
    }
    for (const node of everyNode()) {
      const missing = await node.request('POST', '/bc/_explain/nope', { body: { query: { match_all: {} } } });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { _index: 'bc', _id: 'nope', matched: false });
    }
  });

  test('_field_caps answers the same from every node', async () => {
    const expected = (await single.request('GET', '/bc/_field_caps?fields=*')).body;
    for (const node of everyNode()) assert.deepEqual((await node.request('GET', '/bc/_field_caps?fields=*')).body, expected);
  });

  test('replicas count in _shards and report from their own nodes', async () => {
    const node = cluster.nodes[1]!;
    assert.equal((await node.request('PUT', '/bc2', { body: { settings: { number_of_shards: 3, number_of_replicas: 1 } } })).status, 200);
    await cluster.waitFor(node, '/_cluster/health/bc2?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    for (const through of everyNode()) {
      const stats = (await through.request('GET', '/bc2/_stats?level=shards')).body;
      assert.deepEqual(stats._shards, { total: 6, successful: 6, failed: 0 });
      const copies = Object.values(stats.indices.bc2.shards).flat() as Array<{ routing: { node: string; primary: boolean } }>;
      assert.equal(copies.length, 6);
      assert.equal(new Set(copies.map((copy) => copy.routing.node)).size, 3);
      const cat = (await through.request('GET', '/_cat/shards/bc2?format=json&h=prirep,docs,node')).body as Array<{ docs: string | null }>;
      assert.equal(cat.length, 6);
      for (const row of cat) assert.match(String(row.docs), /^\d+$/, 'a started copy has figures, wherever it lives');
      assert.deepEqual((await through.request('POST', '/bc2/_refresh')).body._shards, { total: 6, successful: 6, failed: 0 });
    }
    // One node with the same index: its replicas cannot be placed, so they count in total only.
    assert.equal((await single.request('PUT', '/bc2', { body: { settings: { number_of_shards: 3, number_of_replicas: 1 } } })).status, 200);
    await cluster.waitFor(single, '/_cluster/health/bc2?wait_for_status=yellow&timeout=30s', (r) => r.body?.status === 'yellow');
    assert.deepEqual((await single.request('POST', '/bc2/_refresh')).body._shards, { total: 6, successful: 3, failed: 0 });
  });
});
