/**
 * ES's thread pools on one event loop: a fixed pool runs at most `size` pieces of work, queues up to
 * `queue_size` more in order, and rejects the rest with es_rejected_execution_exception (429) and ES's
 * message; scaling pools never hold work back; the stats read as ES's (active <= threads <= size).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ThreadPool } from '../../../src/common/thread-pool.js';
import { searchThreadPoolSize, ThreadPools, threadPoolInfos } from '../../../src/common/thread-pools.js';
import { EsError } from '../../../src/common/errors.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('a fixed pool runs size at once, queues in order, rejects beyond the queue with ES message and 429', async () => {
  const pool = new ThreadPool('node-1', { name: 'search', type: 'fixed', core: 2, max: 2, queueSize: 1 });
  const gates = [deferred(), deferred(), deferred()];
  const started: number[] = [];
  const runs = gates.map((gate, i) =>
    pool.execute(async () => {
      started.push(i);
      await gate.promise;
      return i;
    }),
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, [0, 1], 'two run, the third waits');
  assert.deepEqual({ ...pool.stats() }, { name: 'search', type: 'fixed', threads: 2, queue: 1, active: 2, rejected: 0, largest: 2, completed: 0, size: 2, queueSize: 1 });
  await assert.rejects(
    pool.execute(async () => 'never'),
    (err: unknown) =>
      err instanceof EsError &&
      err.type === 'es_rejected_execution_exception' &&
      err.status === 429 &&
      /^rejected execution of org\.elasticsearch\.common\.util\.concurrent\.TimedRunnable@[0-9a-f]+ on EsThreadPoolExecutor\[name = node-1\/search, queue capacity = 1, org\.elasticsearch\.common\.util\.concurrent\.EsThreadPoolExecutor@[0-9a-f]+\[Running, pool size = 2, active threads = 2, queued tasks = 1, completed tasks = 0\]\]$/.test(err.reason),
  );
  gates[0]!.resolve();
  await runs[0];
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, [0, 1, 2], 'the queued work starts when a slot frees');
  gates[1]!.resolve();
  gates[2]!.resolve();
  assert.deepEqual(await Promise.all(runs), [0, 1, 2]);
  const stats = pool.stats();
  assert.equal(stats.completed, 3);
  assert.equal(stats.rejected, 1);
  assert.equal(stats.active, 0);
  assert.equal(stats.queue, 0);
});

test('failed work frees its slot and counts as completed', async () => {
  const pool = new ThreadPool('n', { name: 'write', type: 'fixed', core: 1, max: 1, queueSize: 10 });
  await assert.rejects(pool.execute(async () => Promise.reject(new Error('boom'))));
  assert.equal(await pool.execute(async () => 'next'), 'next');
  assert.equal(pool.stats().completed, 2);
});

test('a scaling pool never waits or rejects; work beyond its maximum reads as queued', async () => {
  const pool = new ThreadPool('n', { name: 'management', type: 'scaling', core: 1, max: 2, queueSize: -1, keepAliveMillis: 300_000 });
  const gate = deferred();
  const runs = [0, 1, 2, 3].map(() => pool.execute(() => gate.promise));
  await new Promise((resolve) => setImmediate(resolve));
  const stats = pool.stats();
  assert.equal(stats.active, 2);
  assert.equal(stats.queue, 2);
  assert.equal(stats.threads, 2);
  assert.equal(stats.largest, 2);
  gate.resolve();
  await Promise.all(runs);
  assert.equal(pool.stats().completed, 4);
});

test("pool sizes follow ES 8's ThreadPool for the allocated processors", () => {
  assert.equal(searchThreadPoolSize(2), 4);
  assert.equal(searchThreadPoolSize(8), 13);
  const byName = new Map(threadPoolInfos(2, 4 * 1024 ** 3).map((info) => [info.name, info]));
  assert.deepEqual([byName.get('search')!.max, byName.get('search')!.queueSize], [4, 1000]);
  assert.deepEqual([byName.get('write')!.max, byName.get('write')!.queueSize], [2, 10000]);
  assert.deepEqual([byName.get('get')!.max, byName.get('get')!.queueSize], [4, 1000]);
  assert.deepEqual([byName.get('management')!.core, byName.get('management')!.max, byName.get('management')!.type], [1, 2, 'scaling']);
  assert.deepEqual([byName.get('generic')!.core, byName.get('generic')!.max], [4, 128]);
  assert.deepEqual([byName.get('force_merge')!.max, byName.get('force_merge')!.queueSize], [1, -1]);
  assert.equal(byName.get('snapshot')!.max, 10);
  assert.equal(threadPoolInfos(2, 512 * 1024 ** 2).find((info) => info.name === 'snapshot')!.max, 1, 'a small heap gets half the processors');
  const pools = new ThreadPools('n', 2, 4 * 1024 ** 3);
  const names = pools.stats().map((stats) => stats.name);
  assert.deepEqual(names, [...names].sort(), 'stats come in name order');
  assert.ok(names.includes('search') && names.includes('write') && names.includes('system_critical_write'));
});
