/**
 * `gannet` operator commands against a real node: the compiled CLI is spawned as an operator would run
 * it, and only its output and exit code are checked.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { GANNET_ENTRY, NodeProcess, type HttpResult } from '../helpers/node-process.js';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function gannet(...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env['GANNET_URL'];
    execFile(process.execPath, [GANNET_ENTRY, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ oneNode: 'prints the tables of a one-node cluster (node counts, one row per node)', settings: { 'node.name': 'cli-node', 'cluster.name': 'cli-test' } });
});
after(async () => {
  await node.stop();
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** A health request that waits for ten nodes: a cancellable task that stays running until cancelled or 30s pass. */
function startWaitingHealth(): { done: Promise<{ result: HttpResult; elapsedMs: number; endedAt: number }> } {
  const started = Date.now();
  const done = node.request('GET', '/_cluster/health?wait_for_nodes=10&timeout=30s').then((result) => ({ result, elapsedMs: Date.now() - started, endedAt: Date.now() }));
  return { done };
}

async function healthTaskIds(): Promise<string[]> {
  const res = await node.request('GET', '/_tasks?actions=cluster:monitor/health');
  return Object.values((res.body?.nodes ?? {}) as Record<string, { tasks?: Record<string, unknown> }>).flatMap((n) => Object.keys(n.tasks ?? {}));
}

/** The running health tasks' ids, once there is one (empty after about 20 s without any). */
async function waitingHealthTaskIds(): Promise<string[]> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const ids = await healthTaskIds();
    if (ids.length > 0) return ids;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

/** The running health tasks' ids once none is left (what is left after about 5 s otherwise). */
async function remainingHealthTaskIds(): Promise<string[]> {
  let ids = await healthTaskIds();
  for (let attempt = 0; attempt < 100 && ids.length > 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    ids = await healthTaskIds();
  }
  return ids;
}

test('health: a single node with no indices is green, exit 0, summary names the cluster', async () => {
  const result = await gannet('health', '--url', node.url);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^cluster +cli-test$/m);
  assert.match(result.stdout, /^status +green$/m);
  assert.match(result.stdout, /^nodes +1 \(1 data\)$/m);
  assert.match(result.stdout, /^shards +0 active \(0 primary\), 0 relocating, 0 initializing, 0 unassigned$/m);
  assert.match(result.stdout, /^active +100\.0%$/m);
  assert.doesNotMatch(result.stdout, /\u001b\[/, 'no colour when stdout is not a terminal');
});

test('health: --wait-for-status green returns at once on a green node; --level indices adds the index section', async () => {
  const result = await gannet('health', '--url', node.url, '--wait-for-status', 'green', '--timeout', '5s', '--level', 'indices');
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^no indices$/m);
});

test('health: GANNET_URL is used when --url is absent', async () => {
  const result = await new Promise<CliResult>((resolve) => {
    execFile(process.execPath, [GANNET_ENTRY, 'health'], { env: { ...process.env, GANNET_URL: node.url } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
  assert.equal(result.code, 0, result.stderr);
});

test('health: --json prints the node\'s ES JSON, parseable, with every health field', async () => {
  const result = await gannet('health', '--url', node.url, '--json');
  assert.equal(result.code, 0, result.stderr);
  const body = JSON.parse(result.stdout) as Record<string, unknown>;
  assert.equal(body['cluster_name'], 'cli-test');
  assert.equal(body['status'], 'green');
  assert.equal(body['timed_out'], false);
  assert.equal(body['number_of_nodes'], 1);
  assert.equal(body['active_shards_percent_as_number'], 100);
});

test('health: a closed port exits 3 with "connection refused"', async () => {
  const port = await closedPort();
  const result = await gannet('health', '--url', `http://127.0.0.1:${port}`);
  assert.equal(result.code, 3);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr, `gannet health: cannot reach Gannet at http://127.0.0.1:${port}: connection refused\n`);
});

test('an unknown option exits 64 and points at --help; --help exits 0', async () => {
  const bad = await gannet('nodes', '--url', node.url, '--colour');
  assert.equal(bad.code, 64);
  assert.match(bad.stderr, /Unknown option '--colour'/);
  const help = await gannet('tasks', '--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^usage: gannet tasks/);
  const top = await gannet('--help');
  assert.equal(top.code, 0);
  for (const name of ['health', 'nodes', 'allocation', 'tasks', 'cancel', 'reindex']) assert.match(top.stdout, new RegExp(`^  ${name} `, 'm'));
});

test('nodes: the table has the node\'s name, ip, roles and the elected-master marker', async () => {
  const result = await gannet('nodes', '--url', node.url);
  assert.equal(result.code, 0, result.stderr);
  const [header, row, ...rest] = result.stdout.trimEnd().split('\n');
  assert.match(header!, /^name +id +ip +role +master +heap +ram +cpu +load_1m +load_5m +load_15m +disk +disk\.avail +disk\.total$/);
  assert.equal(rest.length, 0);
  assert.match(row!, /^cli-node +\S{4} +127\.0\.0\.1 +[cdfhilmrstvw]+ +\* +\d+% +\d+% +\d+% /);
  assert.match(row!, /\d+(\.\d)?[kmgtp]?b +\d+(\.\d)?[kmgtp]?b$/, 'disk avail and total in human units');
  const json = await gannet('nodes', '--url', node.url, '--json');
  assert.equal(json.code, 0, json.stderr);
  const rows = JSON.parse(json.stdout) as Array<Record<string, string | null>>;
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!['name'], 'cli-node');
  assert.equal(rows[0]!['master'], '*');
});

test('allocation: one row for the data node with disk figures in human units', async () => {
  const result = await gannet('allocation', '--url', node.url);
  assert.equal(result.code, 0, result.stderr);
  const [header, ...rows] = result.stdout.trimEnd().split('\n');
  assert.match(header!, /^node +shards +disk\.indices +disk\.used +disk\.avail +disk\.total +disk +host +ip +role$/);
  assert.equal(rows.length, 1, 'no UNASSIGNED row without indices');
  assert.match(rows[0]!, /^cli-node +0 +\d+(\.\d)?[kmgtp]?b +\d+(\.\d)?[kmgtp]?b +\d+(\.\d)?[kmgtp]?b +\d+(\.\d)?[kmgtp]?b +\d+% /);
  const json = await gannet('allocation', '--url', node.url, '--json');
  assert.equal(json.code, 0, json.stderr);
  assert.equal((JSON.parse(json.stdout) as Array<Record<string, unknown>>)[0]!['node'], 'cli-node');
});

test('tasks lists a waiting health request; cancel by id stops it promptly', async () => {
  const waiting = startWaitingHealth();
  const [taskId] = await waitingHealthTaskIds();
  assert.ok(taskId, 'the waiting health request is listed by GET /_tasks');

  const listed = await gannet('tasks', '--url', node.url);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^task +action +node +running +state$/m);
  const row = listed.stdout.split('\n').find((line) => line.startsWith(`${taskId} `));
  assert.ok(row, `row for ${taskId} in:\n${listed.stdout}`);
  assert.match(row, /cluster:monitor\/health +cli-node +\d+(\.\d)?(nanos|micros|ms|s|m) +cancellable$/);
  assert.doesNotMatch(listed.stdout, /cluster:monitor\/tasks\/lists/, 'the CLI hides its own list request');

  const filtered = await gannet('tasks', '--url', node.url, '--actions', 'cluster:monitor/health', '--detailed', '--json');
  assert.equal(filtered.code, 0, filtered.stderr);
  const body = JSON.parse(filtered.stdout) as { nodes: Record<string, { tasks: Record<string, { action: string }> }> };
  const actions = Object.values(body.nodes).flatMap((n) => Object.values(n.tasks).map((task) => task.action));
  assert.deepEqual(actions, ['cluster:monitor/health']);

  // Measured from the cancel command: each CLI run before it costs seconds of process start on a loaded host.
  const cancelSent = Date.now();
  const cancelled = await gannet('cancel', taskId, '--url', node.url);
  assert.equal(cancelled.code, 0, cancelled.stderr);
  assert.match(cancelled.stdout, /^cancelled 1 task/);
  assert.ok(cancelled.stdout.includes(taskId));
  const { endedAt } = await waiting.done;
  assert.ok(endedAt >= cancelSent, 'the waiting request was still waiting when the cancel was run');
  assert.ok(endedAt - cancelSent < 10_000, `the waiting request ended ${endedAt - cancelSent}ms after the cancel was run, not at its 30s timeout`);

  const again = await gannet('cancel', taskId, '--url', node.url);
  assert.equal(again.code, 1, `a finished task matches nothing: ${again.stderr}`);
  assert.match(again.stderr, /no task matched/);
});

test('cancel --actions cluster:monitor/health --wait cancels every waiting health request', async () => {
  const first = startWaitingHealth();
  const second = startWaitingHealth();
  for (let attempt = 0; attempt < 400 && (await waitingHealthTaskIds()).length < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));

  const result = await gannet('cancel', '--actions', 'cluster:monitor/health', '--wait', '--url', node.url);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^cancelled 2 tasks; they and their children have stopped/);
  const ends = await Promise.all([first.done, second.done]);
  for (const { elapsedMs } of ends) assert.ok(elapsedMs < 10_000, `ended after ${elapsedMs}ms`);
  assert.deepEqual(await remainingHealthTaskIds(), []);

  const nothing = await gannet('cancel', '--actions', 'cluster:monitor/health', '--url', node.url);
  assert.equal(nothing.code, 1);
});

test('cancel: an unknown task id on this node exits 1; a task that is not cancellable exits 2', async () => {
  const unknown = await gannet('cancel', `${node.nodeId}:999999`, '--url', node.url);
  assert.equal(unknown.code, 1, unknown.stderr);
  assert.match(unknown.stderr, /not found/);

  // A tasks-list request waiting for the health request to finish: a running task that cannot be cancelled.
  const health = startWaitingHealth();
  await waitingHealthTaskIds();
  const blocker = node.request('GET', '/_tasks?actions=cluster:monitor/health&wait_for_completion=true&timeout=30s', {
    headers: { 'X-Opaque-Id': 'cli-test-blocker' },
  });
  let blockerId: string | undefined;
  for (let attempt = 0; attempt < 400 && blockerId === undefined; attempt++) {
    const res = await node.request('GET', '/_tasks?actions=cluster:monitor/tasks/lists&group_by=none');
    const tasks = (res.body?.tasks ?? []) as Array<{ node: string; id: number; headers?: Record<string, string> }>;
    const found = tasks.find((task) => task.headers?.['X-Opaque-Id'] === 'cli-test-blocker');
    if (found !== undefined) blockerId = `${found.node}:${found.id}`;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(blockerId, 'the blocking list request is running');
  try {
    const refused = await gannet('cancel', blockerId, '--url', node.url);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /doesn't support cancellation/);
  } finally {
    await gannet('cancel', '--actions', 'cluster:monitor/health', '--url', node.url);
    await Promise.all([health.done, blocker]);
  }
});
