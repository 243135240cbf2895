/**
 * The search slow log in a cluster: as in ES, the node that runs a shard's query or fetch phase writes its line, so
 * a search coordinated by one node leaves lines in the slow log of every node holding a searched shard, each for
 * its own shards, with the request's source, shard count and X-Opaque-Id. Covers the plain search (query and fetch
 * in one round trip) and a scroll (phases on contexts kept on the data nodes). Nodes run in this process, each with
 * its own path.logs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessCluster, type InProcessNode } from '../helpers/in-process-cluster.js';

let cluster: InProcessCluster;
const logDirs: string[] = [];

before(async () => {
  cluster = await InProcessCluster.start(0);
  for (let i = 0; i < 2; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'gannet-slowlog-'));
    logDirs.push(dir);
    await cluster.addNode({ 'path.logs': dir });
  }
  for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 2);
});

after(async () => {
  await cluster.stop();
  for (const dir of logDirs) rmSync(dir, { recursive: true, force: true });
});

type Line = Record<string, any>;

function searchLines(node: InProcessNode, index: number): Line[] {
  const file = join(logDirs[index]!, `${cluster.clusterName}_index_search_slowlog.json`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line['elasticsearch.slowlog.id'] !== undefined && line['elasticsearch.slowlog.message']?.startsWith('[slow]'));
}

async function waitForLines(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('each node logs the slow phases of its own shards, for a search and a scroll coordinated elsewhere', async () => {
  const [first, second] = cluster.nodes as [InProcessNode, InProcessNode];
  const created = await first.request('PUT', '/slow', {
    body: {
      settings: {
        number_of_shards: 4,
        number_of_replicas: 0,
        'index.search.slowlog.threshold.query.info': '0ms',
        'index.search.slowlog.threshold.fetch.debug': '0ms',
      },
    },
  });
  assert.equal(created.status, 200, created.text);
  await cluster.waitFor(first, '/_cluster/health/slow?wait_for_status=green&timeout=20s', (r) => r.body?.status === 'green');
  const bulk = Array.from({ length: 40 }, (_, i) => `{"index":{"_index":"slow","_id":"${i}"}}\n{"n":${i},"title":"long title ${i}"}\n`).join('');
  assert.equal((await first.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } })).body.errors, false);
  const shards = (await first.request('GET', '/_cat/shards/slow?format=json&h=shard,node')).body as Array<{ shard: string; node: string }>;
  const shardsOf = (node: InProcessNode) => shards.filter((row) => row.node === node.name).map((row) => Number(row.shard)).sort();
  assert.ok(shardsOf(first).length > 0 && shardsOf(second).length > 0, `shards on both nodes: ${JSON.stringify(shards)}`);

  const body = { query: { match: { title: 'long' } }, size: 40 };
  const searched = await first.request('POST', '/slow/_search', { body, headers: { 'x-opaque-id': 'across-search' } });
  assert.equal(searched.body.hits.total.value, 40, searched.text);
  const nodes = [first, second] as const;
  for (const [i, node] of nodes.entries()) {
    const lines = () => searchLines(node, i).filter((line) => line['elasticsearch.slowlog.id'] === 'across-search');
    await waitForLines(() => lines().filter((line) => line['log.logger'] === 'index.search.slowlog.query').length >= shardsOf(node).length);
    const query = lines().filter((line) => line['log.logger'] === 'index.search.slowlog.query');
    // A shard's line is in its own node's log only.
    assert.deepEqual(query.map((line) => Number(/^\[slow\]\[(\d+)\]$/.exec(line['elasticsearch.slowlog.message'])![1])).sort(), shardsOf(node), `${node.name}'s query lines`);
    for (const line of query) {
      assert.equal(line['log.level'], 'INFO');
      assert.equal(line['elasticsearch.slowlog.total_shards'], 4);
      assert.equal(line['elasticsearch.slowlog.source'], JSON.stringify(body));
      assert.match(line['elasticsearch.slowlog.total_hits'], /^\d+ hits$/);
    }
    const fetch = lines().filter((line) => line['log.logger'] === 'index.search.slowlog.fetch');
    assert.equal(fetch.length, shardsOf(node).length, `${node.name}'s fetch lines`);
    assert.ok(fetch.every((line) => line['log.level'] === 'DEBUG' && line['elasticsearch.slowlog.total_hits'] === '-1'));
  }

  // A scroll through the second node: its first page's phases run on contexts on the data nodes.
  const scrolled = await second.request('POST', '/slow/_search?scroll=1m', { body: { size: 5, sort: ['_doc'] }, headers: { 'x-opaque-id': 'across-scroll' } });
  assert.equal(scrolled.status, 200, scrolled.text);
  for (const [i, node] of nodes.entries()) {
    const lines = () => searchLines(node, i).filter((line) => line['elasticsearch.slowlog.id'] === 'across-scroll' && line['log.logger'] === 'index.search.slowlog.query');
    await waitForLines(() => lines().length >= shardsOf(node).length);
    assert.equal(lines().length, shardsOf(node).length, `${node.name}'s scroll query lines`);
  }
  await second.request('DELETE', '/_search/scroll/_all');
});
