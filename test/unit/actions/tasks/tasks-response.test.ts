import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tasksResponseJson, parseGroupBy, taskInfoJson } from '../../../../src/actions/tasks/index.js';
import { TaskId, taskInfoOf, type TaskInfo } from '../../../../src/tasks/index.js';
import { errors, EsError } from '../../../../src/common/errors.js';
import type { DiscoveryNode } from '../../../../src/cluster/index.js';

const node: DiscoveryNode = {
  id: 'n1',
  name: 'node-1',
  ephemeralId: 'e',
  host: 'host-1',
  ip: '10.0.0.1',
  transportPort: 9300,
  httpPort: 9200,
  roles: ['master', 'data', 'ingest'],
  attributes: { zone: 'a' },
  version: '8.19.2',
};

function info(id: number, overrides: Partial<TaskInfo> = {}): TaskInfo {
  return {
    taskId: new TaskId('n1', id),
    type: 'transport',
    action: 'indices:data/write/reindex',
    description: undefined,
    status: undefined,
    startTimeMillis: 1_700_000_000_000,
    runningTimeNanos: 1_500_000,
    cancellable: false,
    cancelled: false,
    parentTaskId: undefined,
    headers: {},
    ...overrides,
  };
}

test('TaskInfo renders in ES order with optional fields only when present', () => {
  const full = taskInfoJson(
    info(5, {
      status: { total: 1 },
      description: 'reindex',
      cancellable: true,
      cancelled: true,
      parentTaskId: new TaskId('n1', 4),
      headers: { 'X-Opaque-Id': 'x' },
    }),
    { human: true },
  );
  assert.deepEqual(Object.keys(full), [
    'node', 'id', 'type', 'action', 'status', 'description', 'start_time', 'start_time_in_millis',
    'running_time', 'running_time_in_nanos', 'cancellable', 'cancelled', 'parent_task_id', 'headers',
  ]);
  assert.equal(full['start_time'], '2023-11-14T22:13:20.000Z');
  assert.equal(full['running_time'], '1.5ms');
  assert.equal(full['parent_task_id'], 'n1:4');
  const bare = taskInfoJson(info(6), { human: false });
  assert.deepEqual(Object.keys(bare), ['node', 'id', 'type', 'action', 'start_time_in_millis', 'running_time_in_nanos', 'cancellable', 'headers']);
  assert.deepEqual(bare['headers'], {});
});

test('group_by=nodes: node block with sorted full role names, attributes when set, failures first', () => {
  const body = tasksResponseJson(
    {
      tasks: [info(1), info(2)],
      taskFailures: [{ nodeId: 'n1', taskId: 3, error: errors.taskNotCancellable('n1:3') }],
      nodeFailures: [errors.failedNode('n2', errors.noSuchNode('n2'))],
    },
    'nodes',
    new Map([['n1', node]]),
    { human: false },
  );
  assert.deepEqual(Object.keys(body), ['task_failures', 'node_failures', 'nodes']);
  assert.deepEqual(body['task_failures'], [
    {
      task_id: 3,
      node_id: 'n1',
      status: 'BAD_REQUEST',
      reason: { type: 'illegal_argument_exception', reason: "task [n1:3] doesn't support cancellation" },
    },
  ]);
  assert.deepEqual(body['node_failures'], [
    {
      type: 'failed_node_exception',
      reason: 'Failed node [n2]',
      node_id: 'n2',
      caused_by: { type: 'no_such_node_exception', reason: 'No such node [n2]', node_id: 'n2' },
    },
  ]);
  const block = (body['nodes'] as Record<string, Record<string, unknown>>)['n1']!;
  assert.deepEqual(Object.keys(block), ['name', 'transport_address', 'host', 'ip', 'roles', 'attributes', 'tasks']);
  assert.equal(block['transport_address'], '10.0.0.1:9300');
  assert.equal(block['ip'], '10.0.0.1:9300');
  assert.equal(block['host'], 'host-1');
  assert.deepEqual(block['roles'], ['data', 'ingest', 'master']);
  assert.deepEqual(Object.keys(block['tasks'] as object), ['n1:1', 'n1:2']);
});

test('a node that left the cluster keeps only its tasks; nothing matched is an empty nodes object', () => {
  const gone = tasksResponseJson({ tasks: [info(1)], taskFailures: [], nodeFailures: [] }, 'nodes', new Map(), { human: false });
  assert.deepEqual(Object.keys((gone['nodes'] as Record<string, object>)['n1']!), ['tasks']);
  assert.deepEqual(tasksResponseJson({ tasks: [], taskFailures: [], nodeFailures: [] }, 'nodes', new Map(), { human: false }), { nodes: {} });
  assert.deepEqual(tasksResponseJson({ tasks: [], taskFailures: [], nodeFailures: [] }, 'none', new Map(), { human: false }), { tasks: [] });
  assert.deepEqual(tasksResponseJson({ tasks: [], taskFailures: [], nodeFailures: [] }, 'parents', new Map(), { human: false }), { tasks: {} });
});

test('group_by=parents writes children after the parent\'s own fields', () => {
  const body = tasksResponseJson(
    { tasks: [info(1), info(2, { parentTaskId: new TaskId('n1', 1) })], taskFailures: [], nodeFailures: [] },
    'parents',
    new Map([['n1', node]]),
    { human: false },
  );
  const top = (body['tasks'] as Record<string, Record<string, unknown>>)['n1:1']!;
  assert.equal(Object.keys(top).at(-1), 'children');
  assert.equal((top['children'] as Array<{ id: number }>)[0]!.id, 2);
  assert.equal(Object.keys(body['tasks'] as object).length, 1);
});

test('group_by accepts nodes, parents and none only', () => {
  assert.equal(parseGroupBy(undefined), 'nodes');
  assert.equal(parseGroupBy('parents'), 'parents');
  assert.throws(
    () => parseGroupBy('NODES'),
    (err: unknown) => err instanceof EsError && err.reason === '[group_by] must be one of [nodes], [parents] or [none] but was [NODES]',
  );
});

test("a node's task map bytes are the response writer's JSON of the same tasks' TaskInfos, however often they are rendered", async () => {
  const { renderTaskMapBytes } = await import('../../../../src/actions/tasks/task-listing-json.js');
  const { writeJson } = await import('../../../../src/http/xcontent.js');
  const { TaskManager } = await import('../../../../src/tasks/index.js');
  const manager = new TaskManager('n1');
  const tasks = [
    manager.register({ action: 'indices:data/write/reindex' }),
    manager.register({ action: 'cluster:monitor/tasks/lists', cancellable: true, parentTaskId: new TaskId('n0', 4), headers: { 'X-Opaque-Id': 'a "quoted" id' } }),
    manager.register({ action: 'cluster:monitor/tasks/lists[n]', type: 'direct', cancellable: true, headers: { 'X-Opaque-Id': 'non-ASCII: é ✓ 😀' } }),
    manager.register({ action: 'indices:data/write/bulk', description: 'only with detailed', status: () => ({ rate: 1.5 }) }),
  ];
  const expected = (human: boolean, now: number) =>
    writeJson(Object.fromEntries(tasks.map((task) => [task.taskId.toString(), taskInfoJson(taskInfoOf(task, false, now), { human })])), false);
  const now = performance.now() + 12.3456789;
  assert.equal(renderTaskMapBytes(tasks, false, now).toString('utf8'), expected(false, now));
  assert.equal(renderTaskMapBytes(tasks, true, now).toString('utf8'), expected(true, now));
  // The same tasks later (their JSON's fixed parts kept): a longer running time, and one cancelled since.
  await manager.cancel(tasks[1]!, 'by test', false);
  const later = now + 99;
  assert.equal(renderTaskMapBytes(tasks, false, later).toString('utf8'), expected(false, later));
  assert.equal(renderTaskMapBytes(tasks.slice(0, 2), false, later).toString('utf8'), expected(false, later).replace(/,"n1:3":.*}$/, '}'));
  assert.equal(renderTaskMapBytes([], false, later).toString('utf8'), '{}');
});

test('running times of every length are written as their decimal digits (1 ns to days)', async () => {
  const { renderTaskMapBytes } = await import('../../../../src/actions/tasks/task-listing-json.js');
  const { TaskManager } = await import('../../../../src/tasks/index.js');
  const task = new TaskManager('n1').register({ action: 'cluster:monitor/tasks/lists' });
  const startedAt = performance.now() - task.runningTimeNanosAt(performance.now()) / 1e6;
  // Offsets in ms from the start whose nanoseconds cross every digit count and the 1e9 split.
  for (const millis of [0, 0.000001, 0.00001, 0.009, 0.5, 1, 999.999999, 1000, 1000.000001, 1234.5678, 65_000, 3_600_000, 86_400_000 * 3, 9.9e6]) {
    const now = startedAt + millis;
    const text = renderTaskMapBytes([task], false, now).toString('utf8');
    assert.equal(/"running_time_in_nanos":(\d+),/.exec(text)![1], String(task.runningTimeNanosAt(now)), `at ${millis} ms`);
  }
});

test("group_by=nodes from the nodes' rendered listings: the same bytes as from their TaskInfos, written as parts", async () => {
  const { renderTaskMapBytes } = await import('../../../../src/actions/tasks/task-listing-json.js');
  const { writeJson, writeJsonChunks } = await import('../../../../src/http/xcontent.js');
  const { TaskManager } = await import('../../../../src/tasks/index.js');
  const managers = ['n1', 'n2', 'gone'].map((id) => new TaskManager(id));
  const filler = 'x'.repeat(1500);
  for (const [i, manager] of managers.entries()) {
    for (let k = 0; k < 3; k++) manager.register({ action: `cluster:monitor/tasks/lists[n]`, cancellable: true, parentTaskId: new TaskId('n1', k + 1), headers: { 'X-Opaque-Id': `${filler}-${i}` } });
  }
  const empty = new TaskManager('n3');
  const nodes = new Map<string, DiscoveryNode>([
    ['n1', node],
    ['n2', { ...node, id: 'n2', name: 'nöde-2 "two"', attributes: {} }],
    ['n3', { ...node, id: 'n3', name: 'node-3' }],
  ]);
  const now = performance.now();
  const all = [...managers, empty];
  const rendered = all.map((manager) => ({ nodeId: manager.nodeId, count: manager.list().length, bytes: renderTaskMapBytes(manager.list(), false, now) }));
  const infos = all.flatMap((manager) => manager.list().map((task) => taskInfoOf(task, false, now)));
  const expected = writeJson(tasksResponseJson({ tasks: infos, taskFailures: [], nodeFailures: [] }, 'nodes', nodes, { human: false }), false);
  for (let round = 0; round < 2; round++) {
    // Twice: the second time the block heads come from the cache.
    const body = tasksResponseJson({ tasks: [], taskFailures: [], nodeFailures: [], rendered }, 'nodes', nodes, { human: false });
    const chunks = writeJsonChunks(body);
    assert.equal(Buffer.concat(chunks).toString('utf8'), expected);
    // Each node's listing (over 1 KB) is a chunk of its own, not copied.
    assert.ok(rendered.filter((r) => r.count > 0).every((r) => chunks.some((chunk) => chunk.buffer === r.bytes.buffer && chunk.byteOffset === r.bytes.byteOffset)));
    assert.equal(writeJson(body, false), expected);
    assert.deepEqual(JSON.parse(writeJson(body, true)), JSON.parse(expected));
  }
  const none = tasksResponseJson({ tasks: [], taskFailures: [], nodeFailures: [], rendered: [{ nodeId: 'n3', count: 0, bytes: Buffer.from('{}') }] }, 'nodes', nodes, { human: false });
  assert.equal(writeJson(none, false), '{"nodes":{}}');
});

test('a listing of tasks whose node id, type, action or headers need escapes is the response writer\'s JSON too', async () => {
  const { renderTaskMapBytes } = await import('../../../../src/actions/tasks/task-listing-json.js');
  const { writeJson } = await import('../../../../src/http/xcontent.js');
  const { TaskManager } = await import('../../../../src/tasks/index.js');
  const manager = new TaskManager('nö"\\de');
  const tasks = [
    manager.register({ action: 'a "quoted"\taction', type: 'direct', cancellable: true, parentTaskId: new TaskId('pä\n', 7) }),
    manager.register({ action: 'a "quoted"\taction', headers: {} }),
    manager.register({ action: 'cluster:monitor/tasks/lists', type: 'persistent', headers: { 'X-Opaque-Id': '\u2028\u{1F600}' } }),
  ];
  const now = performance.now() + 5;
  const expected = writeJson(Object.fromEntries(tasks.map((task) => [task.taskId.toString(), taskInfoJson(taskInfoOf(task, false, now), { human: false })])), false);
  assert.equal(renderTaskMapBytes(tasks, false, now).toString('utf8'), expected);
});

test("group_by=none from the nodes' rendered elements: the same bytes as from their TaskInfos", async () => {
  const { renderTaskElementsBytes, renderTaskMapBytes } = await import('../../../../src/actions/tasks/task-listing-json.js');
  const { writeJson, writeJsonChunks } = await import('../../../../src/http/xcontent.js');
  const { TaskManager } = await import('../../../../src/tasks/index.js');
  const managers = ['n1', 'n2', 'n3'].map((id) => new TaskManager(id));
  managers[0]!.register({ action: 'cluster:monitor/tasks/lists', headers: { 'X-Opaque-Id': 'é'.repeat(600) } });
  managers[0]!.register({ action: 'cluster:monitor/tasks/lists[n]', type: 'direct', cancellable: true, parentTaskId: new TaskId('n1', 1) });
  const child = managers[2]!.register({ action: 'cluster:monitor/tasks/lists[n]', cancellable: true, parentTaskId: new TaskId('n1', 1) });
  await managers[2]!.cancel(child, 'by test', false);
  const now = performance.now();
  for (const human of [false, true]) {
    // A task first rendered keyed, then as an element (and the other way round), keeps one set of fixed parts.
    if (!human) renderTaskMapBytes(managers[0]!.list(), false, now);
    const rendered = managers.map((manager) => ({ nodeId: manager.nodeId, count: manager.list().length, bytes: renderTaskElementsBytes(manager.list(), human, now) }));
    assert.equal(rendered[1]!.bytes.length, 0);
    const infos = managers.flatMap((manager) => manager.list().map((task) => taskInfoOf(task, false, now)));
    const expected = writeJson(tasksResponseJson({ tasks: infos, taskFailures: [], nodeFailures: [] }, 'none', new Map(), { human }), false);
    const body = tasksResponseJson({ tasks: [], taskFailures: [], nodeFailures: [], rendered }, 'none', new Map(), { human });
    assert.equal(Buffer.concat(writeJsonChunks(body)).toString('utf8'), expected);
    assert.equal(writeJson(body, true), writeJson(tasksResponseJson({ tasks: infos, taskFailures: [], nodeFailures: [] }, 'none', new Map(), { human }), true));
    assert.equal(renderTaskMapBytes(managers[0]!.list(), human, now).toString('utf8'), writeJson(Object.fromEntries(managers[0]!.list().map((task) => [task.taskId.toString(), taskInfoJson(taskInfoOf(task, false, now), { human })])), false));
  }
  const none = tasksResponseJson({ tasks: [], taskFailures: [], nodeFailures: [], rendered: [{ nodeId: 'n2', count: 0, bytes: Buffer.alloc(0) }] }, 'none', new Map(), { human: false });
  assert.equal(writeJson(none, false), '{"tasks":[]}');
});
