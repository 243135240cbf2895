/**
 * Reduces histogram and date_histogram results (ES's InternalHistogram / InternalDateHistogram): buckets of
 * equal keys merge; the final reduce drops buckets under min_doc_count, or with min_doc_count 0 creates the
 * empty buckets between the first and last key and out to the extended bounds, then orders the buckets.
 * Empty buckets are counted against search.max_buckets as they are generated, so a tiny interval fails the
 * request instead of exhausting the heap.
 */
import type { InternalAggregation, InternalDateHistogram, InternalHistogram, KeyedBucket } from '../internal.js';
import type { BucketOrder } from '../spec.js';
import { createRounding } from '../support/rounding.js';
import { bucketComparator, consumeBuckets, type ReduceContext } from './reduce-context.js';

type ReduceSubs = (lists: InternalAggregation[][], ctx: ReduceContext) => InternalAggregation[];

function mergeBuckets(lists: readonly (readonly KeyedBucket[])[], ctx: ReduceContext, reduceSubs: ReduceSubs): KeyedBucket[] {
  const groups = new Map<number, KeyedBucket[]>();
  for (const buckets of lists) {
    for (const bucket of buckets) {
      const group = groups.get(bucket.key);
      if (group === undefined) groups.set(bucket.key, [bucket]);
      else group.push(bucket);
    }
  }
  return [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([key, buckets]) => {
      ctx.checkCancelled?.();
      return { key, docCount: buckets.reduce((sum, b) => sum + b.docCount, 0), aggs: reduceSubs(buckets.map((b) => b.aggs), ctx) };
    });
}

function orderBuckets(buckets: KeyedBucket[], order: BucketOrder): KeyedBucket[] {
  const first = order.elements[0]!;
  if (first.kind === 'key' && order.elements.length === 1) return first.asc ? buckets : buckets.reverse();
  return buckets.sort(bucketComparator<KeyedBucket>(order, (a, b) => a.key - b.key));
}

/** Fills empty buckets in key order, calling `nextKey` to walk keys (InternalHistogram.iterateEmptyBuckets). */
function withEmptyBuckets(
  buckets: readonly KeyedBucket[],
  ctx: ReduceContext,
  emptyAggs: InternalAggregation[],
  firstKey: number | null,
  lastKey: number | null,
  nextKey: (key: number) => number,
  before: (firstBucketKey: number, add: (key: number) => void) => void,
): KeyedBucket[] {
  const out: KeyedBucket[] = [];
  const add = (key: number): void => {
    consumeBuckets(ctx, 1);
    out.push({ key, docCount: 0, aggs: emptyAggs });
  };
  const guardedNext = (key: number): number => {
    const next = nextKey(key);
    // Keys must grow; a key beyond double precision would otherwise loop for ever.
    return next > key ? next : Infinity;
  };
  if (buckets.length === 0) {
    if (firstKey !== null && lastKey !== null) for (let key = firstKey; key <= lastKey; key = guardedNext(key)) add(key);
    return out;
  }
  before(buckets[0]!.key, add);
  for (let i = 0; i < buckets.length; i++) {
    if (i > 0) {
      for (let key = guardedNext(buckets[i - 1]!.key); key < buckets[i]!.key; key = guardedNext(key)) add(key);
    }
    consumeBuckets(ctx, 1);
    out.push(buckets[i]!);
  }
  const last = buckets[buckets.length - 1]!.key;
  if (lastKey !== null && lastKey > last) for (let key = guardedNext(last); key <= lastKey; key = guardedNext(key)) add(key);
  return out;
}

export function reduceHistogram(list: readonly InternalHistogram[], ctx: ReduceContext, reduceSubs: ReduceSubs): InternalHistogram {
  const reference = list[0]!;
  let buckets = mergeBuckets(list.map((h) => h.buckets), ctx, reduceSubs);
  if (!ctx.isFinal) return { ...reference, buckets };
  const info = reference.emptyBuckets;
  if (reference.minDocCount === 0 && info !== null) {
    const { interval, offset, minBound, maxBound } = info;
    const round = (key: number): number => Math.floor((key - offset) / interval) * interval + offset;
    const nextKey = (key: number): number => round(key + interval + interval / 2);
    const emptyAggs = reduceSubs([info.subAggs], ctx);
    buckets = withEmptyBuckets(
      buckets,
      ctx,
      emptyAggs,
      Number.isFinite(minBound) ? round(minBound) : null,
      Number.isFinite(maxBound) ? maxBound : null,
      nextKey,
      (firstBucketKey, add) => {
        if (!Number.isFinite(minBound)) return;
        for (let key = round(minBound); key < firstBucketKey; key = nextKey(key) > key ? nextKey(key) : Infinity) add(key);
      },
    );
  } else {
    buckets = buckets.filter((b) => b.docCount >= reference.minDocCount);
    consumeBuckets(ctx, buckets.length);
  }
  return { ...reference, buckets: orderBuckets(buckets, reference.order) };
}

export function reduceDateHistogram(list: readonly InternalDateHistogram[], ctx: ReduceContext, reduceSubs: ReduceSubs): InternalDateHistogram {
  const reference = list[0]!;
  let buckets = mergeBuckets(list.map((h) => h.buckets), ctx, reduceSubs);
  if (!ctx.isFinal) return { ...reference, buckets };
  const info = reference.emptyBuckets;
  if (reference.minDocCount === 0 && info !== null) {
    const offset = reference.offset;
    const rounding = createRounding(info.interval, info.zone, 0);
    const nextKey = (key: number): number => rounding.nextRoundingValue(key - offset) + offset;
    const bounds = info.bounds;
    const emptyAggs = reduceSubs([info.subAggs], ctx);
    const min = bounds?.min ?? null;
    const max = bounds?.max ?? null;
    buckets = withEmptyBuckets(
      buckets,
      ctx,
      emptyAggs,
      min === null || max === null ? null : min + offset,
      max === null ? null : max + offset,
      nextKey,
      (firstBucketKey, add) => {
        if (min === null) return;
        for (let key = min + offset; key < firstBucketKey; key = nextKey(key)) add(key);
      },
    );
  } else {
    buckets = buckets.filter((b) => b.docCount >= reference.minDocCount);
    consumeBuckets(ctx, buckets.length);
  }
  return { ...reference, buckets: orderBuckets(buckets, reference.order) };
}
