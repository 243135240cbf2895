/** No document; carries the reason (what rewrites print when they prove a query matches nothing). */
import type { LeafContext } from '../core/leaf-context.js';
import { Query } from '../core/query.js';
import type { Scorer } from '../core/scorer.js';
import type { ScoreMode } from '../core/score-mode.js';
import { Weight } from '../core/weight.js';
import { Explanation } from '../explanation.js';
import type { IndexSearcher } from '../searcher/index-searcher.js';

export class MatchNoDocsQuery extends Query {
  constructor(readonly reason = '') {
    super();
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, _boost: number): Weight {
    return new MatchNoDocsWeight(this);
  }

  toString(): string {
    return `MatchNoDocsQuery("${this.reason}")`;
  }

  equals(other: Query): boolean {
    return other instanceof MatchNoDocsQuery;
  }

  override hashCode(): number {
    return 0x6e6f6e65;
  }
}

class MatchNoDocsWeight extends Weight {
  constructor(override readonly query: MatchNoDocsQuery) {
    super(query);
  }

  scorer(_leaf: LeafContext): Scorer | null {
    return null;
  }

  explain(_leaf: LeafContext, _doc: number): Explanation {
    return Explanation.noMatch(this.query.reason);
  }

  override count(_leaf: LeafContext): number {
    return 0;
  }
}
