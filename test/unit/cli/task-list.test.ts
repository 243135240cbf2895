import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTaskForest, failuresFromResponse, flattenForest, tasksFromResponse, withoutRequest } from '../../../src/cli/task-list.js';
import { renderTaskTable } from '../../../src/cli/task-table.js';

const info = (node: string, id: number, action: string, extra: Record<string, unknown> = {}) => ({
  node,
  id,
  type: 'transport',
  action,
  start_time_in_millis: 1_000 + id,
  running_time_in_nanos: 1_400_000 * id,
  cancellable: false,
  headers: {},
  ...extra,
});

const byNodes = {
  nodes: {
    nA: {
      name: 'alpha',
      transport_address: '127.0.0.1:9300',
      host: '127.0.0.1',
      ip: '127.0.0.1:9300',
      roles: ['data', 'master'],
      tasks: {
        'nA:7': info('nA', 7, 'indices:data/write/reindex', { cancellable: true, cancelled: false, description: 'reindex from [a] to [b]' }),
        'nA:9': info('nA', 9, 'indices:data/write/bulk', { parent_task_id: 'nA:7' }),
        'nA:2': info('nA', 2, 'cluster:monitor/health', { cancellable: true, cancelled: true }),
        'nA:30': info('nA', 30, 'cluster:monitor/tasks/lists', { headers: { 'X-Opaque-Id': 'me' } }),
      },
    },
    nB: {
      name: 'beta',
      tasks: {
        'nB:4': info('nB', 4, 'indices:data/write/bulk[s]', { parent_task_id: 'nA:9' }),
        'nB:31': info('nB', 31, 'cluster:monitor/tasks/lists[n]', { parent_task_id: 'nA:30' }),
        'nB:5': info('nB', 5, 'indices:data/read/search', { parent_task_id: 'gone:1' }),
      },
    },
  },
};

test('tasks from the group_by=nodes shape carry node names, flags, parents and the opaque id', () => {
  const tasks = tasksFromResponse(byNodes);
  assert.equal(tasks.length, 7);
  const reindex = tasks.find((task) => task.id === 'nA:7')!;
  assert.equal(reindex.nodeName, 'alpha');
  assert.equal(reindex.cancellable, true);
  assert.equal(reindex.description, 'reindex from [a] to [b]');
  assert.equal(tasks.find((task) => task.id === 'nB:4')!.parentTaskId, 'nA:9');
  assert.equal(tasks.find((task) => task.id === 'nA:30')!.opaqueId, 'me');
});

test('the group_by=parents and group_by=none shapes give the same tasks', () => {
  const parents = { tasks: { 'nA:7': { ...info('nA', 7, 'r'), children: [info('nA', 9, 'b', { parent_task_id: 'nA:7' })] } } };
  assert.deepEqual(tasksFromResponse(parents).map((task) => task.id), ['nA:7', 'nA:9']);
  const none = { tasks: [info('nA', 7, 'r'), info('nA', 9, 'b', { parent_task_id: 'nA:7' })] };
  assert.deepEqual(tasksFromResponse(none).map((task) => [task.id, task.parentTaskId]), [['nA:7', undefined], ['nA:9', 'nA:7']]);
  assert.deepEqual(tasksFromResponse({ nodes: {} }), []);
  assert.deepEqual(tasksFromResponse('nonsense'), []);
});

test('the CLI drops its own list request and that request\'s children, nothing else', () => {
  const kept = withoutRequest(tasksFromResponse(byNodes), 'me').map((task) => task.id);
  assert.deepEqual(kept.sort(), ['nA:2', 'nA:7', 'nA:9', 'nB:4', 'nB:5']);
});

test('the forest puts children under parents across nodes, oldest first; orphans become roots', () => {
  const forest = buildTaskForest(withoutRequest(tasksFromResponse(byNodes), 'me'));
  assert.deepEqual(
    flattenForest(forest).map(({ task, depth }) => `${depth}:${task.id}`),
    ['0:nA:2', '0:nB:5', '0:nA:7', '1:nA:9', '2:nB:4'],
  );
});

test('a parent cycle in a malformed response does not loop or lose tasks', () => {
  const cyclic = { tasks: [info('n', 1, 'a', { parent_task_id: 'n:2' }), info('n', 2, 'b', { parent_task_id: 'n:1' })] };
  const rows = flattenForest(buildTaskForest(tasksFromResponse(cyclic)));
  assert.deepEqual(rows.map(({ task }) => task.id).sort(), ['n:1', 'n:2']);
});

test('the task table indents children like ps f and shows human running times and state', () => {
  const text = renderTaskTable(buildTaskForest(withoutRequest(tasksFromResponse(byNodes), 'me')), { description: true });
  const lines = text.trimEnd().split('\n');
  assert.match(lines[0]!, /^task +action +node +running +state +description$/);
  assert.match(lines[1]!, /^nA:2 +cluster:monitor\/health +alpha +2\.8ms +cancelling$/);
  assert.match(lines[3]!, /^nA:7 +indices:data\/write\/reindex +alpha +9\.8ms +cancellable +reindex from \[a\] to \[b\]$/);
  assert.match(lines[4]!, /^ \\_ nA:9 +indices:data\/write\/bulk +alpha +12\.6ms$/);
  assert.match(lines[5]!, /^ {4}\\_ nB:4 +indices:data\/write\/bulk\[s\] +beta +5\.6ms$/);
});

test('node and task failures are read, and "not found" is told apart from real failures', () => {
  const failures = failuresFromResponse({
    node_failures: [
      {
        type: 'failed_node_exception',
        reason: 'Failed node [nA]',
        node_id: 'nA',
        caused_by: { type: 'resource_not_found_exception', reason: 'task [nA:99] is not found' },
      },
      { type: 'failed_node_exception', reason: 'Failed node [3835]', caused_by: { type: 'no_such_node_exception', reason: 'No such node [3835]' } },
    ],
    task_failures: [
      { task_id: 7, node_id: 'nA', status: 'BAD_REQUEST', reason: { type: 'illegal_argument_exception', reason: "task [nA:7] doesn't support cancellation" } },
    ],
    nodes: {},
  });
  assert.deepEqual(failures, [
    { subject: 'node nA', message: 'failed_node_exception: Failed node [nA] (caused by resource_not_found_exception: task [nA:99] is not found)', notFound: true },
    { subject: 'node 3835', message: 'failed_node_exception: Failed node [3835] (caused by no_such_node_exception: No such node [3835])', notFound: true },
    { subject: 'task nA:7', message: "illegal_argument_exception: task [nA:7] doesn't support cancellation", notFound: false },
  ]);
});
