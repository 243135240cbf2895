/**
 * The shard-side contract of every aggregation (ES's Aggregator / LeafBucketCollector):
 * - getLeafCollector(segment, scores) is called once per segment, in segment order, before its documents;
 *   the returned collector's collect(doc, bucket) receives each matching live document (segment-local id)
 *   with the ordinal of the parent bucket it falls in (always 0 at the top level);
 * - buildAggregations(owningBucketOrds) is called once after the last segment and returns one result per
 *   requested parent bucket, in the same order; buildEmptyAggregation() is the result for a bucket that
 *   collected nothing.
 * Bucket aggregations number their own buckets with ordinals and pass those down to their sub-aggregators,
 * so per-bucket state lives in typed arrays indexed by ordinal instead of per-bucket objects.
 */
import { aggErrors } from './agg-errors.js';
import type { AggregationContext, AggregationMemory, BucketConsumer, ScoreSource } from './context.js';
import type { InternalAggregation } from './internal.js';
import type { AggregationSpec } from './spec.js';
import { DoubleArray } from './support/arrays.js';
import { NOT_SINGLE_BUCKET, pathToString, type PathElement } from './support/order-path.js';
import type { AggregationSegment } from './support/values.js';

export interface LeafCollector {
  collect(doc: number, bucket: number): void;
}

export const NO_OP_COLLECTOR: LeafCollector = { collect() {} };

/** What every aggregator of one shard request shares. */
export interface AggregatorEnv {
  readonly ctx: AggregationContext;
  /** Counts buckets built on this shard against search.max_buckets. */
  readonly consumer: BucketConsumer;
  /** What the aggregators hold, for the request circuit breaker. */
  readonly memory: AggregationMemory;
}

/** Reads the value a bucket ordinal sorts by. */
export type SortValueGetter = (bucketOrd: number) => number;

export abstract class Aggregator {
  subAggregators: Aggregator[] = [];
  /** A top-level aggregation: its results for owner 0 are all built (so it can pledge buckets early). */
  topLevel = false;

  constructor(
    readonly spec: AggregationSpec,
    readonly env: AggregatorEnv,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  abstract getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector;
  abstract buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[];
  abstract buildEmptyAggregation(): InternalAggregation;

  needsScores(): boolean {
    return this.subAggregators.some((sub) => sub.needsScores());
  }

  subAggregator(name: string): Aggregator | undefined {
    return this.subAggregators.find((sub) => sub.name === name);
  }

  /**
   * Resolves the rest of an order path starting at this aggregator (`path[index]` names it). Metrics and
   * single-bucket aggregations override this; others cannot be sorted on.
   */
  sortValueGetter(path: readonly PathElement[], index: number): SortValueGetter {
    if (index < path.length - 1) {
      throw aggErrors.invalidOrderPath(pathToString(path), `${NOT_SINGLE_BUCKET.slice(0, -1)}. [${this.name}] is not single-bucket.`);
    }
    throw aggErrors.invalidOrderPath(pathToString(path), NOT_SINGLE_BUCKET);
  }

  protected meta(): Readonly<Record<string, unknown>> | null {
    return this.spec.meta;
  }
}

/** Resolves an order path against the sub-aggregators of `owner` (the aggregation whose buckets are sorted). */
export function resolveSortValueGetter(owner: Aggregator, path: readonly PathElement[]): SortValueGetter {
  const first = path[0];
  const target = first === undefined ? undefined : owner.subAggregator(first.name);
  if (first === undefined || target === undefined) {
    throw aggErrors.invalidOrderPath(
      pathToString(path),
      `The provided aggregation [${first === undefined ? '' : pathToString([first])}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.`,
    );
  }
  return target.sortValueGetter(path, 0);
}

/** Aggregations that create buckets and collect their sub-aggregations per bucket ordinal (BucketsAggregator). */
export abstract class BucketsAggregator extends Aggregator {
  protected readonly docCounts = new DoubleArray();

  protected subLeafCollectors(segment: AggregationSegment, scores: ScoreSource): LeafCollector[] {
    return this.subAggregators.map((sub) => sub.getLeafCollector(segment, scores));
  }

  protected collectBucket(subs: readonly LeafCollector[], doc: number, bucketOrd: number): void {
    this.docCounts.increment(bucketOrd, 1);
    for (let i = 0; i < subs.length; i++) subs[i]!.collect(doc, bucketOrd);
  }

  docCount(bucketOrd: number): number {
    return this.docCounts.get(bucketOrd);
  }

  /** The sub-aggregation results of each ordinal, in the order given. */
  protected buildSubAggregations(bucketOrds: readonly number[]): InternalAggregation[][] {
    const perBucket: InternalAggregation[][] = bucketOrds.map(() => []);
    if (bucketOrds.length === 0) return perBucket;
    for (const sub of this.subAggregators) {
      const results = sub.buildAggregations(bucketOrds);
      results.forEach((result, i) => perBucket[i]!.push(result));
    }
    return perBucket;
  }

  protected buildEmptySubAggregations(): InternalAggregation[] {
    return this.subAggregators.map((sub) => sub.buildEmptyAggregation());
  }
}

/**
 * Single-bucket aggregations (filter, missing) collect a document under the same ordinal as its parent
 * bucket, so a parent can sort on their doc count or on a metric below them.
 */
export abstract class SingleBucketAggregator extends BucketsAggregator {
  override sortValueGetter(path: readonly PathElement[], index: number): SortValueGetter {
    const element = path[index]!;
    if (index === path.length - 1) {
      if (element.key !== null && element.key !== '_count' && element.key !== 'doc_count') {
        throw aggErrors.invalidOrderPath(pathToString(path), `Unknown property [${element.key}] in [${this.name}]`);
      }
      return (ord) => this.docCount(ord);
    }
    if (element.key !== null) {
      throw aggErrors.invalidOrderPath(pathToString(path), `Key only allowed on last aggregation path element but got [${element.name}.${element.key}]`);
    }
    const next = path[index + 1]!;
    const child = this.subAggregator(next.name);
    if (child === undefined) {
      throw aggErrors.invalidOrderPath(
        pathToString(path),
        `The provided aggregation [${pathToString([next])}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.`,
      );
    }
    return child.sortValueGetter(path, index + 1);
  }
}
