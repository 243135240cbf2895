/**
 * The OpenSearch JavaScript client (`@opensearch-project/opensearch` 3.x), unmodified, against a real Gannet node.
 * It has no product check and sends plain `application/json` / `application/x-ndjson`, so it exercises Gannet
 * without compatible-with media types: cluster health, the cat APIs, tasks (list, get, cancel), index creation,
 * its bulk helper, search, count and its scroll helpers over a few hundred documents. A failure is a Gannet
 * compatibility bug, never a reason to change the client or weaken the test.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@opensearch-project/opensearch';
import { clusterSize } from '../helpers/topology.js';
import { NodeProcess } from '../helpers/node-process.js';

const DOCS = 350;
const INDEX = 'os-books';

let node: NodeProcess;
let client: Client;
before(async () => {
  node = await NodeProcess.start({ settings: { 'cluster.name': 'compat-os', 'node.name': 'os-node' } });
  client = new Client({ node: node.url });
});
after(async () => {
  await client?.close();
  await node?.stop();
});

/** The client's loose bodies, read as plain JSON. */
type Json = any;

test('info and ping (HEAD /)', async () => {
  const info = (await client.info()).body as Json;
  assert.equal(info.cluster_name, 'compat-os');
  assert.match(info.version.number, /^\d+\.\d+\.\d+$/);
  assert.equal((await client.ping()).body, true);
});

test('cluster.health', async () => {
  const { body, statusCode } = await client.cluster.health();
  assert.equal(statusCode, 200);
  const health = body as Json;
  assert.equal(health.cluster_name, 'compat-os');
  assert.equal(health.status, 'green');
  assert.equal(health.number_of_nodes, clusterSize(node));
  const waited = (await client.cluster.health({ wait_for_status: 'green', timeout: '1s' })).body as Json;
  assert.equal(waited.timed_out, false);
  await assert.rejects(client.cluster.health({ wait_for_nodes: '10', timeout: '1ms' }), (err: Json) => {
    assert.equal(err.meta?.statusCode, 408);
    assert.equal(err.meta?.body?.timed_out, true);
    return true;
  });
});

test('cat.nodes, cat.allocation, cat.tasks', async () => {
  const text = (await client.cat.nodes({ v: true })).body as unknown as string;
  assert.equal(typeof text, 'string');
  assert.match(text, /^ip\s+heap\.percent\s+ram\.percent\s+cpu\s+load_1m\s+load_5m\s+load_15m\s+node\.role\s+master\s+name\n/);
  const rows = (await client.cat.nodes({ format: 'json', h: ['name', 'master'] })).body as Json[];
  // One row per node and one elected master (this node when it is alone; GANNET_TEST_CLUSTER: another node).
  if (clusterSize(node) === 1) assert.deepEqual(rows, [{ name: 'os-node', master: '*' }]);
  assert.equal(rows.length, clusterSize(node));
  assert.ok(rows.some((row) => row.name === 'os-node'));
  assert.equal(rows.filter((row) => row.master === '*').length, 1);
  const allocation = (await client.cat.allocation({ format: 'json', bytes: 'b' })).body as Json[];
  assert.equal(allocation.length, clusterSize(node));
  assert.ok(allocation.some((row) => row.node === 'os-node'));
  assert.match(allocation[0]['disk.total'], /^\d+$/);
  const tasks = (await client.cat.tasks({ format: 'json', actions: ['cluster:monitor/tasks/lists*'] })).body as Json[];
  assert.ok(tasks.some((row) => row.action === 'cluster:monitor/tasks/lists'));
});

test('tasks.list, tasks.cancel of a waiting health request, tasks.get 404', async () => {
  const list = (await client.tasks.list({ actions: ['cluster:monitor/tasks/lists*'], detailed: true })).body as Json;
  const own = Object.values(list.nodes[node.nodeId].tasks) as Json[];
  assert.ok(own.some((t) => t.action === 'cluster:monitor/tasks/lists'));

  const waiting = client.cluster.health({ wait_for_nodes: '10', timeout: '30s' }).then(
    () => 'completed',
    (err: Json) => err.meta?.body?.error?.type ?? String(err),
  );
  let taskId: string | undefined;
  for (let i = 0; i < 400 && !taskId; i++) {
    const found = (await client.tasks.list({ actions: ['cluster:monitor/health'], group_by: 'none' })).body as Json;
    const first = (found.tasks as Json[])[0];
    taskId = first ? `${first.node}:${first.id}` : undefined;
    if (!taskId) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(taskId, 'the waiting health request is listed as a task');
  const running = (await client.tasks.get({ task_id: taskId })).body as Json;
  assert.equal(running.completed, false);
  assert.equal(running.task.action, 'cluster:monitor/health');
  const cancelled = (await client.tasks.cancel({ task_id: taskId, wait_for_completion: true })).body as Json;
  assert.ok(JSON.stringify(cancelled).includes(taskId.split(':')[1]!));
  assert.equal(await waiting, 'task_cancelled_exception');
  await assert.rejects(client.tasks.get({ task_id: 'foo:1' }), (err: Json) => err.meta?.statusCode === 404);
});

test('indices.create, bulk helper, cat.indices, search, count, scroll helpers', async () => {
  const created = await client.indices.create({
    index: INDEX,
    body: {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: { properties: { title: { type: 'text' }, n: { type: 'integer' }, tag: { type: 'keyword' } } },
    },
  });
  assert.equal((created.body as Json).acknowledged, true);

  const source = Array.from({ length: DOCS }, (_, i) => ({ id: String(i), title: `book number ${i}`, n: i, tag: i % 2 === 0 ? 'even' : 'odd' }));
  const stats = await client.helpers.bulk({
    datasource: source,
    onDocument: (doc) => ({ index: { _index: INDEX, _id: doc.id } }),
    flushBytes: 4096,
    refreshOnCompletion: true,
  });
  assert.equal(stats.total, DOCS);
  assert.equal(stats.successful, DOCS);
  assert.equal(stats.failed, 0);

  const cat = (await client.cat.indices({ index: [INDEX], format: 'json' })).body as Json[];
  assert.equal(cat.length, 1);
  assert.equal(cat[0]['docs.count'], String(DOCS));
  assert.equal(cat[0].health, 'green');

  const count = (await client.count({ index: INDEX })).body as Json;
  assert.equal(count.count, DOCS);
  const odd = (await client.count({ index: INDEX, body: { query: { term: { tag: 'odd' } } } })).body as Json;
  assert.equal(odd.count, DOCS / 2);

  const found = (
    await client.search({ index: INDEX, body: { query: { match: { title: 'number' } }, size: 5, sort: [{ n: 'desc' }] } })
  ).body as Json;
  assert.equal(found.hits.total.value, DOCS);
  assert.deepEqual(
    found.hits.hits.map((h: Json) => h._id),
    ['349', '348', '347', '346', '345'],
  );
  assert.equal(found.hits.hits[0]._source.title, 'book number 349');
  const asInt = (await client.search({ index: INDEX, rest_total_hits_as_int: true, body: { size: 0 } })).body as Json;
  assert.equal(asInt.hits.total, DOCS);
  const one = (await client.search({ index: INDEX, q: 'title:"number 7"', size: 10 })).body as Json;
  assert.deepEqual(one.hits.hits.map((h: Json) => h._id), ['7']);

  // scrollSearch: whole responses, 40 hits a page, cleared at the end by the helper.
  const seen = new Set<string>();
  let pages = 0;
  let lastScrollId: string | undefined;
  for await (const response of client.helpers.scrollSearch<{ n: number }>({ index: INDEX, scroll: '30s', body: { size: 40, query: { match_all: {} } } })) {
    const body = response.body as Json;
    assert.equal(typeof body._scroll_id, 'string');
    lastScrollId = body._scroll_id;
    for (const hit of body.hits.hits as Json[]) {
      assert.equal(seen.has(hit._id), false, `hit ${hit._id} seen twice`);
      seen.add(hit._id);
    }
    pages++;
  }
  assert.equal(seen.size, DOCS);
  assert.equal(pages, Math.ceil(DOCS / 40));

  // scrollDocuments: only the sources (filter_path=hits.hits._source,_scroll_id).
  const numbers: number[] = [];
  for await (const doc of client.helpers.scrollDocuments<{ n: number }>({ index: INDEX, body: { size: 100, query: { term: { tag: 'even' } } } })) {
    numbers.push(doc.n);
  }
  assert.deepEqual(numbers.sort((a, b) => a - b), source.filter((d) => d.tag === 'even').map((d) => d.n));

  // The helper cleared its scroll context: scrolling on with the last id is ES's 404 search_context_missing.
  await assert.rejects(client.scroll({ body: { scroll_id: lastScrollId!, scroll: '30s' } }), (err: Json) => {
    assert.equal(err.meta?.statusCode, 404);
    assert.equal(err.meta?.body?.error?.type, 'search_phase_execution_exception');
    assert.equal(err.meta?.body?.error?.root_cause?.[0]?.type, 'search_context_missing_exception');
    return true;
  });

  assert.equal(((await client.indices.delete({ index: INDEX })).body as Json).acknowledged, true);
});
