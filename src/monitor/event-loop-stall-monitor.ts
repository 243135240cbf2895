/**
 * Event-loop stalls, logged: ES's cached-time thread wakes every `thread_pool.estimated_time_interval` (200ms) and
 * warns when it slept past `thread_pool.estimated_time_interval.warn_threshold` (5s): "timer thread slept for ...".
 * A Node process has one loop where ES has many threads, so a late wake-up here means everything waited: requests,
 * transport answers, and the etcd lease renewals that keep this node a member (a loop held longer than two thirds of
 * `cluster.etcd.lease_ttl` can cost the node its membership, and the primaries it holds). The line gives the length
 * of the stall and the share of it the garbage collector took, so a node that left the cluster says why.
 */
import type { Logger } from 'pino';
import { formatTimeValueMillis } from '../common/time-value.js';

/** ES's `thread_pool.estimated_time_interval`: how often the loop is sampled. */
const SAMPLE_INTERVAL_MILLIS = 200;

export class EventLoopStallMonitor {
  private timer: NodeJS.Timeout | undefined;
  private lastWake = 0;
  private lastGcMillis = 0;

  constructor(
    private readonly logger: Logger,
    /** `thread_pool.estimated_time_interval.warn_threshold`; 0 turns the check off, as in ES. */
    private readonly warnThresholdMillis: number,
    /** Total GC time of this process so far, in ms. */
    private readonly gcMillis: () => number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  start(): void {
    if (this.warnThresholdMillis <= 0) return;
    this.lastWake = this.clock();
    this.lastGcMillis = this.gcMillis();
    this.timer = setInterval(() => this.check(), SAMPLE_INTERVAL_MILLIS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One wake-up: how much later than asked it came (run by the interval timer). */
  check(): void {
    const now = this.clock();
    const gcMillis = this.gcMillis();
    const stalledMillis = Math.round(now - this.lastWake - SAMPLE_INTERVAL_MILLIS);
    const gcShareMillis = Math.round(gcMillis - this.lastGcMillis);
    this.lastWake = now;
    this.lastGcMillis = gcMillis;
    if (stalledMillis <= this.warnThresholdMillis) return;
    this.logger.warn(
      { event: 'event_loop_stall', stalled_millis: stalledMillis, gc_millis: gcShareMillis, threshold_millis: this.warnThresholdMillis },
      `the event loop was blocked for [${formatTimeValueMillis(stalledMillis)}/${stalledMillis}ms], above the warn threshold of [${this.warnThresholdMillis}ms] ` +
        `(garbage collection [${formatTimeValueMillis(gcShareMillis)}] of it); timers, requests and etcd lease renewals waited that long`,
    );
  }
}
