/**
 * How Lucene explains a clause that runs without scores (a filter, a must_not): as a constant "1.0 = query"
 * match. In Lucene (and so in Elasticsearch) such weights go through the query cache's wrapper, a
 * ConstantScoreWeight, whose explanation this reproduces; matching and counting are the wrapped weight's.
 */
import { Explanation } from '../explanation.js';
import type { LeafContext } from './leaf-context.js';
import type { Scorer } from './scorer.js';
import { scorerOn, Weight } from './weight.js';

export class UnscoredWeight extends Weight {
  constructor(private readonly inner: Weight) {
    super(inner.query);
  }

  scorer(leaf: LeafContext): Scorer | null {
    return this.inner.scorer(leaf);
  }

  override count(leaf: LeafContext): number {
    return this.inner.count(leaf);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    if (scorerOn(this.inner, leaf, doc) !== null) return Explanation.match(1, this.query.toString());
    return Explanation.noMatch(`${this.query.toString()} doesn't match id ${doc}`);
  }
}
