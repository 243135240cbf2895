/**
 * The byte-rate limit of peer recovery on one node (ES's RateLimiter.SimpleRateLimiter behind
 * `indices.recovery.max_bytes_per_sec`, default 40mb): every chunk a recovery sends first asks `pause(bytes)`,
 * which waits as long as needed to keep the node's sending rate at the limit, whatever the number of
 * recoveries. The limit is read on every call, so a change of the dynamic setting applies to the next chunk; a
 * chunk pays its own cost before it goes, as in Lucene, so raising the limit leaves no debt at the old rate.
 */
import { EsError } from '../../common/errors.js';

interface Sleeper {
  readonly timer: NodeJS.Timeout;
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

  constructor(private readonly bytesPerSecond: () => number) {}

  /** Waits until `bytes` more may be sent; resolves with the milliseconds waited. */
  async pause(bytes: number): Promise<number> {
    if (this.closed) throw nodeClosed();
    const rate = this.bytesPerSecond();
    if (!(rate > 0) || !Number.isFinite(rate)) {
      // No limit: ES drops its limiter, and a limit set again starts a fresh one with no debt.
      this.lastNanos = undefined;
      return 0;
    }
    const now = process.hrtime.bigint();
    if (this.lastNanos === undefined) {
      // Nothing went before it at a limit: it goes now, and the next one waits its own cost from now.
      this.lastNanos = now;
      return 0;
    }
    const target = this.lastNanos + BigInt(Math.ceil((bytes / rate) * 1e9));
    // Idle long enough to have sent this chunk already: it goes now, and idle time is not banked beyond it.
    if (target <= now) {
      this.lastNanos = now;
      return 0;
    }
    this.lastNanos = target;
    const waitMillis = Number((target - now) / 1_000_000n);
    if (waitMillis > 0) await this.sleep(waitMillis);
    return waitMillis;
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
      clearTimeout(sleeper.timer);
      sleeper.reject(nodeClosed());
    }
    this.sleeping.clear();
  }

  private sleep(millis: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        timer: setTimeout(() => {
          this.sleeping.delete(sleeper);
          resolve();
        }, millis),
        reject,
      };
      this.sleeping.add(sleeper);
    });
  }
}

function nodeClosed(): EsError {
  return new EsError('node_closed_exception', 'node closed');
}
