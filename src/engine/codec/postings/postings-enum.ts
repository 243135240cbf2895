/**
 * The cursor search uses over one term's postings in one segment (Lucene's PostingsEnum + ImpactsEnum).
 *
 * Contract (checked by the tests' AssertingPostingsEnum): docID() is -1 before the first nextDoc/advance,
 * then strictly increasing, then NO_MORE_DOCS forever; advance(target) requires target > docID() and lands on
 * the first doc >= target; freq() and nextPosition() are only meaningful on a current doc, and only when the
 * enum was asked for them (flags); nextPosition() may be called at most freq() times per doc.
 */
import type { TermImpacts } from './impacts.js';

export interface PostingsEnum {
  docID(): number;
  nextDoc(): number;
  advance(target: number): number;
  freq(): number;
  nextPosition(): number;
  /** Number of documents this cursor can visit (the term's docFreq). */
  cost(): number;
  /**
   * Moves the skip data (not the doc cursor) to the block that contains `target` and returns the last doc
   * of that block (Lucene's getDocIdUpTo(0)), or NO_MORE_DOCS when target is beyond the last doc.
   */
  advanceShallow(target: number): number;
  /** Index of the block the last advanceShallow landed on, into impacts(). */
  shallowBlock(): number;
  /** Per-block last docs and competitive impacts of the whole term. */
  impacts(): TermImpacts;
}
