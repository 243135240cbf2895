/**
 * ES's `boosting` query: Lucene's FunctionScoreQuery.boostByQuery(positive, negative, negativeBoost), which
 * is what BoostingQueryBuilder.doToQuery builds in Elasticsearch 8. Matches are the positive query's; the
 * score of a match that also matches the negative query is multiplied by negativeBoost. The negative query
 * never adds matches nor scores of its own. Arithmetic as Lucene's FunctionScoreWeight: the positive score
 * (a float) times the factor in double, times the outer boost, then rounded to float once.
 */
import type { LeafContext } from '../../core/leaf-context.js';
import { Query } from '../../core/query.js';
import { needsScores, type ScoreMode } from '../../core/score-mode.js';
import { Scorer } from '../../core/scorer.js';
import { Weight, scorerOn } from '../../core/weight.js';
import { Explanation } from '../../explanation.js';
import { floatToString, fround } from '../../float32.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { FilterScorer, MatchProbe } from '../filter-scorer.js';

export class BoostByQuery extends Query {
  readonly negativeBoost: number;

  constructor(
    readonly positive: Query,
    readonly negative: Query,
    negativeBoost: number,
  ) {
    super();
    this.negativeBoost = fround(negativeBoost);
  }

  override rewrite(searcher: IndexSearcher): Query {
    // As Lucene: only the wrapped query rewrites here; the negative query is rewritten when the weight is made.
    const rewritten = this.positive.rewrite(searcher);
    return rewritten === this.positive ? this : new BoostByQuery(rewritten, this.negative, this.negativeBoost);
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    if (!needsScores(scoreMode)) return searcher.createWeight(this.positive, 'complete_no_scores', 1);
    const positive = searcher.createWeight(this.positive, 'complete', 1);
    const negative = searcher.createWeight(searcher.rewrite(this.negative), 'complete', 1);
    return new BoostByQueryWeight(this, positive, negative, fround(boost));
  }

  /** Lucene's FunctionScoreQuery.toString with MultiplicativeBoostValuesSource(QueryBoostValuesSource). */
  toString(field?: string): string {
    return `FunctionScoreQuery(${this.positive.toString(field)}, scored by boost(queryboost(score(${this.negative.toString()}))^${floatToString(this.negativeBoost)}))`;
  }

  equals(other: Query): boolean {
    return other instanceof BoostByQuery && other.negativeBoost === this.negativeBoost && other.positive.equals(this.positive) && other.negative.equals(this.negative);
  }
}

class BoostByQueryWeight extends Weight {
  constructor(
    override readonly query: BoostByQuery,
    private readonly positive: Weight,
    private readonly negative: Weight,
    private readonly boost: number,
  ) {
    super(query);
  }

  scorer(leaf: LeafContext): Scorer | null {
    const inner = this.positive.scorer(leaf);
    if (inner === null) return null;
    return new BoostByQueryScorer(inner, new MatchProbe(this.negative.scorer(leaf)), this.query.negativeBoost, this.boost);
  }

  override count(leaf: LeafContext): number {
    return this.positive.count(leaf);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    const scoreExplanation = this.positive.explain(leaf, doc);
    if (!scoreExplanation.isMatch) return scoreExplanation;
    let explanation = scoreExplanation;
    let value = scoreExplanation.value;
    if (scorerOn(this.negative, leaf, doc) !== null) {
      const factor = this.query.negativeBoost;
      value = scoreExplanation.value * factor;
      // A Java double in Lucene's explanation (MultiplicativeBoostValuesSource.explain), printed unrounded.
      explanation = Explanation.matchDouble(value, 'product of:', [
        scoreExplanation,
        Explanation.match(factor, `Matched boosting query score(${this.query.negative.toString()})`),
      ]);
    }
    if (this.boost !== 1) {
      return Explanation.match(value * this.boost, `weight(${this.query.toString()}), product of:`, [Explanation.match(this.boost, 'boost'), explanation]);
    }
    const describe = `weight(${this.query.toString()}), result of:`;
    return explanation.kind === 'double' ? Explanation.matchDouble(value, describe, [explanation]) : Explanation.match(value, describe, [explanation]);
  }
}

class BoostByQueryScorer extends FilterScorer {
  constructor(
    inner: Scorer,
    private readonly negative: MatchProbe,
    private readonly negativeBoost: number,
    private readonly boost: number,
  ) {
    super(inner);
  }

  score(): number {
    const score = this.inner.score();
    const factor = this.negative.matches(this.inner.docID()) ? score * this.negativeBoost : score;
    return factor >= 0 ? fround(factor * this.boost) : 0;
  }
}
