/**
 * FixedDelayTask: the next run starts a delay after the previous one ended (ES's AbstractAsyncTask), so a run
 * slower than the delay is never followed by runs queued while it ran, and runs never overlap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { FixedDelayTask } from '../../../src/common/fixed-delay-task.js';
import { eventually } from '../../helpers/eventually.js';

test('a run slower than the delay is followed by the delay, not by the ticks that fell during it', async () => {
  const runs: Array<{ start: number; end: number }> = [];
  let running = 0;
  let overlaps = 0;
  const task = new FixedDelayTask(async () => {
    // Counted, not asserted here: the task swallows a run's failure, so an assert in the run would never fail the test.
    if (++running > 1) overlaps++;
    const start = performance.now();
    await sleep(150);
    runs.push({ start, end: performance.now() });
    running--;
  });
  task.start(40);
  // Three runs ended, however long that takes: a fixed sleep of 700 ms counted the runs in it, and a loaded CI host
  // that stalled this process for a few hundred ms let fewer than two runs in (the count failed, not the schedule).
  await eventually(() => runs.length >= 3, 'three runs ended');
  task.close();
  assert.equal(overlaps, 0, 'runs never overlap');
  // Each run starts the delay after the previous one ended; a fixed-rate timer of 40 ms queues ~4 ticks during a
  // 150 ms run, and the next run follows at once.
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
  // A second run comes, however loaded the host: a fixed 120 ms sleep saw one run when the process stalled for
  // more than 110 ms after the first (the sleep's timer and the next run's fell due in the same turn).
  await eventually(() => runs >= 2, 'a run after the failing one');
  task.close();
});
