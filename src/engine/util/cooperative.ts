/**
 * Cooperative slicing of long synchronous work (writing a segment, merging): the worker calls
 * `maybeYield()` between small units and gives the event loop back once its time slice is used up, so
 * requests (the operational endpoints above all) are answered within a few milliseconds even while a
 * large merge runs on the same thread.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** Default slice: short enough that a request waits at most this long behind background work. */
export const DEFAULT_SLICE_MS = 4;

export class Yielder {
  private sliceStart = performance.now();
  private checks = 0;

  constructor(
    private readonly sliceMs = DEFAULT_SLICE_MS,
    /** Checked at every yield: a merge that is aborted stops at its next slice boundary. */
    private readonly abortCheck?: () => void,
  ) {}

  /**
   * Cheap enough to call per unit of work: the clock is read only every `every` calls.
   * Resolves at once (synchronously continuing callers pay one microtask) unless the slice is used up.
   */
  shouldYield(every = 1): boolean {
    if (++this.checks < every) return false;
    this.checks = 0;
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  async yield(): Promise<void> {
    await yieldToEventLoop();
    this.abortCheck?.();
    this.sliceStart = performance.now();
  }

  /** Yields when the slice is used up; `every` spaces out the clock reads for very small units. */
  async maybeYield(every = 1): Promise<void> {
    if (this.shouldYield(every)) await this.yield();
  }
}
