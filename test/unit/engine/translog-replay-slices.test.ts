/**
 * A translog replay (a shard opening from its store, a returning copy's local recovery) runs in slices, as writes do
 * (decision 0015): the event loop turns while it goes on. It held the loop for the whole replay (the translog is read
 * a megabyte at a time), seconds on a loaded host: a replica's node restarted after a kill -9 missed its etcd
 * keepalives while it replayed, its lease ran out, it left and joined again, and its recovery started over
 * (replica-restart.test.ts saw only the second attempt's operations).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import type { InternalEngine } from '../../../src/engine/index.js';
import { DocumentFactory, indexOp, open, tempDir } from './engine-helpers.js';

const OPERATIONS = 4000;

test('a long translog replay lets the event loop turn while it runs', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  let engine: InternalEngine | undefined = await open(dir.path, factory);
  try {
    for (let from = 0; from < OPERATIONS; from += 500) {
      const batch = Array.from({ length: 500 }, (_, i) => indexOp(factory, `d${from + i}`, { n: from + i, text: `document number ${from + i} and a few more words to invert` }));
      await engine.indexBatch(batch);
    }
    await engine.syncTranslog();
    // A crash: nothing committed, everything in the translog.
    await engine.close({ flush: false });
    engine = undefined;

    // The longest stretch without a turn of the loop while the engine opens and replays.
    let longest = 0;
    let last = performance.now();
    let spinning = true;
    const spin = (): void => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const started = performance.now();
    engine = await open(dir.path, factory);
    const openMillis = performance.now() - started;
    spinning = false;
    assert.equal(engine.translogRecovery.operations, OPERATIONS);
    // In slices the loop turns every few milliseconds (a few percent of the open on a loaded host); in one piece the
    // replay held it for 12-34% of the open (the rest is the refresh and the commit that follow).
    assert.ok(longest < openMillis / 10, `the loop stood still for ${longest.toFixed(0)} ms of an open that took ${openMillis.toFixed(0)} ms`);
  } finally {
    await engine?.close().catch(() => undefined);
    dir.remove();
  }
});
