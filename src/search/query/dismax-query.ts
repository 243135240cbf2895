/**
 * The best of several queries, plus `tieBreaker` times the others (Lucene's DisjunctionMaxQuery, ES
 * `dis_max` and `multi_match` best_fields): score = max + tieBreaker * (sum of the other matching scores),
 * computed as Lucene does (the sum of the others in double, the result rounded to float once).
 */
import type { LeafContext } from '../core/leaf-context.js';
import { Query } from '../core/query.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { Scorer } from '../core/scorer.js';
import { Weight } from '../core/weight.js';
import { Explanation } from '../explanation.js';
import { floatToString, fround } from '../float32.js';
import type { IndexSearcher } from '../searcher/index-searcher.js';
import { BooleanQuery } from './boolean/boolean-query.js';
import { DisjunctionSumScorer } from './boolean/disjunction-sum-scorer.js';
import { MatchNoDocsQuery } from './match-no-docs-query.js';

export class DisjunctionMaxQuery extends Query {
  readonly disjuncts: readonly Query[];
  readonly tieBreaker: number;

  constructor(disjuncts: readonly Query[], tieBreaker = 0) {
    super();
    if (!(tieBreaker >= 0 && tieBreaker <= 1)) throw new RangeError('tieBreakerMultiplier must be in [0, 1]');
    this.disjuncts = [...disjuncts];
    this.tieBreaker = fround(tieBreaker);
  }

  override rewrite(searcher: IndexSearcher): Query {
    if (this.disjuncts.length === 0) return new MatchNoDocsQuery('empty DisjunctionMaxQuery');
    if (this.disjuncts.length === 1) return this.disjuncts[0]!;
    // With a tie breaker of 1 every clause counts fully: a plain disjunction, which WAND can run.
    if (this.tieBreaker === 1) return BooleanQuery.of('should', this.disjuncts);
    let changed = false;
    const rewritten = this.disjuncts.map((disjunct) => {
      const result = disjunct.rewrite(searcher);
      changed ||= result !== disjunct;
      return result;
    });
    return changed ? new DisjunctionMaxQuery(rewritten, this.tieBreaker) : this;
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    return new DisjunctionMaxWeight(this, searcher, scoreMode, boost);
  }

  toString(field?: string): string {
    const body = this.disjuncts.map((disjunct) => disjunct.toString(field)).join(' | ');
    return `(${body})${this.tieBreaker !== 0 ? `~${floatToString(this.tieBreaker)}` : ''}`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof DisjunctionMaxQuery &&
      other.tieBreaker === this.tieBreaker &&
      other.disjuncts.length === this.disjuncts.length &&
      other.disjuncts.every((disjunct, i) => disjunct.equals(this.disjuncts[i]!))
    );
  }
}

/** max + tieBreaker * others, with Lucene's rounding. */
function combine(scores: readonly number[], tieBreaker: number): number {
  let max = 0;
  let others = 0;
  for (const score of scores) {
    if (score >= max) {
      others += max;
      max = score;
    } else {
      others += score;
    }
  }
  return fround(max + others * tieBreaker);
}

class DisjunctionMaxScorer extends DisjunctionSumScorer {
  private readonly scratch: number[] = [];

  constructor(
    subs: readonly Scorer[],
    private readonly tieBreaker: number,
  ) {
    super(subs);
  }

  override score(): number {
    const count = this.heap.topList(this.onDoc);
    const scores = this.scratch;
    scores.length = 0;
    for (let i = 0; i < count; i++) scores.push(this.subs[this.onDoc[i]!]!.score());
    return combine(scores, this.tieBreaker);
  }

  override getMaxScore(upTo: number): number {
    const bounds: number[] = [];
    for (const sub of this.subs) if (sub.docID() <= upTo) bounds.push(sub.getMaxScore(upTo));
    return combine(bounds, this.tieBreaker) * (1 + 2 ** -20);
  }
}

class DisjunctionMaxWeight extends Weight {
  private readonly weights: readonly Weight[];

  constructor(
    override readonly query: DisjunctionMaxQuery,
    searcher: IndexSearcher,
    scoreMode: ScoreMode,
    boost: number,
  ) {
    super(query);
    this.weights = query.disjuncts.map((disjunct) => searcher.createWeight(disjunct, scoreMode, boost));
  }

  scorer(leaf: LeafContext): Scorer | null {
    const scorers = this.weights.map((weight) => weight.scorer(leaf)).filter((scorer): scorer is Scorer => scorer !== null);
    if (scorers.length === 0) return null;
    if (scorers.length === 1) return scorers[0]!;
    return new DisjunctionMaxScorer(scorers, this.query.tieBreaker);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    const details: Explanation[] = [];
    for (const weight of this.weights) {
      const explanation = weight.explain(leaf, doc);
      if (explanation.isMatch) details.push(explanation);
    }
    if (details.length === 0) return Explanation.noMatch('No matching clause');
    const tieBreaker = this.query.tieBreaker;
    const description = tieBreaker === 0 ? 'max of:' : `max plus ${floatToString(tieBreaker)} times others of:`;
    return Explanation.match(
      combine(
        details.map((detail) => detail.value),
        tieBreaker,
      ),
      description,
      details,
    );
  }
}
