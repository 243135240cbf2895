/**
 * What aggregations need from the search layer that drives them (ES's AggregationContext): field types,
 * the request's clock, compiled filter queries, the fetch of top_hits documents and the bucket limit.
 */
import type { TopHitsSpec } from './spec.js';
import type { FieldTypeLookup } from './support/field-types.js';
import type { AggregationSegment, TermStringCache } from './support/values.js';
import { aggErrors } from './agg-errors.js';

/** Random access to a filter's matches in one segment. */
export interface SegmentDocFilter {
  matches(doc: number): boolean;
}

/** A filter query bound to a shard: per-segment matchers (a Weight). */
export interface CompiledFilter {
  forSegment(segment: AggregationSegment): SegmentDocFilter;
}

/** A top_hits hit to fetch: the segment, the segment-local doc id and its score (NaN when not scored). */
export interface TopHitRef {
  readonly segment: AggregationSegment;
  readonly doc: number;
  readonly score: number;
  readonly sortValues: readonly (number | bigint | string | null)[];
}

export interface AggregationContext {
  /** The field's type, or undefined when the field is unmapped. */
  readonly fieldType: FieldTypeLookup;
  /** The request's `now` for date math (fixed for the whole request, as ES's nowInMillis). */
  readonly nowInMillis: number;
  /** `search.max_buckets` (65,536 by default). */
  readonly maxBuckets: number;
  /** The request circuit breaker: bytes aggregations will hold (throws circuit_breaking_exception past its limit). */
  readonly reserveMemory?: (bytes: number, label: string) => void;
  /** Returns what reserveMemory took, when the shard's query phase ends. */
  readonly releaseMemory?: (bytes: number) => void;
  /** The index name, for top_hits `_index` and fielddata errors. */
  readonly indexName: string;
  /** `index.max_inner_result_window` (100 by default). */
  readonly maxInnerResultWindow?: number;
  /**
   * Every segment of the shard's searcher, matching or not. terms with min_doc_count 0 lists every term of
   * the shard, as ES does from all leaves; without it only segments that reached a leaf collector count.
   */
  readonly segments?: readonly AggregationSegment[];
  /** Term strings decoded in this request, shared by its aggregations (see keywordValues). */
  readonly termStrings?: TermStringCache;
  /** Compiles the query of a filter/filters aggregation. */
  compileFilter(query: unknown): CompiledFilter;
  /**
   * Renders fetched top_hits hits (`_index`, `_id`, `_score`, `_source`, ...). Without it, `_id` and
   * `_source` are read from stored fields and `_source` filtering uses mapping's source filter.
   */
  fetchHits?(hits: readonly TopHitRef[], spec: TopHitsSpec): Array<Record<string, unknown>>;
}

export const DEFAULT_MAX_BUCKETS = 65_536;
export const DEFAULT_MAX_INNER_RESULT_WINDOW = 100;

/**
 * MultiBucketConsumer: counts buckets as they are built (shard) or reduced (coordinating node) and fails the
 * request once the count exceeds `search.max_buckets`.
 *
 * On a shard, ES counts a terms aggregation's buckets only when it builds its results, after every document has
 * been collected: a hundred terms aggregations of size 60,000 would collect the whole index before failing.
 * Here top-level aggregations also pledge, while collecting, the buckets they are already certain to return
 * (a terms aggregation that has seen 900 distinct terms returns at least min(900, shard_size) of them), so the
 * same too_many_buckets_exception comes as soon as the pledges alone pass the limit.
 */
export class BucketConsumer {
  private count = 0;
  private pledged = 0;
  constructor(readonly limit: number) {}

  accept(buckets: number): void {
    if (buckets === 0) return;
    this.count += buckets;
    if (this.count + this.pledged > this.limit) throw aggErrors.tooManyBuckets(this.limit);
  }

  /** Buckets an aggregator is certain to build later; fails now if the build would fail then. */
  pledge(buckets: number): void {
    this.pledged += buckets;
    if (this.count + this.pledged > this.limit) throw aggErrors.tooManyBuckets(this.limit);
  }

  /** Withdraws a pledge (the aggregator is about to accept what it really builds). */
  release(buckets: number): void {
    this.pledged -= buckets;
  }

  get total(): number {
    return this.count;
  }
}

/**
 * What aggregations hold in memory, reported to the request circuit breaker (ES's AggregatorBase
 * addRequestCircuitBreakerBytes, label `<agg [name]>`) in steps, and released when the shard's query phase ends.
 */
export class AggregationMemory {
  private pending = 0;
  private reserved = 0;

  /** @param reserve adds bytes to the request breaker (throws circuit_breaking_exception); release takes them back */
  constructor(
    private readonly reserve: ((bytes: number, label: string) => void) | undefined,
    private readonly releaseBytes: ((bytes: number) => void) | undefined,
  ) {}

  add(name: string, bytes: number): void {
    if (this.reserve === undefined) return;
    this.pending += bytes;
    if (this.pending < MEMORY_STEP) return;
    const adding = this.pending;
    this.pending = 0;
    this.reserve(adding, `<agg [${name}]>`);
    this.reserved += adding;
  }

  release(): void {
    if (this.reserved > 0) this.releaseBytes?.(this.reserved);
    this.reserved = 0;
    this.pending = 0;
  }
}

/** Bytes gathered before the breaker is asked (a check per bucket would cost more than the bucket). */
const MEMORY_STEP = 256 * 1024;

/** Rough per-bucket costs of the structures here (a hash entry, ordinal arrays, a doc count). */
export const BUCKET_BYTES = 64;

/** The current document's score, for aggregations that need it (top_hits). */
export interface ScoreSource {
  score(): number;
}

export const NO_SCORES: ScoreSource = { score: () => NaN };
