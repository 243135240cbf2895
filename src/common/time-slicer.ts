/**
 * Cooperative slicing for work on the event loop: call `pause()` between small steps; it yields (to the shared
 * turn budget of loop-turns.ts, so I/O such as the operator's requests is served first) only once the loop has
 * been held for a few milliseconds, so fine-grained calls cost next to nothing.
 */
import { nextTurn } from './loop-turns.js';

/** Milliseconds of work between two yields (the same budget as a search phase's slices). */
export const SLICE_MILLIS = 5;

export class TimeSlicer {
  private lastYield = performance.now();

  constructor(private readonly check: () => void = () => undefined) {}

  /** Runs `check` (a cancellation test), and yields the loop when a slice's time is up. */
  pause = async (): Promise<void> => {
    this.check();
    if (performance.now() - this.lastYield < SLICE_MILLIS) return;
    await nextTurn();
    this.lastYield = performance.now();
    this.check();
  };
}
