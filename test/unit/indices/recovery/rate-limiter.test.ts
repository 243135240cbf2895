/**
 * The recovery rate limiter: chunks wait to keep the node's sending rate at the limit, and a node that stops
 * ends those waits at once (a recovery throttled to 100 bytes a second once kept a stopped node alive for minutes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecoveryRateLimiter } from '../../../../src/indices/recovery/rate-limiter.js';
import { ManualClock } from '../../../helpers/manual-clock.js';

const MIB = 1024 * 1024;
const CHUNK = 512 * 1024;

test('chunks past the first wait for the rate; no limit (0) never waits', async () => {
  const limited = new RecoveryRateLimiter(() => 10_000);
  // Measured from before the first chunk went: the second goes no sooner than its 10 ms after it. Asking for
  // `waited > 0` failed whenever this process was off the CPU for 10 ms between the two calls (a loaded CI host):
  // those 10 ms were then already past, and the limiter rightly let the chunk go at once.
  const first = performance.now();
  assert.equal(await limited.pause(100), 0);
  const waited = await limited.pause(100);
  const sinceFirst = performance.now() - first;
  assert.ok(waited <= 10, `waited ${waited} ms for the second chunk's 10 ms`);
  // Timers count whole milliseconds and the wait is rounded down: 2 ms of slack.
  assert.ok(sinceFirst >= 8, `the second chunk went ${sinceFirst.toFixed(1)} ms after the first, within its 10 ms`);
  const unlimited = new RecoveryRateLimiter(() => 0);
  assert.equal(await unlimited.pause(1e9), 0);
  assert.equal(await unlimited.pause(1e9), 0);
});

test("the first chunk goes at once, whatever the monotonic clock reads (it counts from the host's boot)", async () => {
  // 10^12 bytes at 100 B/s are 317 years, more than any host has been up: the first chunk used to wait its cost
  // minus the host's uptime (0 stood for "a chunk went at the clock's zero"), and the close test below hung for an
  // hour on a host booted 20 minutes before.
  const limiter = new RecoveryRateLimiter(() => 100);
  assert.equal(await limiter.pause(1e12), 0);
  limiter.close();
});

test("a raised limit applies from the next chunk: no debt at the old rate is left over (Lucene's SimpleRateLimiter)", async () => {
  let rate = 100;
  const limiter = new RecoveryRateLimiter(() => rate);
  // The first chunk goes at once (nothing sent before it); at 100 B/s its 200 bytes are 2 s of the limit.
  assert.equal(await limiter.pause(200), 0);
  rate = 40 * 1024 * 1024;
  // Taken before the call: the limiter counts the chunk as gone no earlier than this.
  const fastAsked = performance.now();
  // The wait the limiter chose, not the wall clock around it: a loaded host can stall this process for longer than
  // any bound that still tells 0 from the 2 s debt.
  const waited = await limiter.pause(200);
  assert.ok(waited < 500, `the next chunk at 40mb/s waited ${waited} ms (the old rate's debt is 2 s)`);
  // Lowered again, the next chunk pays its own cost at the new rate: it goes 100 ms after the previous one went
  // (asking for a wait of at least 50 ms failed when this process was off the CPU for 50 ms between the two calls).
  rate = 1_000;
  const slow = await limiter.pause(100);
  const sinceFast = performance.now() - fastAsked;
  assert.ok(slow <= 100, `waited ${slow} ms for 100 bytes at 1000 B/s`);
  assert.ok(sinceFast >= 98, `the chunk went ${sinceFast.toFixed(1)} ms after the previous one, within its 100 ms at 1000 B/s`);
});

test('close fails every waiting chunk now with node_closed_exception, and every later one', async () => {
  const limiter = new RecoveryRateLimiter(() => 100);
  assert.equal(await limiter.pause(512 * 1024), 0);
  const started = performance.now();
  const waiting = [limiter.pause(512 * 1024), limiter.pause(1)];
  limiter.close();
  for (const wait of waiting) await assert.rejects(wait, (err: { type?: string }) => err.type === 'node_closed_exception');
  assert.ok(performance.now() - started < 1_000, 'the waits ended at once, not after their hours of debt');
  await assert.rejects(limiter.pause(1), (err: { type?: string }) => err.type === 'node_closed_exception');
});

test('on a manual clock: a caller always in time goes at exactly the limit, the waits rounded to whole ms adding up to nothing', async () => {
  const clock = new ManualClock();
  const rate = 40 * MIB;
  const limiter = new RecoveryRateLimiter(() => rate, clock);
  const start = clock.nanos;
  let waited = 0;
  const chunks = 400;
  // Each chunk asks as soon as the last one's turn came (the timer fires exactly at its whole millisecond).
  for (let i = 0; i < chunks; i++) waited += await clock.drive(limiter.pause(CHUNK));
  const elapsedNanos = Number(clock.nanos - start);
  // The first chunk goes at once; each later one pays its own cost: 399 x 12.5 ms. A timer counts whole ms, so the
  // last turn may come up to 1 ms before its exact time, never later, and the ones before it do not add up.
  const ideal = ((chunks - 1) * CHUNK * 1e9) / rate;
  assert.ok(elapsedNanos <= ideal && elapsedNanos > ideal - 1e6, `${elapsedNanos} ns for an ideal ${ideal} ns`);
  const achieved = ((chunks - 1) * CHUNK) / (elapsedNanos / 1e9);
  assert.ok(achieved >= rate && achieved < rate * 1.0003, `${achieved} B/s against ${rate}`);
  // What the limiter says it waited is what the clock moved (less the fractions of a millisecond it rounded off).
  assert.ok(Math.abs(waited - elapsedNanos / 1e6) <= chunks, `waited ${waited} ms, the clock moved ${elapsedNanos / 1e6} ms`);
});

test('on a manual clock: idle time is never banked, a late caller loses only its own lateness', async () => {
  const clock = new ManualClock();
  const limiter = new RecoveryRateLimiter(() => 1000, clock);
  assert.equal(await clock.drive(limiter.pause(100)), 0);
  // Ten idle seconds: the next chunk goes at once, but the one after it still pays its full 100 ms.
  clock.advanceMillis(10_000);
  assert.equal(await clock.drive(limiter.pause(100)), 0);
  const before = clock.millis;
  assert.equal(await clock.drive(limiter.pause(100)), 100);
  assert.equal(clock.millis - before, 100);
  // 30 ms late for a turn (the caller was busy): it goes at once and the next turn counts from then.
  clock.advanceMillis(130);
  assert.equal(await clock.drive(limiter.pause(100)), 0);
  clock.advanceMillis(40);
  assert.equal(await clock.drive(limiter.pause(100)), 60);
  // A caller that asks ahead of its turn (a turn still running) keeps the rate exactly: 100 ms, then 100 ms more.
  const start = clock.millis;
  const first = limiter.pause(100);
  const second = limiter.pause(100);
  assert.deepEqual(await clock.drive(Promise.all([first, second])), [100, 200]);
  assert.equal(clock.millis - start, 200);
});

test("the minimum pause is Lucene's: 5 ms at the rate in force, none without a limit", () => {
  let rate = 40 * MIB;
  const limiter = new RecoveryRateLimiter(() => rate);
  assert.equal(limiter.minPauseCheckBytes(), 209_715);
  rate = 512 * 1024;
  assert.equal(limiter.minPauseCheckBytes(), 2621);
  rate = 0;
  assert.equal(limiter.minPauseCheckBytes(), 0);
});
