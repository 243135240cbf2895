/**
 * docs/s of a followed task from its status counters over time. The time axis is the task's own
 * `running_time_in_nanos` (the node's clock), so network delays between polls do not bend the rate.
 * The rate is over the last few seconds, so a rethrottle or a slow phase shows up within one window; with
 * only one sample it falls back to the average since the task started.
 */
export const DEFAULT_RATE_WINDOW_SECONDS = 10;

interface Sample {
  seconds: number;
  processed: number;
}

export class RateEstimator {
  private samples: Sample[] = [];

  constructor(private readonly windowSeconds = DEFAULT_RATE_WINDOW_SECONDS) {}

  add(seconds: number, processed: number): void {
    const last = this.samples[this.samples.length - 1];
    // Time or counters going backwards (a different task record, a restarted slice) start the history over.
    if (last !== undefined && (seconds < last.seconds || processed < last.processed)) this.samples = [];
    if (last !== undefined && seconds === last.seconds) this.samples.pop();
    this.samples.push({ seconds, processed });
    const horizon = seconds - this.windowSeconds;
    // Keep one sample at or before the window start, so the window always spans its full length.
    while (this.samples.length > 2 && this.samples[1]!.seconds <= horizon) this.samples.shift();
  }

  docsPerSecond(): number | undefined {
    const last = this.samples[this.samples.length - 1];
    if (last === undefined) return undefined;
    const first = this.samples[0]!;
    if (first !== last && last.seconds > first.seconds) return (last.processed - first.processed) / (last.seconds - first.seconds);
    return last.seconds > 0 ? last.processed / last.seconds : undefined;
  }
}
