/**
 * The byte-rate limit of peer recovery on one node (ES's RateLimiter.SimpleRateLimiter behind
 * `indices.recovery.max_bytes_per_sec`, default 40mb): every chunk a recovery sends first asks `pause(bytes)`,
 * which waits as long as needed to keep the node's sending rate at the limit, whatever the number of
 * recoveries. The limit is read on every call, so a change of the dynamic setting applies to the next chunk; a
 * chunk pays its own cost before it goes, as in Lucene, so raising the limit leaves no debt at the old rate.
 *
 * The arithmetic is Lucene's: a chunk's turn is the previous turn plus its own cost at the rate in force; a call
 * that comes after its turn goes at once and the next turn counts from that call (idle time is never banked, so
 * the rate is an instant rate, not an average over the whole recovery). What the caller must do for the limit to
 * be reached is to ask for the next turn before this one is over (file-chunk-sender.ts asks one chunk ahead):
 * a call that comes late loses the difference for good.
 */
import { EsError } from '../../common/errors.js';

/** The clock and timers the limiter waits on: the process's by default, a manual one in tests. */
export interface LimiterClock {
  /** Nanoseconds on a monotonic clock. */
  nowNanos(): bigint;
  setTimer(millis: number, callback: () => void): unknown;
  clearTimer(timer: unknown): void;
}

/** Lucene's RateLimiter.SimpleRateLimiter.MIN_PAUSE_CHECK_MSEC. */
const MIN_PAUSE_CHECK_MILLIS = 5;

const PROCESS_CLOCK: LimiterClock = {
  nowNanos: () => process.hrtime.bigint(),
  setTimer: (millis, callback) => setTimeout(callback, millis),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

interface Sleeper {
  readonly timer: unknown;
  readonly reject: (err: Error) => void;
}

export class RecoveryRateLimiter {
  /**
   * When the last chunk allowed out may have gone at the limit's rate (ns on a monotonic clock): a chunk waits
   * until this plus its own cost at the rate in force when it asks (Lucene's SimpleRateLimiter.pause), so a raised
   * limit applies from the next chunk on and only the waits under way keep the old rate. Undefined until a chunk
   * went at a limit: the next one goes at once. (It was 0, as if a chunk had gone at the clock's zero; but
   * process.hrtime counts from the host's boot, so on a host up for less than a chunk's cost the first chunk
   * waited the difference: 512 KiB at 100 B/s waited an hour on a host booted 20 minutes before.)
   */
  private lastNanos: bigint | undefined;
  /** Recoveries waiting for their turn; `close` ends their waits. */
  private readonly sleeping = new Set<Sleeper>();
  private closed = false;

  constructor(
    private readonly bytesPerSecond: () => number,
    private readonly clock: LimiterClock = PROCESS_CLOCK,
  ) {}

  /**
   * The bytes a recovery may send between two pauses without asking (Lucene's getMinPauseCheckBytes: 5 ms at the
   * rate in force; 0 with no limit): ES's file-chunk sender pauses only once the bytes since its last pause pass it,
   * so a run of small files goes without a turn each, and pays in the next pause.
   */
  minPauseCheckBytes(): number {
    const rate = this.bytesPerSecond();
    return rate > 0 && Number.isFinite(rate) ? Math.floor((MIN_PAUSE_CHECK_MILLIS / 1000) * rate) : 0;
  }

  /** Waits until `bytes` more may be sent; resolves with the milliseconds waited. */
  async pause(bytes: number): Promise<number> {
    if (this.closed) throw nodeClosed();
    const waitNanos = this.reserve(bytes);
    // Timers count whole milliseconds: a wait of less than one goes now. The turn is kept exactly, so rounding a wait
    // down never adds up: the next chunk's turn is this one's plus its cost, however early this one went.
    const waitMillis = Number(waitNanos / 1_000_000n);
    if (waitMillis > 0) await this.sleep(waitMillis);
    return waitMillis;
  }

  /** Takes the next turn for `bytes`; returns how long until it (0: now). Lucene's SimpleRateLimiter.pause. */
  private reserve(bytes: number): bigint {
    const rate = this.bytesPerSecond();
    if (!(rate > 0) || !Number.isFinite(rate)) {
      // No limit: ES drops its limiter, and a limit set again starts a fresh one with no debt.
      this.lastNanos = undefined;
      return 0n;
    }
    const now = this.clock.nowNanos();
    if (this.lastNanos === undefined) {
      // Nothing went before it at a limit: it goes now, and the next one waits its own cost from now.
      this.lastNanos = now;
      return 0n;
    }
    const target = this.lastNanos + BigInt(Math.ceil((bytes / rate) * 1e9));
    // Idle long enough to have sent this chunk already: it goes now, and idle time is not banked beyond it.
    if (target <= now) {
      this.lastNanos = now;
      return 0n;
    }
    this.lastNanos = target;
    return target - now;
  }

  /**
   * The node is stopping: every recovery waiting here fails now with `node_closed_exception` (as ES's
   * cancellable threads interrupt a recovery's rate-limit sleep when the node closes), and so does every later
   * pause. Without it a recovery throttled to a low rate held a timer that kept a stopped node's process alive
   * for as long as its debt (minutes at `max_bytes_per_sec: 100b`).
   */
  close(): void {
    this.closed = true;
    for (const sleeper of this.sleeping) {
      this.clock.clearTimer(sleeper.timer);
      sleeper.reject(nodeClosed());
    }
    this.sleeping.clear();
  }

  private sleep(millis: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        timer: this.clock.setTimer(millis, () => {
          this.sleeping.delete(sleeper);
          resolve();
        }),
        reject,
      };
      this.sleeping.add(sleeper);
    });
  }
}

function nodeClosed(): EsError {
  return new EsError('node_closed_exception', 'node closed');
}
