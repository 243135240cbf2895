/**
 * `requests_per_second` throttling, as ES's WorkerBulkByScrollTaskState: before each bulk the worker waits
 * `lastBatchSize / requestsPerSecond` seconds (at most an hour), measured from when the scroll page arrived.
 * `rethrottle` follows ES's rules: a faster rate reschedules the pending wait at once, scaled by
 * old/new rate; a slower one leaves the pending wait alone and applies from the next batch (the scroll
 * context's keep-alive was extended for the wait already planned). The time actually waited is added to
 * `throttled` when a wait ends; `throttledUntil` is what is left of the pending wait.
 */
import { reindexErrors } from '../common/errors.js';

const NANOS_PER_SECOND = 1_000_000_000;
const NANOS_PER_MILLI = 1_000_000;
/** ES's MAX_THROTTLE_WAIT_TIME. */
export const MAX_THROTTLE_WAIT_NANOS = 3600 * NANOS_PER_SECOND;

/** Time and timers, injectable so the arithmetic is testable without waiting. */
export interface ThrottleClock {
  nowNanos(): number;
  /** Runs `fn` after `millis`; the returned function cancels it. */
  schedule(fn: () => void, millis: number): () => void;
}

export const SYSTEM_CLOCK: ThrottleClock = {
  nowNanos: () => Number(process.hrtime.bigint()),
  schedule: (fn, millis) => {
    const timer = setTimeout(fn, millis);
    return () => clearTimeout(timer);
  },
};

/** ES's `[requests_per_second]` parameter: a float > 0, or -1 for unlimited (Infinity). */
export function parseRequestsPerSecond(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (Number.isNaN(value)) throw reindexErrors.requestsPerSecond();
  if (value === -1) return Number.POSITIVE_INFINITY;
  if (value <= 0) throw reindexErrors.requestsPerSecond();
  return value;
}

/** How long a batch of `batchSize` requests should take at `requestsPerSecond`, in nanoseconds. */
export function perfectlyThrottledBatchNanos(requestsPerSecond: number, batchSize: number): number {
  if (requestsPerSecond === Number.POSITIVE_INFINITY) return 0;
  return (batchSize / requestsPerSecond) * NANOS_PER_SECOND;
}

/** ES's throttleWaitTime: the wait before the next batch, capped at an hour. */
export function throttleWaitNanos(requestsPerSecond: number, batchSize: number): number {
  return Math.min(MAX_THROTTLE_WAIT_NANOS, Math.max(0, Math.floor(perfectlyThrottledBatchNanos(requestsPerSecond, batchSize))));
}

/** DelayedPrepareBulkRequest.newDelay: the remaining wait scaled to the new rate. */
export function rescaledDelayNanos(remainingNanos: number, scheduledRate: number, newRate: number): number {
  if (remainingNanos < 0 || newRate === Number.POSITIVE_INFINITY) return 0;
  return Math.round((remainingNanos * scheduledRate) / newRate);
}

interface PendingWait {
  /** The rate in force when the wait was first planned; ES compares a rethrottle with it. */
  readonly scheduledRate: number;
  readonly delayNanos: number;
  readonly deadlineNanos: number;
  readonly cancelTimer: () => void;
  readonly resolve: () => void;
}

export class Throttle {
  private rate: number;
  private throttledTotalNanos = 0;
  private pending: PendingWait | undefined;

  constructor(requestsPerSecond: number, private readonly clock: ThrottleClock = SYSTEM_CLOCK) {
    if (!(requestsPerSecond > 0)) throw new RangeError(`requests per second must be more than 0 but was [${requestsPerSecond}]`);
    this.rate = requestsPerSecond;
  }

  get requestsPerSecond(): number {
    return this.rate;
  }

  get throttledNanos(): number {
    return this.throttledTotalNanos;
  }

  /** What is left of the pending wait (0 when none). */
  get throttledUntilNanos(): number {
    if (this.pending === undefined) return 0;
    return Math.max(0, this.pending.deadlineNanos - this.clock.nowNanos());
  }

  /** The wait the next batch would get after one of `batchSize` requests (also the scroll keep-alive extension). */
  waitNanosAfter(batchSize: number): number {
    return throttleWaitNanos(this.rate, batchSize);
  }

  /** Waits before preparing the next bulk, after a batch of `lastBatchSize` requests. */
  delayAfter(lastBatchSize: number): Promise<void> {
    const delayNanos = this.waitNanosAfter(lastBatchSize);
    return new Promise((resolve) => this.schedule(this.rate, delayNanos, resolve));
  }

  /** Applies a new rate (ES's rethrottle). */
  rethrottle(newRequestsPerSecond: number): void {
    if (!(newRequestsPerSecond > 0)) throw new RangeError(`requests per second must be more than 0 but was [${newRequestsPerSecond}]`);
    this.rate = newRequestsPerSecond;
    const pending = this.pending;
    if (pending === undefined) return;
    // Slowing down applies from the next batch: pushing the wait out could outlive the scroll keep-alive.
    if (newRequestsPerSecond < pending.scheduledRate) return;
    const remaining = pending.deadlineNanos - this.clock.nowNanos();
    pending.cancelTimer();
    this.pending = undefined;
    this.schedule(pending.scheduledRate, rescaledDelayNanos(remaining, pending.scheduledRate, newRequestsPerSecond), pending.resolve);
  }

  private schedule(scheduledRate: number, delayNanos: number, resolve: () => void): void {
    const fire = (): void => {
      if (this.pending !== wait) return;
      this.pending = undefined;
      this.throttledTotalNanos += delayNanos;
      resolve();
    };
    const wait: PendingWait = {
      scheduledRate,
      delayNanos,
      deadlineNanos: this.clock.nowNanos() + delayNanos,
      cancelTimer: () => cancel(),
      resolve,
    };
    this.pending = wait;
    const cancel = this.clock.schedule(fire, delayNanos / NANOS_PER_MILLI);
  }
}
