/**
 * A task that runs again a fixed delay after its previous run *ended*, as ES's AbstractAsyncTask reschedules itself
 * when its run finishes (the scheduled refresh, the translog and lease maintenance). A run that takes longer than
 * the delay is followed by the delay, not by the runs a fixed-rate timer would have queued meanwhile: a shard's
 * periodic refresh that took 5 s under a bulk used to be followed by four more at once, each writing a small segment.
 */
export class FixedDelayTask {
  private timer: NodeJS.Timeout | undefined;
  private delayMillis = 0;
  private running = false;
  private closed = false;

  constructor(private readonly run: () => Promise<unknown>) {}

  /** From now on runs every `delayMillis`, counted from the end of the previous run (one under way keeps going). */
  start(delayMillis: number): void {
    this.delayMillis = delayMillis;
    clearTimeout(this.timer);
    this.timer = undefined;
    // A run under way arms the timer with the new delay when it ends.
    if (!this.closed && !this.running) this.arm();
  }

  /** No run starts after this; one under way finishes. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = setTimeout(() => void this.fire(), this.delayMillis);
    this.timer.unref();
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    this.running = true;
    try {
      await this.run();
    } catch {
      // The run reports its own failures; the schedule goes on, as ES's task does after logging one.
    } finally {
      this.running = false;
      if (!this.closed && this.timer === undefined) this.arm();
    }
  }
}
