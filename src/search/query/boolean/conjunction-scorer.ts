/**
 * Intersection of required clauses (Lucene's ConjunctionScorer and BlockMaxConjunctionScorer in one): the
 * cheapest clause leads, the others are advanced to its doc (leap-frog). The score is the double sum of the
 * scoring clauses (filters do not score), rounded to float once.
 *
 * With a minimum competitive score, whole windows of docs are skipped: the window ends at the first block
 * boundary of any scoring clause, and if the sum of the clauses' block maxima over it is below the minimum,
 * no doc in it can compete.
 */
import type { LiveDocs } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer, sumUpperBound, type ScoredCollector } from '../../core/scorer.js';
import { fround } from '../../float32.js';

export class ConjunctionScorer extends Scorer {
  private readonly lead: Scorer;
  private readonly others: readonly Scorer[];
  private readonly scoring: readonly Scorer[];
  private minCompetitiveScore = 0;
  /** Last doc of the current window; docs up to it passed the block-max check. */
  private upTo = -1;
  private doc = -1;

  constructor(required: readonly Scorer[], scoring: readonly Scorer[]) {
    super();
    if (required.length < 2) throw new RangeError('a conjunction needs at least two clauses');
    const byCost = [...required].sort((a, b) => a.cost() - b.cost());
    this.lead = byCost[0]!;
    this.others = byCost.slice(1);
    this.scoring = scoring;
  }

  docID(): number {
    return this.doc;
  }

  cost(): number {
    return this.lead.cost();
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    const lead = this.lead;
    const others = this.others;
    const blockMax = this.minCompetitiveScore > 0;
    outer: for (;;) {
      if (blockMax && target > this.upTo) {
        target = this.competitiveTarget(target);
        if (target === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      }
      let doc = lead.docID();
      if (doc < target) doc = lead.advance(target);
      if (doc === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      if (blockMax && doc > this.upTo) {
        target = doc;
        continue;
      }
      for (let i = 0; i < others.length; i++) {
        const other = others[i]!;
        let otherDoc = other.docID();
        if (otherDoc < doc) otherDoc = other.advance(doc);
        if (otherDoc > doc) {
          target = otherDoc;
          continue outer;
        }
      }
      return (this.doc = doc);
    }
  }

  /** The first doc >= target of a window whose summed block maxima can reach the minimum. */
  private competitiveTarget(target: number): number {
    for (;;) {
      const upTo = this.advanceShallow(target);
      const maxScore = this.getMaxScore(upTo);
      if (sumUpperBound(maxScore) >= this.minCompetitiveScore) {
        this.upTo = upTo;
        return target;
      }
      if (upTo === NO_MORE_DOCS) return NO_MORE_DOCS;
      target = upTo + 1;
    }
  }

  override scoreRange(collector: ScoredCollector, liveDocs: LiveDocs | null, doc: number, end: number): number {
    // This class's own copy of the loop, on purpose: see Scorer.scoreRange.
    while (doc < end) {
      if (liveDocs === null || liveDocs.isLive(doc)) collector.collectScored(doc, this.score());
      doc = this.nextDoc();
    }
    return doc;
  }

  score(): number {
    const scoring = this.scoring;
    let sum = 0;
    for (let i = 0; i < scoring.length; i++) sum += scoring[i]!.score();
    return fround(sum);
  }

  override advanceShallow(target: number): number {
    let upTo = NO_MORE_DOCS;
    for (const scorer of this.scoring) upTo = Math.min(upTo, scorer.advanceShallow(target));
    return upTo;
  }

  override getMaxScore(upTo: number): number {
    let sum = 0;
    for (const scorer of this.scoring) sum += scorer.getMaxScore(upTo);
    return sum;
  }

  override setMinCompetitiveScore(minScore: number): void {
    if (minScore <= this.minCompetitiveScore) return;
    this.minCompetitiveScore = minScore;
    this.upTo = -1;
    // A lone scoring clause can skip on its own (Lucene's MaxScoreSumPropagator, for one clause).
    if (this.scoring.length === 1) this.scoring[0]!.setMinCompetitiveScore(minScore);
  }
}
