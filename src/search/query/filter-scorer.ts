/**
 * A scorer that walks the same documents as another and only changes score() (Lucene's FilterScorer):
 * the base of the score-modifying queries (boosting, function_score). Score bounds are unknown, so block-max
 * skipping is off below it, as in Lucene.
 */
import { Scorer } from '../core/scorer.js';

export abstract class FilterScorer extends Scorer {
  constructor(protected readonly inner: Scorer) {
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
}

/** Whether a scorer (moved forward only) matches `doc`: a cursor for "does this doc also match X". */
export class MatchProbe {
  constructor(private readonly scorer: Scorer | null) {}

  matches(doc: number): boolean {
    const scorer = this.scorer;
    if (scorer === null) return false;
    let current = scorer.docID();
    if (current < doc) current = scorer.advance(doc);
    return current === doc;
  }
}
