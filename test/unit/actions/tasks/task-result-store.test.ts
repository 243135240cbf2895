/**
 * The `.tasks` record codec (ES's TaskResult.toXContent with include_cancelled=false, and TaskResult.PARSER) and
 * the store itself on an in-process node: store -> get gives back the same TaskInfo, response and error.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { decodeTaskResult, encodeTaskResult, runDetached, taskResultDocument, TaskResultsIndex, TASK_RESULTS_INDEX } from '../../../../src/actions/tasks/index.js';
import { readStoredTaskIdFloor, storeBackoffMillis } from '../../../../src/actions/tasks/task-results-index.js';
import { TaskId, TaskManager, type StoredTaskResult, type TaskInfo } from '../../../../src/tasks/index.js';
import { RawJson } from '../../../../src/common/raw-json.js';
import { JsonFloat } from '../../../../src/common/json-float.js';
import { EsError, errors } from '../../../../src/common/errors.js';
import { Settings } from '../../../../src/common/settings.js';
import { GannetNode } from '../../../../src/node/node.js';

function info(overrides: Partial<TaskInfo> = {}): TaskInfo {
  return {
    taskId: new TaskId('node-a', 7),
    type: 'transport',
    action: 'indices:admin/forcemerge',
    description: 'Force-merge indices [logs], maxSegments[-1], onlyExpungeDeletes[false], flush[true]',
    status: undefined,
    startTimeMillis: 1_700_000_000_123,
    runningTimeNanos: 987_654_321,
    cancellable: false,
    cancelled: false,
    parentTaskId: undefined,
    headers: {},
    ...overrides,
  };
}

/** Numbers read back as their literal text; compare as plain JSON. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof RawJson ? JSON.parse(v.text) : v)));
}

test('the document is TaskResult.toXContent without cancelled, in ES field order', () => {
  const record: StoredTaskResult = {
    completed: true,
    task: info({ cancellable: true, cancelled: true, parentTaskId: new TaskId('node-a', 3), headers: { 'X-Opaque-Id': 'abc' } }),
    response: { _shards: { total: 1, successful: 1, failed: 0 } },
  };
  const document = taskResultDocument(record);
  assert.deepEqual(Object.keys(document), ['completed', 'task', 'response']);
  assert.deepEqual(Object.keys(document['task'] as object), [
    'node',
    'id',
    'type',
    'action',
    'description',
    'start_time_in_millis',
    'running_time_in_nanos',
    'cancellable',
    'parent_task_id',
    'headers',
  ]);
  const text = Buffer.from(encodeTaskResult(record)).toString('utf8');
  assert.equal(
    text,
    '{"completed":true,"task":{"node":"node-a","id":7,"type":"transport","action":"indices:admin/forcemerge",' +
      '"description":"Force-merge indices [logs], maxSegments[-1], onlyExpungeDeletes[false], flush[true]",' +
      '"start_time_in_millis":1700000000123,"running_time_in_nanos":987654321,"cancellable":true,' +
      '"parent_task_id":"node-a:3","headers":{"X-Opaque-Id":"abc"}},"response":{"_shards":{"total":1,"successful":1,"failed":0}}}',
  );
});

test('a cancelled flag is not stored, so it reads back false (as ES)', () => {
  const decoded = decodeTaskResult(encodeTaskResult({ completed: true, task: info({ cancellable: true, cancelled: true }) }), 'node-a:7');
  assert.equal(decoded.task.cancellable, true);
  assert.equal(decoded.task.cancelled, false);
});

test('numbers in status, response and error keep their literal text (Java doubles, longs beyond 2^53)', () => {
  const record: StoredTaskResult = {
    completed: true,
    task: info({ status: { total: 5, requests_per_second: new JsonFloat(-1) } }),
    response: { took: 12, ratio: new JsonFloat(1), big: new RawJson('9223372036854775807') },
  };
  const decoded = decodeTaskResult(encodeTaskResult(record), 'node-a:7');
  const status = decoded.task.status as Record<string, RawJson>;
  assert.equal(status['requests_per_second']!.text, '-1.0');
  assert.equal((decoded.response!['ratio'] as RawJson).text, '1.0');
  assert.equal((decoded.response!['big'] as RawJson).text, '9223372036854775807');
});

test('record round trip: decode(encode(r)) gives the same TaskInfo and body (property)', () => {
  const jsonValue = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string(),
      fc.boolean(),
      fc.integer(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('value'), { maxKeys: 3 }),
    ),
  })).value;
  const body = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), jsonValue, { maxKeys: 4 });
  const taskInfo = fc.record({
    node: fc.string({ minLength: 1, maxLength: 22 }).filter((s) => !s.includes(':')),
    id: fc.integer({ min: 1, max: 2 ** 31 }),
    action: fc.string({ minLength: 1 }),
    description: fc.option(fc.string(), { nil: undefined }),
    start: fc.integer({ min: 0, max: 2 ** 45 }),
    running: fc.integer({ min: 0, max: 2 ** 50 }),
    cancellable: fc.boolean(),
    parent: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
    headers: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string(), { maxKeys: 2 }),
  });
  fc.assert(
    fc.property(taskInfo, fc.boolean(), body, (t, failed, generated) => {
      // fast-check builds null-prototype objects; the store hands back ordinary ones.
      const payload = plain(generated) as Record<string, unknown>;
      const task = info({
        taskId: new TaskId(t.node, t.id),
        action: t.action,
        description: t.description,
        startTimeMillis: t.start,
        runningTimeNanos: t.running,
        cancellable: t.cancellable,
        cancelled: false,
        parentTaskId: t.parent === undefined ? undefined : new TaskId(t.node, t.parent),
        headers: plain(t.headers) as Record<string, string>,
      });
      const record: StoredTaskResult = failed ? { completed: true, task, error: payload } : { completed: true, task, response: payload };
      const decoded = decodeTaskResult(encodeTaskResult(record), task.taskId.toString());
      assert.equal(decoded.completed, true);
      assert.deepEqual({ ...decoded.task, taskId: decoded.task.taskId.toString(), parentTaskId: decoded.task.parentTaskId?.toString() }, {
        ...task,
        taskId: task.taskId.toString(),
        parentTaskId: task.parentTaskId?.toString(),
      });
      assert.deepEqual(plain(failed ? decoded.error : decoded.response), payload);
      assert.equal(failed ? decoded.response : decoded.error, undefined);
    }),
  );
});

test('a document without source or without its required fields is ES-style error, not a crash', () => {
  assert.throws(() => decodeTaskResult(new Uint8Array(0), 'n:1'), (err: EsError) => err.reason === "Stored task status for [n:1] didn't contain any source!");
  assert.throws(() => decodeTaskResult(Buffer.from('{"completed":true}'), 'n:1'), (err: EsError) => err.type === 'x_content_parse_exception');
  assert.throws(() => decodeTaskResult(Buffer.from('{"completed":true,"task":{"node":"n"}}'), 'n:1'), (err: EsError) => err.type === 'x_content_parse_exception');
});

test("ES's store backoff: 14 waits from 250ms, about ten minutes in all", () => {
  const waits = storeBackoffMillis();
  assert.equal(waits.length, 14);
  assert.equal(waits[0], 250);
  const total = waits.reduce((sum, wait) => sum + wait, 0);
  assert.ok(total > 500_000 && total < 700_000, `total ${total}`);
});

// ---- The store on a real in-process node ----

let node: GannetNode;
let dataPath: string;
before(async () => {
  dataPath = mkdtempSync(join(tmpdir(), 'gannet-task-store-'));
  node = new GannetNode(
    new Settings({ 'path.data': dataPath, 'http.port': '0', 'transport.port': '0', 'node.name': 'store-unit' }),
    pino({ level: 'silent' }),
  );
  await node.start();
});
after(async () => {
  await node.stop();
  rmSync(dataPath, { recursive: true, force: true });
});

test('get before anything was stored: no such index [.tasks]', async () => {
  const store = new TaskResultsIndex(node.nodeServices);
  await assert.rejects(store.get(new TaskId('x', 1)), (err: EsError) => err.type === 'index_not_found_exception' && err.reason === 'no such index [.tasks]');
});

test('store -> get gives the same record; the index is hidden, single-shard and strict', async () => {
  const services = node.nodeServices;
  const store = new TaskResultsIndex(services);
  const task = info({ taskId: new TaskId(services.localNode.id, 41), headers: { 'X-Opaque-Id': 'unit' } });
  await store.store({ completed: true, task, response: { _shards: { total: 1, successful: 1, failed: 0 } } });
  const failed = info({ taskId: new TaskId(services.localNode.id, 42), cancellable: true });
  await store.store({ completed: true, task: failed, error: { type: 'index_not_found_exception', reason: 'no such index [gone]' } });

  const got = await store.get(task.taskId);
  assert.ok(got);
  assert.deepEqual({ ...got.task, taskId: got.task.taskId.toString() }, { ...task, taskId: task.taskId.toString() });
  assert.deepEqual(plain(got.response), { _shards: { total: 1, successful: 1, failed: 0 } });
  const gotError = await store.get(failed.taskId);
  assert.deepEqual(plain(gotError?.error), { type: 'index_not_found_exception', reason: 'no such index [gone]' });
  assert.equal(await store.get(new TaskId(services.localNode.id, 9999)), undefined);

  const metadata = services.clusterService.state().indices.get(TASK_RESULTS_INDEX);
  assert.ok(metadata);
  assert.equal(metadata.settings['index.hidden'], 'true');
  assert.equal(metadata.settings['index.number_of_shards'], '1');
  assert.equal(metadata.settings['index.auto_expand_replicas'], '0-1');
  assert.equal(metadata.settings['index.number_of_replicas'], '0');
});

test('the same task stored twice keeps the last record (indexed under the task id)', async () => {
  const services = node.nodeServices;
  const store = new TaskResultsIndex(services);
  const task = info({ taskId: new TaskId(services.localNode.id, 77) });
  await store.store({ completed: true, task, response: { attempt: 1 } });
  await store.store({ completed: true, task, response: { attempt: 2 } });
  assert.deepEqual(plain((await store.get(task.taskId))?.response), { attempt: 2 });
});

test('a record the strict mapping refuses fails the store call without retrying, and the node keeps serving', async () => {
  const services = node.nodeServices;
  const store = new TaskResultsIndex(services, { backoffMillis: [1, 1, 1] });
  // `completed` is a boolean field: a string there is a mapping error, which ES does not retry either.
  const bad = { completed: 'yes' as unknown as boolean, task: info({ taskId: new TaskId(services.localNode.id, 88) }) };
  await assert.rejects(store.store(bad), (err: EsError) => err.status === 400);
  assert.equal(await store.get(bad.task.taskId), undefined);
});

test('the id floor: each stored local id is kept durably, and a restarted task manager starts above it', async () => {
  const services = node.nodeServices;
  const floorPath = join(dataPath, 'floor-test', 'stored_task_id_floor');
  assert.equal(readStoredTaskIdFloor(floorPath), 0);
  const store = new TaskResultsIndex(services, { idFloorPath: floorPath });
  await store.store({ completed: true, task: info({ taskId: new TaskId(services.localNode.id, 500) }), response: {} });
  await store.store({ completed: true, task: info({ taskId: new TaskId(services.localNode.id, 300) }), response: {} });
  // Another node's task ids say nothing about this node's counter.
  await store.store({ completed: true, task: info({ taskId: new TaskId('some-other-node', 900) }), response: {} });
  assert.equal(readStoredTaskIdFloor(floorPath), 500);

  const restarted = new TaskManager(services.localNode.id);
  restarted.skipIdsThrough(readStoredTaskIdFloor(floorPath));
  const task = restarted.register({ action: 'test' });
  assert.equal(task.id, 501);
  restarted.skipIdsThrough(10);
  assert.equal(restarted.register({ action: 'test' }).id, 502);
});

test('runDetached answers {task} at once, stores the outcome (response or error) and only then unregisters', async () => {
  const services = node.nodeServices;
  const taskManager = services.taskManager;
  const run = async (work: () => Promise<Record<string, unknown>>) => {
    const task = taskManager.register({ action: 'indices:admin/forcemerge', description: 'unit' });
    let detached = false;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const response = runDetached({ task, services, detach: () => (detached = true) }, async () => {
      await gate;
      return work();
    });
    assert.equal(detached, true);
    assert.deepEqual(response.body, { task: task.taskId.toString() });
    // Still registered while the work runs.
    assert.equal(taskManager.get(task.id), task);
    release();
    await task.whenCompleted();
    assert.equal(taskManager.get(task.id), undefined);
    // Unregistered only after storing, so the record is there as soon as the task is gone.
    return taskManager.resultStore!.get(task.taskId);
  };
  const ok = await run(async () => ({ _shards: { total: 1, successful: 1, failed: 0 } }));
  assert.deepEqual(plain(ok?.response), { _shards: { total: 1, successful: 1, failed: 0 } });
  assert.equal(ok?.task.description, 'unit');
  const failed = await run(async () => {
    throw errors.indexNotFound('gone');
  });
  assert.deepEqual(plain(failed?.error), {
    type: 'index_not_found_exception',
    reason: 'no such index [gone]',
    'resource.type': 'index_or_alias',
    'resource.id': 'gone',
    index_uuid: '_na_',
    index: 'gone',
  });
  assert.equal(failed?.response, undefined);
});

test('a header named __proto__ round-trips as a header (found by the property below with seed -365650726)', () => {
  const record: StoredTaskResult = { completed: true, task: info({ headers: JSON.parse('{"__proto__":"x","X-Opaque-Id":"y"}') as Record<string, string> }) };
  const decoded = decodeTaskResult(encodeTaskResult(record), 'node-a:7');
  assert.deepEqual(Object.entries(decoded.task.headers), [['__proto__', 'x'], ['X-Opaque-Id', 'y']]);
  assert.equal(Object.getPrototypeOf(decoded.task.headers), Object.prototype);
});
