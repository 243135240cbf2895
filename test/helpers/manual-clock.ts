/**
 * A clock that moves only when a test moves it, for code that takes a LimiterClock (the recovery rate limiter):
 * the arithmetic of waits is tested exactly, whatever the host's load. `drive` runs an async task to its end,
 * letting every promise chain settle before each move to the next timer.
 */
import type { LimiterClock } from '../../src/indices/recovery/rate-limiter.js';

interface Timer {
  readonly at: bigint;
  readonly order: number;
  readonly callback: () => void;
}

export class ManualClock implements LimiterClock {
  nanos = 1_000_000_000_000n;
  private timers: Timer[] = [];
  private created = 0;

  nowNanos(): bigint {
    return this.nanos;
  }

  get millis(): number {
    return Number(this.nanos) / 1e6;
  }

  setTimer(millis: number, callback: () => void): unknown {
    const timer: Timer = { at: this.nanos + BigInt(Math.max(0, Math.round(millis))) * 1_000_000n, order: this.created++, callback };
    this.timers.push(timer);
    return timer;
  }

  clearTimer(timer: unknown): void {
    this.timers = this.timers.filter((t) => t !== timer);
  }

  advanceMillis(millis: number): void {
    this.nanos += BigInt(Math.round(millis * 1e6));
  }

  /** Moves to the earliest timer and fires it; false when none is set. */
  fireNext(): boolean {
    if (this.timers.length === 0) return false;
    const next = this.timers.reduce((a, b) => (b.at < a.at || (b.at === a.at && b.order < a.order) ? b : a));
    this.timers = this.timers.filter((t) => t !== next);
    if (next.at > this.nanos) this.nanos = next.at;
    next.callback();
    return true;
  }

  /** Runs `task` to its end, firing timers whenever nothing else can run. */
  async drive<T>(task: Promise<T>): Promise<T> {
    let settled = false;
    task.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (;;) {
      await settle();
      if (settled) return task;
      if (!this.fireNext()) {
        await settle();
        if (!settled) throw new Error('the task waits for something no timer will bring');
      }
    }
  }
}

/** Every promise chain that can run now has run (fs work is not involved: the tests' reads resolve at once). */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}
