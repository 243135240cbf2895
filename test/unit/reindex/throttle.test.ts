/** ES's throttle arithmetic (WorkerBulkByScrollTaskState) and rethrottle rules, on a hand-driven clock. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../src/common/errors.js';
import {
  MAX_THROTTLE_WAIT_NANOS,
  parseRequestsPerSecond,
  perfectlyThrottledBatchNanos,
  rescaledDelayNanos,
  Throttle,
  throttleWaitNanos,
  type ThrottleClock,
} from '../../../src/reindex/index.js';

/** A clock whose time moves only when the test says so; timers fire as it passes them. */
class ManualClock implements ThrottleClock {
  private now = 0;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  nowNanos(): number {
    return this.now;
  }
  schedule(fn: () => void, millis: number): () => void {
    const timer = { at: this.now + millis * 1e6, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  }
  advanceMillis(millis: number): void {
    this.now += millis * 1e6;
    for (const timer of this.timers.filter((t) => t.live && t.at <= this.now)) {
      timer.live = false;
      timer.fn();
    }
  }
  get pendingTimers(): number {
    return this.timers.filter((t) => t.live).length;
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('a batch should take size / rate seconds; unlimited waits nothing; the wait is capped at an hour', () => {
  assert.equal(perfectlyThrottledBatchNanos(100, 50), 0.5e9);
  assert.equal(perfectlyThrottledBatchNanos(Number.POSITIVE_INFINITY, 1000), 0);
  assert.equal(throttleWaitNanos(0.5, 10), 20e9);
  assert.equal(throttleWaitNanos(1, 0), 0);
  assert.equal(throttleWaitNanos(0.001, 1_000_000), MAX_THROTTLE_WAIT_NANOS);
});

test('rescaling a pending wait: remaining * old / new, rounded; nothing left or unlimited gives 0', () => {
  assert.equal(rescaledDelayNanos(1_000_000, 10, 20), 500_000);
  assert.equal(rescaledDelayNanos(999, 3, 7), Math.round((999 * 3) / 7));
  assert.equal(rescaledDelayNanos(-5, 10, 20), 0);
  assert.equal(rescaledDelayNanos(1e9, 10, Number.POSITIVE_INFINITY), 0);
});

test('requests_per_second: a float > 0, -1 for unlimited, anything else is ES\'s error', () => {
  assert.equal(parseRequestsPerSecond(undefined), undefined);
  assert.equal(parseRequestsPerSecond('-1'), Number.POSITIVE_INFINITY);
  assert.equal(parseRequestsPerSecond('12.5'), 12.5);
  for (const bad of ['0', '-2', 'abc', '']) {
    assert.throws(() => parseRequestsPerSecond(bad), (err: unknown) => err instanceof EsError && err.reason === '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.');
  }
});

test('a wait counts into throttled when it ends and shows as throttled_until while pending', async () => {
  const clock = new ManualClock();
  const throttle = new Throttle(10, clock);
  let done = false;
  void throttle.delayAfter(5).then(() => (done = true));
  assert.equal(throttle.throttledUntilNanos, 0.5e9);
  clock.advanceMillis(200);
  assert.equal(throttle.throttledUntilNanos, 0.3e9);
  assert.equal(throttle.throttledNanos, 0);
  clock.advanceMillis(300);
  await settle();
  assert.equal(done, true);
  assert.equal(throttle.throttledNanos, 0.5e9);
  assert.equal(throttle.throttledUntilNanos, 0);
});

test('rethrottling faster reschedules the pending wait at once, scaled by old/new rate', async () => {
  const clock = new ManualClock();
  const throttle = new Throttle(1, clock);
  let done = false;
  void throttle.delayAfter(10).then(() => (done = true)); // 10 s
  clock.advanceMillis(2000); // 8 s left
  throttle.rethrottle(4); // 8 s * 1 / 4 = 2 s
  assert.equal(throttle.requestsPerSecond, 4);
  assert.equal(throttle.throttledUntilNanos, 2e9);
  clock.advanceMillis(2000);
  await settle();
  assert.equal(done, true);
  // Only the wait that ran counts (ES adds the delay of the scheduled run).
  assert.equal(throttle.throttledNanos, 2e9);
  assert.equal(clock.pendingTimers, 0);
});

test('rethrottling slower leaves the pending wait alone and applies from the next batch', async () => {
  const clock = new ManualClock();
  const throttle = new Throttle(10, clock);
  let done = false;
  void throttle.delayAfter(10).then(() => (done = true)); // 1 s
  throttle.rethrottle(1);
  assert.equal(throttle.throttledUntilNanos, 1e9);
  clock.advanceMillis(1000);
  await settle();
  assert.equal(done, true);
  assert.equal(throttle.waitNanosAfter(10), 10e9);
});

test('rethrottling to unlimited wakes the pending wait at once', async () => {
  const clock = new ManualClock();
  const throttle = new Throttle(0.01, clock);
  let done = false;
  void throttle.delayAfter(100).then(() => (done = true));
  throttle.rethrottle(Number.POSITIVE_INFINITY);
  clock.advanceMillis(0);
  await settle();
  assert.equal(done, true);
  assert.equal(throttle.requestsPerSecond, Number.POSITIVE_INFINITY);
});

test('a cancel is a rethrottle to unlimited (ES handleCancel): the wait ends at once and is not counted as throttled', async () => {
  const clock = new ManualClock();
  const throttle = new Throttle(10, clock);
  let done = false;
  void throttle.delayAfter(100).then(() => (done = true)); // 10 s
  clock.advanceMillis(250);
  throttle.rethrottle(Number.POSITIVE_INFINITY);
  clock.advanceMillis(0);
  await settle();
  assert.equal(done, true);
  assert.equal(throttle.requestsPerSecond, Number.POSITIVE_INFINITY);
  assert.equal(throttle.throttledUntilNanos, 0);
  // ES reschedules the delayed batch with a zero delay and only that delay is added: the 250 ms are not counted.
  assert.equal(throttle.throttledNanos, 0);
  assert.equal(clock.pendingTimers, 0);
});
