/**
 * A boolean combination of clauses (Lucene's BooleanQuery, ES's `bool`): a doc matches when it matches every
 * must and filter clause, no must_not clause, and at least `minimumShouldMatch` should clauses (at least one
 * when there are only should clauses). Its score is the sum of its matching must and should clauses' scores
 * (no coordination factor, as since Lucene 8); filters and exclusions do not score.
 */
import { errors } from '../../../common/errors.js';
import { Query } from '../../core/query.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { occurPrefix, type BooleanClause, type Occur } from './boolean-clause.js';
import { rewriteBoolean } from './boolean-rewrite.js';
import { BooleanWeight } from './boolean-weight.js';

export class BooleanQuery extends Query {
  readonly clauses: readonly BooleanClause[];

  constructor(
    clauses: readonly BooleanClause[],
    readonly minimumShouldMatch = 0,
  ) {
    super();
    if (!Number.isInteger(minimumShouldMatch) || minimumShouldMatch < 0) {
      throw new RangeError(`minimumShouldMatch must be a non-negative integer, got ${minimumShouldMatch}`);
    }
    this.clauses = [...clauses];
  }

  /** Shorthand: every query in one occur. */
  static of(occur: Occur, queries: readonly Query[], minimumShouldMatch = 0): BooleanQuery {
    return new BooleanQuery(
      queries.map((query) => ({ query, occur })),
      minimumShouldMatch,
    );
  }

  clausesOf(occur: Occur): Query[] {
    return this.clauses.filter((clause) => clause.occur === occur).map((clause) => clause.query);
  }

  /** Only should clauses and no minimum: a plain disjunction (what WAND runs). */
  isPureDisjunction(): boolean {
    return this.minimumShouldMatch <= 1 && this.clauses.every((clause) => clause.occur === 'should');
  }

  override rewrite(searcher: IndexSearcher): Query {
    if (this.clauses.length > searcher.maxClauseCount) {
      throw errors.rewriteTooManyClauses(searcher.maxClauseCount);
    }
    return rewriteBoolean(this, searcher);
  }

  override rewriteNoScoring(): Query {
    // Scores are not needed: must clauses become filters and, without a minimum, should clauses can go
    // when a required clause is present (they would not change which documents match).
    const keepShould = this.minimumShouldMatch > 0 || this.clauses.every((clause) => clause.occur === 'should' || clause.occur === 'must_not');
    let changed = false;
    const clauses: BooleanClause[] = [];
    for (const clause of this.clauses) {
      const rewritten = clause.query.rewriteNoScoring();
      if (clause.occur === 'should' && !keepShould) {
        changed = true;
      } else if (clause.occur === 'must') {
        clauses.push({ query: rewritten, occur: 'filter' });
        changed = true;
      } else {
        clauses.push(rewritten === clause.query ? clause : { query: rewritten, occur: clause.occur });
        changed ||= rewritten !== clause.query;
      }
    }
    return changed ? new BooleanQuery(clauses, this.minimumShouldMatch) : this;
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    return new BooleanWeight(this, searcher, scoreMode, boost);
  }

  toString(field?: string): string {
    const parts = this.clauses.map((clause) => {
      const inner = clause.query instanceof BooleanQuery ? `(${clause.query.toString(field)})` : clause.query.toString(field);
      return occurPrefix(clause.occur) + inner;
    });
    const body = parts.join(' ');
    return this.minimumShouldMatch > 0 ? `(${body})~${this.minimumShouldMatch}` : body;
  }

  equals(other: Query): boolean {
    if (!(other instanceof BooleanQuery) || other.minimumShouldMatch !== this.minimumShouldMatch) return false;
    if (other.clauses.length !== this.clauses.length) return false;
    // Clause order does not change the meaning: compare as multisets per occur.
    const remaining = [...other.clauses];
    for (const clause of this.clauses) {
      const index = remaining.findIndex((candidate) => candidate.occur === clause.occur && candidate.query.equals(clause.query));
      if (index < 0) return false;
      remaining.splice(index, 1);
    }
    return true;
  }

  override hashCode(): number {
    let hash = this.minimumShouldMatch;
    for (const clause of this.clauses) hash = (hash + clause.query.hashCode() * (clause.occur.length + 1)) | 0;
    return hash;
  }
}
