/** A required clause that must match but does not score (a lone filter next to scoring parts): score 0. */
import { Scorer } from '../../core/scorer.js';

export class ZeroScoreScorer extends Scorer {
  constructor(private readonly inner: Scorer) {
    super();
  }

  docID(): number {
    return this.inner.docID();
  }

  nextDoc(): number {
    return this.inner.nextDoc();
  }

  advance(target: number): number {
    return this.inner.advance(target);
  }

  cost(): number {
    return this.inner.cost();
  }

  score(): number {
    return 0;
  }

  override getMaxScore(_upTo: number): number {
    return 0;
  }
}
