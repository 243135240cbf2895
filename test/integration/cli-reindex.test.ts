/**
 * `gannet reindex` and `gannet tasks --follow` against a real node: the compiled CLI is spawned as an
 * operator runs it; only its output, its exit code and what the node then holds are checked. Throttled
 * reindexes (a few documents per second) keep a task running long enough to be followed and cancelled
 * on a loaded machine; every wait is for a condition, with a generous deadline.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { GANNET_ENTRY, NodeProcess } from '../helpers/node-process.js';

interface CliRun {
  /** Resolves once stdout matches (rejects after the deadline, with what was printed). */
  waitForStdout(pattern: RegExp, deadlineMs?: number): Promise<void>;
  interrupt(): void;
  done: Promise<{ code: number; stdout: string; stderr: string }>;
}

function gannet(...args: string[]): CliRun {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env['GANNET_URL'];
  const child = spawn(process.execPath, [GANNET_ENTRY, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
  return {
    async waitForStdout(pattern, deadlineMs = 60_000) {
      const deadline = Date.now() + deadlineMs;
      while (!pattern.test(stdout)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`stdout never matched ${pattern}:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    interrupt: () => child.kill('SIGINT'),
    done,
  };
}

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'cli-reindex-node' } });
  await indexDocs('src', 30);
});
after(async () => {
  await node.stop();
});

async function indexDocs(index: string, count: number): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(JSON.stringify({ index: { _index: index, _id: String(i) } }), JSON.stringify({ n: i, title: `document ${i}` }));
  const res = await node.request('POST', '/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.errors, false, res.text);
}

async function count(index: string): Promise<number> {
  await node.request('POST', `/${index}/_refresh`);
  const res = await node.request('GET', `/${index}/_count`);
  assert.equal(res.status, 200, res.text);
  return res.body.count as number;
}

/** A reindex of `src` slowed to `perSecond` documents per second in batches of 5, started over HTTP. */
async function startThrottledReindex(dest: string, perSecond: number): Promise<string> {
  const res = await node.request('POST', `/_reindex?wait_for_completion=false&requests_per_second=${perSecond}`, {
    body: { source: { index: 'src', size: 5 }, dest: { index: dest } },
  });
  assert.equal(res.status, 200, res.text);
  assert.match(res.body.task, /^\S+:\d+$/);
  return res.body.task as string;
}

async function cancelAndWait(taskId: string): Promise<void> {
  await node.request('POST', `/_tasks/${taskId}/_cancel?wait_for_completion=true`);
}

const PROGRESS_LINE = /^\[[#.]+\] {2}\d+\/(30|\?) {2}(\d+\.\d|--\.-)% {2}(\d[\d,.]*|--) docs\/s {2}ETA \S+ {2}batches \d+ {2}conflicts \d+ {2}/m;

test('gannet reindex src dst copies every document and exits 0 with the final counts', async () => {
  const result = await gannet('reindex', 'src', 'copy', '--refresh', '--interval', '200ms', '--url', node.url).done;
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^started reindex task \S+:\d+$/m);
  assert.match(result.stdout, /^reindex from \[src\] to \[copy\]: completed in \S+$/m);
  assert.match(result.stdout, /^ {2}total +30$/m);
  assert.match(result.stdout, /^ {2}created +30$/m);
  assert.match(result.stdout, /^ {2}failures +none$/m);
  assert.equal(await count('copy'), 30);

  // Again with op_type=create: every document exists, so each one is a conflict; proceed counts them.
  const again = await gannet('reindex', 'src', 'copy', '--op-type', 'create', '--conflicts', 'proceed', '--url', node.url).done;
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^ {2}created +0$/m);
  assert.match(again.stdout, /^ {2}version_conflicts +30$/m);
});

test('gannet reindex of a missing index exits with the node\'s reason; a bad flag exits 64 before sending anything', async () => {
  const missing = await gannet('reindex', 'no-such-index', 'copy2', '--url', node.url).done;
  assert.equal(missing.code, 4, 'the node refused the request');
  assert.match(missing.stderr, /^gannet reindex: POST \/_reindex\?wait_for_completion=false answered 404: index_not_found_exception: no such index \[no-such-index\]$/m);
  const bad = await gannet('reindex', 'src', 'copy2', '--slices', 'lots', '--url', node.url).done;
  assert.equal(bad.code, 64);
  assert.match(bad.stderr, /--slices must be a whole number of at least 1 or "auto", not \[lots\]/);
  assert.equal((await node.request('HEAD', '/copy2')).status, 404, 'no destination index was created');
});

test('tasks --follow on a throttled reindex prints progress lines and ends with the final status', async () => {
  const taskId = await startThrottledReindex('throttled', 10);
  const result = await gannet('tasks', '--follow', taskId, '--interval', '200ms', '--url', node.url).done;
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, PROGRESS_LINE);
  assert.match(result.stdout, / throttle 10\/s/);
  assert.match(result.stdout, /^reindex from \[src\] to \[throttled\]: completed in \S+$/m);
  assert.match(result.stdout, /^ {2}created +30$/m);
  assert.match(result.stdout, /^ {2}batches +6$/m);
  assert.match(result.stdout, /^ {2}requests_per_second +10$/m);
  assert.equal(await count('throttled'), 30);
});

test('following a task that gets cancelled reports the cancel, the partial counts and exits 5', async () => {
  const taskId = await startThrottledReindex('cancelled', 1);
  const follow = gannet('tasks', '--follow', taskId, '--interval', '200ms', '--url', node.url);
  await follow.waitForStdout(PROGRESS_LINE);
  await cancelAndWait(taskId);
  const result = await follow.done;
  assert.equal(result.code, 5, result.stderr);
  assert.match(result.stdout, /^reindex from \[src\] to \[cancelled\]: cancelled \(by user request\) after \S+; documents written before the cancel stay written$/m);
  const created = Number(/^ {2}created +(\d+)$/m.exec(result.stdout)?.[1]);
  assert.ok(created < 30, `stopped early (created ${created})`);
  assert.equal(await count('cancelled'), created, 'the printed count is what the destination holds');
});

test('a sliced reindex whose slices alone are cancelled is reported cancelled (exit 5) with per-slice counts', async () => {
  const res = await node.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=2&slices=2', {
    body: { source: { index: 'src', size: 2 }, dest: { index: 'sliced-cancel' } },
  });
  assert.equal(res.status, 200, res.text);
  const taskId = res.body.task as string;
  const follow = gannet('tasks', '--follow', taskId, '--interval', '200ms', '--url', node.url);
  await follow.waitForStdout(PROGRESS_LINE);
  // Cancel the children only: the leader is not cancelled itself, its slices stop early.
  const cancel = await node.request('POST', `/_tasks/_cancel?parent_task_id=${taskId}&wait_for_completion=true`);
  assert.equal(cancel.status, 200, cancel.text);
  assert.equal(Object.values(cancel.body.nodes as Record<string, { tasks: object }>).flatMap((n) => Object.keys(n.tasks)).length, 2, cancel.text);
  const result = await follow.done;
  assert.equal(result.code, 5, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stdout, /^reindex from \[src\] to \[sliced-cancel\]: cancelled \(by user request; 2 of 2 slices cancelled\) after \S+; documents written before the cancel stay written$/m);
  const sliceLines = [...result.stdout.matchAll(/^ {2}slice (\d): total \d+, created (\d+), .*; cancelled \(by user request\)$/gm)];
  assert.deepEqual(sliceLines.map((line) => line[1]), ['0', '1']);
  const created = sliceLines.reduce((sum, line) => sum + Number(line[2]), 0);
  assert.ok(created < 30, `stopped early (created ${created})`);
  assert.match(result.stdout, new RegExp(`^ {2}created +${created}$`, 'm'));
  assert.equal(await count('sliced-cancel'), created, 'the printed counts are what the destination holds');

  // The same through gannet reindex, cancelling the leader this time: still exit 5, with the slices listed.
  const reindex = gannet('reindex', 'src', 'sliced-cancel-2', '--slices', '2', '--requests-per-second', '2', '--size', '2', '--interval', '200ms', '--url', node.url);
  await reindex.waitForStdout(PROGRESS_LINE);
  await node.request('POST', '/_tasks/_cancel?actions=*reindex&wait_for_completion=true');
  const cancelled = await reindex.done;
  assert.equal(cancelled.code, 5, `${cancelled.stdout}\n${cancelled.stderr}`);
  assert.match(cancelled.stdout, /: cancelled \(by user request\) after /);
  assert.equal([...cancelled.stdout.matchAll(/^ {2}slice \d: .*; cancelled \(by user request\)$/gm)].length, 2);
});

test('an unknown task id exits 1 (not found); a malformed one exits 64', async () => {
  const unknown = await gannet('tasks', '--follow', `${node.nodeId}:999999`, '--url', node.url).done;
  assert.equal(unknown.code, 1, unknown.stderr);
  assert.match(unknown.stderr, /^gannet tasks: no such task: .*resource_not_found_exception/);
  const malformed = await gannet('tasks', '--follow', '999999', '--url', node.url).done;
  assert.equal(malformed.code, 64);
});

test('Ctrl-C stops following and leaves the reindex running (exit 130); with --cancel-on-interrupt it cancels it (exit 5)', async () => {
  const taskId = await startThrottledReindex('interrupted', 1);
  try {
    const follow = gannet('tasks', '--follow', taskId, '--interval', '200ms', '--url', node.url);
    await follow.waitForStdout(PROGRESS_LINE);
    follow.interrupt();
    const result = await follow.done;
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, /stopped following task \[\S+\]; the task is still running/);
    const still = await node.request('GET', `/_tasks/${taskId}`);
    assert.equal(still.body.completed, false, 'the reindex is still running');

    const cancelling = gannet('tasks', '--follow', taskId, '--interval', '200ms', '--cancel-on-interrupt', '--url', node.url);
    await cancelling.waitForStdout(PROGRESS_LINE);
    cancelling.interrupt();
    const cancelled = await cancelling.done;
    assert.equal(cancelled.code, 5, cancelled.stderr);
    assert.match(cancelled.stderr, /cancelling task \[\S+\]; waiting for it to stop/);
    assert.match(cancelled.stdout, /cancelled \(by user request\)/);
  } finally {
    await cancelAndWait(taskId);
  }
});
