/**
 * FixedDelayTask: the next run starts a delay after the previous one ended (ES's AbstractAsyncTask), so a run
 * slower than the delay is never followed by runs queued while it ran, and runs never overlap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { FixedDelayTask } from '../../../src/common/fixed-delay-task.js';

test('a run slower than the delay is followed by the delay, not by the ticks that fell during it', async () => {
  const runs: Array<{ start: number; end: number }> = [];
  let running = 0;
  const task = new FixedDelayTask(async () => {
    running++;
    assert.equal(running, 1, 'runs never overlap');
    const start = performance.now();
    await sleep(150);
    runs.push({ start, end: performance.now() });
    running--;
  });
  task.start(40);
  await sleep(700);
  task.close();
  // 40 + (150 + 40) per run: at most 4 runs in 700 ms (a fixed-rate timer of 40 ms queues ~17 ticks meanwhile).
  assert.ok(runs.length >= 2 && runs.length <= 4, `${runs.length} runs`);
  for (let i = 1; i < runs.length; i++) {
    const pause = runs[i]!.start - runs[i - 1]!.end;
    assert.ok(pause >= 39, `run ${i} started ${pause.toFixed(1)} ms after the previous one ended`);
  }
});

test('a new delay given during a run applies from that run on; close stops the schedule', async () => {
  const starts: number[] = [];
  let ended = 0;
  const task = new FixedDelayTask(async () => {
    starts.push(performance.now());
    await sleep(60);
    ended = performance.now();
  });
  task.start(10);
  await sleep(30);
  assert.equal(starts.length, 1);
  // Under way: the next run waits the new delay after this one ends, and only one timer is armed.
  task.start(200);
  await sleep(150);
  assert.equal(starts.length, 1, 'no run within the new delay');
  await sleep(200);
  assert.equal(starts.length, 2);
  assert.ok(starts[1]! - ended >= 199 || starts[1]! - starts[0]! >= 259, 'the second run came after the new delay');
  task.close();
  const count = starts.length;
  await sleep(300);
  assert.equal(starts.length, count, 'no run after close');
});

test('a failing run does not end the schedule', async () => {
  let runs = 0;
  const task = new FixedDelayTask(async () => {
    runs++;
    throw new Error('boom');
  });
  task.start(10);
  await sleep(120);
  task.close();
  assert.ok(runs >= 2, `${runs} runs`);
});
