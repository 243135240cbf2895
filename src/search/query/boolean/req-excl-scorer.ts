/** The required scorer's docs minus the excluded ones (must_not); scores are the required scorer's. */
import { NO_MORE_DOCS, type DocIdSetIterator } from '../../core/doc-id-set-iterator.js';
import { Scorer } from '../../core/scorer.js';

export class ReqExclScorer extends Scorer {
  constructor(
    private readonly required: Scorer,
    private readonly excluded: DocIdSetIterator,
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
    return this.skipExcluded(this.required.nextDoc());
  }

  advance(target: number): number {
    return this.skipExcluded(this.required.advance(target));
  }

  private skipExcluded(doc: number): number {
    const excluded = this.excluded;
    while (doc !== NO_MORE_DOCS) {
      let excludedDoc = excluded.docID();
      if (excludedDoc < doc) excludedDoc = excluded.advance(doc);
      if (excludedDoc !== doc) return doc;
      doc = this.required.nextDoc();
    }
    return doc;
  }

  score(): number {
    return this.required.score();
  }

  override advanceShallow(target: number): number {
    return this.required.advanceShallow(target);
  }

  override getMaxScore(upTo: number): number {
    return this.required.getMaxScore(upTo);
  }

  override setMinCompetitiveScore(minScore: number): void {
    this.required.setMinCompetitiveScore(minScore);
  }
}
