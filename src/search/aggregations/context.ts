/**
 * What aggregations need from the search layer that drives them (ES's AggregationContext): field types,
 * the request's clock, compiled filter queries, the fetch of top_hits documents and the bucket limit.
 */
import type { TopHitsSpec } from './spec.js';
import type { FieldTypeLookup } from './support/field-types.js';
import type { AggregationSegment } from './support/values.js';
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
  /** The index name, for top_hits `_index` and fielddata errors. */
  readonly indexName: string;
  /** `index.max_inner_result_window` (100 by default). */
  readonly maxInnerResultWindow?: number;
  /**
   * Every segment of the shard's searcher, matching or not. terms with min_doc_count 0 lists every term of
   * the shard, as ES does from all leaves; without it only segments that reached a leaf collector count.
   */
  readonly segments?: readonly AggregationSegment[];
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
 */
export class BucketConsumer {
  private count = 0;
  constructor(readonly limit: number) {}

  accept(buckets: number): void {
    if (buckets === 0) return;
    this.count += buckets;
    if (this.count > this.limit) throw aggErrors.tooManyBuckets(this.limit);
  }

  get total(): number {
    return this.count;
  }
}

/** The current document's score, for aggregations that need it (top_hits). */
export interface ScoreSource {
  score(): number;
}

export const NO_SCORES: ScoreSource = { score: () => NaN };
