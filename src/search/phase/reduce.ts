/**
 * The coordinating node's reduce of the query phase (ES's SearchPhaseController.reducedQueryPhase and
 * sortDocs): merges every shard's top hits into one page as Lucene's TopDocs.merge does (by score
 * descending, or by the sort values; ties go to the lower shard index, then the lower doc id), sums the
 * totals (a lower bound if any shard's is one, clamped to track_total_hits), takes the best max_score,
 * reduces aggregations, and ORs timed_out / terminated_early.
 */
import { finalReduceContext, reduceAggregations, type InternalAggregation } from '../aggregations/index.js';
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

export function reduceQueryPhase(outcomes: readonly ShardQueryOutcome[], options: ReduceOptions): ReducedQueryPhase {
  const merged = mergeShardHits(outcomes, options.sort);
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
    const lists = outcomes.flatMap(({ result }) => (result.aggregations === undefined ? [] : [result.aggregations]));
    aggregations = reduceAggregations(lists, finalReduceContext(options.maxBuckets, options.checkCancelled));
  }
  return {
    totalHits,
    maxScore,
    hits,
    ...(aggregations !== undefined && { aggregations }),
    timedOut,
    ...(terminatedEarly !== undefined && { terminatedEarly }),
  };
}
