/**
 * The cancel guarantee of issue 5: once `POST /_tasks/<id>/_cancel?wait_for_completion=true` returns, a
 * reindex writes no further document. Twenty runs cancel a throttled reindex at random moments, then check
 * that the destination's count stays put (count, wait, refresh, count again). A reindex waited on by its
 * client answers with its partial counts and `canceled`. Cancelling by `actions=*reindex` + `nodes=` stops
 * exactly the reindex tasks and leaves a running update_by_query alone.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
const DOCS = 300;
const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'reindex-cancel-node' } });
  const created = await node.request('PUT', '/src', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } });
  assert.equal(created.status, 200, created.text);
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ n: i }));
  const bulk = await node.request('POST', '/src/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false);
});
after(async () => {
  await node.stop();
});

async function countOf(index: string): Promise<number> {
  const refreshed = await node.request('POST', `/${index}/_refresh`);
  if (refreshed.status === 404) return 0; // nothing was written before the cancel: the index was never created
  // A cancel during the destination's auto-creation returns before its shard has started (creating an index is not
  // part of the task, as on ES); a count then would be ES's 503 no_shard_available, so wait for the shard first.
  // Yellow alone is not enough: as ES's ClusterShardHealth, a new index's initializing primary already counts as
  // yellow, so wait for the primary to be active too.
  const health = await node.request('GET', `/_cluster/health/${index}?wait_for_status=yellow&wait_for_active_shards=1&timeout=30s`);
  assert.equal(health.status, 200, health.text);
  const res = await node.request('GET', `/${index}/_count`);
  assert.equal(res.status, 200, res.text);
  return res.body.count;
}

async function runningTaskIds(actions: string): Promise<Map<string, any>> {
  const res = await node.request('GET', `/_tasks?detailed=true&actions=${encodeURIComponent(actions)}`);
  const out = new Map<string, any>();
  for (const entry of Object.values<any>(res.body.nodes ?? {})) for (const [id, task] of Object.entries<any>(entry.tasks)) out.set(id, task);
  return out;
}

test('after a waiting cancel returns, a reindex cancelled at a random moment writes nothing more (20 runs)', async () => {
  let seed = 12345;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let run = 0; run < 20; run++) {
    const dest = `cancel-${run}`;
    // 300 documents at 200 per second: about 1.5 s of work, so a cancel in the first 700 ms always finds it running.
    const started = await node.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=200', { body: { source: { index: 'src', size: 10 }, dest: { index: dest } } });
    assert.equal(started.status, 200, started.text);
    const taskId: string = started.body.task;
    await sleep(Math.floor(random() * 700));
    const cancelled = await node.request('POST', `/_tasks/${taskId}/_cancel?wait_for_completion=true`);
    assert.equal(cancelled.status, 200, cancelled.text);
    const listed = Object.values<any>(cancelled.body.nodes ?? {}).flatMap((entry) => Object.keys(entry.tasks));
    assert.deepEqual(listed, [taskId], cancelled.text);
    // The task and its children are gone once the waiting cancel returned.
    const left = await runningTaskIds('indices:data/*');
    assert.ok(![...left.values()].some((task) => task.parent_task_id === taskId) && !left.has(taskId), JSON.stringify([...left.keys()]));
    const before = await countOf(dest);
    await sleep(300);
    const afterwards = await countOf(dest);
    assert.equal(afterwards, before, `run ${run}: documents were written after the cancel returned`);
    assert.ok(before < DOCS, `run ${run}: the reindex finished before the cancel`);
    const stored = await node.request('GET', `/_tasks/${taskId}`);
    if (stored.status === 200) {
      // With the .tasks store present the final status says it was cancelled.
      assert.equal(stored.body.completed, true);
      assert.equal(stored.body.response.canceled, 'by user request');
      assert.equal(stored.body.response.created, before);
    }
  }
});

test('a reindex waited on by its client answers its partial counts with canceled', async () => {
  const pending = node.request('POST', '/_reindex?requests_per_second=100', { body: { source: { index: 'src', size: 10 }, dest: { index: 'waited' } } });
  let taskId: string | undefined;
  let status: any;
  for (let attempt = 0; attempt < 600 && (taskId === undefined || status.batches < 2); attempt++) {
    const tasks = await runningTaskIds('*reindex');
    const entry = [...tasks.entries()][0];
    if (entry !== undefined) [taskId, status] = [entry[0], entry[1].status];
    await sleep(20);
  }
  assert.ok(taskId !== undefined, 'the reindex task never showed up');
  assert.equal(status.canceled, undefined);
  const cancelled = await node.request('POST', `/_tasks/${taskId}/_cancel?wait_for_completion=true`);
  assert.equal(cancelled.status, 200, cancelled.text);
  const res = await pending;
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.canceled, 'by user request');
  // A cancel rethrottles the worker to unlimited (ES's WorkerBulkByScrollTaskState.handleCancel), so the final
  // counts report requests_per_second -1, as a real OpenSearch 2.19 node answers too (bench/answers).
  assert.equal(res.body.requests_per_second, -1);
  assert.ok(res.body.created >= 10 && res.body.created < DOCS, res.text);
  assert.equal(res.body.total, DOCS);
  assert.deepEqual(res.body.failures, []);
  assert.equal(await countOf('waited'), res.body.created);
});

test('cancel by actions=*reindex and nodes= cancels exactly the reindex tasks, not a running update_by_query', async () => {
  const reindexA = await node.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=50', { body: { source: { index: 'src', size: 5 }, dest: { index: 'by-action-a' } } });
  const reindexB = await node.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=50', { body: { source: { index: 'src', size: 5 }, dest: { index: 'by-action-b' } } });
  const ubq = await node.request('POST', '/src/_update_by_query?wait_for_completion=false&requests_per_second=50&scroll_size=5', {});
  const reindexIds = [reindexA.body.task, reindexB.body.task].sort();
  const ubqId: string = ubq.body.task;
  const running = await runningTaskIds('*byquery');
  assert.equal(running.get(ubqId)?.description, 'update-by-query [src]');
  const cancelled = await node.request('POST', `/_tasks/_cancel?actions=*reindex&nodes=${node.nodeId}&wait_for_completion=true`);
  assert.equal(cancelled.status, 200, cancelled.text);
  const ids = Object.values<any>(cancelled.body.nodes ?? {}).flatMap((entry) => Object.keys(entry.tasks)).sort();
  assert.deepEqual(ids, reindexIds);
  const stillRunning = await runningTaskIds('indices:data/write/*');
  assert.ok(!stillRunning.has(reindexIds[0]) && !stillRunning.has(reindexIds[1]));
  const ubqTask = stillRunning.get(ubqId);
  assert.ok(ubqTask !== undefined, 'the update_by_query should still run');
  assert.equal(ubqTask.cancelled, false);
  assert.equal(ubqTask.action, 'indices:data/write/update/byquery');
  const stopped = await node.request('POST', `/_tasks/${ubqId}/_cancel?wait_for_completion=true`);
  assert.equal(stopped.status, 200, stopped.text);
});

test('a cancel without wait_for_completion shows cancelled: true at once, and the task stops within one batch', async () => {
  const started = await node.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=40', { body: { source: { index: 'src', size: 10 }, dest: { index: 'no-wait' } } });
  const taskId: string = started.body.task;
  // Let it write a couple of batches first (10 docs per batch, a quarter second apart).
  let createdBefore = 0;
  for (let attempt = 0; attempt < 500; attempt++) {
    const status = (await runningTaskIds('*reindex')).get(taskId)?.status;
    if (status !== undefined) createdBefore = status.created;
    if (status !== undefined && status.batches >= 2) break;
    await sleep(20);
  }
  const cancel = await node.request('POST', `/_tasks/${taskId}/_cancel`);
  assert.equal(cancel.status, 200, cancel.text);
  // At once: either still listed and marked cancelled, or already gone.
  const listed = (await runningTaskIds('*reindex')).get(taskId);
  if (listed !== undefined) assert.equal(listed.cancelled, true);
  const finished = await node.request('GET', `/_tasks/${taskId}?wait_for_completion=true&timeout=30s`);
  assert.equal(finished.status, 200, finished.text);
  const response = finished.body.response;
  assert.equal(response.canceled, 'by user request');
  // Within one batch of the cancel: beyond what the status showed, at most a batch that finished before the cancel
  // arrived and the one in flight (10 documents each).
  assert.ok(response.created >= createdBefore && response.created <= createdBefore + 20, `${createdBefore} before; ${finished.text}`);
  assert.ok(response.created < DOCS, finished.text);
  assert.equal(await countOf('no-wait'), response.created);
});
