/**
 * The byte-rate limit of peer recovery on one node (ES's RateLimiter.SimpleRateLimiter behind
 * `indices.recovery.max_bytes_per_sec`, default 40mb): every chunk a recovery sends first asks `pause(bytes)`,
 * which waits as long as needed to keep the node's sending rate at the limit, whatever the number of
 * recoveries. The limit is read on every call, so a change of the dynamic setting applies to the next chunk.
 */
export class RecoveryRateLimiter {
  /** When the bytes sent so far may all be out at the limit's rate (ns on a monotonic clock). */
  private nextFreeNanos = 0n;

  constructor(private readonly bytesPerSecond: () => number) {}

  /** Waits until `bytes` more may be sent; resolves with the milliseconds waited. */
  async pause(bytes: number): Promise<number> {
    const rate = this.bytesPerSecond();
    if (!(rate > 0) || !Number.isFinite(rate)) return 0;
    const now = process.hrtime.bigint();
    const cost = BigInt(Math.ceil((bytes / rate) * 1e9));
    // Idle time is not banked beyond one chunk's worth: a burst after a pause goes at the limit, as in ES.
    const start = this.nextFreeNanos > now ? this.nextFreeNanos : now;
    this.nextFreeNanos = start + cost;
    const waitNanos = start - now;
    if (waitNanos <= 0n) return 0;
    const waitMillis = Number(waitNanos / 1_000_000n);
    if (waitMillis > 0) await new Promise((resolve) => setTimeout(resolve, waitMillis));
    return waitMillis;
  }
}
