/**
 * ES's JvmGcMonitorService overhead check: every interval (`monitor.jvm.gc.refresh_interval`, 1s) it compares the
 * time spent collecting garbage with the time that passed, and when the share reaches a threshold
 * (`monitor.jvm.gc.overhead.warn|info|debug`: 50, 25, 10 percent) logs ES's line
 * `[gc][<seq>] overhead, spent [<gc time>] collecting in the last [<elapsed>]` at that level. A node that spends
 * half its time in V8's collector is a node whose requests wait, and the log says so.
 */
import type { Logger } from 'pino';
import { formatTimeValueMillis } from '../common/time-value.js';
import type { GcStats } from './gc-stats.js';

export interface GcOverheadThresholds {
  /** Percentages, 0-100. */
  readonly warn: number;
  readonly info: number;
  readonly debug: number;
}

export interface GcOverheadSample {
  readonly elapsedMillis: number;
  readonly gcMillis: number;
}

/** The level a sample is logged at, as JvmGcMonitorService.checkGcOverhead decides it. */
export function gcOverheadLevel(sample: GcOverheadSample, thresholds: GcOverheadThresholds): 'warn' | 'info' | 'debug' | undefined {
  if (sample.elapsedMillis <= 0) return undefined;
  const percent = (100 * sample.gcMillis) / sample.elapsedMillis;
  if (percent >= thresholds.warn) return 'warn';
  if (percent >= thresholds.info) return 'info';
  if (percent >= thresholds.debug) return 'debug';
  return undefined;
}

export class GcOverheadMonitor {
  private timer: NodeJS.Timeout | undefined;
  private sequence = 0;
  private last: { at: number; gcMillis: number } | undefined;

  constructor(
    private readonly gcStats: () => GcStats,
    private readonly logger: Logger,
    private readonly intervalMillis: number,
    private readonly thresholds: GcOverheadThresholds,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  start(): void {
    this.last = { at: this.clock(), gcMillis: this.totalGcMillis() };
    this.timer = setInterval(() => this.check(), this.intervalMillis);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private totalGcMillis(): number {
    const stats = this.gcStats();
    return stats.young.collectionTimeMillis + stats.old.collectionTimeMillis;
  }

  /** One measurement: GC time since the last one against the time that passed (run by the interval timer). */
  check(): void {
    const now = this.clock();
    const gcMillis = this.totalGcMillis();
    const previous = this.last ?? { at: now, gcMillis };
    this.last = { at: now, gcMillis };
    this.sequence++;
    const sample = { elapsedMillis: now - previous.at, gcMillis: gcMillis - previous.gcMillis };
    const level = gcOverheadLevel(sample, this.thresholds);
    if (level === undefined) return;
    this.logger[level](
      { event: 'gc_overhead', gc_millis: Math.round(sample.gcMillis), elapsed_millis: Math.round(sample.elapsedMillis) },
      `[gc][${this.sequence}] overhead, spent [${formatTimeValueMillis(Math.round(sample.gcMillis))}] collecting in the last [${formatTimeValueMillis(Math.round(sample.elapsedMillis))}]`,
    );
  }
}
