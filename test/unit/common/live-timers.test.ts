/**
 * The exit watchdog's list of what holds a shut-down process (common/live-timers.ts): a pending referenced timer is
 * named with its delay and callback, and with the stack that created it once creation is traced; an unreferenced or
 * cleared one is not listed (it holds nothing).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeLiveTimers, liveTimers, traceTimerCreation } from '../../../src/common/live-timers.js';

function waitForSomethingThatNeverComes(): NodeJS.Timeout {
  return setTimeout(() => 'never-comes', 43_210);
}

test('a pending timer is listed with its delay, callback and creating stack; unreferenced and cleared ones are not', () => {
  const before = setTimeout(function createdBeforeTracing() {}, 54_321);
  traceTimerCreation();
  const held = waitForSomethingThatNeverComes();
  const unreferenced = setTimeout(() => undefined, 65_432).unref();
  const cleared = setTimeout(() => undefined, 76_543);
  clearTimeout(cleared);
  const interval = setInterval(() => undefined, 87_654);
  try {
    const timers = liveTimers();
    const traced = timers.find((timer) => timer.delayMillis === 43_210);
    assert.ok(traced !== undefined, JSON.stringify(timers));
    assert.equal(traced.repeats, false);
    assert.match(traced.callback, /never-comes/);
    assert.match(traced.createdAt ?? '', /waitForSomethingThatNeverComes/);
    const older = timers.find((timer) => timer.delayMillis === 54_321);
    assert.ok(older !== undefined && older.createdAt === undefined, JSON.stringify(older));
    assert.match(older.callback, /createdBeforeTracing/);
    assert.equal(timers.find((timer) => timer.delayMillis === 87_654)?.repeats, true);
    assert.equal(timers.some((timer) => timer.delayMillis === 65_432 || timer.delayMillis === 76_543), false, JSON.stringify(timers));
    assert.match(describeLiveTimers(), /timeout of 43210 ms, callback `\(\) => 'never-comes'`, created at .*waitForSomethingThatNeverComes/);
  } finally {
    clearTimeout(before);
    clearTimeout(held);
    clearTimeout(unreferenced);
    clearInterval(interval);
  }
});
