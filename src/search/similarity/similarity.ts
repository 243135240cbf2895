/**
 * The scoring model seen from queries (Lucene's Similarity): a Weight asks it once, with the statistics of
 * the whole searcher, for a SimScorer; the SimScorer then scores (freq, norm) pairs of one term (or phrase)
 * in any segment. Scores and explanations must agree exactly.
 */
import type { Explanation } from '../explanation.js';

/** Field-level statistics over every segment of a searcher (Lucene's CollectionStatistics). */
export interface CollectionStatistics {
  readonly field: string;
  /** Documents in the searcher, deleted ones included (Lucene counts them until they are merged away). */
  readonly maxDoc: number;
  /** Documents with at least one term in the field. */
  readonly docCount: number;
  readonly sumTotalTermFreq: number;
  readonly sumDocFreq: number;
}

/** Term-level statistics over every segment of a searcher (Lucene's TermStatistics). */
export interface TermStatistics {
  readonly term: Uint8Array;
  readonly docFreq: number;
  readonly totalTermFreq: number;
}

export interface SimScorer {
  /** Score of a document with term frequency `freq` (a float; sloppy phrases give fractions) and norm byte `norm`. */
  score(freq: number, norm: number): number;
  /** The same value as score(), as a tree; `freq` carries the frequency and how it was computed. */
  explain(freq: Explanation, norm: number): Explanation;
}

export interface Similarity {
  /** Printed in term and phrase explanations: `weight(f:t in 3) [<name>], result of:`. */
  readonly explainName: string;
  scorer(boost: number, collection: CollectionStatistics, terms: readonly TermStatistics[]): SimScorer;
}
