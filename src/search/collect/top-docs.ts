/**
 * Results of a top-k search (Lucene's TopDocs / TotalHits) and Elasticsearch's reading of the total.
 *
 * The count is exact (`eq`) until the collector starts skipping non-competitive documents, which it does
 * only after more than `trackTotalHitsUpTo` hits; from then on it is a lower bound (`gte`).
 */

export type TotalHitsRelation = 'eq' | 'gte';

export interface TotalHits {
  readonly value: number;
  readonly relation: TotalHitsRelation;
}

export interface ScoreDoc {
  /** Searcher-wide doc id (segment docBase + segment doc). */
  readonly doc: number;
  /** A float; NaN when the search did not compute scores (sorted without track_scores). */
  readonly score: number;
}

/** A sort value as Elasticsearch prints it in a hit's `sort` array. */
export type SortValue = number | bigint | string | null;

export interface FieldDoc extends ScoreDoc {
  readonly sortValues: readonly SortValue[];
}

export interface TopDocs<T extends ScoreDoc = ScoreDoc> {
  readonly totalHits: TotalHits;
  readonly scoreDocs: readonly T[];
  /** Best score among all hits (NaN when none or when scores were not computed). */
  readonly maxScore: number;
  /** True when terminate_after stopped the search. */
  readonly terminatedEarly: boolean;
}

/** ES's default `track_total_hits`. */
export const DEFAULT_TRACK_TOTAL_HITS_UP_TO = 10_000;

/**
 * The total Elasticsearch reports for a shard's count under `track_total_hits: upTo` (SearchPhaseController's
 * TopDocsStats): beyond `upTo` the value is clamped to `upTo` with relation `gte`; `true` (Infinity) is exact.
 */
export function esTotalHits(totalHits: TotalHits, trackTotalHitsUpTo: number): TotalHits {
  if (trackTotalHitsUpTo === Infinity || totalHits.value <= trackTotalHitsUpTo) return totalHits;
  return { value: trackTotalHitsUpTo, relation: 'gte' };
}
