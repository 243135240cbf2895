/**
 * Aggregation results as shards produce them and the coordinating node reduces them (ES's
 * InternalAggregation classes). They are plain data (numbers, strings, arrays, typed arrays) so they can
 * cross the transport as they are; all behaviour lives in reduce/ and render/.
 *
 * Conventions kept from ES so shard results and final results mean the same thing: an empty min is
 * +Infinity and an empty max -Infinity, range bounds that are open are -Infinity/+Infinity, histogram
 * buckets are sorted by key ascending until the final reduce orders them.
 */
import type { HllState } from './metrics/hyperloglog.js';
import type { TDigestStateData } from './metrics/tdigest.js';
import type { BucketOrder, SortSpec } from './spec.js';
import type { FormatSpec } from './support/doc-value-format.js';
import type { DateInterval } from './support/rounding.js';
import type { ZoneRef } from '../../mapping/date/zones.js';

interface Base {
  readonly name: string;
  readonly meta: Readonly<Record<string, unknown>> | null;
}

export interface TermsBucket {
  readonly key: string | number;
  readonly docCount: number;
  /** Per-bucket error: at shard level 0; after reduce the summed error of shards that did not return the term. */
  docCountError: number;
  readonly aggs: InternalAggregation[];
}

export interface InternalTerms extends Base {
  readonly type: 'terms';
  /** Which ES class this is: StringTerms, LongTerms, DoubleTerms or UnmappedTerms. */
  readonly valueType: 'string' | 'long' | 'double' | 'unmapped';
  readonly format: FormatSpec;
  readonly order: BucketOrder;
  readonly requiredSize: number;
  readonly shardSize: number;
  readonly minDocCount: number;
  readonly showTermDocCountError: boolean;
  readonly otherDocCount: number;
  /** null on shard results (computed at reduce from the shard's buckets), a number after reduce. */
  readonly docCountError: number | null;
  readonly buckets: TermsBucket[];
}

export interface RangeBucket {
  readonly key: string;
  readonly from: number;
  readonly to: number;
  readonly docCount: number;
  readonly aggs: InternalAggregation[];
}

export interface InternalRange extends Base {
  readonly type: 'range' | 'date_range';
  readonly format: FormatSpec;
  readonly keyed: boolean;
  readonly buckets: RangeBucket[];
}

/** An ip_range bucket (ES's InternalBinaryRange.Bucket): bounds as hex of the addresses, null when open. */
export interface IpRangeBucket {
  readonly key: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly docCount: number;
  readonly aggs: InternalAggregation[];
}

export interface InternalIpRange extends Base {
  readonly type: 'ip_range';
  readonly keyed: boolean;
  readonly buckets: IpRangeBucket[];
}

/** An ip_prefix bucket (InternalIpPrefix.Bucket): the subnet's bytes in hex, 4 bytes for IPv4, 16 for IPv6. */
export interface IpPrefixBucket {
  readonly key: string;
  readonly docCount: number;
  readonly aggs: InternalAggregation[];
}

/** InternalIpPrefix: buckets sorted by key; `min_doc_count` applies at the final reduce. */
export interface InternalIpPrefix extends Base {
  readonly type: 'ip_prefix';
  readonly keyed: boolean;
  readonly minDocCount: number;
  readonly isIpv6: boolean;
  readonly prefixLength: number;
  readonly appendPrefixLength: boolean;
  readonly buckets: IpPrefixBucket[];
}

export interface KeyedBucket {
  readonly key: number;
  readonly docCount: number;
  readonly aggs: InternalAggregation[];
}

export interface InternalHistogram extends Base {
  readonly type: 'histogram';
  readonly format: FormatSpec;
  readonly keyed: boolean;
  readonly order: BucketOrder;
  readonly minDocCount: number;
  /** Present when min_doc_count is 0: what reduce needs to create the empty buckets. */
  readonly emptyBuckets: { readonly interval: number; readonly offset: number; readonly minBound: number; readonly maxBound: number; readonly subAggs: InternalAggregation[] } | null;
  readonly buckets: KeyedBucket[];
}

export interface InternalDateHistogram extends Base {
  readonly type: 'date_histogram';
  readonly format: FormatSpec;
  readonly keyed: boolean;
  readonly order: BucketOrder;
  readonly minDocCount: number;
  readonly offset: number;
  readonly emptyBuckets: {
    readonly interval: DateInterval;
    readonly zone: ZoneRef;
    /** Extended bounds rounded without the offset (ES adds the offset when it walks them). */
    readonly bounds: { readonly min: number | null; readonly max: number | null } | null;
    readonly subAggs: InternalAggregation[];
  } | null;
  readonly buckets: KeyedBucket[];
}

export interface InternalSingleBucket extends Base {
  readonly type: 'filter' | 'missing';
  readonly docCount: number;
  readonly aggs: InternalAggregation[];
}

export interface FiltersBucket {
  readonly key: string;
  readonly docCount: number;
  readonly aggs: InternalAggregation[];
}

export interface InternalFilters extends Base {
  readonly type: 'filters';
  readonly keyed: boolean;
  readonly buckets: FiltersBucket[];
}

export interface InternalMinMax extends Base {
  readonly type: 'min' | 'max';
  readonly value: number;
  readonly format: FormatSpec;
}

export interface InternalSum extends Base {
  readonly type: 'sum';
  readonly sum: number;
  readonly format: FormatSpec;
}

export interface InternalAvg extends Base {
  readonly type: 'avg';
  readonly sum: number;
  readonly count: number;
  readonly format: FormatSpec;
}

export interface InternalValueCount extends Base {
  readonly type: 'value_count';
  readonly value: number;
}

export interface InternalStats extends Base {
  readonly type: 'stats';
  readonly count: number;
  readonly sum: number;
  readonly min: number;
  readonly max: number;
  readonly format: FormatSpec;
}

export interface InternalExtendedStats extends Base {
  readonly type: 'extended_stats';
  readonly count: number;
  readonly sum: number;
  readonly min: number;
  readonly max: number;
  readonly sumOfSquares: number;
  readonly sigma: number;
  readonly format: FormatSpec;
}

export interface InternalCardinality extends Base {
  readonly type: 'cardinality';
  /** null when the field is unmapped (ES's empty sketch). */
  readonly sketch: HllState | null;
}

export interface InternalPercentiles extends Base {
  readonly type: 'percentiles';
  readonly percents: readonly number[];
  readonly state: TDigestStateData | null;
  readonly keyed: boolean;
  readonly format: FormatSpec;
}

export interface InternalPercentileRanks extends Base {
  readonly type: 'percentile_ranks';
  readonly values: readonly number[];
  readonly state: TDigestStateData | null;
  readonly keyed: boolean;
  readonly format: FormatSpec;
}

/** One hit of a top_hits bucket: already fetched (rendered) by the shard, plus what merging needs. */
export interface TopHit {
  readonly score: number;
  /** Sort values as JSON values (numbers, strings or null), one per sort element. */
  readonly sortValues: readonly (number | bigint | string | null)[];
  /** Order of the hit on its shard, the final tie-break. */
  readonly shardIndex: number;
  readonly docId: number;
  readonly rendered: Readonly<Record<string, unknown>>;
}

export interface InternalTopHits extends Base {
  readonly type: 'top_hits';
  readonly from: number;
  readonly size: number;
  readonly sort: readonly SortSpec[];
  readonly totalHits: number;
  /** NaN when scores were not tracked. */
  readonly maxScore: number;
  /** from + size best hits of the shard (after reduce: the requested page). */
  readonly hits: TopHit[];
}

export type InternalAggregation =
  | InternalTerms
  | InternalRange
  | InternalIpRange
  | InternalIpPrefix
  | InternalHistogram
  | InternalDateHistogram
  | InternalSingleBucket
  | InternalFilters
  | InternalMinMax
  | InternalSum
  | InternalAvg
  | InternalValueCount
  | InternalStats
  | InternalExtendedStats
  | InternalCardinality
  | InternalPercentiles
  | InternalPercentileRanks
  | InternalTopHits;
