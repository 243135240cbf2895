/**
 * The operator commands end to end against a stub HTTP server that answers with canned Elasticsearch
 * bodies: request paths and parameters, output, and exit codes for the cases a real single node cannot
 * easily produce (yellow, red, 408, 5xx, node failures, garbage).
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findOperatorCommand, runOperatorCommand } from '../../../src/cli/run-operator-command.js';
import type { CliIo } from '../../../src/cli/cli-io.js';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

type Answer = { status?: number; body: unknown };
type Reply = Answer | ((seen: Seen) => Answer | Promise<Answer>);

let server: Server;
let baseUrl: string;
let replies: Map<string, Reply>;
let seen: Seen[];

before(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const request: Seen = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers };
    seen.push(request);
    const reply = replies.get(`${req.method} ${url.pathname}`);
    const { status, body } = reply === undefined ? { status: 400, body: { error: 'no handler', status: 400 } } : typeof reply === 'function' ? await reply(request) : reply;
    res.writeHead(status ?? 200, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
}));
beforeEach(() => {
  replies = new Map();
  seen = [];
});

async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const [name, ...rest] = args;
  const command = findOperatorCommand(name);
  assert.ok(command, `no command ${name}`);
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { GANNET_URL: baseUrl, ...env },
    color: false,
  };
  const code = await runOperatorCommand(command, rest, io);
  return { code, stdout, stderr };
}

const health = (status: string, extra: Record<string, unknown> = {}) => ({
  cluster_name: 'stub',
  status,
  timed_out: false,
  number_of_nodes: 1,
  number_of_data_nodes: 1,
  active_primary_shards: 1,
  active_shards: 1,
  relocating_shards: 0,
  initializing_shards: 0,
  unassigned_shards: status === 'green' ? 0 : 1,
  delayed_unassigned_shards: 0,
  number_of_pending_tasks: 0,
  number_of_in_flight_fetch: 0,
  task_max_waiting_in_queue_millis: 0,
  active_shards_percent_as_number: status === 'green' ? 100.0 : 50.0,
  ...extra,
});

test('health: exit code follows the colour', async () => {
  for (const [status, expected] of [['green', 0], ['yellow', 1], ['red', 2]] as const) {
    replies.set('GET /_cluster/health', { body: health(status) });
    const result = await run(['health']);
    assert.equal(result.code, expected, status);
    assert.match(result.stdout, new RegExp(`^status +${status}$`, 'm'));
    assert.equal(result.stderr, '');
  }
});

test('health: wait flags become ES parameters', async () => {
  replies.set('GET /_cluster/health', { body: health('green', { indices: {} }) });
  await run(['health', '--wait-for-status', 'green', '--timeout', '5s', '--level', 'indices']);
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.query.get('wait_for_status'), 'green');
  assert.equal(seen[0]!.query.get('timeout'), '5s');
  assert.equal(seen[0]!.query.get('level'), 'indices');
  assert.match(String(seen[0]!.headers['x-opaque-id']), /^gannet-cli-\d+-[0-9a-f]{8}$/);
});

test('health: a 408 still prints the body and exits by status, with a note on stderr', async () => {
  replies.set('GET /_cluster/health', { status: 408, body: health('yellow', { timed_out: true }) });
  const result = await run(['health', '--wait-for-status', 'green', '--timeout', '1s']);
  assert.equal(result.code, 1);
  assert.match(result.stdout, /status +yellow \(timed out waiting\)/);
  assert.match(result.stderr, /timed out after 1s waiting for status \[green\]/);
});

test('health: other HTTP errors exit 4 with the ES error type and reason', async () => {
  replies.set('GET /_cluster/health', {
    status: 503,
    body: { error: { root_cause: [], type: 'master_not_discovered_exception', reason: 'no master' }, status: 503 },
  });
  const result = await run(['health']);
  assert.equal(result.code, 4);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^gannet health: GET \/_cluster\/health answered 503: master_not_discovered_exception: no master\n$/);
});

test('health: a body that is not JSON, or has no known status, exits 4', async () => {
  replies.set('GET /_cluster/health', { body: '<html>proxy error</html>' });
  let result = await run(['health']);
  assert.equal(result.code, 4);
  assert.match(result.stderr, /not JSON: <html>proxy error<\/html>/);
  replies.set('GET /_cluster/health', { body: { status: 'purple' } });
  result = await run(['health']);
  assert.equal(result.code, 4);
  assert.match(result.stderr, /without a known status/);
});

test('--json prints the body exactly as the node sent it; with an error it is printed too', async () => {
  const raw = '{"cluster_name":"stub","status":"green","active_shards_percent_as_number":100.0}';
  replies.set('GET /_cluster/health', { body: raw });
  let result = await run(['health', '--json']);
  assert.equal(result.code, 0);
  assert.equal(result.stdout, raw + '\n');
  replies.set('GET /_cluster/health', { status: 400, body: '{"error":"bad","status":400}' });
  result = await run(['health', '--json']);
  assert.equal(result.code, 4);
  assert.equal(result.stdout, '{"error":"bad","status":400}\n');
});

test('--url wins over GANNET_URL and credentials become basic auth', async () => {
  replies.set('GET /_cluster/health', { body: health('green') });
  const withCredentials = baseUrl.replace('http://', 'http://elastic:s%40cret@');
  const result = await run(['health', '--url', withCredentials], { GANNET_URL: 'http://127.0.0.1:9' });
  assert.equal(result.code, 0);
  assert.equal(seen[0]!.headers['authorization'], `Basic ${Buffer.from('elastic:s@cret').toString('base64')}`);
});

test('usage errors exit 64 before any request is sent', async () => {
  for (const args of [['health', '--wait-for-status', 'blue'], ['health', '--level', 'shards'], ['tasks', '--nope'], ['cancel'], ['cancel', '42'], ['cancel', 'a:1', '--actions', 'x'], ['cancel', 'a:1', '--timeout', '1s'], ['nodes', 'extra']]) {
    const result = await run(args);
    assert.equal(result.code, 64, args.join(' '));
    assert.match(result.stderr, /run "gannet \w+ --help" for usage/);
  }
  assert.equal(seen.length, 0);
});

test('--help prints the command help with exit codes and common options, and sends nothing', async () => {
  const result = await run(['cancel', '--help']);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /^usage: gannet cancel <task_id>/);
  assert.match(result.stdout, /exit codes:/);
  assert.match(result.stdout, /--url URL/);
  assert.equal(seen.length, 0);
});

test('nodes and allocation ask the cat APIs for JSON with raw byte counts and the columns they show', async () => {
  replies.set('GET /_cat/nodes', { body: [{ name: 'n1', ip: '127.0.0.1', master: '*', 'node.role': 'dm', 'disk.total': '1073741824' }] });
  let result = await run(['nodes']);
  assert.equal(result.code, 0);
  assert.equal(seen[0]!.query.get('format'), 'json');
  assert.equal(seen[0]!.query.get('bytes'), 'b');
  assert.match(seen[0]!.query.get('h') ?? '', /^name,id,ip,node\.role,master,heap\.percent,/);
  assert.match(result.stdout, /^n1 +127\.0\.0\.1 +dm +\* .* 1gb$/m);

  replies.set('GET /_cat/allocation', { body: [{ shards: '2', node: 'UNASSIGNED' }, { shards: '4', node: 'n1', 'disk.avail': '2048' }] });
  result = await run(['allocation']);
  assert.equal(result.code, 0);
  const lines = result.stdout.trimEnd().split('\n');
  assert.match(lines[1]!, /^n1 +4 +2kb/);
  assert.match(lines[2]!, /^UNASSIGNED +2$/);
});

test('a cat answer that is not a list of rows exits 4', async () => {
  replies.set('GET /_cat/nodes', { body: { not: 'rows' } });
  const result = await run(['nodes']);
  assert.equal(result.code, 4);
  assert.match(result.stderr, /not a list of rows/);
});

const taskInfo = (node: string, id: number, action: string, extra: Record<string, unknown> = {}) => ({
  node,
  id,
  type: 'transport',
  action,
  start_time_in_millis: 1000 + id,
  running_time_in_nanos: 2_000_000_000 * id,
  cancellable: true,
  cancelled: false,
  headers: {},
  ...extra,
});

test('tasks: filters become ES parameters, the CLI hides its own request, failures exit 2', async () => {
  replies.set('GET /_tasks', (request) => ({
    body: {
      node_failures: [{ type: 'failed_node_exception', reason: 'Failed node [n2]', node_id: 'n2', caused_by: { type: 'node_disconnected_exception', reason: 'gone' } }],
      nodes: {
        n1: {
          name: 'one',
          tasks: {
            'n1:3': taskInfo('n1', 3, 'indices:data/write/reindex'),
            'n1:4': taskInfo('n1', 4, 'indices:data/write/bulk', { parent_task_id: 'n1:3', cancellable: false }),
            'n1:9': taskInfo('n1', 9, 'cluster:monitor/tasks/lists', { headers: { 'X-Opaque-Id': String(request.headers['x-opaque-id']) } }),
          },
        },
      },
    },
  }));
  const result = await run(['tasks', '--actions', '*reindex,*bulk', '--nodes', 'n1,n2', '--detailed', '--parent', 'n1:1']);
  assert.equal(seen[0]!.query.get('actions'), '*reindex,*bulk');
  assert.equal(seen[0]!.query.get('nodes'), 'n1,n2');
  assert.equal(seen[0]!.query.get('detailed'), 'true');
  assert.equal(seen[0]!.query.get('parent_task_id'), 'n1:1');
  assert.equal(result.code, 2);
  assert.doesNotMatch(result.stdout, /tasks\/lists/);
  assert.match(result.stdout, /^n1:3 +indices:data\/write\/reindex +one +6s +cancellable/m);
  assert.match(result.stdout, /^ \\_ n1:4 +indices:data\/write\/bulk +one +8s/m);
  assert.match(result.stderr, /node n2: failed_node_exception: Failed node \[n2\] \(caused by node_disconnected_exception: gone\)/);
});

test('tasks: nothing running is not an error', async () => {
  replies.set('GET /_tasks', { body: { nodes: {} } });
  const result = await run(['tasks']);
  assert.equal(result.code, 0);
  assert.equal(result.stdout, 'no tasks match\n');
});

test('cancel by id: prints what was cancelled; --wait asks the node to wait', async () => {
  replies.set('POST /_tasks/n1:3/_cancel', { body: { nodes: { n1: { name: 'one', tasks: { 'n1:3': taskInfo('n1', 3, 'indices:data/write/reindex', { cancelled: true }) } } } } });
  let result = await run(['cancel', 'n1:3']);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /^cancelled 1 task \(cancellation requested; add --wait/);
  assert.match(result.stdout, /^n1:3 +indices:data\/write\/reindex +one +6s +cancelling$/m);
  assert.equal(seen[0]!.method, 'POST');
  assert.equal(seen[0]!.query.get('wait_for_completion'), null);
  result = await run(['cancel', 'n1:3', '--wait']);
  assert.equal(result.code, 0);
  assert.equal(seen[1]!.query.get('wait_for_completion'), 'true');
  assert.match(result.stdout, /^cancelled 1 task; they and their children have stopped/);
});

test('cancel: an unknown task (node_failures with not found, or a 404) exits 1; not cancellable exits 2', async () => {
  replies.set('POST /_tasks/n1:99/_cancel', {
    body: { node_failures: [{ type: 'failed_node_exception', reason: 'Failed node [n1]', node_id: 'n1', caused_by: { type: 'resource_not_found_exception', reason: 'task [n1:99] is not found' } }], nodes: {} },
  });
  let result = await run(['cancel', 'n1:99']);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /task \[n1:99\] is not found/);
  assert.match(result.stderr, /no task matched \[n1:99\]/);

  replies.set('POST /_tasks/n1:98/_cancel', { status: 404, body: { error: { type: 'resource_not_found_exception', reason: 'task [n1:98] is not found' }, status: 404 } });
  result = await run(['cancel', 'n1:98']);
  assert.equal(result.code, 1);

  replies.set('POST /_tasks/n1:4/_cancel', {
    body: { node_failures: [{ type: 'failed_node_exception', reason: 'Failed node [n1]', node_id: 'n1', caused_by: { type: 'illegal_argument_exception', reason: "task [n1:4] doesn't support cancellation" } }], nodes: {} },
  });
  result = await run(['cancel', 'n1:4']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /doesn't support cancellation/);
});

test('cancel by filter: POST /_tasks/_cancel with the filters; nothing matched exits 1', async () => {
  replies.set('POST /_tasks/_cancel', { body: { nodes: {} } });
  const result = await run(['cancel', '--actions', '*reindex', '--nodes', 'a,b']);
  assert.equal(result.code, 1);
  assert.equal(seen[0]!.query.get('actions'), '*reindex');
  assert.equal(seen[0]!.query.get('nodes'), 'a,b');
  assert.match(result.stderr, /no task matched --actions \*reindex --nodes a,b/);
});

test('cancel --wait that outlives --timeout exits 3 and says the cancel may still be under way', async () => {
  replies.set('POST /_tasks/_cancel', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return { body: { nodes: {} } };
  });
  const result = await run(['cancel', '--actions', '*reindex', '--wait', '--timeout', '200ms']);
  assert.equal(result.code, 3);
  assert.match(result.stderr, /^gannet cancel: no answer from http:\/\/127\.0\.0\.1:\d+ within 200ms: the cancel may have been applied/);
});

test('an unreachable node exits 3 with the address and the reason', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const result = await run(['nodes', '--url', `http://127.0.0.1:${port}`]);
  assert.equal(result.code, 3);
  assert.equal(result.stderr, `gannet nodes: cannot reach Gannet at http://127.0.0.1:${port}: connection refused\n`);
});
