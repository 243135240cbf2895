/**
 * What a request's `aggs` section asks for, as typed values (ES's AggregationBuilders after parsing). Nothing
 * here knows about segments or mappings: field names are resolved when aggregators are created.
 */
import type { ZoneRef } from '../../mapping/date/zones.js';
import type { CalendarUnit } from './support/rounding.js';

export type OrderElement =
  | { readonly kind: 'count'; readonly asc: boolean }
  | { readonly kind: 'key'; readonly asc: boolean }
  /** A sub-aggregation path such as `avg_price`, `stats.max` or `filtered>count`. */
  | { readonly kind: 'path'; readonly path: string; readonly asc: boolean };

/** BucketOrder: one element, or a compound whose ties fall through to the next element. */
export interface BucketOrder {
  readonly elements: readonly OrderElement[];
}

export type MissingValue = string | number | boolean;

/** The values-source part every field-based aggregation shares (ValuesSourceAggregationBuilder). */
export interface ValuesSourceSpec {
  readonly field: string | null;
  readonly script: unknown;
  readonly missing: MissingValue | undefined;
  readonly format: string | null;
  readonly timeZone: ZoneRef | null;
  readonly valueType: string | null;
}

interface Common {
  readonly name: string;
  readonly meta: Readonly<Record<string, unknown>> | null;
  readonly subAggregations: readonly AggregationSpec[];
}

export type IncludeExclude =
  | { readonly kind: 'regex'; readonly include: string | null; readonly exclude: string | null }
  | { readonly kind: 'set'; readonly include: readonly (string | number)[] | null; readonly exclude: readonly (string | number)[] | null }
  | { readonly kind: 'partition'; readonly partition: number; readonly numPartitions: number };

export interface TermsSpec extends Common {
  readonly type: 'terms';
  readonly source: ValuesSourceSpec;
  readonly size: number;
  /** -1 when not given (then size * 1.5 + 10 unless ordered by key). */
  readonly shardSize: number;
  readonly minDocCount: number;
  readonly shardMinDocCount: number;
  readonly order: BucketOrder;
  readonly includeExclude: IncludeExclude | null;
  readonly showTermDocCountError: boolean;
}

export interface RangeEntry {
  readonly key: string | null;
  readonly from: number | string | null;
  readonly to: number | string | null;
}

export interface RangeSpec extends Common {
  readonly type: 'range' | 'date_range';
  readonly source: ValuesSourceSpec;
  readonly ranges: readonly RangeEntry[];
  readonly keyed: boolean;
}

/**
 * One range of ip_range, with its bounds already read as ES's IpRangeAggregationBuilder.Range reads them: hex of
 * the 16-byte addresses, `from` inclusive and `to` exclusive, null when open (a mask gives both, minus the ends
 * of the address space). `key` is the given key, the mask itself for a mask range, or null (printed "from-to").
 */
export interface IpRangeEntry {
  readonly key: string | null;
  readonly from: string | null;
  readonly to: string | null;
}

export interface IpRangeSpec extends Common {
  readonly type: 'ip_range';
  readonly source: ValuesSourceSpec;
  readonly ranges: readonly IpRangeEntry[];
  readonly keyed: boolean;
}

/**
 * ip_prefix (IpPrefixAggregationBuilder): `prefixLength` is -1 when not given, and is checked against the address
 * family when the aggregator is built, as ES's innerBuild does.
 */
export interface IpPrefixSpec extends Common {
  readonly type: 'ip_prefix';
  readonly source: ValuesSourceSpec;
  readonly prefixLength: number;
  readonly isIpv6: boolean;
  readonly appendPrefixLength: boolean;
  readonly minDocCount: number;
  readonly keyed: boolean;
}

export interface HistogramSpec extends Common {
  readonly type: 'histogram';
  readonly source: ValuesSourceSpec;
  readonly interval: number;
  readonly offset: number;
  readonly minDocCount: number;
  readonly extendedBounds: { readonly min: number | null; readonly max: number | null } | null;
  readonly hardBounds: { readonly min: number | null; readonly max: number | null } | null;
  readonly order: BucketOrder;
  readonly keyed: boolean;
}

export type DateBound = number | string | null;

export interface DateHistogramSpec extends Common {
  readonly type: 'date_histogram';
  readonly source: ValuesSourceSpec;
  readonly interval: { readonly kind: 'calendar'; readonly unit: CalendarUnit; readonly text: string } | { readonly kind: 'fixed'; readonly millis: number; readonly text: string } | null;
  readonly offset: number;
  readonly minDocCount: number;
  readonly extendedBounds: { readonly min: DateBound; readonly max: DateBound } | null;
  readonly hardBounds: { readonly min: DateBound; readonly max: DateBound } | null;
  readonly order: BucketOrder;
  readonly keyed: boolean;
}

export interface FilterSpec extends Common {
  readonly type: 'filter';
  /** The query, as the search layer's parse hook returned it (raw JSON without a hook). */
  readonly query: unknown;
}

export interface FiltersSpec extends Common {
  readonly type: 'filters';
  readonly filters: readonly { readonly key: string; readonly query: unknown }[];
  /** True when filters were given as an object (named buckets). */
  readonly keyed: boolean;
  readonly otherBucket: boolean;
  readonly otherBucketKey: string;
}

export interface MissingSpec extends Common {
  readonly type: 'missing';
  readonly source: ValuesSourceSpec;
}

export type SimpleMetricType = 'min' | 'max' | 'avg' | 'sum' | 'value_count' | 'stats';

export interface SimpleMetricSpec extends Common {
  readonly type: SimpleMetricType;
  readonly source: ValuesSourceSpec;
}

export interface ExtendedStatsSpec extends Common {
  readonly type: 'extended_stats';
  readonly source: ValuesSourceSpec;
  readonly sigma: number;
}

export interface CardinalitySpec extends Common {
  readonly type: 'cardinality';
  readonly source: ValuesSourceSpec;
  readonly precisionThreshold: number | null;
}

export interface PercentilesSpec extends Common {
  readonly type: 'percentiles';
  readonly source: ValuesSourceSpec;
  /** Sorted ascending, as ES keeps them. */
  readonly percents: readonly number[];
  readonly keyed: boolean;
  readonly compression: number;
}

export interface PercentileRanksSpec extends Common {
  readonly type: 'percentile_ranks';
  readonly source: ValuesSourceSpec;
  /** The values whose ranks are asked, sorted ascending as ES keeps them. */
  readonly values: readonly number[];
  readonly keyed: boolean;
  readonly compression: number;
}

export interface SortSpec {
  /** `_score`, `_doc` or a field name. */
  readonly field: string;
  readonly asc: boolean;
  readonly missing: 'first' | 'last' | number | string | null;
}

export interface SourceSpec {
  readonly fetch: boolean;
  readonly includes: readonly string[];
  readonly excludes: readonly string[];
}

export interface TopHitsSpec extends Common {
  readonly type: 'top_hits';
  readonly from: number;
  readonly size: number;
  readonly sort: readonly SortSpec[];
  readonly fetchSource: SourceSpec;
  readonly trackScores: boolean;
  readonly version: boolean;
  readonly seqNoPrimaryTerm: boolean;
}

export type AggregationSpec =
  | TermsSpec
  | RangeSpec
  | IpRangeSpec
  | IpPrefixSpec
  | HistogramSpec
  | DateHistogramSpec
  | FilterSpec
  | FiltersSpec
  | MissingSpec
  | SimpleMetricSpec
  | ExtendedStatsSpec
  | CardinalitySpec
  | PercentilesSpec
  | PercentileRanksSpec
  | TopHitsSpec;

export type AggregationType = AggregationSpec['type'];

/** Aggregations that never take sub-aggregations (ES's metrics aggregations). */
export const METRIC_TYPES: ReadonlySet<AggregationType> = new Set([
  'min',
  'max',
  'avg',
  'sum',
  'value_count',
  'stats',
  'extended_stats',
  'cardinality',
  'percentiles',
  'percentile_ranks',
  'top_hits',
]);
