/**
 * Reduces the aggregation results of several shards (or partial reductions) into one (ES's
 * InternalAggregations.reduce): results are matched by name, then each type merges as ES does. Sums use
 * Kahan summation, sketches merge losslessly, top hits merge by their sort.
 */
import type {
  InternalAggregation,
  InternalAvg,
  InternalCardinality,
  InternalExtendedStats,
  InternalFilters,
  InternalMinMax,
  InternalPercentileRanks,
  InternalPercentiles,
  InternalIpPrefix,
  InternalIpRange,
  InternalRange,
  InternalSingleBucket,
  InternalStats,
  InternalSum,
  InternalTopHits,
  InternalValueCount,
  TopHit,
} from '../internal.js';
import { HyperLogLogPlusPlus } from '../metrics/hyperloglog.js';
import { TDigest } from '../metrics/tdigest.js';
import { compareSortValues } from '../metrics/top-hits-aggregator.js';
import { KahanSum } from '../support/arrays.js';
import { reduceDateHistogram, reduceHistogram } from './histogram-reduce.js';
import { consumeBuckets, type ReduceContext } from './reduce-context.js';
import { reduceTerms } from './terms-reduce.js';

/** Reduces lists of sibling results (one list per shard) into one list, in the first list's order. */
export function reduceAggregations(lists: readonly (readonly InternalAggregation[])[], ctx: ReduceContext): InternalAggregation[] {
  const byName = new Map<string, InternalAggregation[]>();
  for (const list of lists) {
    for (const agg of list) {
      const group = byName.get(agg.name);
      if (group === undefined) byName.set(agg.name, [agg]);
      else group.push(agg);
    }
  }
  return [...byName.values()].map((group) => reduceOne(group, ctx));
}

function subs(lists: InternalAggregation[][], ctx: ReduceContext): InternalAggregation[] {
  return reduceAggregations(lists, ctx);
}

function reduceOne(group: InternalAggregation[], ctx: ReduceContext): InternalAggregation {
  const first = group[0]!;
  switch (first.type) {
    case 'terms':
      return reduceTerms(group as typeof first[], ctx, subs);
    case 'histogram':
      return reduceHistogram(group as typeof first[], ctx, subs);
    case 'date_histogram':
      return reduceDateHistogram(group as typeof first[], ctx, subs);
    case 'range':
    case 'date_range':
      return reduceRange(group as InternalRange[], ctx);
    case 'ip_range':
      return reduceIpRange(group as InternalIpRange[], ctx);
    case 'ip_prefix':
      return reduceIpPrefix(group as InternalIpPrefix[], ctx);
    case 'filter':
    case 'missing':
      return reduceSingleBucket(group as InternalSingleBucket[], ctx);
    case 'filters':
      return reduceFilters(group as InternalFilters[], ctx);
    case 'min':
    case 'max':
      return reduceMinMax(group as InternalMinMax[]);
    case 'sum':
      return { ...first, sum: kahan((group as InternalSum[]).map((g) => g.sum)) };
    case 'avg':
      return { ...first, sum: kahan((group as InternalAvg[]).map((g) => g.sum)), count: (group as InternalAvg[]).reduce((n, g) => n + g.count, 0) };
    case 'value_count':
      return { ...first, value: (group as InternalValueCount[]).reduce((n, g) => n + g.value, 0) };
    case 'stats':
      return reduceStats(group as InternalStats[]);
    case 'extended_stats':
      return { ...reduceStats(group as InternalExtendedStats[]), sumOfSquares: kahan((group as InternalExtendedStats[]).map((g) => g.sumOfSquares)) } as InternalExtendedStats;
    case 'cardinality':
      return reduceCardinality(group as InternalCardinality[]);
    case 'percentiles':
    case 'percentile_ranks':
      return reduceDigests(group as Array<InternalPercentiles | InternalPercentileRanks>);
    case 'top_hits':
      return reduceTopHits(group as InternalTopHits[], ctx);
  }
}

function kahan(values: readonly number[]): number {
  const sum = new KahanSum();
  for (const value of values) sum.add(value);
  return sum.value();
}

function reduceMinMax(group: InternalMinMax[]): InternalMinMax {
  const first = group[0]!;
  const pick = first.type === 'min' ? Math.min : Math.max;
  return { ...first, value: group.reduce((v, g) => pick(v, g.value), first.type === 'min' ? Infinity : -Infinity) };
}

function reduceStats<T extends InternalStats | InternalExtendedStats>(group: T[]): T {
  const first = group[0]!;
  return {
    ...first,
    count: group.reduce((n, g) => n + g.count, 0),
    sum: kahan(group.map((g) => g.sum)),
    min: group.reduce((v, g) => Math.min(v, g.min), Infinity),
    max: group.reduce((v, g) => Math.max(v, g.max), -Infinity),
  };
}

function reduceRange(group: InternalRange[], ctx: ReduceContext): InternalRange {
  const first = group[0]!;
  consumeBuckets(ctx, first.buckets.length);
  return {
    ...first,
    buckets: first.buckets.map((bucket, i) => ({
      ...bucket,
      docCount: group.reduce((n, g) => n + g.buckets[i]!.docCount, 0),
      aggs: reduceAggregations(group.map((g) => g.buckets[i]!.aggs), ctx),
    })),
  };
}

/** InternalBinaryRange.reduce: every shard has the same ranges in the same order. */
function reduceIpRange(group: InternalIpRange[], ctx: ReduceContext): InternalIpRange {
  const first = group[0]!;
  consumeBuckets(ctx, first.buckets.length);
  return {
    ...first,
    buckets: first.buckets.map((bucket, i) => ({
      ...bucket,
      docCount: group.reduce((n, g) => n + g.buckets[i]!.docCount, 0),
      aggs: reduceAggregations(group.map((g) => g.buckets[i]!.aggs), ctx),
    })),
  };
}

/**
 * InternalIpPrefix.reduce: the shards' sorted buckets merged by key (hex of equal-length bytes sorts as the
 * bytes do); the final reduce drops buckets under `min_doc_count`.
 */
function reduceIpPrefix(group: InternalIpPrefix[], ctx: ReduceContext): InternalIpPrefix {
  const byKey = new Map<string, InternalIpPrefix['buckets'][number][]>();
  for (const result of group) {
    for (const bucket of result.buckets) {
      const same = byKey.get(bucket.key);
      if (same === undefined) byKey.set(bucket.key, [bucket]);
      else same.push(bucket);
    }
  }
  const first = group[0]!;
  const buckets: InternalIpPrefix['buckets'] = [];
  for (const key of [...byKey.keys()].sort()) {
    const same = byKey.get(key)!;
    const docCount = same.reduce((n, bucket) => n + bucket.docCount, 0);
    if (ctx.isFinal && docCount < first.minDocCount) continue;
    buckets.push({ key, docCount, aggs: reduceAggregations(same.map((bucket) => bucket.aggs), ctx) });
  }
  consumeBuckets(ctx, buckets.length);
  return { ...first, buckets };
}

function reduceSingleBucket(group: InternalSingleBucket[], ctx: ReduceContext): InternalSingleBucket {
  return {
    ...group[0]!,
    docCount: group.reduce((n, g) => n + g.docCount, 0),
    aggs: reduceAggregations(group.map((g) => g.aggs), ctx),
  };
}

function reduceFilters(group: InternalFilters[], ctx: ReduceContext): InternalFilters {
  const first = group[0]!;
  consumeBuckets(ctx, first.buckets.length);
  return {
    ...first,
    buckets: first.buckets.map((bucket, i) => ({
      ...bucket,
      docCount: group.reduce((n, g) => n + g.buckets[i]!.docCount, 0),
      aggs: reduceAggregations(group.map((g) => g.buckets[i]!.aggs), ctx),
    })),
  };
}

function reduceCardinality(group: InternalCardinality[]): InternalCardinality {
  let merged: HyperLogLogPlusPlus | null = null;
  for (const agg of group) {
    if (agg.sketch === null) continue;
    if (merged === null) merged = new HyperLogLogPlusPlus(agg.sketch.precision);
    merged.merge(agg.sketch);
  }
  return { ...group[0]!, sketch: merged === null ? null : merged.state() };
}

/** AbstractInternalTDigestPercentiles.reduce: a fresh digest of the first state's compression takes each state in order. */
function reduceDigests<T extends InternalPercentiles | InternalPercentileRanks>(group: T[]): T {
  let merged: TDigest | null = null;
  for (const agg of group) {
    if (agg.state === null) continue;
    if (merged === null) merged = new TDigest(agg.state.compression);
    merged.addState(agg.state);
  }
  return { ...group[0]!, state: merged === null ? null : merged.state() };
}

function reduceTopHits(group: InternalTopHits[], ctx: ReduceContext): InternalTopHits {
  const first = group[0]!;
  // TopDocs.merge: by the sort, then by shard, then by position on the shard.
  const all: TopHit[] = [];
  group.forEach((agg, shard) => agg.hits.forEach((hit) => all.push({ ...hit, shardIndex: shard })));
  all.sort((a, b) => compareSortValues(first.sort, a.sortValues, b.sortValues) || a.shardIndex - b.shardIndex || a.docId - b.docId);
  const hits = ctx.isFinal ? all.slice(first.from, first.from + first.size) : all.slice(0, first.from + first.size);
  let maxScore = NaN;
  for (const agg of group) if (!Number.isNaN(agg.maxScore)) maxScore = Number.isNaN(maxScore) ? agg.maxScore : Math.max(maxScore, agg.maxScore);
  return { ...first, from: ctx.isFinal ? 0 : first.from, totalHits: group.reduce((n, g) => n + g.totalHits, 0), maxScore, hits };
}
