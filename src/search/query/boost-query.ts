/** Multiplies the wrapped query's scores by a factor (ES's `boost`), by passing it down to the weights. */
import { Query } from '../core/query.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { Weight } from '../core/weight.js';
import { floatToString, fround } from '../float32.js';
import type { IndexSearcher } from '../searcher/index-searcher.js';
import { ConstantScoreQuery } from './constant-score-query.js';
import { MatchNoDocsQuery } from './match-no-docs-query.js';

export class BoostQuery extends Query {
  readonly boost: number;

  constructor(
    readonly query: Query,
    boost: number,
  ) {
    super();
    if (!Number.isFinite(boost) || boost < 0) throw new RangeError(`boost must be a finite non-negative number, got ${boost}`);
    this.boost = fround(boost);
  }

  override rewrite(searcher: IndexSearcher): Query {
    const rewritten = this.query.rewrite(searcher);
    // Nothing boosted is nothing (and must not be wrapped again below, or rewriting would never end).
    if (this.boost === 1 || rewritten instanceof MatchNoDocsQuery) return rewritten;
    if (rewritten instanceof BoostQuery) return new BoostQuery(rewritten.query, fround(this.boost * rewritten.boost));
    // A zero boost means scores are not needed: let the inner query run without them.
    if (this.boost === 0 && !(rewritten instanceof ConstantScoreQuery)) return new BoostQuery(new ConstantScoreQuery(rewritten), 0);
    if (rewritten !== this.query) return new BoostQuery(rewritten, this.boost);
    return this;
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    return this.query.createWeight(searcher, scoreMode, fround(boost * this.boost));
  }

  toString(field?: string): string {
    return `(${this.query.toString(field)})^${floatToString(this.boost)}`;
  }

  equals(other: Query): boolean {
    return other instanceof BoostQuery && this.boost === other.boost && this.query.equals(other.query);
  }
}
