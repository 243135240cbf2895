/** A required clause that must match but does not score (a lone filter next to scoring parts): score 0. */
import { FilterScorer } from '../filter-scorer.js';

export class ZeroScoreScorer extends FilterScorer {
  score(): number {
    return 0;
  }

  override getMaxScore(_upTo: number): number {
    return 0;
  }
}
