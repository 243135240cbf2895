/**
 * Where hits go (Lucene's Collector / LeafCollector). The searcher asks the collector for one leaf
 * collector per segment, gives it the scorer, then calls collect(doc) for every live matching doc of the
 * segment in increasing doc order (doc ids are segment-local; add the leaf's docBase for searcher-wide ids).
 * A collector that only needs the best hits says `top_scores` and may raise the scorer's minimum
 * competitive score as its queue fills.
 */
import type { LeafContext } from '../core/leaf-context.js';
import type { Scorable } from '../core/scorer.js';
import type { ScoreMode } from '../core/score-mode.js';

export interface LeafCollector {
  setScorer(scorer: Scorable): void;
  collect(doc: number): void;
  /** collect(doc) for a caller that already has the current doc's score (its scorer's score()). */
  collectScored?(doc: number, score: number): void;
}

export interface Collector {
  readonly scoreMode: ScoreMode;
  getLeafCollector(leaf: LeafContext): LeafCollector;
}
