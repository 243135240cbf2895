/** Write admission: FIFO order across slices and throttling, and the event loop gets turns in between. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WriteAdmission } from '../../../src/engine/util/write-admission.js';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin */
  }
}

test('steps run in submission order, sliced so timers run in between', async () => {
  const admission = new WriteAdmission(5, () => undefined);
  const order: number[] = [];
  let timerTurns = 0;
  const timer = setInterval(() => timerTurns++, 1);
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      Promise.resolve(
        admission.submit(() => {
          busy(0.2);
          order.push(i);
          return i * 2;
        }),
      ),
    ),
  );
  clearInterval(timer);
  assert.deepEqual(order, order.map((_, i) => i));
  assert.deepEqual(results, results.map((_, i) => i * 2));
  assert.ok(timerTurns >= 3, `the event loop ran timers ${timerTurns} times during 40 ms of steps`);
});

test('a throttle holds new and queued steps, in order, until released; failAll rejects what is queued', async () => {
  const admission = new WriteAdmission(5, () => undefined);
  const order: string[] = [];
  admission.throttle();
  const first = Promise.resolve(admission.submit(() => order.push('a')));
  const second = Promise.resolve(admission.submit(() => order.push('b')));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(order, []);
  admission.release();
  await Promise.all([first, second]);
  assert.deepEqual(order, ['a', 'b']);
  admission.throttle();
  const doomed = Promise.resolve(admission.submit(() => 'never'));
  admission.failAll(new Error('closed'));
  await assert.rejects(doomed, /closed/);
});

test('a step that throws rejects only its own submission', async () => {
  const admission = new WriteAdmission(0, () => undefined);
  const outcomes = await Promise.allSettled([
    Promise.resolve(admission.submit(() => 1)),
    Promise.resolve(admission.submit(() => {
      throw new Error('bad');
    })),
    Promise.resolve(admission.submit(() => 3)),
  ]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled']);
});

test('a batch takes one place in the queue: its steps run in order between earlier and later submissions, sliced', async () => {
  const admission = new WriteAdmission(2, () => undefined);
  const order: string[] = [];
  let timerTurns = 0;
  const timer = setInterval(() => timerTurns++, 1);
  admission.throttle();
  const before = Promise.resolve(admission.submit(() => order.push('before')));
  const batch = Promise.resolve(
    admission.submitBatch(100, (i) => {
      busy(0.2);
      order.push(`b${i}`);
    }),
  );
  const after = Promise.resolve(admission.submit(() => order.push('after')));
  admission.release();
  await Promise.all([before, batch, after]);
  clearInterval(timer);
  assert.deepEqual(order, ['before', ...Array.from({ length: 100 }, (_, i) => `b${i}`), 'after']);
  assert.ok(timerTurns >= 3, `the event loop ran timers ${timerTurns} times during 20 ms of batch steps`);
});

test('a batch that fits the slice runs at once; a failing check rejects the rest of a queued batch', async () => {
  const admission = new WriteAdmission(1000, () => undefined);
  const ran: number[] = [];
  assert.equal(admission.submitBatch(3, (i) => ran.push(i)), undefined);
  assert.deepEqual(ran, [0, 1, 2]);

  let open = true;
  const closing = new WriteAdmission(0, () => {
    if (!open) throw new Error('closed');
  });
  const steps: number[] = [];
  const queued = Promise.resolve(
    closing.submitBatch(50, (i) => {
      steps.push(i);
      if (i === 1) open = false;
    }),
  );
  await assert.rejects(queued, /closed/);
  assert.deepEqual(steps, [0, 1]);
});

test('an empty batch resolves only after the steps queued before it ran', async () => {
  const admission = new WriteAdmission(5, () => undefined);
  const order: string[] = [];
  assert.equal(admission.submitBatch(0, () => order.push('never')), undefined);
  admission.throttle();
  const first = Promise.resolve(admission.submitBatch(2, (i) => order.push(`a${i}`)));
  const empty = Promise.resolve(admission.submitBatch(0, () => order.push('never'))).then(() => order.push('empty done'));
  admission.release();
  await Promise.all([first, empty]);
  assert.deepEqual(order, ['a0', 'a1', 'empty done']);
});

test('a step that throws a barrier keeps its place: nothing after it runs until the barrier settles, then it runs again', async () => {
  const { AdmissionBarrier } = await import('../../../src/engine/util/write-admission.js');
  const admission = new WriteAdmission(5, () => undefined);
  const order: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let attempts = 0;
  const batch = Promise.resolve(
    admission.submitBatch(3, (i) => {
      if (i === 1 && attempts++ === 0) throw new AdmissionBarrier(gate);
      order.push(`batch-${i}`);
    }),
  );
  const later = Promise.resolve(admission.submit(() => order.push('later')));
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(order, ['batch-0'], 'the barrier holds its own batch and everything submitted after it');
  release();
  await Promise.all([batch, later]);
  assert.deepEqual(order, ['batch-0', 'batch-1', 'batch-2', 'later']);
  assert.equal(attempts, 2);
  // A barrier thrown by a single step that would have run at once queues it the same way.
  let single = 0;
  const result = await admission.submit(() => {
    if (single++ === 0) throw new AdmissionBarrier(Promise.resolve());
    return 'ran';
  });
  assert.equal(result, 'ran');
});
