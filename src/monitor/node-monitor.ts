/**
 * One place to read a node's OS, process and file-system figures. Like ES's monitor services, each probe's
 * result is cached for a refresh interval (ES's `monitor.os|process|fs.refresh_interval`, default 1s), so
 * operators polling `_cat/nodes` under load cost one probe per second, not one per request.
 */
import { OsProbe, type OsStats } from './os-probe.js';
import { ProcessProbe, type ProcessStats } from './process-probe.js';
import { probeFileSystem, type FsStats } from './fs-probe.js';
import { GcCounter, type GcStats } from './gc-stats.js';

export interface NodeFigures {
  os: OsStats;
  process: ProcessStats;
  fs: FsStats;
}

export interface MonitorIntervals {
  osMillis: number;
  processMillis: number;
  fsMillis: number;
}

const DEFAULT_INTERVALS: MonitorIntervals = { osMillis: 1000, processMillis: 1000, fsMillis: 1000 };

/** A value recomputed at most once per interval. */
class Cached<T> {
  private value: T | undefined;
  private takenAt = -Infinity;

  constructor(
    private readonly intervalMillis: number,
    private readonly compute: () => T,
  ) {}

  get(): T {
    const now = performance.now();
    if (this.value === undefined || now - this.takenAt >= this.intervalMillis) {
      this.value = this.compute();
      this.takenAt = now;
    }
    return this.value;
  }
}

export class NodeMonitor {
  private readonly osStats: Cached<OsStats>;
  private readonly processStats: Cached<ProcessStats>;
  private readonly fsStats: Cached<Promise<FsStats>>;
  private readonly gcCounter = new GcCounter();

  constructor(
    private readonly dataPath: string,
    intervals: MonitorIntervals = DEFAULT_INTERVALS,
  ) {
    const osProbe = new OsProbe();
    const processProbe = new ProcessProbe();
    this.gcCounter.start();
    this.osStats = new Cached(intervals.osMillis, () => osProbe.stats());
    this.processStats = new Cached(intervals.processMillis, () => processProbe.stats());
    // A failed probe must not be cached for the whole interval.
    this.fsStats = new Cached(intervals.fsMillis, () => {
      const probe = probeFileSystem(this.dataPath);
      probe.catch(() => undefined);
      return probe;
    });
  }

  os(): OsStats {
    return this.osStats.get();
  }

  process(): ProcessStats {
    return this.processStats.get();
  }

  fs(): Promise<FsStats> {
    return this.fsStats.get();
  }

  /** Collections since the monitor started (ES's jvm.gc.collectors). */
  gc(): GcStats {
    return this.gcCounter.stats();
  }

  /** Where the node keeps its data (ES's path.data). */
  get path(): string {
    return this.dataPath;
  }

  async figures(): Promise<NodeFigures> {
    return { os: this.os(), process: this.process(), fs: await this.fs() };
  }
}
