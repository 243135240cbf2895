/**
 * Admission of write steps (the synchronous part of index/delete). Each step is short, but a caller that
 * issues thousands at once (a bulk request) would otherwise hold the event loop for all of them. Here a
 * step runs at once while the current slice of the event loop has time left and nothing is queued;
 * otherwise it joins a FIFO queue that a pump drains slice by slice (waiting for a turn of the shared loop
 * budget between slices, common/loop-turns.ts), and that a throttle can pause while indexing outruns the writing of segments. Steps run in
 * exactly the order they were submitted, which is what keeps operations on one id in call order.
 * A batch (submitBatch) is a run of steps that takes one place in the queue and one promise, not one each.
 * A step that cannot run yet throws an AdmissionBarrier: it keeps its place at the head, nothing after it
 * runs until the barrier's promise settles, and then it runs again (the engine uses this to make its version
 * map safe with a refresh before a lookup, without letting later writes overtake the one that waits).
 */
import { performance } from 'node:perf_hooks';
import { nextTurn } from '../../common/loop-turns.js';

/** Thrown by a step that must wait for `until` before it can run (see the contract above). */
export class AdmissionBarrier {
  constructor(readonly until: Promise<unknown>) {}
}

interface QueuedStep {
  run(): void;
  fail(err: unknown): void;
  /** For a batch: whether steps are left after the one just run (it then keeps its place at the head). */
  remaining?(): boolean;
}

export class WriteAdmission {
  private readonly queue: QueuedStep[] = [];
  private head = 0;
  private sliceOpen = false;
  private sliceStart = 0;
  private pumpScheduled = false;
  private throttled = false;
  /** A step at the head waits for a barrier: nothing runs until it settles. */
  private blocked = false;

  constructor(
    private readonly sliceMs: number,
    /** Checked before each queued step: an engine closed meanwhile fails the step instead. */
    private readonly check: () => void,
  ) {}

  private get queued(): number {
    return this.queue.length - this.head;
  }

  /** Starts a slice if none is open in this turn of the event loop. */
  private openSlice(): void {
    if (this.sliceOpen) return;
    this.sliceOpen = true;
    this.sliceStart = performance.now();
    // The next turn of the loop starts a fresh slice.
    setImmediate(() => (this.sliceOpen = false));
  }

  /** Runs `step` now or in its turn; the result (or error) is delivered either way. */
  submit<T>(step: () => T): T | Promise<T> {
    let barrier: AdmissionBarrier | undefined;
    if (this.queued === 0 && !this.throttled && !this.blocked) {
      this.openSlice();
      if (performance.now() - this.sliceStart <= this.sliceMs) {
        try {
          return step();
        } catch (err) {
          if (!(err instanceof AdmissionBarrier)) throw err;
          barrier = err;
        }
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        run: () => resolve(step()),
        fail: reject,
      });
      if (barrier !== undefined) this.block(barrier);
      else this.schedulePump();
    });
  }

  /**
   * Runs `step(0)` .. `step(count - 1)` in order, as if each had been submitted on its own at this moment
   * (slices, throttle and the open-check apply between steps); resolves once all ran. A step that throws
   * ends the batch: the step must catch what it wants to survive. Synchronous when the whole batch fits in
   * the current slice.
   */
  submitBatch(count: number, step: (index: number) => void): void | Promise<void> {
    let next = 0;
    let barrier: AdmissionBarrier | undefined;
    if (this.queued === 0 && !this.throttled && !this.blocked) {
      this.openSlice();
      try {
        while (next < count && performance.now() - this.sliceStart <= this.sliceMs) {
          step(next);
          next++;
        }
      } catch (err) {
        if (!(err instanceof AdmissionBarrier)) throw err;
        barrier = err;
      }
      if (next === count) return;
    }
    return new Promise<void>((resolve, reject) => {
      // One queue entry that stays at the head until its last step ran (see pump).
      const entry: QueuedStep & { remaining(): boolean } = {
        run: () => {
          // An empty batch still takes its turn: it resolves after everything queued before it ran.
          if (next < count) {
            step(next);
            next++;
          }
          if (next >= count) resolve();
        },
        fail: reject,
        remaining: () => next < count,
      };
      this.queue.push(entry);
      if (barrier !== undefined) this.block(barrier);
      else this.schedulePump();
    });
  }

  /** Holds the queue until the barrier settles (either way: a failed engine fails the steps in check()). */
  private block(barrier: AdmissionBarrier): void {
    this.blocked = true;
    const unblock = (): void => {
      this.blocked = false;
      this.schedulePump();
    };
    barrier.until.then(unblock, unblock);
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.throttled || this.blocked) return;
    this.pumpScheduled = true;
    void nextTurn().then(() => this.pump());
  }

  private pump(): void {
    this.pumpScheduled = false;
    // The turn budget let the pump in: its slice starts now, whatever ran earlier in this turn.
    this.openSlice();
    this.sliceStart = performance.now();
    // At least one step per turn, however late in the slice: the queue always makes progress.
    let ran = 0;
    while (this.queued > 0) {
      if (this.throttled || this.blocked) return;
      if (ran > 0 && performance.now() - this.sliceStart > this.sliceMs) {
        this.schedulePump();
        return;
      }
      ran++;
      const step = this.queue[this.head]!;
      try {
        this.check();
        step.run();
      } catch (err) {
        if (err instanceof AdmissionBarrier) {
          this.block(err);
          return;
        }
        step.fail(err);
        this.dequeueHead();
        continue;
      }
      if (step.remaining === undefined || !step.remaining()) this.dequeueHead();
    }
  }

  private dequeueHead(): void {
    this.queue[this.head++] = undefined as unknown as QueuedStep;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  /** New and queued steps wait until release() (indexing throttle). */
  throttle(): void {
    this.throttled = true;
  }

  release(): void {
    if (!this.throttled) return;
    this.throttled = false;
    this.schedulePump();
  }

  get isThrottled(): boolean {
    return this.throttled;
  }

  /** Fails every queued step (the engine closed or failed). */
  failAll(err: unknown): void {
    const pending = this.queue.slice(this.head);
    this.queue.length = 0;
    this.head = 0;
    for (const step of pending) step.fail(err);
  }
}
