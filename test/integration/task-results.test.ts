/**
 * Stored task results on real node processes: `POST {index}/_forcemerge?wait_for_completion=false` answers with a
 * task id, the finished task's record lands in the hidden `.tasks` index, and `GET _tasks/<id>` serves it (waiting
 * or not), also after a graceful restart and after kill -9. `.tasks` stays out of `_cat/indices` and `_search` on
 * `*` as in ES; an unknown id is ES's 404 chain; a record that cannot be stored is logged, not fatal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { NodeProcess, type HttpResult } from '../helpers/node-process.js';

const DEADLINE_MILLIS = 30_000;

/** Polls `GET _tasks/<id>` until the record is served (the task runs on after the HTTP answer). */
async function waitForStoredResult(node: NodeProcess, taskId: string): Promise<HttpResult> {
  const started = Date.now();
  for (;;) {
    const res = await node.request('GET', `/_tasks/${taskId}`);
    if (res.status === 200 && res.body.completed === true) return res;
    if (Date.now() - started > DEADLINE_MILLIS) throw new Error(`task ${taskId} never completed: ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startForceMerge(node: NodeProcess, path: string): Promise<string> {
  const res = await node.request('POST', path);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ['task']);
  assert.match(res.body.task, new RegExp(`^${node.nodeId}:\\d+$`));
  return res.body.task as string;
}

function assertForceMergeRecord(node: NodeProcess, body: Record<string, any>, taskId: string, indices: string): void {
  assert.deepEqual(Object.keys(body), ['completed', 'task', 'response']);
  assert.equal(body.completed, true);
  const [nodeId, id] = taskId.split(':');
  assert.deepEqual(Object.keys(body.task), ['node', 'id', 'type', 'action', 'description', 'start_time_in_millis', 'running_time_in_nanos', 'cancellable', 'headers']);
  assert.equal(body.task.node, nodeId);
  assert.equal(body.task.id, Number(id));
  assert.equal(body.task.type, 'transport');
  assert.equal(body.task.action, 'indices:admin/forcemerge');
  assert.equal(body.task.description, `Force-merge indices [${indices}], maxSegments[1], onlyExpungeDeletes[false], flush[true]`);
  assert.equal(body.task.cancellable, false);
  assert.ok(body.task.running_time_in_nanos > 0);
  assert.deepEqual(body.response, { _shards: { total: 2, successful: 2, failed: 0 } });
  assert.equal(node.nodeId, nodeId);
}

async function seed(node: NodeProcess): Promise<void> {
  await node.request('PUT', '/merge-me', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
  for (let i = 0; i < 20; i++) {
    const res = await node.request('PUT', `/merge-me/_doc/${i}?refresh=true`, { body: { n: i } });
    assert.ok(res.status < 300, res.text);
  }
}

async function waitForGreen(node: NodeProcess, index: string): Promise<void> {
  const res = await node.request('GET', `/_cluster/health/${index}?wait_for_status=green&timeout=30s`);
  assert.equal(res.body.status, 'green', res.text);
}

test('forcemerge wait_for_completion=false: task id, stored record, GET _tasks/<id> with and without waiting; survives restart and kill -9', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'results-node' } });
  const dataPath = node.dataPath;
  try {
    await seed(node);
    // GET _tasks/<id>?wait_for_completion=true issued right away waits for the task and answers with its stored record.
    const waited = await startForceMerge(node, '/merge-me/_forcemerge?max_num_segments=1&wait_for_completion=false');
    const waitedRes = await node.request('GET', `/_tasks/${waited}?wait_for_completion=true&timeout=30s`);
    assert.equal(waitedRes.status, 200, waitedRes.text);
    assertForceMergeRecord(node, waitedRes.body, waited, 'merge-me');

    const polled = await startForceMerge(node, '/merge-me/_forcemerge?max_num_segments=1&wait_for_completion=false');
    const polledRes = await waitForStoredResult(node, polled);
    assertForceMergeRecord(node, polledRes.body, polled, 'merge-me');
    // The record is an ordinary document of `.tasks`, under the task id, without `cancelled`.
    const doc = await node.request('GET', `/.tasks/_doc/${polled}`);
    assert.equal(doc.body.found, true);
    assert.deepEqual(doc.body._source, polledRes.body);
    // The merge really ran: one segment per shard.
    const segments = await node.request('GET', '/_cat/segments/merge-me?format=json');
    assert.equal(segments.body.length, 2, segments.text);

    // Graceful stop and start: the same answer from the restarted node.
    assert.equal(await node.stop(), 0);
    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'results-node' } });
    await waitForGreen(node, '.tasks');
    const afterRestart = await node.request('GET', `/_tasks/${polled}`);
    assert.equal(afterRestart.status, 200, afterRestart.text);
    assert.deepEqual(afterRestart.body, polledRes.body);
    assert.deepEqual((await node.request('GET', `/_tasks/${waited}?wait_for_completion=true`)).body, waitedRes.body);

    // A result stored just before kill -9 is durable (translog fsync before the store returns).
    const killed = await startForceMerge(node, '/merge-me/_forcemerge?max_num_segments=1&wait_for_completion=false');
    const beforeKill = await waitForStoredResult(node, killed);
    await node.kill9();
    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'results-node' } });
    await waitForGreen(node, '.tasks');
    const afterKill = await node.request('GET', `/_tasks/${killed}`);
    assert.equal(afterKill.status, 200, afterKill.text);
    assert.deepEqual(afterKill.body, beforeKill.body);
    assert.deepEqual((await node.request('GET', `/_tasks/${polled}`)).body, polledRes.body);
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});

test('a failing background task stores its error; .tasks is hidden as in ES; unknown ids get the 404 chain', async () => {
  const node = await NodeProcess.start({ settings: { 'node.name': 'results-node-2' } });
  try {
    // Nothing stored yet: the chain ends in `no such index [.tasks]`.
    const unknownBefore = await node.request('GET', `/_tasks/${node.nodeId}:9999`);
    assert.equal(unknownBefore.status, 404);
    assert.equal(unknownBefore.body.error.type, 'resource_not_found_exception');
    assert.equal(unknownBefore.body.error.reason, `task [${node.nodeId}:9999] isn't running and hasn't stored its results`);
    assert.equal(unknownBefore.body.error.caused_by.type, 'index_not_found_exception');
    assert.equal(unknownBefore.body.error.caused_by.reason, 'no such index [.tasks]');

    // ES resolves the indices inside the task: a missing index is the stored error, not the HTTP answer.
    const missing = await startForceMerge(node, '/no-such-index/_forcemerge?wait_for_completion=false');
    const failed = await node.request('GET', `/_tasks/${missing}?wait_for_completion=true&timeout=30s`);
    assert.equal(failed.status, 200, failed.text);
    assert.deepEqual(Object.keys(failed.body), ['completed', 'task', 'error']);
    assert.deepEqual(failed.body.error, {
      type: 'index_not_found_exception',
      reason: 'no such index [no-such-index]',
      'resource.type': 'index_or_alias',
      'resource.id': 'no-such-index',
      index_uuid: '_na_',
      index: 'no-such-index',
    });
    assert.equal(failed.body.task.description, 'Force-merge indices [no-such-index], maxSegments[-1], onlyExpungeDeletes[false], flush[true]');

    // Validation still fails before forking, as ES validates before sending the task off.
    const invalid = await node.request('POST', '/_forcemerge?only_expunge_deletes=true&max_num_segments=1&wait_for_completion=false');
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.type, 'action_request_validation_exception');

    // Now `.tasks` exists, an unknown id is a plain not-found without a cause.
    const unknownAfter = await node.request('GET', `/_tasks/${node.nodeId}:9999`);
    assert.equal(unknownAfter.status, 404);
    assert.equal(unknownAfter.body.error.reason, `task [${node.nodeId}:9999] isn't running and hasn't stored its results`);
    assert.equal(unknownAfter.body.error.caused_by, undefined);

    // Hidden: not in _cat/indices or _search on * / _all; present with expand_wildcards=all, in _cat/shards and health.
    await node.request('PUT', '/visible/_doc/1?refresh=true', { body: { a: 1 } });
    const catIndices = await node.request('GET', '/_cat/indices?h=index&format=json');
    assert.deepEqual(catIndices.body.map((row: { index: string }) => row.index), ['visible']);
    const catAll = await node.request('GET', '/_cat/indices?h=index&format=json&expand_wildcards=all&s=index');
    assert.deepEqual(catAll.body.map((row: { index: string }) => row.index), ['.tasks', 'visible']);
    for (const path of ['/*/_search', '/_all/_search', '/_search']) {
      const search = await node.request('GET', path);
      assert.equal(search.status, 200, search.text);
      assert.equal(search.body.hits.total.value, 1, `${path}: ${search.text}`);
      assert.deepEqual(search.body.hits.hits.map((hit: { _index: string }) => hit._index), ['visible']);
    }
    // With expand_wildcards=all the record is searchable once a periodic refresh ran (ES does not refresh on store).
    const started = Date.now();
    for (;;) {
      const searchAll = await node.request('GET', '/*/_search?expand_wildcards=all&q=completed:true');
      if (searchAll.body.hits.total.value === 1) break;
      if (Date.now() - started > DEADLINE_MILLIS) assert.fail(`the stored record never became searchable: ${searchAll.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const shards = await node.request('GET', '/_cat/shards?h=index&format=json');
    assert.ok(shards.body.some((row: { index: string }) => row.index === '.tasks'));
    const health = await node.request('GET', '/_cluster/health?level=indices');
    assert.ok(health.body.indices['.tasks'], health.text);
    // The strict system mapping, with ES's _meta.
    const mapping = await node.request('GET', '/.tasks/_mapping');
    assert.equal(mapping.body['.tasks'].mappings.dynamic, 'strict');
    assert.deepEqual(mapping.body['.tasks'].mappings._meta, { version: '8.19.2', managed_index_mappings_version: 0 });
  } finally {
    await node.stop();
  }
});

test('a result that cannot be stored is logged; the node stays up and the task reads as not stored', async () => {
  const node = await NodeProcess.start({ settings: { 'node.name': 'results-node-3' } });
  const logLines: string[] = [];
  createInterface({ input: node.child.stdout! }).on('line', (line) => logLines.push(line));
  try {
    // A user-made `.tasks` whose mapping refuses every record (`completed` is a date there).
    const created = await node.request('PUT', '/.tasks', { body: { mappings: { dynamic: 'strict', properties: { completed: { type: 'date' } } } } });
    assert.equal(created.status, 200, created.text);
    await node.request('PUT', '/victim/_doc/1', { body: { a: 1 } });
    const taskId = await startForceMerge(node, '/victim/_forcemerge?wait_for_completion=false');
    // The waiting GET falls back to the snapshot taken as the task finished (ES does the same when nothing was stored).
    const waited = await node.request('GET', `/_tasks/${taskId}?wait_for_completion=true&timeout=30s`);
    assert.equal(waited.status, 200, waited.text);
    assert.deepEqual(Object.keys(waited.body), ['completed', 'task']);
    assert.equal(waited.body.completed, true);
    const later = await node.request('GET', `/_tasks/${taskId}`);
    assert.equal(later.status, 404);
    assert.equal(later.body.error.reason, `task [${taskId}] isn't running and hasn't stored its results`);
    // Logged, and the node keeps serving.
    const started = Date.now();
    while (!logLines.some((line) => line.includes(`couldn't store response of task [${taskId}]`))) {
      if (Date.now() - started > DEADLINE_MILLIS) throw new Error(`no log line for the failed store:\n${logLines.slice(-20).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal((await node.request('GET', '/_cluster/health')).status, 200);
    assert.equal((await node.request('GET', '/victim/_doc/1')).body.found, true);
  } finally {
    await node.stop();
  }
});

test('a wait_for_completion=false reindex stores its BulkByScrollResponse, served again after a restart', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'results-reindex' } });
  const dataPath = node.dataPath;
  try {
    const lines: string[] = [];
    for (let i = 0; i < 50; i++) lines.push(JSON.stringify({ index: { _index: 'reindex-src', _id: String(i) } }), JSON.stringify({ n: i }));
    const bulk = await node.request('POST', '/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.body.errors, false, bulk.text);
    const started = await node.request('POST', '/_reindex?wait_for_completion=false', { body: { source: { index: 'reindex-src' }, dest: { index: 'reindex-dst' } } });
    assert.equal(started.status, 200, started.text);
    const taskId = started.body.task as string;
    const done = await node.request('GET', `/_tasks/${taskId}?wait_for_completion=true&timeout=30s`);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.completed, true);
    assert.equal(done.body.task.action, 'indices:data/write/reindex');
    assert.equal(done.body.response.total, 50, done.text);
    assert.equal(done.body.response.created, 50);
    assert.deepEqual(done.body.response.failures, []);
    assert.equal(done.body.error, undefined);
    // ES's TaskResult renders the stored response human-readable: `throttled` before `throttled_millis` (as a real
    // OpenSearch 2.19 node answers too: bench/answers).
    const keys = Object.keys(done.body.response);
    assert.deepEqual(keys.slice(keys.indexOf('retries') + 1), ['throttled', 'throttled_millis', 'requests_per_second', 'throttled_until', 'throttled_until_millis', 'failures']);
    assert.equal(done.body.response.throttled, '0s');
    assert.equal(done.body.response.throttled_until, '0s');

    assert.equal(await node.stop(), 0);
    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'results-reindex' } });
    await waitForGreen(node, '.tasks');
    const again = await node.request('GET', `/_tasks/${taskId}`);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, done.body);
    // The restarted node's task ids start above every id it stored a result for (ES would reuse them).
    const listing = await node.request('GET', '/_tasks?group_by=none');
    for (const task of listing.body.tasks as Array<{ id: number }>) assert.ok(task.id > done.body.task.id, listing.text);
    // Auto-created with one replica, so yellow on one node.
    const dstHealth = await node.request('GET', '/_cluster/health/reindex-dst?wait_for_status=yellow&timeout=30s');
    assert.equal(dstHealth.body.timed_out, false, dstHealth.text);
    assert.equal((await node.request('GET', '/reindex-dst/_count')).body.count, 50);
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});
