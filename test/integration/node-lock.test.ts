/**
 * One live node per data path, and a stale `node.lock` never blocks a start: a second node on a data path in use
 * is refused with ES's message, while a lock file left by a node that is gone (killed, or from before a reboot whose
 * PID now belongs to an unrelated process such as PID 1) is replaced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeProcess } from '../helpers/node-process.js';

function freshDataPath(): string {
  return mkdtempSync(join(tmpdir(), 'gannet-lock-it-'));
}

test('a second node on a data path in use does not start: ES failed to obtain node locks', async () => {
  const first = await NodeProcess.start({ settings: { 'node.name': 'lock-first' } });
  try {
    await assert.rejects(
      NodeProcess.start({ oneNode: 'locks and reuses the node\'s data path', dataPath: first.dataPath, keepData: true, settings: { 'node.name': 'lock-second' } }),
      (err: Error) => {
        assert.match(err.message, /failed to obtain node locks, tried \[.*\]; maybe these locations are not writable or multiple nodes were started on the same data path\?/);
        assert.match(err.message, new RegExp(`held by the running process ${first.child.pid}`));
        return true;
      },
    );
    assert.equal((await first.request('GET', '/_cluster/health')).status, 200, 'the first node is untouched');
  } finally {
    await first.stop();
  }
});

test('a stale lock naming a live unrelated process (PID 1, another start time or another boot) does not block', async () => {
  const dataPath = freshDataPath();
  try {
    const stale = [
      JSON.stringify({ pid: 1, start_ticks: 987654321, boot_id: null }),
      JSON.stringify({ pid: 1, start_ticks: null, boot_id: 'a-boot-before-the-last-reboot' }),
      '1',
    ];
    for (const content of stale) {
      writeFileSync(join(dataPath, 'node.lock'), content);
      const node = await NodeProcess.start({ oneNode: 'locks and reuses the node\'s data path', dataPath, keepData: true, settings: { 'node.name': 'lock-stale' } });
      try {
        assert.equal((await node.request('GET', '/')).status, 200, content);
        assert.equal(JSON.parse(readFileSync(join(dataPath, 'node.lock'), 'utf8')).pid, node.child.pid);
      } finally {
        await node.stop();
      }
    }
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
});

test('after kill -9 the lock left behind does not block the restart', async () => {
  const dataPath = freshDataPath();
  try {
    const node = await NodeProcess.start({ oneNode: 'locks and reuses the node\'s data path', dataPath, keepData: true, settings: { 'node.name': 'lock-killed' } });
    await node.kill9();
    const restarted = await NodeProcess.start({ oneNode: 'locks and reuses the node\'s data path', dataPath, keepData: true, settings: { 'node.name': 'lock-killed' } });
    assert.equal((await restarted.request('GET', '/')).status, 200);
    await restarted.stop();
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
});
