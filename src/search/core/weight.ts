/**
 * A query bound to a searcher's statistics (Lucene's Weight): it holds everything that depends on the index
 * as a whole (docFreqs, field statistics, BM25's per-term cache) and hands out one Scorer per segment.
 */
import type { Explanation } from '../explanation.js';
import type { LeafContext } from './leaf-context.js';
import type { Query } from './query.js';
import type { Scorer } from './scorer.js';

export abstract class Weight {
  constructor(readonly query: Query) {}

  /** A scorer over the segment's matches, or null when nothing in the segment can match. */
  abstract scorer(leaf: LeafContext): Scorer | null;

  /** Why `doc` (a segment doc id) matches or not, with the same value score() gives. */
  abstract explain(leaf: LeafContext, doc: number): Explanation;

  /** The segment's exact match count (live docs only) when known without iterating, else -1. */
  count(_leaf: LeafContext): number {
    return -1;
  }
}

/** Positions `scorer` on `doc` if it matches; a fresh scorer from the weight is used, as Lucene's explain does. */
export function scorerOn(weight: Weight, leaf: LeafContext, doc: number): Scorer | null {
  const scorer = weight.scorer(leaf);
  if (scorer === null) return null;
  return scorer.advance(doc) === doc ? scorer : null;
}
