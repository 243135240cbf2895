/**
 * Wraps a query so every match scores the boost (1 by default), whatever the inner query would score: ES's
 * `constant_score` and the shape filters take. The inner query runs without scores.
 */
import { ConstantScoreWeight } from '../core/constant-score-weight.js';
import type { DocIdSetIterator } from '../core/doc-id-set-iterator.js';
import type { LeafContext } from '../core/leaf-context.js';
import { Query } from '../core/query.js';
import { needsScores, type ScoreMode } from '../core/score-mode.js';
import type { Weight } from '../core/weight.js';
import type { IndexSearcher } from '../searcher/index-searcher.js';
import { BoostQuery } from './boost-query.js';
import { MatchNoDocsQuery } from './match-no-docs-query.js';

export class ConstantScoreQuery extends Query {
  constructor(readonly query: Query) {
    super();
  }

  override rewrite(searcher: IndexSearcher): Query {
    let rewritten = this.query.rewrite(searcher);
    // Scores of the wrapped query are never used, which allows a few extra simplifications.
    if (rewritten instanceof BoostQuery) rewritten = rewritten.query;
    else if (rewritten instanceof ConstantScoreQuery) rewritten = rewritten.query;
    else rewritten = rewritten.rewriteNoScoring();
    if (rewritten instanceof MatchNoDocsQuery) return rewritten;
    if (rewritten !== this.query) return new ConstantScoreQuery(rewritten);
    return this;
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    const inner = searcher.createWeight(this.query, 'complete_no_scores', 1);
    if (!needsScores(scoreMode)) return inner;
    return new ConstantScoreWrapperWeight(this, boost, inner);
  }

  toString(field?: string): string {
    return `ConstantScore(${this.query.toString(field)})`;
  }

  equals(other: Query): boolean {
    return other instanceof ConstantScoreQuery && this.query.equals(other.query);
  }
}

class ConstantScoreWrapperWeight extends ConstantScoreWeight {
  constructor(
    query: ConstantScoreQuery,
    boost: number,
    private readonly inner: Weight,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    return this.inner.scorer(leaf);
  }

  override count(leaf: LeafContext): number {
    return this.inner.count(leaf);
  }
}
