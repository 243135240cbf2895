/**
 * Weights whose every match scores the same (Lucene's ConstantScoreWeight and ConstantScoreScorer): the
 * score is the boost. Under `top_scores`, once the minimum competitive score exceeds the constant, no
 * further doc can compete and the scorer stops.
 */
import { Explanation } from '../explanation.js';
import { floatToString, fround } from '../float32.js';
import { NO_MORE_DOCS, type DocIdSetIterator } from './doc-id-set-iterator.js';
import type { LeafContext } from './leaf-context.js';
import type { Query } from './query.js';
import { Scorer } from './scorer.js';
import { Weight } from './weight.js';

export class ConstantScoreScorer extends Scorer {
  private exhausted = false;
  private doc = -1;

  constructor(
    private readonly iterator: DocIdSetIterator,
    private readonly constant: number,
  ) {
    super();
  }

  docID(): number {
    return this.doc;
  }

  nextDoc(): number {
    return (this.doc = this.exhausted ? NO_MORE_DOCS : this.iterator.nextDoc());
  }

  advance(target: number): number {
    return (this.doc = this.exhausted ? NO_MORE_DOCS : this.iterator.advance(target));
  }

  cost(): number {
    return this.iterator.cost();
  }

  score(): number {
    return this.constant;
  }

  override advanceShallow(_target: number): number {
    return NO_MORE_DOCS;
  }

  override getMaxScore(_upTo: number): number {
    return this.constant;
  }

  override setMinCompetitiveScore(minScore: number): void {
    if (minScore > this.constant) this.exhausted = true;
  }
}

export abstract class ConstantScoreWeight extends Weight {
  readonly score: number;

  constructor(query: Query, boost: number) {
    super(query);
    this.score = fround(boost);
  }

  /** The segment's matching docs, or null when there are none. */
  abstract iterator(leaf: LeafContext): DocIdSetIterator | null;

  scorer(leaf: LeafContext): Scorer | null {
    const iterator = this.iterator(leaf);
    return iterator === null ? null : new ConstantScoreScorer(iterator, this.score);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    const iterator = this.iterator(leaf);
    if (iterator !== null && iterator.advance(doc) === doc) {
      return Explanation.match(this.score, this.query.toString() + (this.score === 1 ? '' : `^${floatToString(this.score)}`));
    }
    return Explanation.noMatch(`${this.query.toString()} doesn't match id ${doc}`);
  }
}
