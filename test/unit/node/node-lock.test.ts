import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeLock, NodeLockError, currentOwner, isOwnerAlive, parseLockFile, processStartTicks, type SystemView } from '../../../src/node/node-lock.js';

function withDataPath(run: (dataPath: string) => void): void {
  const dataPath = mkdtempSync(join(tmpdir(), 'gannet-lock-'));
  try {
    run(dataPath);
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
}

const system = (overrides: Partial<SystemView>): SystemView => ({
  bootId: 'boot-a',
  startTicksOf: () => 1000,
  commandLineOf: () => 'node\0/opt/gannet/dist/src/cli/run.js\0start',
  pidExists: () => true,
  ...overrides,
});

test('this process reads its own start time from /proc/<pid>/stat', () => {
  const ticks = processStartTicks(process.pid);
  assert.ok(ticks === undefined || (Number.isSafeInteger(ticks) && ticks > 0));
  assert.equal(isOwnerAlive(currentOwner()), true);
});

test('an owner is live only in the same boot, with the same PID started at the same tick', () => {
  const owner = { pid: 4242, startTicks: 1000, bootId: 'boot-a' };
  assert.equal(isOwnerAlive(owner, system({})), true);
  assert.equal(isOwnerAlive(owner, system({ bootId: 'boot-b' })), false, 'another boot: the PID was reused');
  assert.equal(isOwnerAlive(owner, system({ startTicksOf: () => 5000 })), false, 'same PID, another process');
  assert.equal(isOwnerAlive(owner, system({ pidExists: () => false })), false, 'gone');
});

test('an old lock file (a bare PID) blocks only while that PID runs a Gannet node', () => {
  const owner = parseLockFile('1\n')!;
  assert.deepEqual(owner, { pid: 1, startTicks: undefined, bootId: undefined });
  assert.equal(isOwnerAlive(owner, system({ commandLineOf: () => '/sbin/init\0' })), false);
  assert.equal(isOwnerAlive(owner, system({})), true);
  assert.equal(parseLockFile('garbage'), undefined);
});

test('acquire writes the owner, release removes the file; a second acquire while held is refused with ES message', () => {
  withDataPath((dataPath) => {
    const lock = NodeLock.acquire(dataPath);
    const written = parseLockFile(readFileSync(join(dataPath, 'node.lock'), 'utf8'))!;
    assert.equal(written.pid, process.pid);
    // The same process asking again is treated as an earlier life of this PID (a stale file), so simulate another
    // live owner: a file naming this process's parent, which is running now.
    lock.release();
    assert.equal(existsSync(join(dataPath, 'node.lock')), false);
    const parent = { pid: process.ppid, start_ticks: processStartTicks(process.ppid) ?? null, boot_id: null };
    writeFileSync(join(dataPath, 'node.lock'), JSON.stringify(parent));
    assert.throws(
      () => NodeLock.acquire(dataPath),
      (err: unknown) =>
        err instanceof NodeLockError &&
        err.message.startsWith(`failed to obtain node locks, tried [${dataPath}]; maybe these locations are not writable or multiple nodes were started on the same data path?`),
    );
  });
});

test('a stale lock file never blocks: PID 1 at another start time, another boot, a dead PID, garbage', () => {
  for (const content of [
    JSON.stringify({ pid: 1, start_ticks: (processStartTicks(1) ?? 0) + 12345, boot_id: null }),
    JSON.stringify({ pid: process.ppid, start_ticks: processStartTicks(process.ppid) ?? null, boot_id: 'an-earlier-boot' }),
    JSON.stringify({ pid: 2 ** 22 + 7, start_ticks: 1, boot_id: null }),
    'not a lock file',
  ]) {
    withDataPath((dataPath) => {
      writeFileSync(join(dataPath, 'node.lock'), content);
      const lock = NodeLock.acquire(dataPath);
      assert.equal(parseLockFile(readFileSync(join(dataPath, 'node.lock'), 'utf8'))!.pid, process.pid, content);
      lock.release();
    });
  }
});
