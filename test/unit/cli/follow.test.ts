/**
 * `gannet tasks --follow` and `gannet reindex` against a stub HTTP server that answers `GET /_tasks/<id>`
 * with scripted ES bodies: progress output on a terminal and in a pipe, the final status and its exit
 * code for each way a task can end, Ctrl-C, and the command-line checks (exit 64).
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findOperatorCommand, runOperatorCommand } from '../../../src/cli/run-operator-command.js';
import { buildReindexRequest } from '../../../src/cli/reindex-command.js';
import { UsageError } from '../../../src/cli/operator-options.js';
import type { CliIo } from '../../../src/cli/cli-io.js';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}
type Answer = { status?: number; body: unknown };

let server: Server;
let baseUrl: string;
/** Answers for `GET /_tasks/<id>`, one per poll; the last one repeats. */
let taskAnswers: Answer[];
let otherAnswers: Map<string, Answer>;
let seen: Seen[];

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      seen.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, body: Buffer.concat(chunks).toString('utf8') });
      let answer: Answer | undefined;
      if (req.method === 'GET' && url.pathname.startsWith('/_tasks/')) answer = taskAnswers.length > 1 ? taskAnswers.shift() : taskAnswers[0];
      else answer = otherAnswers.get(`${req.method} ${url.pathname}`);
      answer ??= { status: 400, body: { error: 'no handler', status: 400 } };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
}));
beforeEach(() => {
  taskAnswers = [];
  otherAnswers = new Map();
  seen = [];
});

interface RunOptions {
  tty?: boolean;
  /** Called with the Ctrl-C handler the command registers and the number of task polls so far. */
  interrupt?: (fire: () => void) => void;
}

async function run(args: string[], options: RunOptions = {}): Promise<{ code: number; stdout: string; stderr: string; interruptsRegistered: number }> {
  const [name, ...rest] = args;
  const command = findOperatorCommand(name);
  assert.ok(command, `no command ${name}`);
  let stdout = '';
  let stderr = '';
  let interruptsRegistered = 0;
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { GANNET_URL: baseUrl },
    color: false,
    stdoutIsTty: options.tty ?? false,
    stdoutColumns: options.tty ? 200 : undefined,
    onInterrupt(handler) {
      interruptsRegistered++;
      options.interrupt?.(handler);
      return () => undefined;
    },
  };
  const code = await runOperatorCommand(command, rest, io);
  return { code, stdout, stderr, interruptsRegistered };
}

const TASK_ID = 'n1:42';

function taskInfo(status: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    node: 'n1',
    id: 42,
    type: 'transport',
    action: 'indices:data/write/reindex',
    status,
    description: 'reindex from [src] to [dst]',
    start_time_in_millis: 1_700_000_000_000,
    running_time_in_nanos: 2_000_000_000,
    cancellable: true,
    cancelled: false,
    headers: {},
    ...extra,
  };
}

function status(total: number, created: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    total,
    updated: 0,
    created,
    deleted: 0,
    batches: Math.ceil(created / 100),
    version_conflicts: 0,
    noops: 0,
    retries: { bulk: 0, search: 0 },
    throttled_millis: 0,
    requests_per_second: -1,
    throttled_until_millis: 0,
    ...extra,
  };
}

const running = (total: number, created: number, nanos: number, extra: Record<string, unknown> = {}): Answer => ({
  body: { completed: false, task: taskInfo(status(total, created), { running_time_in_nanos: nanos, ...extra }) },
});

function finished(response: Record<string, unknown>): Answer {
  const { took: _took, timed_out: _timedOut, failures: _failures, ...counts } = response;
  return { body: { completed: true, task: taskInfo(counts, { running_time_in_nanos: 5_000_000_000 }), response } };
}

function reindexResponse(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { took: 1234, timed_out: false, ...status(1000, 1000), ...extra, failures: (extra['failures'] as unknown[] | undefined) ?? [] };
}

const NOT_FOUND: Answer = {
  status: 404,
  body: {
    error: {
      root_cause: [{ type: 'resource_not_found_exception', reason: `task [${TASK_ID}] isn't running and hasn't stored its results` }],
      type: 'resource_not_found_exception',
      reason: `task [${TASK_ID}] isn't running and hasn't stored its results`,
    },
    status: 404,
  },
};

test('follow in a pipe: one plain line per poll that moved, then the final counts; exit 0', async () => {
  taskAnswers = [running(0, 0, 0), running(1000, 200, 1_000_000_000), running(1000, 200, 1_500_000_000), running(1000, 600, 2_000_000_000), finished(reindexResponse())];
  const result = await run(['tasks', '--follow', TASK_ID, '--interval', '5ms']);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.split('\n');
  assert.match(lines[0]!, /^\[\.+\] {2}0\/\? {2}--\.-% {2}-- docs\/s {2}ETA -- {2}batches 0 {2}conflicts 0 {2}unthrottled$/);
  assert.match(lines[1]!, /^\[#+\.+\] {2}200\/1,000 {2}20\.0% {2}200 docs\/s {2}ETA 4s {2}batches 2 {2}conflicts 0 {2}unthrottled$/);
  // The poll at 1.5s saw no progress: no line for it.
  assert.match(lines[2]!, /^\[#+\.+\] {2}600\/1,000 {2}60\.0% {2}300 docs\/s {2}ETA 2s /, 'rate from the node\'s running time: 600 docs in 2s');
  assert.equal(lines[3], 'reindex from [src] to [dst]: completed in 1.2s');
  assert.match(result.stdout, /^ {2}total +1,000$/m);
  assert.match(result.stdout, /^ {2}created +1,000$/m);
  assert.match(result.stdout, /^ {2}version_conflicts +0$/m);
  assert.match(result.stdout, /^ {2}retries +bulk 0, search 0$/m);
  assert.match(result.stdout, /^ {2}requests_per_second +unlimited$/m);
  assert.match(result.stdout, /^ {2}failures +none$/m);
  assert.doesNotMatch(result.stdout, /\r|\u001b/, 'no terminal control characters in a pipe');
  assert.ok(seen.every((request) => request.method === 'GET' && request.path === `/_tasks/${TASK_ID}`));
});

test('follow on a terminal: the line is redrawn in place and ended before the final status', async () => {
  taskAnswers = [running(1000, 100, 1_000_000_000), running(1000, 500, 2_000_000_000), finished(reindexResponse())];
  const result = await run(['tasks', '--follow', TASK_ID, '--interval', '5ms'], { tty: true });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^following task n1:42 \(Ctrl-C stops following; the task keeps running\)\n/);
  assert.match(result.stdout, /\r\[#+\.+\] {2}100\/1,000 {2}10\.0% .*\u001b\[K\r\[#+\.+\] {2}500\/1,000 .*\u001b\[K\nreindex from \[src\] to \[dst\]: completed in 1\.2s\n/s);
});

test('a cancelled task: the cancel reason, the partial counts, exit 5', async () => {
  taskAnswers = [running(1000, 100, 1_000_000_000, { cancelled: true }), finished(reindexResponse({ created: 300, canceled: 'by user request' }))];
  const result = await run(['tasks', '--follow', TASK_ID, '--interval', '5ms']);
  assert.equal(result.code, 5, result.stderr);
  assert.match(result.stdout, /cancelling$/m, 'a processed cancel shows on the progress line');
  assert.match(result.stdout, /^reindex from \[src\] to \[dst\]: cancelled \(by user request\) after 1\.2s; documents written before the cancel stay written$/m);
  assert.match(result.stdout, /^ {2}created +300$/m);
});

function sliceStatus(sliceId: number, total: number, created: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { slice_id: sliceId, ...status(total, created), ...extra };
}

test('a sliced task whose leader was cancelled: exit 5, the summed counts and one line per slice', async () => {
  const slices = [sliceStatus(0, 500, 120, { canceled: 'by user request' }), sliceStatus(1, 500, 80, { canceled: 'by user request' })];
  taskAnswers = [finished(reindexResponse({ total: 1000, created: 200, canceled: 'by user request', slices }))];
  const result = await run(['tasks', '--follow', TASK_ID, '--interval', '5ms']);
  assert.equal(result.code, 5, result.stderr);
  assert.match(result.stdout, /^reindex from \[src\] to \[dst\]: cancelled \(by user request\) after 1\.2s; documents written before the cancel stay written$/m);
  assert.match(result.stdout, /^ {2}created +200$/m);
  assert.match(result.stdout, /^ {2}slices +2$/m);
  assert.match(result.stdout, /^ {2}slice 0: total 500, created 120, updated 0, deleted 0, batches 2, version_conflicts 0, noops 0; cancelled \(by user request\)$/m);
  assert.match(result.stdout, /^ {2}slice 1: total 500, created 80, .*; cancelled \(by user request\)$/m);
});

test('a sliced task of which only the children were cancelled is cancelled too (exit 5), not "completed"', async () => {
  // The leader itself was not cancelled: no top-level `canceled`, but its slices stopped early.
  const slices = [sliceStatus(0, 500, 500), sliceStatus(1, 500, 40, { canceled: 'by user request' }), null];
  taskAnswers = [
    { body: { completed: false, task: taskInfo({ ...status(1000, 540), slices }) } },
    finished(reindexResponse({ total: 1000, created: 540, slices })),
  ];
  const result = await run(['tasks', '--follow', TASK_ID, '--interval', '5ms']);
  assert.equal(result.code, 5, result.stderr);
  assert.match(result.stdout, /cancelling$/m, 'the progress line shows the slices cancelling');
  assert.match(result.stdout, /^reindex from \[src\] to \[dst\]: cancelled \(by user request; 1 of 3 slices cancelled\) after 1\.2s; documents written before the cancel stay written$/m);
  assert.match(result.stdout, /^ {2}slice 0: total 500, created 500, .*noops 0$/m);
  assert.match(result.stdout, /^ {2}slice 1: total 500, created 40, .*; cancelled \(by user request\)$/m);
  assert.match(result.stdout, /^ {2}slice 2: not started$/m);

  // gannet reindex follows the same way.
  otherAnswers.set('POST /_reindex', { body: { task: TASK_ID } });
  taskAnswers = [finished(reindexResponse({ total: 1000, created: 540, slices }))];
  const reindex = await run(['reindex', 'src', 'dst', '--slices', '3', '--interval', '5ms']);
  assert.equal(reindex.code, 5, reindex.stderr);
  assert.match(reindex.stdout, /1 of 3 slices cancelled/);
});

test('a task that ended with task_cancelled_exception is reported as cancelled (exit 5)', async () => {
  taskAnswers = [
    {
      body: {
        completed: true,
        task: taskInfo({ ...status(1000, 10), slices: [sliceStatus(0, 500, 10, { canceled: 'by user request' })] }),
        error: { type: 'task_cancelled_exception', reason: 'task cancelled [by user request]' },
      },
    },
  ];
  const result = await run(['tasks', '--follow', TASK_ID, '--interval', '5ms']);
  assert.equal(result.code, 5, result.stderr);
  assert.match(result.stdout, /: cancelled \(task cancelled \[by user request\]\) after /);
  assert.match(result.stdout, /^ {2}slice 0: total 500, created 10, .*; cancelled \(by user request\)$/m);
  assert.equal(result.stderr, '');
});

test('failures in the response: listed on stderr, exit 2; an error instead of a response: exit 2', async () => {
  const failure = {
    index: 'dst',
    id: '7',
    cause: { type: 'version_conflict_engine_exception', reason: '[7]: version conflict, document already exists (current version [1])', index: 'dst', shard: '0' },
    status: 409,
  };
  taskAnswers = [finished(reindexResponse({ created: 6, version_conflicts: 1, failures: [failure] }))];
  const failed = await run(['tasks', '--follow', TASK_ID, '--interval', '5ms']);
  assert.equal(failed.code, 2);
  assert.match(failed.stdout, /^reindex from \[src\] to \[dst\]: stopped with 1 failure after 1\.2s$/m);
  assert.match(failed.stdout, /^ {2}failures +1 \(listed on stderr\)$/m);
  assert.equal(
    failed.stderr,
    'failure [dst] id [7]: version_conflict_engine_exception: [7]: version conflict, document already exists (current version [1]) (status 409)\n',
  );

  taskAnswers = [{ body: { completed: true, task: taskInfo(status(10, 3)), error: { type: 'index_not_found_exception', reason: 'no such index [src]' } } }];
  const errored = await run(['tasks', '--follow', TASK_ID]);
  assert.equal(errored.code, 2);
  assert.match(errored.stdout, /^reindex from \[src\] to \[dst\]: failed after 2s$/m);
  assert.equal(errored.stderr, 'error: index_not_found_exception: no such index [src]\n');
});

test('an unknown task exits 1 with the node\'s reason; --json prints the final record only', async () => {
  taskAnswers = [NOT_FOUND];
  const missing = await run(['tasks', '--follow', TASK_ID]);
  assert.equal(missing.code, 1);
  assert.equal(missing.stdout, '');
  assert.match(missing.stderr, /^gannet tasks: no such task: GET \/_tasks\/n1:42 answered 404: resource_not_found_exception: task \[n1:42\] isn't running and hasn't stored its results\n$/);

  const done = finished(reindexResponse());
  taskAnswers = [running(1000, 100, 1_000_000_000), done];
  const json = await run(['tasks', '--follow', TASK_ID, '--interval', '5ms', '--json']);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), done.body);
});

test('Ctrl-C stops following and leaves the task running (exit 130, no cancel sent)', async () => {
  taskAnswers = [running(1000, 100, 1_000_000_000)];
  let fire: (() => void) | undefined;
  const pending = run(['tasks', '--follow', TASK_ID, '--interval', '20ms'], { interrupt: (handler) => (fire = handler) });
  // Polled until a deadline, not for 200 rounds of 10 ms: the rounds' 2 s were within reach of a stalled process.
  for (const deadline = Date.now() + 20_000; seen.length < 2 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(fire, 'the command listens for Ctrl-C');
  fire();
  const result = await pending;
  assert.equal(result.code, 130);
  assert.match(result.stderr, /stopped following task \[n1:42\]; the task is still running\. "gannet tasks --follow n1:42" follows it again, "gannet cancel n1:42" cancels it/);
  assert.ok(seen.every((request) => request.method === 'GET'), 'no cancel request');
});

test('--cancel-on-interrupt: Ctrl-C cancels the task and follows it until it has stopped (exit 5)', async () => {
  taskAnswers = [running(1000, 100, 1_000_000_000)];
  otherAnswers.set(`POST /_tasks/${TASK_ID}/_cancel`, { body: { nodes: {} } });
  let fire: (() => void) | undefined;
  const pending = run(['tasks', '--follow', TASK_ID, '--interval', '20ms', '--cancel-on-interrupt'], { interrupt: (handler) => (fire = handler) });
  for (const deadline = Date.now() + 20_000; seen.length < 2 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
  fire!();
  for (const deadline = Date.now() + 20_000; !seen.some((request) => request.method === 'POST') && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
  taskAnswers = [finished(reindexResponse({ created: 100, canceled: 'by user request' }))];
  const result = await pending;
  assert.equal(result.code, 5, result.stderr);
  assert.match(result.stderr, /^gannet tasks: cancelling task \[n1:42\]; waiting for it to stop \(Ctrl-C again stops waiting\)$/m);
  assert.ok(seen.some((request) => request.method === 'POST' && request.path === `/_tasks/${TASK_ID}/_cancel`));
  assert.match(result.stdout, /cancelled \(by user request\)/);
});

test('reindex: the ES request, the task id, then following to the end', async () => {
  otherAnswers.set('POST /_reindex', { body: { task: TASK_ID } });
  taskAnswers = [running(1000, 500, 1_000_000_000), finished(reindexResponse())];
  const result = await run([
    'reindex', 'src1,src2', 'dst', '--query', '{"query":{"term":{"status":"active"}}}', '--size', '500', '--max-docs', '1000',
    '--slices', 'auto', '--requests-per-second', '250.5', '--conflicts', 'proceed', '--op-type', 'create', '--refresh', '--interval', '5ms',
  ]);
  assert.equal(result.code, 0, result.stderr);
  const start = seen[0]!;
  assert.equal(start.method, 'POST');
  assert.equal(start.path, '/_reindex');
  assert.deepEqual(Object.fromEntries(start.query), { wait_for_completion: 'false', slices: 'auto', requests_per_second: '250.5', refresh: 'true' });
  assert.deepEqual(JSON.parse(start.body), {
    source: { index: ['src1', 'src2'], query: { term: { status: 'active' } }, size: 500 },
    dest: { index: 'dst', op_type: 'create' },
    max_docs: 1000,
    conflicts: 'proceed',
  });
  assert.match(result.stdout, /^started reindex task n1:42\n\[#+/);
  assert.match(result.stdout, /^reindex from \[src\] to \[dst\]: completed in 1\.2s$/m);
});

test('reindex --no-follow prints the task id and returns; a refused request exits 4 with the ES reason', async () => {
  otherAnswers.set('POST /_reindex', { body: { task: TASK_ID } });
  const started = await run(['reindex', 'src', 'dst', '--no-follow']);
  assert.equal(started.code, 0, started.stderr);
  assert.equal(started.stdout, 'started reindex task n1:42; follow it with "gannet tasks --follow n1:42"\n');
  assert.deepEqual(JSON.parse(seen[0]!.body), { source: { index: 'src' }, dest: { index: 'dst' } });
  assert.deepEqual(Object.fromEntries(seen[0]!.query), { wait_for_completion: 'false' });
  const json = await run(['reindex', 'src', 'dst', '--no-follow', '--json']);
  assert.deepEqual(JSON.parse(json.stdout), { task: TASK_ID });

  otherAnswers.set('POST /_reindex', {
    status: 404,
    body: { error: { root_cause: [], type: 'index_not_found_exception', reason: 'no such index [nope]' }, status: 404 },
  });
  const refused = await run(['reindex', 'nope', 'dst']);
  assert.equal(refused.code, 4);
  assert.match(refused.stderr, /^gannet reindex: POST \/_reindex\?wait_for_completion=false answered 404: index_not_found_exception: no such index \[nope\]\n$/);
});

test('usage errors exit 64 with a message naming the flag', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['tasks', '--follow', '42'], /task id must look like <node_id>:<number>/],
    [['tasks', '--follow', TASK_ID, '--actions', '*reindex'], /--follow takes one task id; --actions only apply to the task list/],
    [['tasks', '--interval', '1s'], /--interval and --cancel-on-interrupt only apply with --follow/],
    [['tasks', '--follow', TASK_ID, '--interval', 'soon'], /--interval must be a time value/],
    [['tasks', '--follow', TASK_ID, '--interval', '0s'], /--interval must be more than 0/],
    [['reindex'], /name the source and destination indices/],
    [['reindex', 'src'], /name the destination index too/],
    [['reindex', 'a', 'b', 'c'], /unexpected argument \[c\]/],
    [['reindex', 'a', 'b,c'], /the destination must be one index name/],
    [['reindex', 'a,', 'b'], /the source \[a,\] has an empty index name/],
    [['reindex', 'a', 'b', '--query', '{nope'], /--query must be JSON/],
    [['reindex', 'a', 'b', '--query', '[1]'], /--query must be a JSON object/],
    [['reindex', 'a', 'b', '--query', '{"term":{"a":1},"match":{"b":2}}'], /exactly one query clause/],
    [['reindex', 'a', 'b', '--size', '0'], /--size must be a whole number of at least 1, not \[0\]/],
    [['reindex', 'a', 'b', '--max-docs', '1.5'], /--max-docs must be a whole number/],
    [['reindex', 'a', 'b', '--slices', 'many'], /--slices must be a whole number of at least 1 or "auto"/],
    [['reindex', 'a', 'b', '--requests-per-second', '0'], /--requests-per-second must be a number above 0, or -1/],
    [['reindex', 'a', 'b', '--conflicts', 'ignore'], /--conflicts must be proceed or abort, not \[ignore\]/],
    [['reindex', 'a', 'b', '--op-type', 'update'], /--op-type must be create or index/],
    [['reindex', 'a', 'b', '--no-follow', '--interval', '1s'], /only apply when following/],
    [['reindex', 'a', 'b', '--wat'], /Unknown option '--wat'/],
  ];
  for (const [args, message] of cases) {
    const result = await run(args);
    assert.equal(result.code, 64, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
    assert.match(result.stderr, new RegExp(`run "gannet ${args[0]} --help" for usage`));
  }
  assert.equal(seen.length, 0, 'nothing is sent for a bad command line');
});

test('buildReindexRequest: the smallest request and the -1 throttle', () => {
  assert.deepEqual(buildReindexRequest(['a', 'b'], { 'requests-per-second': '-1' }), {
    query: { wait_for_completion: 'false', slices: undefined, requests_per_second: '-1', refresh: false },
    body: { source: { index: 'a' }, dest: { index: 'b' } },
  });
  assert.throws(() => buildReindexRequest(['a', 'b'], { query: '{"match_all":{}}', slices: '0' }), UsageError);
  assert.deepEqual(buildReindexRequest(['a', 'b'], { query: '{"match_all":{}}' }).body['source'], { index: 'a', query: { match_all: {} } });
});

test('help: gannet reindex --help documents the flags; tasks --help documents --follow', async () => {
  const reindex = await run(['reindex', '--help']);
  assert.equal(reindex.code, 0);
  for (const flag of ['--query', '--size', '--max-docs', '--slices', '--requests-per-second', '--conflicts', '--op-type', '--no-follow', '--cancel-on-interrupt']) {
    assert.ok(reindex.stdout.includes(flag), flag);
  }
  const tasks = await run(['tasks', '--help']);
  assert.match(tasks.stdout, /gannet tasks --follow TASK_ID/);
  assert.match(tasks.stdout, /130 Ctrl-C stopped following/);
});
