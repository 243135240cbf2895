/**
 * Reduces terms results of several shards as ES's AbstractInternalTerms does:
 * - doc counts of the same term are summed and their sub-aggregations reduced;
 * - each shard contributes an error bound: 0 when it returned fewer buckets than its shard_size or the order
 *   is by key, the smallest doc count it returned when ordered by count descending, unbounded (-1) otherwise;
 *   the sum is `doc_count_error_upper_bound` (0 when a single result is reduced), and a term's own error is
 *   the sum over the shards that did not return it;
 * - the final reduce keeps `size` buckets with doc_count >= min_doc_count by the requested order and adds
 *   the doc counts of the dropped ones to `sum_other_doc_count` (buckets under min_doc_count are dropped
 *   without being counted, as ES does).
 */
import { aggErrors } from '../agg-errors.js';
import type { InternalAggregation, InternalTerms, TermsBucket } from '../internal.js';
import type { BucketOrder } from '../spec.js';
import { compareDoubles, compareTerms } from '../support/order-path.js';
import { bucketComparator, consumeBuckets, type ReduceContext } from './reduce-context.js';

type ReduceSubs = (lists: InternalAggregation[][], ctx: ReduceContext) => InternalAggregation[];

function isKeyOrder(order: BucketOrder): boolean {
  return order.elements[0]!.kind === 'key';
}

function isCountDesc(order: BucketOrder): boolean {
  const first = order.elements[0]!;
  return first.kind === 'count' && !first.asc;
}

/** AbstractInternalTerms.getDocCountError of one result. */
function docCountErrorOf(terms: InternalTerms): number {
  const size = terms.buckets.length;
  if (size === 0 || size < terms.shardSize || isKeyOrder(terms.order)) return 0;
  if (isCountDesc(terms.order)) {
    if (terms.docCountError !== null) return terms.docCountError;
    let min = Infinity;
    for (const bucket of terms.buckets) min = Math.min(min, bucket.docCount);
    return min;
  }
  return -1;
}

function compareKeys(a: string | number, b: string | number): number {
  return typeof a === 'string' || typeof b === 'string' ? compareTerms(String(a), String(b)) : compareDoubles(a, b);
}

interface Group {
  readonly key: string | number;
  readonly buckets: TermsBucket[];
  docCount: number;
}

export function reduceTerms(list: readonly InternalTerms[], ctx: ReduceContext, reduceSubs: ReduceSubs): InternalTerms {
  const mapped = list.filter((t) => t.valueType !== 'unmapped');
  const reference = mapped[0];
  if (reference === undefined) return list[0]!;
  let valueType = reference.valueType;
  for (const terms of mapped) {
    if (terms.valueType === valueType) continue;
    const numeric = (t: string): boolean => t === 'long' || t === 'double';
    // LongTerms reduced with DoubleTerms become DoubleTerms; strings never mix with numbers.
    if (numeric(terms.valueType) && numeric(valueType)) valueType = 'double';
    else throw aggErrors.reduceTypeMismatch(reference.name);
  }

  let sumDocCountError = 0;
  let otherDocCount = 0;
  const groups = new Map<string | number, Group>();
  for (const terms of mapped) {
    otherDocCount += terms.otherDocCount;
    const error = docCountErrorOf(terms);
    if (sumDocCountError !== -1) sumDocCountError = error === -1 ? -1 : sumDocCountError + error;
    for (const bucket of terms.buckets) {
      // Subtract this shard's error now; the total is added back once every shard is known.
      const copy: TermsBucket = { ...bucket, docCountError: bucket.docCountError - error };
      let group = groups.get(bucket.key);
      if (group === undefined) {
        group = { key: bucket.key, buckets: [], docCount: 0 };
        groups.set(bucket.key, group);
      }
      group.buckets.push(copy);
      group.docCount += bucket.docCount;
    }
  }

  const order = reference.order;
  const requiredSize = reference.requiredSize;
  const minDocCount = reference.minDocCount;
  const reduceGroup = (group: Group): TermsBucket => {
    let docCountError = 0;
    for (const bucket of group.buckets) {
      if (docCountError === -1) break;
      docCountError = !reference.showTermDocCountError || bucket.docCountError === -1 ? -1 : docCountError + bucket.docCountError;
    }
    return { key: group.key, docCount: group.docCount, docCountError, aggs: reduceSubs(group.buckets.map((b) => b.aggs), ctx) };
  };

  let result: TermsBucket[];
  const sortedGroups = [...groups.values()].sort((a, b) => compareKeys(a.key, b.key));
  if (isKeyOrder(order) && minDocCount <= 1) {
    // Ordered by key and not filtered: the first `size` keys win, the rest only count as "other".
    if (!order.elements[0]!.asc) sortedGroups.reverse();
    result = [];
    for (const group of sortedGroups) {
      if (result.length < requiredSize) {
        consumeBuckets(ctx, 1);
        result.push(reduceGroup(group));
      } else {
        otherDocCount += group.docCount;
      }
    }
  } else if (ctx.isFinal) {
    const candidates = sortedGroups.filter((g) => g.docCount >= minDocCount);
    const needsSubAggs = order.elements.some((e) => e.kind === 'path');
    let reduced: TermsBucket[];
    if (needsSubAggs) {
      // Ordering on a sub-aggregation needs it reduced; their buckets count only if they are kept.
      const scratch: ReduceContext = { isFinal: true, consumer: null, checkCancelled: ctx.checkCancelled };
      const ranked = candidates.map((g) => ({ group: g, bucket: { key: g.key, docCount: g.docCount, docCountError: 0, aggs: reduceSubs(g.buckets.map((b) => b.aggs), scratch) } }));
      const compare = bucketComparator<TermsBucket>(order, (a, b) => compareKeys(a.key, b.key));
      ranked.sort((a, b) => compare(a.bucket, b.bucket));
      reduced = [];
      ranked.forEach(({ group }, i) => {
        if (i < requiredSize) {
          consumeBuckets(ctx, 1);
          reduced.push(reduceGroup(group));
        } else {
          otherDocCount += group.docCount;
        }
      });
    } else {
      const compare = bucketComparator<Group & { aggs: [] }>(order, (a, b) => compareKeys(a.key, b.key));
      const ranked = candidates.map((g) => Object.assign(g, { aggs: [] as [] }));
      ranked.sort(compare);
      reduced = [];
      ranked.forEach((group, i) => {
        if (i < requiredSize) {
          consumeBuckets(ctx, 1);
          reduced.push(reduceGroup(group));
        } else {
          otherDocCount += group.docCount;
        }
      });
    }
    result = reduced;
  } else {
    result = sortedGroups.map((group) => {
      consumeBuckets(ctx, 1);
      return reduceGroup(group);
    });
  }

  for (const bucket of result) {
    // As ES: a bucket marked unbounded (-1) still gets the total added, which keeps it an upper bound.
    if (sumDocCountError === -1) bucket.docCountError = -1;
    else bucket.docCountError += sumDocCountError;
  }
  const docCountError = sumDocCountError === -1 ? -1 : list.length === 1 ? 0 : sumDocCountError;
  return { ...reference, valueType, otherDocCount, docCountError, buckets: result };
}
