/**
 * A term looked up in every segment of a searcher once (Lucene's TermStates): the per-segment postings
 * location, and the searcher-wide docFreq and totalTermFreq that feed the term's statistics.
 */
import type { TermState } from '../../engine/codec/index.js';

export class TermStates {
  constructor(
    /** Indexed by leaf ord; null where the segment does not contain the term. */
    private readonly states: readonly (TermState | null)[],
    readonly docFreq: number,
    readonly totalTermFreq: number,
  ) {}

  get(leafOrd: number): TermState | null {
    return this.states[leafOrd] ?? null;
  }
}
