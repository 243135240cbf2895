/**
 * Stopping is final for an etcd coordinator (etcd-coordinator.ts, prepareToStop and stop): a node that begins to stop
 * is no candidate any more (a master resigns at once, a candidate never wins), and a node stopped in the middle of
 * its own election leaves nothing running, so its process ends. A node once logged "stopped" and lived on for 12
 * minutes: elected master as it stopped, it opened a watch of the node registrations that nothing cancelled.
 * In-process coordinators on one etcd (no HTTP, no shards), and one child process for the exit; a few seconds.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestEtcd } from '../helpers/etcd.js';
import { etcdKind, waitUntil, type CoordinatedNode } from './coordinator-harness.js';

let etcd: TestEtcd;
before(async () => {
  etcd = await TestEtcd.start();
});
after(async () => {
  await etcd.stop();
});

async function stopAll(nodes: CoordinatedNode[]): Promise<void> {
  await Promise.all(nodes.map((node) => node.coordinator.stop().catch(() => undefined)));
}

/** A log line saying the node became master (not the one of a node that resigned instead). */
function electedLine(line: string): boolean {
  return /elected as master, term \[\d+\]$/.test(line);
}

describe('etcd coordinator: stopping is final', () => {
  test('a master that begins to stop resigns at once: the next candidate takes over while it still runs', async () => {
    const kind = etcdKind(() => etcd);
    const first = await kind.startNode('r1');
    const second = await kind.startNode('r2');
    const nodes = [first, second];
    try {
      assert.equal(first.coordinator.isMaster(), true);
      const termBefore = first.clusterService.state().term;
      first.coordinator.prepareToStop!();
      assert.equal(first.coordinator.isMaster(), false, 'a stopping node accepts no state update');
      await waitUntil(() => second.coordinator.isMaster() && second.clusterService.state().masterNodeId === 'r2', 10_000, 'r2 elected while r1 still runs');
      assert.ok(second.clusterService.state().term > termBefore);
      // r1 has not stopped: it follows the new master's states (and never campaigns again).
      await waitUntil(() => first.clusterService.state().masterNodeId === 'r2', 10_000, 'r1 follows r2');
      assert.equal(first.coordinator.isMaster(), false);
    } finally {
      await stopAll(nodes);
    }
  });

  test('a candidate that begins to stop never becomes master: when the master leaves, the candidate after it is elected', async () => {
    const kind = etcdKind(() => etcd);
    // Started one after another: their campaign keys are in this order, so c2 is next in line after c1.
    const first = await kind.startNode('c1');
    const second = await kind.startNode('c2');
    const third = await kind.startNode('c3');
    const nodes = [first, second, third];
    const masters = new Set<string>();
    for (const node of nodes) node.clusterService.onChange((state) => state.masterNodeId !== undefined && masters.add(state.masterNodeId));
    try {
      assert.equal(first.coordinator.isMaster(), true);
      second.coordinator.prepareToStop!();
      await first.coordinator.stop();
      await waitUntil(() => third.coordinator.isMaster() && third.clusterService.state().masterNodeId === 'c3', 10_000, 'c3 elected');
      await waitUntil(() => second.clusterService.state().masterNodeId === 'c3', 10_000, 'c2 follows c3');
      assert.equal(second.coordinator.isMaster(), false);
      assert.ok(!masters.has('c2'), `no state ever named the stopping candidate master: ${[...masters].join(', ')}`);
      assert.ok(!second.logs.some(electedLine), second.logs.join('\n'));
    } finally {
      await stopAll(nodes);
    }
  });

  test('a node stopped in the middle of its takeover as master leaves nothing running: its process ends by itself', async () => {
    const script = join(dirname(fileURLToPath(import.meta.url)), 'stop-during-takeover.child.js');
    const child = spawn(process.execPath, [script, etcd.endpoint], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      // 'close', not 'exit': 'exit' can come before the child's last output ('stopped') is read.
      new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code))),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 30_000))),
    ]);
    clearTimeout(timer);
    if (exit === 'timeout') child.kill('SIGKILL');
    assert.match(output, /^stopped$/m, output);
    assert.ok(output.split('\n').some(electedLine), `m2 was elected before it stopped: ${output}`);
    assert.notEqual(exit, 'timeout', `the process lived on after both coordinators stopped:\n${output}`);
    assert.equal(exit, 0, output);
  });
});
