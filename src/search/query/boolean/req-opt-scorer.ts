/**
 * Required clauses plus optional ones that only add to the score (Lucene's ReqOptSumScorer): iterates the
 * required scorer; the optional scorer is advanced lazily when a score is asked for. The two parts are
 * added in float, as Lucene does.
 */
import { Scorer } from '../../core/scorer.js';
import { fround } from '../../float32.js';

export class ReqOptSumScorer extends Scorer {
  constructor(
    private readonly required: Scorer,
    private readonly optional: Scorer,
  ) {
    super();
  }

  docID(): number {
    return this.required.docID();
  }

  cost(): number {
    return this.required.cost();
  }

  nextDoc(): number {
    return this.required.nextDoc();
  }

  advance(target: number): number {
    return this.required.advance(target);
  }

  score(): number {
    const doc = this.required.docID();
    let score = this.required.score();
    let optionalDoc = this.optional.docID();
    if (optionalDoc < doc) optionalDoc = this.optional.advance(doc);
    if (optionalDoc === doc) score = fround(score + this.optional.score());
    return score;
  }

  override advanceShallow(target: number): number {
    return this.required.advanceShallow(target);
  }

  override getMaxScore(upTo: number): number {
    return this.required.getMaxScore(upTo) + this.optional.getMaxScore(upTo);
  }
}
