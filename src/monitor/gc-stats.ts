/**
 * Garbage collections since the node started, counted from V8's own `gc` performance entries: scavenges
 * are the young collector (ES's `young`), mark-compact and incremental marking the old one (`old`).
 * Times are milliseconds, summed as the JVM's collection_time is.
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';

export interface CollectorStats {
  collectionCount: number;
  collectionTimeMillis: number;
}

export interface GcStats {
  young: CollectorStats;
  old: CollectorStats;
}

export class GcCounter {
  private readonly young = { collectionCount: 0, collectionTimeMillis: 0 };
  private readonly old = { collectionCount: 0, collectionTimeMillis: 0 };
  private observer: PerformanceObserver | undefined;

  start(): void {
    if (this.observer) return;
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_WEAKCB) continue;
        const collector = kind === constants.NODE_PERFORMANCE_GC_MINOR ? this.young : this.old;
        collector.collectionCount++;
        collector.collectionTimeMillis += entry.duration;
      }
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = undefined;
  }

  stats(): GcStats {
    const round = (c: CollectorStats) => ({ collectionCount: c.collectionCount, collectionTimeMillis: Math.round(c.collectionTimeMillis) });
    return { young: round(this.young), old: round(this.old) };
  }
}
