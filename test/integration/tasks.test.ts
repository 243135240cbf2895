/**
 * The task management API against a real node: `GET /_tasks` shapes and filters, `GET /_tasks/{id}` and its
 * errors, and cancellation of a running cancellable task (a cluster health request waiting for 10 nodes).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess, type HttpResult } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ oneNode: 'counts the per-node [n] children of one node (across nodes: test/cluster/cancel-across-nodes, three-nodes)', settings: { 'cluster.name': 'tasks-test', 'node.name': 'tasks-node' } });
});
after(async () => {
  // Whatever a failed test left waiting must not keep the node busy.
  await node.request('POST', '/_tasks/_cancel?actions=cluster:monitor/health');
  await node.stop();
});

const TASK_INFO_KEYS = ['node', 'id', 'type', 'action', 'start_time_in_millis', 'running_time_in_nanos', 'cancellable'];

let healthCount = 0;

/**
 * Starts a health request that waits (up to 30s) for 10 nodes, and resolves with its task id once listed.
 * Each request carries its own X-Opaque-Id, which is how it is told apart from the others in the list.
 */
async function startWaitingHealth(opaqueId = `health-${++healthCount}`): Promise<{ id: string; done: Promise<HttpResult> }> {
  const done = node.request('GET', '/_cluster/health?wait_for_nodes=10&timeout=30s', { headers: { 'X-Opaque-Id': opaqueId } });
  return { id: await findTaskByOpaqueId('cluster:monitor/health', opaqueId), done };
}

async function findTaskByOpaqueId(action: string, opaqueId: string): Promise<string> {
  const started = Date.now();
  for (;;) {
    const { body } = await node.request('GET', `/_tasks?actions=${action}&group_by=none`);
    const found = (body.tasks as Array<{ node: string; id: number; headers: Record<string, string> }>).find(
      (t) => t.headers['X-Opaque-Id'] === opaqueId,
    );
    if (found) return `${found.node}:${found.id}`;
    // Bounds a wait for a task that never shows up; 5 s was within reach of a request to a node on a loaded host.
    if (Date.now() - started > 30_000) throw new Error(`${action} task ${opaqueId} never showed up in GET /_tasks`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function healthTaskIds(): Promise<string[]> {
  const { body } = await node.request('GET', '/_tasks?actions=cluster:monitor/health&group_by=none');
  return (body.tasks as Array<{ node: string; id: number }>).map((t) => `${t.node}:${t.id}`);
}

function assertCancelledHealth(res: HttpResult): void {
  assert.equal(res.status, 400);
  assert.equal(res.body.error.type, 'task_cancelled_exception');
  assert.equal(res.body.error.reason, 'task cancelled [by user request]');
}

test('GET /_tasks groups by node with the node block and lists itself and its per-node child', async () => {
  const res = await node.request('GET', '/_tasks');
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body), ['nodes']);
  const block = res.body.nodes[node.nodeId];
  assert.ok(block, 'the local node is listed under its id');
  assert.deepEqual(Object.keys(block), ['name', 'transport_address', 'host', 'ip', 'roles', 'tasks']);
  assert.equal(block.name, 'tasks-node');
  assert.match(block.transport_address, /^127\.0\.0\.1:\d+$/);
  assert.equal(block.ip, block.transport_address, 'ip carries the transport port');
  assert.equal(block.host, '127.0.0.1');
  assert.ok(block.roles.includes('master') && block.roles.includes('data'), 'full role names');
  assert.deepEqual(block.roles, [...block.roles].sort());

  const tasks = Object.values(block.tasks) as Array<Record<string, any>>;
  const list = tasks.find((t) => t.action === 'cluster:monitor/tasks/lists');
  const child = tasks.find((t) => t.action === 'cluster:monitor/tasks/lists[n]');
  assert.ok(list && child, 'the list task and its [n] child are both visible');
  assert.deepEqual(Object.keys(list), [...TASK_INFO_KEYS, 'headers']);
  assert.equal(list.type, 'transport');
  assert.equal(list.cancellable, false);
  assert.deepEqual(list.headers, {});
  assert.deepEqual(Object.keys(child), [...TASK_INFO_KEYS, 'cancelled', 'parent_task_id', 'headers']);
  assert.equal(child.type, 'direct');
  assert.equal(child.parent_task_id, `${node.nodeId}:${list.id}`);
  assert.equal(child.cancellable, true);
  assert.equal(child.cancelled, false);
  assert.ok(child.id > list.id);
  assert.equal(block.tasks[`${node.nodeId}:${list.id}`], list, 'tasks are keyed by node:id');
});

test('X-Opaque-Id is recorded in the task headers (tasks.list/10_basic)', async () => {
  const res = await node.request('GET', '/_tasks?actions=cluster:monitor/tasks/lists&group_by=none', {
    headers: { 'X-Opaque-Id': 'That is me' },
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.tasks.length, 1);
  assert.equal(res.body.tasks[0].headers['X-Opaque-Id'], 'That is me');
  const withChild = await node.request('GET', '/_tasks?actions=cluster:monitor/tasks/lists*&group_by=none', {
    headers: { 'X-Opaque-Id': 'me too' },
  });
  for (const task of withChild.body.tasks) assert.equal(task.headers['X-Opaque-Id'], 'me too', task.action);
});

test('group_by=parents nests children; group_by=none is a flat list; anything else is ES\'s 400', async () => {
  const parents = await node.request('GET', '/_tasks?group_by=parents&actions=cluster:monitor/tasks/lists*');
  assert.equal(parents.status, 200);
  assert.deepEqual(Object.keys(parents.body), ['tasks']);
  const top = Object.values(parents.body.tasks) as Array<Record<string, any>>;
  assert.equal(top.length, 1, 'only the list task is at the top');
  assert.equal(top[0]!.action, 'cluster:monitor/tasks/lists');
  assert.equal(Object.keys(top[0]!).at(-1), 'children');
  assert.equal(top[0]!.children.length, 1);
  assert.equal(top[0]!.children[0].action, 'cluster:monitor/tasks/lists[n]');

  const none = await node.request('GET', '/_tasks?group_by=none&actions=cluster:monitor/tasks/lists*');
  assert.ok(Array.isArray(none.body.tasks));
  assert.deepEqual(none.body.tasks.map((t: { action: string }) => t.action), ['cluster:monitor/tasks/lists', 'cluster:monitor/tasks/lists[n]']);

  const bad = await node.request('GET', '/_tasks?group_by=foo');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, 'illegal_argument_exception');
  assert.equal(bad.body.error.reason, '[group_by] must be one of [nodes], [parents] or [none] but was [foo]');
});

test('detailed adds the description; human adds readable times before the raw ones', async () => {
  const res = await node.request('GET', '/_tasks?group_by=none&detailed=true&human=true&actions=cluster:monitor/tasks/lists');
  const task = res.body.tasks[0];
  assert.deepEqual(Object.keys(task), [
    'node',
    'id',
    'type',
    'action',
    'description',
    'start_time',
    'start_time_in_millis',
    'running_time',
    'running_time_in_nanos',
    'cancellable',
    'headers',
  ]);
  assert.equal(task.description, '');
  assert.equal(task.start_time, new Date(task.start_time_in_millis).toISOString());
  assert.match(task.running_time, /^\d+(\.\d)?(nanos|micros|ms|s)$/);
  const plain = await node.request('GET', '/_tasks?group_by=none&actions=cluster:monitor/tasks/lists');
  assert.ok(!('description' in plain.body.tasks[0]));
});

test('actions filter with * wildcards', async () => {
  const only = async (actions: string) => {
    const { body } = await node.request('GET', `/_tasks?group_by=none&actions=${encodeURIComponent(actions)}`);
    return (body.tasks as Array<{ action: string }>).map((t) => t.action).sort();
  };
  assert.deepEqual(await only('*lists*'), ['cluster:monitor/tasks/lists', 'cluster:monitor/tasks/lists[n]']);
  assert.deepEqual(await only('cluster:*'), ['cluster:monitor/tasks/lists', 'cluster:monitor/tasks/lists[n]']);
  assert.deepEqual(await only('*[n]'), ['cluster:monitor/tasks/lists[n]']);
  assert.deepEqual(await only('indices:*,*/lists'), ['cluster:monitor/tasks/lists']);
  assert.deepEqual(await only('indices:*'), []);
  const empty = await node.request('GET', '/_tasks?actions=indices:*');
  assert.deepEqual(empty.body, { nodes: {} });
});

test('nodes filter: _local and the node id select it, a selector matching nothing gives no nodes', async () => {
  for (const selector of ['_local', node.nodeId, 'tasks-node', '_all', 'master:true']) {
    const { body } = await node.request('GET', `/_tasks?nodes=${selector}`);
    assert.deepEqual(Object.keys(body.nodes), [node.nodeId], selector);
  }
  for (const selector of ['nope', 'master:false']) {
    const { status, body } = await node.request('GET', `/_tasks?nodes=${selector}`);
    assert.equal(status, 200);
    assert.deepEqual(body, { nodes: {} }, selector);
  }
});

test('parent_task_id filters to the children of that task; a malformed one is a 400', async () => {
  const none = await node.request('GET', '/_tasks?parent_task_id=foo:1');
  assert.deepEqual(none.body, { nodes: {} });
  const unset = await node.request('GET', '/_tasks?parent_task_id=unset&group_by=none&actions=cluster:monitor/tasks/lists*');
  assert.equal(unset.body.tasks.length, 2, '"unset" means no filter');
  const bad = await node.request('GET', '/_tasks?parent_task_id=foo');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.reason, 'malformed task id foo');

  // A list that waits for a health request keeps its [n] child alive long enough to filter on it.
  const health = await startWaitingHealth();
  const waitingList = node.request('GET', '/_tasks?actions=cluster:monitor/health&wait_for_completion=true&group_by=none', {
    headers: { 'X-Opaque-Id': 'waiting-list' },
  });
  const listId = await findTaskByOpaqueId('cluster:monitor/tasks/lists', 'waiting-list');
  const children = await node.request('GET', `/_tasks?group_by=none&parent_task_id=${listId}`);
  assert.deepEqual(children.body.tasks.map((t: { action: string; parent_task_id: string }) => [t.action, t.parent_task_id]), [
    ['cluster:monitor/tasks/lists[n]', listId],
  ]);

  // That list task is running but not cancellable: cancelling it is a node failure, HTTP 200.
  const refused = await node.request('POST', `/_tasks/${listId}/_cancel`);
  assert.equal(refused.status, 200);
  assert.deepEqual(refused.body, {
    node_failures: [
      {
        type: 'failed_node_exception',
        reason: `Failed node [${node.nodeId}]`,
        node_id: node.nodeId,
        caused_by: { type: 'illegal_argument_exception', reason: `task [${listId}] doesn't support cancellation` },
      },
    ],
    nodes: {},
  });

  await node.request('POST', `/_tasks/${health.id}/_cancel`);
  assertCancelledHealth(await health.done);
  const listed = await waitingList;
  assert.equal(listed.status, 200, 'the waiting list returns once the health task ended');
  assert.equal(listed.body.tasks[0].action, 'cluster:monitor/health');
});

test('wait_for_completion on a list that outlives its timeout reports a node failure', async () => {
  const health = await startWaitingHealth();
  const res = await node.request('GET', '/_tasks?actions=cluster:monitor/health&wait_for_completion=true&timeout=200ms');
  assert.equal(res.status, 200);
  assert.equal(res.body.node_failures.length, 1);
  assert.equal(res.body.node_failures[0].type, 'failed_node_exception');
  assert.deepEqual(res.body.node_failures[0].caused_by, { type: 'timeout_exception', reason: 'timed out after [200ms/200ms]' });
  assert.deepEqual(Object.keys(res.body), ['node_failures', 'nodes']);
  await node.request('POST', `/_tasks/${health.id}/_cancel`);
  assertCancelledHealth(await health.done);
});

test('GET /_tasks/foo:1 is a 404 with the YAML test\'s reason and ES\'s cause chain', async () => {
  const res = await node.request('GET', '/_tasks/foo:1');
  assert.equal(res.status, 404);
  assert.match(
    res.body.error.reason,
    /task.\[foo:1\].belongs.to.the.node.\[foo\].which.isn't.part.of.the.cluster.and.there.is.no.record.of.the.task/,
  );
  assert.equal(res.body.error.type, 'resource_not_found_exception');
  assert.deepEqual(res.body.error.caused_by.type, 'resource_not_found_exception');
  assert.equal(res.body.error.caused_by.reason, "task [foo:1] isn't running and hasn't stored its results");
  const indexNotFound = {
    type: 'index_not_found_exception',
    reason: 'no such index [.tasks]',
    'resource.type': 'index_or_alias',
    'resource.id': '.tasks',
    index_uuid: '_na_',
    index: '.tasks',
  };
  assert.deepEqual(res.body.error.caused_by.caused_by, indexNotFound);
  assert.deepEqual(res.body.error.root_cause, [indexNotFound]);
  assert.equal(res.body.status, 404);
});

test('GET of a task id on this node that is not running is a 404 caused by the missing .tasks index', async () => {
  const res = await node.request('GET', `/_tasks/${node.nodeId}:999999`);
  assert.equal(res.status, 404);
  assert.equal(res.body.error.type, 'resource_not_found_exception');
  assert.equal(res.body.error.reason, `task [${node.nodeId}:999999] isn't running and hasn't stored its results`);
  assert.equal(res.body.error.caused_by.type, 'index_not_found_exception');
});

test('malformed task ids are 400s, in GET and in cancel', async () => {
  for (const id of ['foo', 'a:b:c', 'node:x', '123']) {
    for (const [method, path] of [
      ['GET', `/_tasks/${id}`],
      ['POST', `/_tasks/${id}/_cancel`],
    ] as const) {
      const res = await node.request(method, path);
      assert.equal(res.status, 400, `${method} ${path}`);
      assert.equal(res.body.error.type, 'illegal_argument_exception');
      assert.equal(res.body.error.reason, `malformed task id ${id}`);
    }
  }
});

test('cancel of an unknown id on this node, or of a node not in the cluster, is a 200 with node_failures', async () => {
  const unknown = await node.request('POST', `/_tasks/${node.nodeId}:999999/_cancel`);
  assert.equal(unknown.status, 200);
  assert.deepEqual(unknown.body, {
    node_failures: [
      {
        type: 'failed_node_exception',
        reason: `Failed node [${node.nodeId}]`,
        node_id: node.nodeId,
        caused_by: { type: 'resource_not_found_exception', reason: `task [${node.nodeId}:999999] is not found` },
      },
    ],
    nodes: {},
  });
  const noNode = await node.request('POST', '/_tasks/3835:1/_cancel');
  assert.equal(noNode.status, 200);
  assert.deepEqual(noNode.body.node_failures, [
    {
      type: 'failed_node_exception',
      reason: 'Failed node [3835]',
      node_id: '3835',
      caused_by: { type: 'no_such_node_exception', reason: 'No such node [3835]', node_id: '3835' },
    },
  ]);
  const nothing = await node.request('POST', '/_tasks/_cancel?actions=unknown_action');
  assert.deepEqual(nothing.body, { nodes: {} }, 'tasks.cancel/10_basic');
  const both = await node.request('POST', `/_tasks/${node.nodeId}:1/_cancel?nodes=_local`);
  assert.equal(both.status, 400);
  assert.equal(both.body.error.type, 'action_request_validation_exception');
  assert.equal(both.body.error.reason, 'Validation Failed: 1: task id cannot be used together with node ids;');
});

test('GET of a running task shows it detailed; wait_for_completion times out, or returns once it ended', async () => {
  const health = await startWaitingHealth();
  const running = await node.request('GET', `/_tasks/${health.id}`);
  assert.equal(running.status, 200);
  assert.deepEqual(Object.keys(running.body), ['completed', 'task']);
  assert.equal(running.body.completed, false);
  assert.equal(running.body.task.action, 'cluster:monitor/health');
  assert.equal(running.body.task.description, '');
  assert.equal(running.body.task.cancellable, true);

  const timedOut = await node.request('GET', `/_tasks/${health.id}?wait_for_completion=true&timeout=100ms`);
  assert.equal(timedOut.status, 500);
  assert.equal(timedOut.body.error.type, 'timeout_exception');
  assert.equal(timedOut.body.error.reason, 'timed out after [100ms/100ms]');

  const waiting = node.request('GET', `/_tasks/${health.id}?wait_for_completion=true`, { headers: { 'X-Opaque-Id': 'getter' } });
  // The get is waiting on the node before the cancel goes: after a fixed 50 ms a loaded host's node could read the
  // cancel first, and the get then found no running task (404, no stored result) instead of waiting for it.
  await findTaskByOpaqueId('cluster:monitor/task/get', 'getter');
  await node.request('POST', `/_tasks/${health.id}/_cancel`);
  const finished = await waiting;
  assert.equal(finished.status, 200);
  assert.equal(finished.body.completed, true);
  assert.equal(finished.body.task.cancelled, true);
  assertCancelledHealth(await health.done);
});

test('cancel by id: the response lists the task as cancelled, the request ends at once, the task disappears', async () => {
  const health = await startWaitingHealth('waiter');
  const started = Date.now();
  const res = await node.request('POST', `/_tasks/${health.id}/_cancel`);
  assert.equal(res.status, 200);
  const [nodeId, number] = health.id.split(':');
  const cancelled = res.body.nodes[nodeId!].tasks[health.id];
  assert.deepEqual(Object.keys(cancelled), [...TASK_INFO_KEYS, 'cancelled', 'headers']);
  assert.equal(cancelled.id, Number(number));
  assert.equal(cancelled.action, 'cluster:monitor/health');
  assert.equal(cancelled.cancellable, true);
  assert.equal(cancelled.cancelled, true);
  assert.deepEqual(cancelled.headers, { 'X-Opaque-Id': 'waiter' });
  assertCancelledHealth(await health.done);
  // Promptly against the request's 30 s timeout: two requests to a node on a loaded host can take seconds.
  assert.ok(Date.now() - started < 15_000, `the waiting request ended ${Date.now() - started} ms after the cancel was sent, not at its 30 s timeout`);
  assert.deepEqual(await healthTaskIds(), []);
});

test('cancel by id with wait_for_completion returns after the task finished', async () => {
  const health = await startWaitingHealth();
  let healthEnded = false;
  void health.done.then(() => {
    healthEnded = true;
  });
  const res = await node.request('POST', `/_tasks/${health.id}/_cancel?wait_for_completion=true&group_by=none`);
  assert.equal(res.status, 200);
  assert.equal(res.body.tasks.length, 1);
  assert.equal(res.body.tasks[0].cancelled, true);
  assert.deepEqual(await healthTaskIds(), [], 'gone from the list when the cancel returns');
  assertCancelledHealth(await health.done);
  assert.ok(healthEnded);
});

test('bulk cancel by actions and nodes=_local, with and without wait_for_completion', async () => {
  for (const wait of [false, true]) {
    const first = await startWaitingHealth();
    const second = await startWaitingHealth();
    assert.notEqual(first.id, second.id);
    const res = await node.request('POST', `/_tasks/_cancel?actions=cluster:monitor/health&nodes=_local&wait_for_completion=${wait}&group_by=none`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.tasks.map((t: { node: string; id: number }) => `${t.node}:${t.id}`).sort(), [first.id, second.id].sort());
    assert.ok(res.body.tasks.every((t: { cancelled: boolean }) => t.cancelled));
    if (wait) assert.deepEqual(await healthTaskIds(), []);
    assertCancelledHealth(await first.done);
    assertCancelledHealth(await second.done);
    assert.deepEqual(await healthTaskIds(), []);
  }
});

test('a bulk cancel of every action skips non-cancellable tasks and never cancels itself', async () => {
  const health = await startWaitingHealth();
  const res = await node.request('POST', '/_tasks/_cancel?actions=*&wait_for_completion=true&group_by=none');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.tasks.map((t: { action: string }) => t.action), ['cluster:monitor/health']);
  assertCancelledHealth(await health.done);
});

test('unknown parameters are rejected as ES does', async () => {
  const res = await node.request('GET', '/_tasks?foo=bar');
  assert.equal(res.status, 400);
  assert.equal(res.body.error.reason, 'request [/_tasks] contains unrecognized parameter: [foo]');
  const cancel = await node.request('POST', '/_tasks/_cancel?timeout=1s');
  assert.equal(cancel.status, 400, 'cancel has no timeout parameter in ES');
});

test('GET /_cat/tasks matches the cat.tasks/10_basic rows, parent before child', async () => {
  const plain = await node.request('GET', '/_cat/tasks');
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-type'], 'text/plain; charset=UTF-8');
  assert.match(
    plain.text,
    /^(\S+\s+\S+:\d+\s+(?:-|\S+:\d+)\s+\S+\s+\d+\s+\d\d:\d\d:\d\d\s+\S+\s+\d{1,3}.\d{1,3}.\d{1,3}.\d{1,3}\s+\S+\n)+$/,
  );
  const lines = plain.text.trimEnd().split('\n');
  assert.ok(lines[0]!.startsWith('cluster:monitor/tasks/lists '));
  assert.ok(lines[1]!.startsWith('cluster:monitor/tasks/lists[n] '));
  assert.equal(lines[1]!.split(/\s+/)[2], lines[0]!.split(/\s+/)[1], 'the child row names the parent row');

  const detailed = await node.request('GET', '/_cat/tasks?detailed=true');
  assert.match(
    detailed.text,
    /^(\S+\s+\S+:\d+\s+(?:-|\S+:\d+)\s+\S+\s+\d+\s+\d\d:\d\d:\d\d\s+\S+\s+\d{1,3}.\d{1,3}.\d{1,3}.\d{1,3}\s+\S+\s+.*\n)+$/,
  );
  const headers = await node.request('GET', '/_cat/tasks?v=true&detailed=true');
  assert.match(headers.text.split('\n')[0]!, /^action\s+task_id\s+parent_task_id\s+type\s+start_time\s+timestamp\s+running_time\s+ip\s+node\s+description$/);
  const noDescription = await node.request('GET', '/_cat/tasks?v=true&h=action,description');
  assert.match(noDescription.text.split('\n')[0]!, /^action$/, 'without detailed there is no description column');
});

test('GET /_cat/tasks records X-Opaque-Id, filters like _tasks, answers help and JSON', async () => {
  const opaque = await node.request('GET', '/_cat/tasks?h=action,x_opaque_id', { headers: { 'X-Opaque-Id': 'TestID' } });
  assert.match(opaque.text, /TestID/);

  const rows = await node.request('GET', '/_cat/tasks?format=json&actions=*[n]&h=action,ti,pti,node_id,port');
  assert.equal(rows.status, 200);
  assert.equal(rows.body.length, 1);
  assert.deepEqual(Object.keys(rows.body[0]), ['action', 'ti', 'pti', 'node_id', 'port']);
  assert.equal(rows.body[0].action, 'cluster:monitor/tasks/lists[n]');
  assert.equal(rows.body[0].node_id, node.nodeId.slice(0, 4));
  assert.match(rows.body[0].port, /^\d+$/);
  const none = await node.request('GET', '/_cat/tasks?nodes=nope');
  assert.equal(none.text, '');

  const help = await node.request('GET', '/_cat/tasks?help');
  assert.equal(help.status, 200);
  const names = help.text.trimEnd().split('\n').map((line) => line.split('|')[0]!.trim());
  assert.deepEqual(names, [
    'id', 'action', 'task_id', 'parent_task_id', 'type', 'start_time', 'timestamp', 'running_time_ns',
    'running_time', 'node_id', 'ip', 'port', 'node', 'version', 'x_opaque_id',
  ]);
  const detailedHelp = await node.request('GET', '/_cat/tasks?help&detailed');
  assert.match(detailedHelp.text, /^description +\| desc +\| task action +\n$/m);

  const fullId = await node.request('GET', '/_cat/tasks?full_id=true');
  assert.equal(fullId.status, 400, 'ES reads full_id too late for it to count as consumed');
  assert.equal(fullId.body.error.reason, 'request [/_cat/tasks] contains unrecognized parameter: [full_id]');
});
