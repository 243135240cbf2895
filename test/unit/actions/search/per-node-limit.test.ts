import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PerNodeLimiter } from '../../../../src/actions/search/per-node-limit.js';

test('max_concurrent_shard_requests: at most the limit per node in flight, the rest in arrival order, other nodes unaffected', async () => {
  const limiter = new PerNodeLimiter(2);
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  let peakA = 0;
  const job = (node: string, name: string) =>
    limiter.run(node, async () => {
      started.push(name);
      if (node === 'a') peakA = Math.max(peakA, limiter.inFlight('a'));
      await new Promise<void>((resolve) => gates.set(name, resolve));
      return name;
    });
  const all = Promise.all([job('a', 'a1'), job('a', 'a2'), job('a', 'a3'), job('a', 'a4'), job('b', 'b1'), job('b', 'b2')]);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ['a1', 'a2', 'b1', 'b2'], 'two per node start, the third on node a waits');
  gates.get('a2')!();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started.slice(4), ['a3'], 'a freed slot goes to the first waiter');
  for (const name of ['a1', 'b1', 'b2']) gates.get(name)!();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started.slice(5), ['a4']);
  for (const name of ['a3', 'a4']) gates.get(name)!();
  assert.deepEqual(await all, ['a1', 'a2', 'a3', 'a4', 'b1', 'b2']);
  assert.equal(peakA, 2);
  assert.equal(limiter.inFlight('a'), 0);
  assert.equal(limiter.inFlight('b'), 0);
});

test('a failing request frees its slot too', async () => {
  const limiter = new PerNodeLimiter(1);
  await assert.rejects(limiter.run('a', () => Promise.reject(new Error('shard failed'))), /shard failed/);
  assert.equal(await limiter.run('a', () => Promise.resolve('next')), 'next');
  assert.equal(limiter.inFlight('a'), 0);
});
