/**
 * A slow search is a cancellable task: its shard work shows up as `[phase/query]` children, POST
 * /_tasks/<id>/_cancel ends it promptly with ES's task_cancelled error, a client that disconnects cancels it,
 * and `timeout` returns partial results with timed_out. The slow query is a long sloppy phrase over long
 * documents of a five-word vocabulary: every document matches and each costs much to score, while rewriting
 * costs nothing, so the time is spent where cancellation is checked.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
const VOCABULARY = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
const DOCS = 4000;
const SLOW_QUERY = {
  track_total_hits: true,
  query: { match_phrase: { body: { query: Array.from({ length: 25 }, (_, i) => VOCABULARY[i % 5]).join(' '), slop: 10000 } } },
};
let baselineMillis = 0;

const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'cancel-node' } });
  const created = await node.request('PUT', '/slow', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { body: { type: 'text' } } } } });
  assert.equal(created.status, 200, created.text);
  let seed = 7;
  const word = (): string => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return VOCABULARY[seed % 5]!;
  };
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    lines.push('{"index":{}}');
    lines.push(JSON.stringify({ body: Array.from({ length: 300 }, word).join(' ') }));
  }
  const bulk = await node.request('POST', '/slow/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false);
  const started = performance.now();
  const full = await node.request('POST', '/slow/_search?size=1', { body: SLOW_QUERY });
  baselineMillis = performance.now() - started;
  assert.equal(full.status, 200, full.text);
  assert.equal(full.body.hits.total.value, DOCS);
  assert.ok(baselineMillis > 500, `the slow search should take a while, took ${baselineMillis}ms`);
});
after(async () => {
  await node.stop();
});

interface ListedTask {
  readonly id: string;
  readonly action: string;
  readonly description: string;
  readonly parent?: string;
}

async function searchTasks(): Promise<ListedTask[]> {
  const res = await node.request('GET', '/_tasks?actions=indices:data/read/search*&detailed=true');
  const out: ListedTask[] = [];
  for (const nodeEntry of Object.values<any>(res.body.nodes ?? {})) {
    for (const [id, task] of Object.entries<any>(nodeEntry.tasks)) out.push({ id, action: task.action, description: task.description, ...(task.parent_task_id !== undefined && { parent: task.parent_task_id }) });
  }
  return out;
}

async function waitForSearchTask(): Promise<{ parent: ListedTask; children: ListedTask[] }> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const tasks = await searchTasks();
    const parent = tasks.find((task) => task.action === 'indices:data/read/search');
    const children = tasks.filter((task) => parent !== undefined && task.parent === parent.id);
    if (parent !== undefined && children.length > 0) return { parent, children };
    await sleep(10);
  }
  throw new Error('the search task never showed up');
}

test('POST /_tasks/<id>/_cancel stops a running search promptly with task_cancelled', async (t) => {
  const pending = node.request('POST', '/slow/_search', { body: SLOW_QUERY });
  const { parent, children } = await waitForSearchTask();
  assert.deepEqual(
    children.map((child) => child.action),
    ['indices:data/read/search[phase/query]'],
  );
  // ShardSearchRequest.getDescription: the shard; the rest of the request is the parent's description.
  assert.deepEqual(
    children.map((child) => child.description),
    ['shardId[[slow][0]]'],
  );
  const cancelledAt = performance.now();
  const cancel = await node.request('POST', `/_tasks/${parent.id}/_cancel`);
  assert.equal(cancel.status, 200, cancel.text);
  const res = await pending;
  const afterCancel = performance.now() - cancelledAt;
  t.diagnostic(`full run ${Math.round(baselineMillis)}ms, ended ${Math.round(afterCancel)}ms after the cancel`);
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.root_cause[0].type, 'task_cancelled_exception');
  assert.equal(res.body.error.root_cause[0].reason, 'task cancelled [by user request]');
  assert.equal(res.body.error.type, 'search_phase_execution_exception');
  assert.ok(afterCancel < Math.min(1500, baselineMillis / 2), `ended ${afterCancel}ms after the cancel (a full run takes ${baselineMillis}ms)`);
  assert.deepEqual(await searchTasks(), [], 'no search task is left');
  const stats = await node.request('GET', '/slow/_stats/search');
  assert.equal(stats.body._all.total.search.query_current, 0);
  assert.equal(stats.body._all.total.search.open_contexts, 0);
});

test("a scroll's next page of one shard runs as ES's [phase/query+fetch/scroll], described as its InternalScrollSearchRequest", async () => {
  // ES's scroll id of a one-shard search has the queryAndFetch type: its later pages query and fetch in one request.
  const started = await node.request('POST', '/slow/_search?scroll=1m&size=1', { body: SLOW_QUERY });
  assert.equal(started.status, 200, started.text);
  const pending = node.request('POST', '/_search/scroll', { body: { scroll: '1m', scroll_id: started.body._scroll_id } });
  let children: ListedTask[] = [];
  for (let attempt = 0; attempt < 300 && children.length === 0; attempt++) {
    const listed = await node.request('GET', '/_tasks?actions=indices:data/read/*&detailed=true');
    const tasks: ListedTask[] = [];
    for (const nodeEntry of Object.values<any>(listed.body.nodes ?? {})) {
      for (const [id, task] of Object.entries<any>(nodeEntry.tasks)) tasks.push({ id, action: task.action, description: task.description, ...(task.parent_task_id !== undefined && { parent: task.parent_task_id }) });
    }
    const parent = tasks.find((task) => task.action === 'indices:data/read/scroll');
    children = tasks.filter((task) => parent !== undefined && task.parent === parent.id);
    if (children.length === 0) await sleep(10);
  }
  assert.deepEqual(
    children.map((child) => child.action),
    ['indices:data/read/search[phase/query+fetch/scroll]'],
  );
  assert.match(children[0]!.description, /^id\[\d+\], scroll\[1m\]$/);
  const page = await pending;
  assert.equal(page.status, 200, page.text);
  assert.equal(page.body.hits.total.value, DOCS);
  assert.equal(page.body.hits.hits.length, 1);
  assert.notEqual(page.body.hits.hits[0]._id, started.body.hits.hits[0]._id, 'the second page continues after the first');
  const cleared = await node.request('DELETE', '/_search/scroll', { body: { scroll_id: page.body._scroll_id } });
  assert.deepEqual(cleared.body, { succeeded: true, num_freed: 1 });
});

test('a client that disconnects cancels its search', async (t) => {
  const payload = JSON.stringify(SLOW_QUERY);
  const req = httpRequest({ host: '127.0.0.1', port: node.port, method: 'POST', path: '/slow/_search', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } });
  req.on('error', () => undefined);
  req.end(payload);
  await waitForSearchTask();
  const closedAt = performance.now();
  req.destroy();
  let remaining = await searchTasks();
  while (remaining.length > 0 && performance.now() - closedAt < 5000) {
    await sleep(10);
    remaining = await searchTasks();
  }
  const gone = performance.now() - closedAt;
  t.diagnostic(`search gone ${Math.round(gone)}ms after the disconnect`);
  assert.deepEqual(remaining, []);
  assert.ok(gone < Math.min(1500, baselineMillis / 2), `the search stopped ${gone}ms after the disconnect (a full run takes ${baselineMillis}ms)`);
});

test('timeout returns the partial results with timed_out: true', async () => {
  const started = performance.now();
  const res = await node.request('POST', '/slow/_search?timeout=100ms', { body: SLOW_QUERY });
  const elapsed = performance.now() - started;
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.timed_out, true);
  assert.ok(res.body.hits.total.value < DOCS, `partial total ${res.body.hits.total.value}`);
  assert.ok(elapsed < baselineMillis, `returned after ${elapsed}ms (a full run takes ${baselineMillis}ms)`);
});

test('max_concurrent_shard_requests holds a search to that many shard queries at once on a node', async (t) => {
  const created = await node.request('PUT', '/slow3', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings: { properties: { body: { type: 'text' } } } } });
  assert.equal(created.status, 200, created.text);
  const copies = 2000;
  const copied = await node.request('POST', '/_reindex?refresh=true', { body: { max_docs: copies, source: { index: 'slow' }, dest: { index: 'slow3' } } });
  assert.equal(copied.body.created, copies, copied.text);
  /** The most `[phase/query]` children of the search seen at once while it runs. */
  async function peakQueries(path: string): Promise<number> {
    let done = false;
    const pending = node.request('POST', path, { body: SLOW_QUERY }).finally(() => {
      done = true;
    });
    let peak = 0;
    while (!done) {
      const queries = (await searchTasks()).filter((task) => task.action === 'indices:data/read/search[phase/query]');
      peak = Math.max(peak, queries.length);
      await sleep(5);
    }
    const res = await pending;
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.hits.total.value, copies, 'every shard answered');
    assert.equal(res.body._shards.successful, 3);
    return peak;
  }
  const limited = await peakQueries('/slow3/_search?max_concurrent_shard_requests=1');
  const unlimited = await peakQueries('/slow3/_search');
  t.diagnostic(`peak shard queries at once: ${limited} with max_concurrent_shard_requests=1, ${unlimited} with the default (5)`);
  // Per node, as ES counts it: on a cluster each node holding a shard may run one at once.
  const holders = new Set((await node.request('GET', '/_cat/shards/slow3?h=node&format=json')).body.map((row: { node: string }) => row.node)).size;
  if (node.peers.length === 0) assert.equal(limited, 1);
  else assert.ok(limited >= 1 && limited <= holders, `peak ${limited} with ${holders} nodes holding shards`);
  assert.ok(unlimited > 1, `the default lets the three shards run at once (peak ${unlimited})`);
  const zero = await node.request('POST', '/slow3/_search?max_concurrent_shard_requests=0');
  assert.equal(zero.status, 400);
  assert.equal(zero.body.error.reason, 'maxConcurrentShardRequests must be >= 1');
  assert.equal((await node.request('DELETE', '/slow3')).status, 200);
});
