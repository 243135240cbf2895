/**
 * A cursor over increasing doc ids of one segment (Lucene's DocIdSetIterator). docID() is -1 before the
 * first nextDoc()/advance(), then strictly increasing, then NO_MORE_DOCS for good. advance(target) lands on
 * the first doc >= target and may only be called with target > docID().
 */
import { NO_MORE_DOCS } from '../../engine/codec/index.js';

export { NO_MORE_DOCS };

export interface DocIdSetIterator {
  docID(): number;
  nextDoc(): number;
  advance(target: number): number;
  /** An estimate of how many docs the cursor can visit (conjunctions lead with the cheapest). */
  cost(): number;
}
