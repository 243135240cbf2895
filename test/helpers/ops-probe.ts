/**
 * Measures how the operator's commands answer while something else runs on a node: it sends them on a fixed
 * schedule (every `intervalMillis`, rotating over `paths`) whether or not the previous one has answered, so
 * a node that freezes for ten seconds yields a hundred slow samples, not one (no coordinated omission). A
 * probe still unanswered when the probe stops counts with the time it has waited so far.
 */
import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { percentileOfSorted } from './percentiles.js';

/**
 * The operator's seven commands (DESIGN.md; bench/tracks/ops.ts): the five reads, and a cancel by node and action
 * (here matching no task, so probing cancels nothing). The cancel of one task by its id is the seventh; the tests
 * that start a cancellable culprit send it and time it.
 */
export const OPS_PATHS = [
  '/_cluster/health',
  '/_cat/allocation?v',
  '/_cat/nodes?v',
  '/_tasks',
  '/_cat/tasks?v',
  'POST /_tasks/_cancel?nodes=_local&actions=probe:nothing*',
] as const;

export interface ProbeOptions {
  port: number;
  intervalMillis?: number;
  paths?: readonly string[];
}

export interface ProbeSummary {
  /** Probes sent (answered or not). */
  count: number;
  /** Probes that had no answer when the probe stopped (their latency is the time they waited). */
  unanswered: number;
  /** Probes answered with a status other than 200 (or not at all: a connection error). */
  failed: number;
  /** The first few failures, as `<path> <status or error>`. */
  failures: string[];
  p50Millis: number;
  p99Millis: number;
  maxMillis: number;
}

export class OpsProbe {
  // A connection per probe, as an operator's curl opens one: no keep-alive race with a server closing an idle socket.
  private readonly agent = new Agent({ keepAlive: false, maxSockets: 256 });
  private readonly latencies: number[] = [];
  private readonly pending = new Set<number>();
  private failed = 0;
  private readonly failures: string[] = [];
  private sent = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly interval: number;
  private readonly paths: readonly string[];

  private constructor(private readonly port: number, options: ProbeOptions) {
    this.interval = options.intervalMillis ?? 100;
    this.paths = options.paths ?? OPS_PATHS;
  }

  /** Starts probing at once. */
  static start(options: ProbeOptions): OpsProbe {
    const probe = new OpsProbe(options.port, options);
    probe.timer = setInterval(() => probe.fire(), probe.interval);
    probe.fire();
    return probe;
  }

  private fire(): void {
    const path = this.paths[this.sent % this.paths.length]!;
    this.sent++;
    const sentAt = performance.now();
    this.pending.add(sentAt);
    const done = (ok: boolean, what: string): void => {
      if (!this.pending.delete(sentAt)) return;
      this.latencies.push(performance.now() - sentAt);
      if (ok) return;
      this.failed++;
      if (this.failures.length < 5) this.failures.push(`${path} ${what}`);
    };
    const [method, target] = path.startsWith('POST ') ? ['POST', path.slice(5)] : ['GET', path];
    const req = httpRequest({ host: '127.0.0.1', port: this.port, method, path: target, agent: this.agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode === 200, String(res.statusCode)));
      res.on('error', (err) => done(false, err.message));
    });
    req.on('error', (err) => done(false, err.message));
    req.end();
  }

  /** Stops sending, and summarizes what was measured (unanswered probes count with their wait so far). */
  stop(): ProbeSummary {
    clearInterval(this.timer);
    const now = performance.now();
    const unanswered = this.pending.size;
    const all = [...this.latencies, ...[...this.pending].map((sentAt) => now - sentAt)].sort((a, b) => a - b);
    this.pending.clear();
    this.agent.destroy();
    return {
      count: this.sent,
      unanswered,
      failed: this.failed,
      failures: this.failures,
      p50Millis: percentileOfSorted(all, 50),
      p99Millis: percentileOfSorted(all, 99),
      maxMillis: all[all.length - 1] ?? Number.NaN,
    };
  }
}

export function formatProbe(summary: ProbeSummary): string {
  return `${summary.count} probes, p50 ${summary.p50Millis.toFixed(1)} ms, p99 ${summary.p99Millis.toFixed(1)} ms, max ${summary.maxMillis.toFixed(1)} ms, ${summary.unanswered} unanswered, ${summary.failed} failed${summary.failures.length > 0 ? ` (${summary.failures.join('; ')})` : ''}`;
}

/** The issue's bound (issue 18): the operator's commands answer with p99 under 500 ms while a hostile request runs. */
export const PROBE_BOUND_MILLIS = 500;

/**
 * The bound a test holds the operator's commands to: the issue's 500 ms on a host with a core per runnable
 * process, stretched by the load per core only where the host is oversubscribed (its one-minute load average above
 * its core count: a shared machine running several suites, or CI's two test files at once beside their nodes), at
 * most four times (2 s). The freezes these tests guard against lasted 13 s to 200 s, so even the stretched bound
 * fails them by an order of magnitude; the stretch keeps a starved CPU from failing a node that yields as it
 * should, and the failure message prints the raw figures and the load. The bench's hostile track
 * (bench/BENCHMARKS.md) is where the 500 ms goal itself is measured and reported, met or not.
 */
export function probeBoundMillis(): number {
  const perCore = loadavg()[0]! / Math.max(1, availableParallelism());
  return PROBE_BOUND_MILLIS * Math.min(4, Math.max(1, perCore));
}

/** The load average and core count, for failure messages. */
export function hostLoad(): string {
  return `load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
}
