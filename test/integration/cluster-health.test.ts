import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ oneNode: 'asserts the node counts of a one-node cluster (three nodes: test/cluster/three-nodes)', settings: { 'cluster.name': 'health-test' } });
});
after(async () => {
  await node.stop();
});

const EMPTY_CLUSTER_KEYS = [
  'cluster_name',
  'status',
  'timed_out',
  'number_of_nodes',
  'number_of_data_nodes',
  'active_primary_shards',
  'active_shards',
  'relocating_shards',
  'initializing_shards',
  'unassigned_shards',
  'unassigned_primary_shards',
  'delayed_unassigned_shards',
  'number_of_pending_tasks',
  'number_of_in_flight_fetch',
  'task_max_waiting_in_queue_millis',
  'active_shards_percent_as_number',
];

function emptyClusterBody(status: string, timedOut: boolean) {
  return {
    cluster_name: 'health-test',
    status,
    timed_out: timedOut,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    active_primary_shards: 0,
    active_shards: 0,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: 0,
    unassigned_primary_shards: 0,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: 100,
  };
}

function errorBody(type: string, reason: string, status = 400) {
  return { error: { root_cause: [{ type, reason }], type, reason }, status };
}

test('an empty cluster is green with one data node, zero shards and 100.0%, fields in ES order', async () => {
  const res = await node.request('GET', '/_cluster/health');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.headers['x-elastic-product'], 'Elasticsearch');
  assert.deepEqual(Object.keys(res.body), EMPTY_CLUSTER_KEYS);
  assert.deepEqual(res.body, emptyClusterBody('green', false));
  assert.match(res.text, /"active_shards_percent_as_number":100\.0}$/);
});

test('pretty output is laid out as ES prints it', async () => {
  const res = await node.request('GET', '/_cluster/health?pretty=true');
  assert.equal(res.status, 200);
  assert.equal(
    res.text,
    [
      '{',
      '  "cluster_name" : "health-test",',
      '  "status" : "green",',
      '  "timed_out" : false,',
      '  "number_of_nodes" : 1,',
      '  "number_of_data_nodes" : 1,',
      '  "active_primary_shards" : 0,',
      '  "active_shards" : 0,',
      '  "relocating_shards" : 0,',
      '  "initializing_shards" : 0,',
      '  "unassigned_shards" : 0,',
      '  "unassigned_primary_shards" : 0,',
      '  "delayed_unassigned_shards" : 0,',
      '  "number_of_pending_tasks" : 0,',
      '  "number_of_in_flight_fetch" : 0,',
      '  "task_max_waiting_in_queue_millis" : 0,',
      '  "active_shards_percent_as_number" : 100.0',
      '}',
      '',
    ].join('\n'),
  );
});

test('human=true puts the readable time and percentage before their raw fields', async () => {
  const res = await node.request('GET', '/_cluster/health?human=true');
  assert.equal(res.status, 200);
  const keys = Object.keys(res.body);
  assert.deepEqual(keys.slice(keys.indexOf('number_of_in_flight_fetch') + 1), [
    'task_max_waiting_in_queue',
    'task_max_waiting_in_queue_millis',
    'active_shards_percent',
    'active_shards_percent_as_number',
  ]);
  assert.equal(res.body.task_max_waiting_in_queue, '0s');
  assert.equal(res.body.active_shards_percent, '100.0%');
});

test('level=indices and level=shards add an empty indices object when there are no indices', async () => {
  for (const level of ['indices', 'shards', 'INDICES']) {
    const res = await node.request('GET', `/_cluster/health?level=${level}`);
    assert.equal(res.status, 200, level);
    assert.deepEqual(Object.keys(res.body), [...EMPTY_CLUSTER_KEYS, 'indices']);
    assert.deepEqual(res.body.indices, {});
  }
  const pretty = await node.request('GET', '/_cluster/health?level=indices&pretty');
  assert.match(pretty.text, /"active_shards_percent_as_number" : 100\.0,\n {2}"indices" : \{ \}\n\}\n$/);
  const cluster = await node.request('GET', '/_cluster/health?level=cluster');
  assert.ok(!('indices' in cluster.body));
});

test('20_request_timeout: wait_for_nodes=10&timeout=1ms is a 408 with the full body and timed_out', async () => {
  const res = await node.request('GET', '/_cluster/health?wait_for_nodes=10&timeout=1ms');
  assert.equal(res.status, 408);
  assert.equal(res.headers['x-elastic-product'], 'Elasticsearch');
  assert.deepEqual(Object.keys(res.body), EMPTY_CLUSTER_KEYS);
  assert.deepEqual(res.body, emptyClusterBody('green', true));
});

test('20_request_timeout: timeout=1ms&wait_for_active_shards=5 is a 408', async () => {
  const res = await node.request('GET', '/_cluster/health?timeout=1ms&wait_for_active_shards=5');
  assert.equal(res.status, 408);
  assert.deepEqual(res.body, emptyClusterBody('green', true));
});

test('conditions that already hold answer at once with 200', async () => {
  const res = await node.request('GET', '/_cluster/health?wait_for_status=green&wait_for_nodes=%3E%3D1&wait_for_no_relocating_shards=true&wait_for_no_initializing_shards&wait_for_active_shards=all&wait_for_events=languid');
  assert.equal(res.status, 200);
  assert.equal(res.body.timed_out, false);
  const zero = await node.request('GET', '/_cluster/health?timeout=0&wait_for_nodes=2');
  assert.equal(zero.status, 408, 'timeout=0 judges once and reports the unmet condition');
  assert.equal(zero.body.timed_out, true);
});

test('a wildcard that matches nothing is green at once with indices {}', async () => {
  const started = Date.now();
  // At once against a 30 s timeout: a bound of 2 s against 5 s was within reach of a request on a loaded host.
  const res = await node.request('GET', '/_cluster/health/not_an_index_here-*?level=indices&timeout=30s');
  assert.equal(res.status, 200);
  assert.ok(Date.now() - started < 15_000, `answered after ${Date.now() - started} ms, not at the 30 s timeout`);
  assert.equal(res.body.status, 'green');
  assert.equal(res.body.timed_out, false);
  assert.deepEqual(res.body.indices, {});
  const all = await node.request('GET', '/_cluster/health/_all');
  assert.equal(all.status, 200);
  assert.equal(all.body.status, 'green');
});

test('a concrete index that does not exist waits for the timeout, then answers 408 red', async () => {
  const started = Date.now();
  const res = await node.request('GET', '/_cluster/health/no-such-index?timeout=300ms');
  const elapsed = Date.now() - started;
  assert.equal(res.status, 408);
  assert.ok(elapsed >= 290, `answered after ${elapsed}ms`);
  assert.deepEqual(res.body, emptyClusterBody('red', true));
  const lenient = await node.request('GET', '/_cluster/health/no-such-index,other*?timeout=100ms&ignore_unavailable=true&level=indices');
  assert.equal(lenient.status, 408, 'ignore_unavailable does not make a missing index acceptable');
  assert.equal(lenient.body.status, 'red');
});

test('bad parameters get the errors ES gives', async () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['wait_for_status=purple', errorBody('illegal_argument_exception', 'No enum constant org.elasticsearch.cluster.health.ClusterHealthStatus.PURPLE')],
    ['wait_for_nodes=abc', errorBody('number_format_exception', 'For input string: "abc"')],
    ['wait_for_nodes=ge(x)', errorBody('number_format_exception', 'For input string: "x"')],
    ['wait_for_events=soon', errorBody('illegal_argument_exception', 'No enum constant org.elasticsearch.common.Priority.SOON')],
    ['wait_for_relocating_shards=0', errorBody('illegal_argument_exception', 'wait_for_relocating_shards has been removed, use wait_for_no_relocating_shards [true/false] instead')],
    ['level=nodes', errorBody('illegal_argument_exception', 'level parameter must be one of [cluster] or [indices] or [shards] but was [nodes]')],
    ['expand_wildcards=everything', errorBody('illegal_argument_exception', 'No valid expand wildcard value [everything]')],
    ['timeout=soon', errorBody('illegal_argument_exception', 'failed to parse setting [timeout] with value [soon] as a time value: unit is missing or unrecognized')],
    ['wait_for_active_shards=-1', errorBody('illegal_argument_exception', 'shard count cannot be a negative value')],
  ];
  for (const [query, expected] of cases) {
    const res = await node.request('GET', `/_cluster/health?${query}`);
    assert.equal(res.status, 400, query);
    assert.deepEqual(res.body, expected, query);
  }
  const activeShards = await node.request('GET', '/_cluster/health?wait_for_active_shards=some');
  assert.equal(activeShards.status, 400);
  assert.deepEqual(activeShards.body.error.caused_by, { type: 'number_format_exception', reason: 'For input string: "some"' });
  const reserved = await node.request('GET', '/_cluster/health/_foo');
  assert.equal(reserved.status, 400);
  assert.equal(reserved.body.error.type, 'invalid_index_name_exception');
  assert.equal(reserved.body.error.reason, "Invalid index name [_foo], must not start with '_'.");
  const unknown = await node.request('GET', '/_cluster/health?wait_for_node=2');
  assert.equal(unknown.status, 400);
  assert.match(unknown.body.error.reason, /^request \[\/_cluster\/health\] contains unrecognized parameter: \[wait_for_node\] -> did you mean .*wait_for_nodes/);
});

test('a waiting health request ends on the server when its client disconnects', async () => {
  const tasksApi = (await node.request('GET', '/_tasks')).status === 200;
  const healthTasks = async (): Promise<number> => {
    const res = await node.request('GET', '/_tasks?actions=cluster:monitor/health&group_by=none');
    return (res.body.tasks as unknown[]).length;
  };
  const eventually = async (condition: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 5000;
    while (!(await condition())) {
      assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  let answered = false;
  const req = httpRequest({ host: '127.0.0.1', port: node.port, path: '/_cluster/health?wait_for_nodes=5&timeout=60s' }, () => {
    answered = true;
  });
  const closed = new Promise<void>((resolve) => req.on('error', () => resolve()));
  req.end();
  if (tasksApi) await eventually(async () => (await healthTasks()) === 1, 'the waiting request is a running task');
  else await new Promise((resolve) => setTimeout(resolve, 300));
  req.destroy();
  await closed;
  assert.equal(answered, false, 'the health request was still waiting when the client went away');

  const started = Date.now();
  const res = await node.request('GET', '/_cluster/health?timeout=0');
  assert.equal(res.status, 200);
  assert.ok(Date.now() - started < 2000, 'the node still answers promptly');
  if (tasksApi) await eventually(async () => (await healthTasks()) === 0, 'the cancelled health task has ended');
});

test('GET /_cat/health prints one row with ES columns; v, ts, h, format=json and help work', async () => {
  const plain = await node.request('GET', '/_cat/health');
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-type'], 'text/plain; charset=UTF-8');
  // The cat.health YAML "Empty cluster" pattern, plus unassign.pri (8.16+).
  assert.match(plain.text, /^\d+ \d\d:\d\d:\d\d health-test green 1 1 0 0 0 0 0 0 0 - 100\.0%\n$/);

  const verbose = await node.request('GET', '/_cat/health?v&ts=false');
  assert.equal(
    verbose.text,
    'cluster     status node.total node.data shards pri relo init unassign unassign.pri pending_tasks max_task_wait_time active_shards_percent\n' +
      'health-test green           1         1      0   0    0    0        0            0             0                  -                100.0%\n',
  );

  const picked = await node.request('GET', '/_cat/health?h=status,up,asp&format=json');
  assert.equal(picked.status, 200);
  assert.deepEqual(picked.body, [{ status: 'green', up: '0', asp: '100.0%' }]);

  const help = await node.request('GET', '/_cat/health?help');
  assert.deepEqual(
    help.text.split('\n').filter(Boolean).map((line) => line.split('|')[0]!.trim()),
    ['epoch', 'timestamp', 'cluster', 'status', 'node.total', 'node.data', 'shards', 'pri', 'relo', 'init', 'unassign', 'unassign.pri', 'pending_tasks', 'max_task_wait_time', 'active_shards_percent'],
  );
  const catRoot = await node.request('GET', '/_cat');
  assert.match(catRoot.text, /^\/_cat\/health$/m);
});
