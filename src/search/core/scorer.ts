/**
 * A cursor over the matching documents of one segment that can score its current document (Lucene's Scorer
 * and its iterator in one object). Scorers that know score bounds (terms, through the postings' impacts;
 * boolean combinations of those) implement the block-max hooks, which top-k collection uses to skip:
 *
 * - advanceShallow(target): moves only the bound data to the block holding `target`; returns the last doc of
 *   that block (the window over which getMaxScore is exact), without moving docID().
 * - getMaxScore(upTo): an upper bound of score() for docs in [last advanceShallow target, upTo].
 * - setMinCompetitiveScore(min): from now on only docs with score >= min need to be returned; the scorer
 *   may skip any other (the hit count then becomes a lower bound).
 *
 * Scorers iterate every matching document, deleted ones included: deletes are applied where hits are
 * collected (IndexSearcher), as Lucene applies live docs in its bulk scorer, so inner clauses do not each
 * pay for the check.
 */
import type { LiveDocs } from '../../engine/codec/index.js';
import { NO_MORE_DOCS, type DocIdSetIterator } from './doc-id-set-iterator.js';

export abstract class Scorer implements DocIdSetIterator {
  abstract docID(): number;
  abstract nextDoc(): number;
  abstract advance(target: number): number;
  abstract cost(): number;
  /** Score of the current document; only called when docID() is a match. */
  abstract score(): number;

  advanceShallow(_target: number): number {
    return NO_MORE_DOCS;
  }

  getMaxScore(_upTo: number): number {
    return Infinity;
  }

  setMinCompetitiveScore(_minScore: number): void {}

  /**
   * Optional bulk loop over one range of docs (Lucene's BulkScorer.score(collector, acceptDocs, min, max)):
   * from the current doc `doc`, feeds every live doc before `end` with its score to the collector and returns
   * the first doc at or after `end` (NO_MORE_DOCS at the end). The hot scorer classes each carry their own
   * copy of this short loop on purpose: V8 keeps type feedback per function, so in one loop shared by every
   * scorer class the nextDoc() and score() calls turn megamorphic and stop being inlined (in a workload of
   * mixed query kinds, term queries ran ~30% slower through the shared loop than through their own).
   */
  scoreRange?(collector: ScoredCollector, liveDocs: LiveDocs | null, doc: number, end: number): number;
}

/** What scoreRange feeds: a leaf collector that takes the score with the doc. */
export interface ScoredCollector {
  collectScored(doc: number, score: number): void;
}

/** Something that can give the score of the doc a collector is looking at (Lucene's Scorable). */
export interface Scorable {
  docID(): number;
  score(): number;
  setMinCompetitiveScore(minScore: number): void;
}

/**
 * An upper bound, safe against rounding, for a sum of per-clause score bounds compared with a float
 * minimum competitive score: the double sum is padded by far more than its own rounding error, yet by far
 * less than one float ulp, so a doc is only ever skipped when it truly cannot compete.
 */
export function sumUpperBound(sum: number): number {
  return sum * (1 + 2 ** -40);
}
