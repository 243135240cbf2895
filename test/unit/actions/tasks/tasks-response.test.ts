import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tasksResponseJson, parseGroupBy, taskInfoJson } from '../../../../src/actions/tasks/index.js';
import { TaskId, type TaskInfo } from '../../../../src/tasks/index.js';
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

test("a node's rendered task map is the response writer's JSON of the same tasks, however often it is rendered", async () => {
  const { renderTaskMap } = await import('../../../../src/actions/tasks/task-json.js');
  const { writeJson } = await import('../../../../src/http/xcontent.js');
  const shared = new TaskId('n1', 9);
  const infos: TaskInfo[] = [
    info(1),
    info(2, { cancellable: true, parentTaskId: new TaskId('n0', 4), headers: { 'X-Opaque-Id': 'a "quoted" id' } }),
    info(9, { taskId: shared, cancellable: true, cancelled: false, action: 'cluster:monitor/tasks/lists[n]', type: 'direct' }),
    info(3, { description: 'detailed', status: { rate: 1.5 } }),
  ];
  const expected = (list: readonly TaskInfo[], human: boolean) =>
    writeJson(Object.fromEntries(list.map((task) => [task.taskId.toString(), taskInfoJson(task, { human })])), false);
  assert.equal(renderTaskMap(infos, { human: false }), expected(infos, false));
  assert.equal(renderTaskMap(infos, { human: true }), expected(infos, true));
  // The same task later: a longer running time and cancelled now; only those change.
  const later = [info(9, { taskId: shared, cancellable: true, cancelled: true, action: 'cluster:monitor/tasks/lists[n]', type: 'direct', runningTimeNanos: 99_000_000 })];
  assert.equal(renderTaskMap(later, { human: false }), expected(later, false));
  assert.equal(renderTaskMap([], { human: false }), '{}');
});
