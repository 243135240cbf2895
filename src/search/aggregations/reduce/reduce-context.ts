/**
 * How a reduce runs (ES's AggregationReduceContext): a partial reduce (a batch of shard results on the way)
 * keeps everything and counts nothing; the final reduce applies size, min_doc_count and empty buckets, and
 * counts the buckets of the response against search.max_buckets.
 */
import { BucketConsumer, DEFAULT_MAX_BUCKETS } from '../context.js';
import { aggErrors } from '../agg-errors.js';
import type { InternalAggregation } from '../internal.js';
import { compareDoubles, parseOrderPath, pathToString, type PathElement } from '../support/order-path.js';
import type { BucketOrder } from '../spec.js';
import { statsValue, extendedStatsValue } from '../metrics/stats-values.js';
import { HyperLogLogPlusPlus } from '../metrics/hyperloglog.js';
import { percentileRankOfState, quantileOfState } from '../metrics/tdigest.js';

export interface ReduceContext {
  readonly isFinal: boolean;
  /** Null for partial reduces: ES counts buckets only in the final reduce. */
  readonly consumer: BucketConsumer | null;
  /** Called as buckets are produced (ES checks cancellation there); throw to abort the reduce. */
  readonly checkCancelled?: () => void;
}

export function finalReduceContext(maxBuckets: number = DEFAULT_MAX_BUCKETS, checkCancelled?: () => void): ReduceContext {
  return { isFinal: true, consumer: new BucketConsumer(maxBuckets), checkCancelled };
}

export function partialReduceContext(checkCancelled?: () => void): ReduceContext {
  return { isFinal: false, consumer: null, checkCancelled };
}

export const PARTIAL_REDUCE: ReduceContext = { isFinal: false, consumer: null };

export function consumeBuckets(ctx: ReduceContext, count: number): void {
  ctx.checkCancelled?.();
  ctx.consumer?.accept(count);
}

/** The value a reduced bucket sorts by for an order path (InternalAggregation.getProperty / sortValue). */
export function sortValueOf(aggs: readonly InternalAggregation[], path: readonly PathElement[], index = 0): number {
  const element = path[index]!;
  const agg = aggs.find((a) => a.name === element.name);
  if (agg === undefined) {
    throw aggErrors.invalidOrderPath(
      pathToString(path),
      `The provided aggregation [${pathToString([element])}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.`,
    );
  }
  if (index < path.length - 1) {
    if (agg.type !== 'filter' && agg.type !== 'missing') {
      throw aggErrors.invalidOrderPath(pathToString(path), `Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end. [${agg.name}] is not single-bucket.`);
    }
    return sortValueOf(agg.aggs, path, index + 1);
  }
  const key = element.key;
  switch (agg.type) {
    case 'filter':
    case 'missing':
      return agg.docCount;
    case 'min':
    case 'max':
      return agg.value;
    case 'sum':
      return agg.sum;
    case 'avg':
      return agg.sum / agg.count;
    case 'value_count':
      return agg.value;
    case 'cardinality':
      return agg.sketch === null ? 0 : HyperLogLogPlusPlus.fromState(agg.sketch).cardinality();
    case 'stats':
      return statsValue(key ?? '', agg);
    case 'extended_stats':
      return extendedStatsValue(key ?? '', agg);
    case 'percentiles':
      return agg.state === null ? NaN : quantileOfState(agg.state, Number(key) / 100);
    case 'percentile_ranks':
      return agg.state === null ? NaN : percentileRankOfState(agg.state, Number(key));
    default:
      throw aggErrors.invalidOrderPath(pathToString(path), 'Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.');
  }
}

export interface OrderedBucket {
  readonly key: string | number;
  readonly docCount: number;
  readonly aggs: readonly InternalAggregation[];
}

/** A BucketOrder as a comparator of reduced buckets; keys compare with `compareKeys`. */
export function bucketComparator<B extends OrderedBucket>(order: BucketOrder, compareKeys: (a: B, b: B) => number): (a: B, b: B) => number {
  const paths = order.elements.map((e) => (e.kind === 'path' ? parseOrderPath(e.path) : null));
  return (a, b) => {
    for (let i = 0; i < order.elements.length; i++) {
      const element = order.elements[i]!;
      let result: number;
      if (element.kind === 'count') result = a.docCount - b.docCount;
      else if (element.kind === 'key') result = compareKeys(a, b);
      else result = compareDoubles(sortValueOf(a.aggs, paths[i]!), sortValueOf(b.aggs, paths[i]!));
      if (result !== 0) return element.asc ? result : -result;
    }
    return 0;
  };
}
