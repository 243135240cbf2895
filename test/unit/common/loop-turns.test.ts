/**
 * The shared turn budget (decision 0015): however many slicers are in flight, one turn of the event loop runs
 * only about TURN_BUDGET_MILLIS of their slices before it polls for I/O again; they take turns in order; and a
 * slicer that stops calling nextTurn() does not stall the others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { nextTurn, queueTurn, TURN_BUDGET_MILLIS, waitingForTurn } from '../../../src/common/loop-turns.js';

function busy(millis: number): void {
  const until = performance.now() + millis;
  while (performance.now() < until);
}

test('four slicers of 3/5 of the budget run at most two slices between two turns of the loop, not one slice each', async () => {
  const SLICE = (TURN_BUDGET_MILLIS * 3) / 5;
  let slicesSinceTurn = 0;
  let mostBetweenTurns = 0;
  let stop = false;
  // A timer fires once per turn of the loop (timers phase), as the poll for an operator's request comes once per turn.
  const watch = (): void => {
    mostBetweenTurns = Math.max(mostBetweenTurns, slicesSinceTurn);
    slicesSinceTurn = 0;
    if (!stop) setTimeout(watch, 0);
  };
  setTimeout(watch, 0);
  const slicer = async (): Promise<number> => {
    // Each starts by waiting its turn, as a search's first slice waits behind those already running.
    await nextTurn();
    let slices = 0;
    for (let i = 0; i < 20; i++) {
      busy(SLICE);
      slices++;
      slicesSinceTurn++;
      await nextTurn();
    }
    return slices;
  };
  const done = await Promise.all([slicer(), slicer(), slicer(), slicer()]);
  stop = true;
  assert.deepEqual(done, [20, 20, 20, 20], 'every slicer finishes');
  // With a setImmediate per slicer, every turn ran all four slices (20 ms) before the loop polled again.
  assert.ok(mostBetweenTurns <= 2, `at most two ${SLICE} ms slices in a turn (budget ${TURN_BUDGET_MILLIS} ms), saw ${mostBetweenTurns}`);
  assert.equal(waitingForTurn(), 0);
});

test('slicers take turns in order', async () => {
  const order: string[] = [];
  const slicer = async (name: string): Promise<void> => {
    for (let i = 0; i < 3; i++) {
      busy(TURN_BUDGET_MILLIS + 1);
      order.push(name);
      await nextTurn();
    }
  };
  await Promise.all([slicer('a'), slicer('b'), slicer('c')]);
  assert.deepEqual(order, ['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
});

test('a slicer that ends its slice without nextTurn() (it awaits I/O or finishes) does not stall those waiting', async () => {
  let resumed = 0;
  const waiters = Array.from({ length: 3 }, async () => {
    busy(TURN_BUDGET_MILLIS + 1);
    await nextTurn();
    resumed++;
    // Ends here: nobody calls nextTurn() to hand the turn on; the pump must.
  });
  await Promise.all(waiters);
  assert.equal(resumed, 3);
});

test('queueTurn waits for a later turn even when this one has budget left (nextTurn would go on at once)', async () => {
  await nextTurn();
  // Fresh in a turn: nextTurn resumes in a microtask, ahead of anything the loop has queued.
  const order: string[] = [];
  setImmediate(() => order.push('queued before'));
  await nextTurn();
  order.push('nextTurn');
  // queueTurn goes behind what the loop already holds, as a search phase started from an I/O callback now does.
  setImmediate(() => order.push('queued before again'));
  await queueTurn();
  order.push('queueTurn');
  assert.deepEqual(order, ['nextTurn', 'queued before', 'queued before again', 'queueTurn']);
  assert.equal(waitingForTurn(), 0);
});
