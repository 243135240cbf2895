/**
 * The coordinating node's reduce of the query phase (ES's SearchPhaseController.reducedQueryPhase and
 * sortDocs): merges every shard's top hits into one page as Lucene's TopDocs.merge does (by score
 * descending, or by the sort values; ties go to the lower shard index, then the lower doc id), sums the
 * totals (a lower bound if any shard's is one, clamped to track_total_hits), takes the best max_score,
 * reduces aggregations, and ORs timed_out / terminated_early.
 *
 * Shard results are consumed in shard order in batches of `batched_reduce_size`, as ES's QueryPhaseResultConsumer
 * does: whenever the buffer (plus the pending partial result) reaches the batch size, it is partially reduced
 * (top hits cut to from + size, aggregations reduced without their final step) and counted as a reduce phase;
 * the final reduce counts one more. A search reduced more than once reports `num_reduce_phases`.
 */
import { finalReduceContext, partialReduceContext, reduceAggregations, type InternalAggregation } from '../aggregations/index.js';
import type { SortValue, TotalHits } from '../collect/top-docs.js';
import { TRACK_TOTAL_HITS_ACCURATE, TRACK_TOTAL_HITS_DISABLED } from '../dsl/index.js';
import type { QueryPhaseResult } from './query-phase.js';
import { compareSortValues } from './sort-values.js';
import type { ResolvedSort } from './sort.js';

export interface ShardQueryOutcome {
  readonly shardIndex: number;
  readonly result: QueryPhaseResult;
}

export interface MergedHit {
  readonly shardIndex: number;
  readonly doc: number;
  readonly score: number;
  readonly sortValues?: readonly SortValue[];
}

export interface ReducedQueryPhase {
  /** Undefined when track_total_hits is false. */
  readonly totalHits: TotalHits | undefined;
  /** NaN when no shard computed one (prints as null). */
  readonly maxScore: number;
  /** The page: hits [from, from + size) of the merged order. */
  readonly hits: readonly MergedHit[];
  /** Reduced aggregations, when the request had any. */
  readonly aggregations?: InternalAggregation[];
  readonly timedOut: boolean;
  readonly terminatedEarly?: boolean;
  /** Partial reduces plus the final one (1 when everything was reduced at once). */
  readonly numReducePhases: number;
}

export interface ReduceOptions {
  readonly from: number;
  readonly size: number;
  readonly sort: ResolvedSort;
  readonly trackTotalHitsUpTo: number;
  /** Whether the request had aggregations (rendered even when every bucket list is empty). */
  readonly hasAggregations: boolean;
  readonly maxBuckets: number;
  readonly checkCancelled?: () => void;
  /** `batched_reduce_size` (SearchRequest's default 512 when not given). */
  readonly batchedReduceSize?: number;
  /** How many shard results the search expects (its shard count); the batch is never larger. */
  readonly expectedResults?: number;
}

/** SearchRequest.DEFAULT_BATCHED_REDUCE_SIZE. */
export const DEFAULT_BATCHED_REDUCE_SIZE = 512;

/** What a partial reduce leaves: the best from + size hits so far and partially reduced aggregations. */
interface PartialMerge {
  readonly hits: MergedHit[];
  readonly aggregations: InternalAggregation[] | undefined;
}

/** TopDocs.merge's order: the sort (or score descending), then shard index, then doc. */
export function compareMergedHits(a: MergedHit, b: MergedHit, sort: ResolvedSort): number {
  if (sort.relevance) {
    if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  } else {
    const cmp = compareSortValues(a.sortValues ?? [], b.sortValues ?? [], sort.fields);
    if (cmp !== 0) return cmp;
  }
  if (a.shardIndex !== b.shardIndex) return a.shardIndex - b.shardIndex;
  return a.doc - b.doc;
}

/** SearchPhaseController.TopDocsStats.getTotalHits. */
export function mergeTotalHits(totals: readonly TotalHits[], trackTotalHitsUpTo: number): TotalHits | undefined {
  if (trackTotalHitsUpTo === TRACK_TOTAL_HITS_DISABLED) return undefined;
  let value = 0;
  let relation: TotalHits['relation'] = 'eq';
  for (const total of totals) {
    value += total.value;
    if (total.relation === 'gte') relation = 'gte';
  }
  if (trackTotalHitsUpTo === TRACK_TOTAL_HITS_ACCURATE || value <= trackTotalHitsUpTo) return { value, relation };
  return { value: trackTotalHitsUpTo, relation: 'gte' };
}

export function mergeShardHits(outcomes: readonly ShardQueryOutcome[], sort: ResolvedSort): MergedHit[] {
  const all: MergedHit[] = [];
  for (const { shardIndex, result } of outcomes) {
    for (const hit of result.hits) all.push({ shardIndex, doc: hit.doc, score: hit.score, ...(hit.sortValues !== undefined && { sortValues: hit.sortValues }) });
  }
  return all.sort((a, b) => compareMergedHits(a, b, sort));
}

function hitsOf(outcome: ShardQueryOutcome): MergedHit[] {
  return outcome.result.hits.map((hit) => ({ shardIndex: outcome.shardIndex, doc: hit.doc, score: hit.score, ...(hit.sortValues !== undefined && { sortValues: hit.sortValues }) }));
}

function aggregationLists(outcomes: readonly ShardQueryOutcome[], previous: PartialMerge | undefined): InternalAggregation[][] {
  const lists = outcomes.flatMap(({ result }) => (result.aggregations === undefined ? [] : [result.aggregations]));
  return previous?.aggregations === undefined ? lists : [previous.aggregations, ...lists];
}

/** QueryPhaseResultConsumer.partialReduce: the buffer and the previous partial result into one. */
function partialReduce(buffer: readonly ShardQueryOutcome[], previous: PartialMerge | undefined, options: ReduceOptions): PartialMerge {
  const topN = options.from + options.size;
  const hits = [...(previous?.hits ?? []), ...buffer.flatMap(hitsOf)].sort((a, b) => compareMergedHits(a, b, options.sort)).slice(0, topN);
  const aggregations = options.hasAggregations ? reduceAggregations(aggregationLists(buffer, previous), partialReduceContext(options.checkCancelled)) : undefined;
  return { hits, aggregations };
}

/**
 * Feeds the shard results to the consumer in shard order (the order they would be consumed in when they all
 * arrive together): returns what is left in the buffer, the partial result, and how many partial reduces ran.
 */
function consumeInBatches(outcomes: readonly ShardQueryOutcome[], options: ReduceOptions): { buffer: ShardQueryOutcome[]; partial: PartialMerge | undefined; partialReduces: number } {
  const expected = options.expectedResults ?? outcomes.length;
  const batched = options.size !== 0 || options.hasAggregations;
  const batchSize = batched ? Math.min(options.batchedReduceSize ?? DEFAULT_BATCHED_REDUCE_SIZE, expected) : expected;
  let buffer: ShardQueryOutcome[] = [];
  let partial: PartialMerge | undefined;
  let partialReduces = 0;
  for (const outcome of [...outcomes].sort((a, b) => a.shardIndex - b.shardIndex)) {
    if (buffer.length + (partial === undefined ? 0 : 1) >= batchSize) {
      partial = partialReduce(buffer, partial, options);
      partialReduces++;
      buffer = [];
    }
    buffer.push(outcome);
  }
  return { buffer, partial, partialReduces };
}

export function reduceQueryPhase(outcomes: readonly ShardQueryOutcome[], options: ReduceOptions): ReducedQueryPhase {
  const { buffer, partial, partialReduces } = consumeInBatches(outcomes, options);
  const merged = [...(partial?.hits ?? []), ...buffer.flatMap(hitsOf)].sort((a, b) => compareMergedHits(a, b, options.sort));
  const hits = options.size === 0 ? [] : merged.slice(options.from, options.from + options.size);
  let maxScore = NaN;
  let timedOut = false;
  let terminatedEarly: boolean | undefined;
  for (const { result } of outcomes) {
    if (!Number.isNaN(result.maxScore) && !(result.maxScore <= maxScore)) maxScore = result.maxScore;
    if (result.timedOut) timedOut = true;
    if (result.terminatedEarly !== undefined) terminatedEarly = (terminatedEarly ?? false) || result.terminatedEarly;
  }
  const totalHits = mergeTotalHits(
    outcomes.map(({ result }) => result.totalHits),
    options.trackTotalHitsUpTo,
  );
  let aggregations: InternalAggregation[] | undefined;
  if (options.hasAggregations) {
    aggregations = reduceAggregations(aggregationLists(buffer, partial), finalReduceContext(options.maxBuckets, options.checkCancelled));
  }
  return {
    totalHits,
    maxScore,
    hits,
    ...(aggregations !== undefined && { aggregations }),
    timedOut,
    ...(terminatedEarly !== undefined && { terminatedEarly }),
    numReducePhases: partialReduces + 1,
  };
}
