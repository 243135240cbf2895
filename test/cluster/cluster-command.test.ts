/**
 * `gannet cluster start --nodes 2` gives a green local cluster on its own etcd and prints the addresses;
 * `status` reports it; `stop` ends exactly the recorded processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GANNET_ENTRY, NODE_RUNTIME_OPTIONS } from '../helpers/node-process.js';
import { ensureEtcdBinary } from '../../src/cli/etcd-launcher.js';

function gannet(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...NODE_RUNTIME_OPTIONS, GANNET_ENTRY, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('gannet cluster start, status and stop', async () => {
  ensureEtcdBinary(true);
  const dir = mkdtempSync(join(tmpdir(), 'gannet-cluster-cmd-'));
  let pids: number[] = [];
  try {
    const started = gannet('cluster', 'start', '--nodes', '2', '--dir', dir, '--name', 'cmd-test');
    const record = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as { etcd: { pid: number }; nodes: Array<{ pid: number; http: string }> };
    pids = [record.etcd.pid, ...record.nodes.map((node) => node.pid)];
    assert.equal(started.status, 0, started.stdout + started.stderr);
    assert.match(started.stdout, /cluster \[cmd-test\] is green with 2 nodes/);
    assert.equal(record.nodes.length, 2);
    const nodes = (await (await fetch(`http://${record.nodes[0]!.http}/_cat/nodes?h=name&s=name`)).text()).trim().split('\n');
    assert.deepEqual(nodes, ['node-1', 'node-2']);
    const status = gannet('cluster', 'status', '--dir', dir);
    assert.equal(status.status, 0, status.stdout + status.stderr);
    assert.match(status.stdout, /health\s+green, 2 nodes/);
    const stopped = gannet('cluster', 'stop', '--dir', dir);
    assert.equal(stopped.status, 0, stopped.stderr);
    for (const pid of pids) assert.equal(alive(pid), false, `pid ${pid} stopped`);
  } finally {
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
