/**
 * Runs merges in the background, one at a time, in the order they were asked for (Lucene's
 * MergeScheduler with one merge thread, which is what Elasticsearch configures on a 2-core machine).
 * The heavy part runs in the merge worker; here, only the swap of the merged segment for its sources
 * takes the engine's state lock, so indexing, refreshes and searches carry on during a merge.
 */
import type { MergeStatsCounters } from '../engine-stats.js';
import type { MergeReport } from '../engine.js';
import type { ShardSegments } from '../segments/shard-segments.js';
import type { LoadedSegment } from '../segments/loaded-segment.js';
import type { SegmentJobs, WrittenSegment } from '../segments/segment-jobs.js';
import type { AsyncMutex } from '../util/async-mutex.js';
import { buildDocMaps } from './segment-merger.js';
import type { PolicySegment, TieredMergePolicy } from './tiered-merge-policy.js';

export interface ForceMergeOptions {
  readonly maxNumSegments?: number;
  readonly onlyExpungeDeletes?: boolean;
}

export class MergeScheduler {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private stopped = false;
  /** The last background merge failure (merges are retried by the next policy run). */
  lastFailure: Error | null = null;

  constructor(
    private readonly segments: ShardSegments,
    private readonly jobs: SegmentJobs,
    private readonly stateLock: AsyncMutex,
    private readonly policy: TieredMergePolicy,
    private readonly stats: MergeStatsCounters,
    private readonly deleteFiles: (prefix: string) => Promise<void>,
    private readonly onMergeFinished?: (merge: MergeReport) => void,
  ) {}

  private policySegments(): PolicySegment[] {
    return this.segments.list.map((segment) => ({
      name: segment.name,
      sizeInBytes: segment.sizeInBytes,
      maxDoc: segment.maxDoc,
      deletedCount: segment.deletedCount,
    }));
  }

  /** Queues the natural merges the policy asks for, unless merges are already queued or running. */
  maybeMerge(): void {
    if (this.stopped || this.queued > 0) return;
    const merges = this.policy.findMerges(this.policySegments(), this.segments.merging);
    if (merges.length === 0) return;
    for (const merge of merges) {
      void this.enqueue(merge).catch((err: unknown) => {
        this.lastFailure = err instanceof Error ? err : new Error(String(err));
      });
    }
    // When these are done, the policy may find more (cascading tiers).
    void this.tail.then(() => this.maybeMerge());
  }

  /** Runs forced merges until the policy finds nothing left to do. */
  async forceMerge(options: ForceMergeOptions): Promise<void> {
    for (;;) {
      await this.idle();
      if (this.stopped) return;
      const segments = this.policySegments();
      const merges = options.onlyExpungeDeletes
        ? this.policy.findForcedDeletesMerges(segments, this.segments.merging)
        : options.maxNumSegments === undefined || options.maxNumSegments < 0
          ? this.policy.findMerges(segments, this.segments.merging)
          : this.policy.findForcedMerges(segments, options.maxNumSegments, this.segments.merging);
      if (merges.length === 0) return;
      await Promise.all(merges.map((merge) => this.enqueue(merge)));
    }
  }

  /** Resolves once every queued merge has finished. */
  async idle(): Promise<void> {
    while (this.queued > 0) await this.tail;
  }

  private enqueue(names: readonly string[]): Promise<void> {
    this.queued++;
    const run = this.tail.then(() => this.runMerge(names));
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run.finally(() => this.queued--);
  }

  private async runMerge(names: readonly string[]): Promise<void> {
    if (this.stopped) return;
    const wanted = new Set(names);
    const sources = this.segments.list.filter((segment) => wanted.has(segment.name) && !this.segments.merging.has(segment.name));
    if (sources.length === 0 || (sources.length === 1 && sources[0]!.deletedCount === 0 && names.length > 1)) return;
    const snapshot = sources.map((segment) => ({ segment, liveDocs: segment.liveDocs }));
    const { maps, maxDoc } = buildDocMaps(snapshot.map(({ segment, liveDocs }) => ({ maxDoc: segment.maxDoc, liveDocs })));
    for (const segment of sources) this.segments.merging.add(segment.name);
    const sizeInBytes = sources.reduce((sum, segment) => sum + segment.sizeInBytes, 0);
    const started = performance.now();
    this.stats.current++;
    this.stats.currentDocs += maxDoc;
    this.stats.currentSizeInBytes += sizeInBytes;
    let name: string | null = null;
    let merged: LoadedSegment | null = null;
    try {
      if (maxDoc > 0) {
        name = this.segments.nextSegmentName();
        const written: WrittenSegment = await this.jobs.merge(name, snapshot);
        merged = await this.segments.openWritten(written);
      }
      if (this.stopped) throw new Error('merge aborted: the engine is closing');
      const result = merged;
      await this.stateLock.run(() => this.segments.applyMerge(snapshot, result, maps));
      this.stats.total++;
      this.stats.totalDocs += maxDoc;
      this.stats.totalSizeInBytes += sizeInBytes;
      const tookMillis = performance.now() - started;
      this.stats.totalTimeMillis += tookMillis;
      this.onMergeFinished?.({ segments: sources.length, docs: maxDoc, sizeInBytes, tookMillis, merged: name });
    } catch (err) {
      // The merged files (complete or partial) belong to no segment: remove them.
      if (name !== null) await this.deleteFiles(name).catch(() => undefined);
      throw err;
    } finally {
      for (const segment of sources) this.segments.merging.delete(segment.name);
      this.stats.current--;
      this.stats.currentDocs -= maxDoc;
      this.stats.currentSizeInBytes -= sizeInBytes;
    }
  }

  /** No new merges start; a running one is abandoned at its next step (the worker is terminated by the owner). */
  stop(): void {
    this.stopped = true;
  }
}
