/**
 * How a shard phase stays interruptible on one event loop: every block of documents it checks the task's
 * cancellation and the request's `timeout`, and when it has held the loop for a few milliseconds it yields,
 * so a `_tasks/<id>/_cancel`, a client disconnect or the operational endpoints get served while a long
 * search runs. Yields wait for a turn of the shared loop budget (common/loop-turns.ts), so several searches
 * together hold the loop no longer between two polls for I/O than one does. A cancelled search therefore stops within one block of work; a timed-out one stops
 * collecting and returns what it has (ES's partial results with `timed_out: true`).
 */

/** Thrown when the request's `timeout` has passed (ES's TimeExceededException); the phase keeps its partial results. */
export class TimeExceeded extends Error {
  constructor() {
    super('Time exceeded');
    this.name = 'TimeExceeded';
  }
}

import { nextTurn } from '../../common/loop-turns.js';
import { SLICE_MILLIS } from '../../common/time-slicer.js';

export class PhaseControl {
  private lastYield = performance.now();

  /**
   * @param checkCancelled throws (task_cancelled_exception) when the task was cancelled
   * @param deadline `performance.now()` value after which the search has timed out, if it has a timeout
   */
  constructor(
    private readonly checkCancelled: () => void = () => undefined,
    private readonly deadline: number | undefined = undefined,
  ) {}

  /** Cancellation first (it fails the shard), then the timeout (it ends collection). */
  check(): void {
    this.checkCancelled();
    if (this.deadline !== undefined && performance.now() > this.deadline) throw new TimeExceeded();
  }

  /** Whether the phase has held the event loop long enough to owe a yield. */
  get shouldYield(): boolean {
    return performance.now() - this.lastYield > SLICE_MILLIS;
  }

  /** Lets other work run, then checks again (a cancel may have arrived meanwhile). */
  async yield(): Promise<void> {
    await nextTurn();
    this.lastYield = performance.now();
    this.check();
  }

  /**
   * Cancellation, plus a yield when one is owed, but no timeout: what query building and rewriting call between
   * slices (the timeout ends collection with partial results; there are none before collection starts).
   */
  async pause(): Promise<void> {
    this.checkCancelled();
    if (!this.shouldYield) return;
    await nextTurn();
    this.lastYield = performance.now();
    this.checkCancelled();
  }

  /** check(), plus a yield when one is owed: what a phase calls between blocks of work. */
  async checkpoint(): Promise<void> {
    this.check();
    if (this.shouldYield) await this.yield();
  }
}
