/**
 * Assembles a boolean query's scorer for one segment from its clauses' scorers (Lucene's BooleanWeight and
 * Boolean2ScorerSupplier):
 *
 *   required = conjunction(must + filter)            scored by the must clauses only
 *   optional = one should clause | WAND (top-k) | sum disjunction (every match) | min-should-match union
 *   scorer   = required alone, required + optional (should adds to the score), or optional alone;
 *              then minus the union of must_not clauses.
 *
 * Explanations list each clause's explanation and take their value from the scorer, so they always equal
 * the score (Lucene does the same, because re-adding the clauses' floats would round differently).
 */
import { type LeafContext } from '../../core/leaf-context.js';
import { needsScores, type ScoreMode } from '../../core/score-mode.js';
import type { Scorer } from '../../core/scorer.js';
import { Weight } from '../../core/weight.js';
import { Explanation } from '../../explanation.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { isRequired, isScoring, type BooleanClause } from './boolean-clause.js';
import type { BooleanQuery } from './boolean-query.js';
import { ConjunctionScorer } from './conjunction-scorer.js';
import { DisjunctionSumScorer } from './disjunction-sum-scorer.js';
import { ZeroScoreScorer } from './filter-scorer.js';
import { MinShouldMatchScorer } from './min-should-match-scorer.js';
import { ReqExclScorer } from './req-excl-scorer.js';
import { ReqOptSumScorer } from './req-opt-scorer.js';
import { WandScorer } from './wand-scorer.js';

interface WeightedClause {
  readonly clause: BooleanClause;
  readonly weight: Weight;
}

export class BooleanWeight extends Weight {
  private readonly clauses: readonly WeightedClause[];

  constructor(
    override readonly query: BooleanQuery,
    searcher: IndexSearcher,
    private readonly scoreMode: ScoreMode,
    boost: number,
  ) {
    super(query);
    this.clauses = query.clauses.map((clause) => ({
      clause,
      weight: searcher.createWeight(clause.query, isScoring(clause.occur) ? scoreMode : 'complete_no_scores', boost),
    }));
  }

  scorer(leaf: LeafContext): Scorer | null {
    const must: Scorer[] = [];
    const filter: Scorer[] = [];
    const should: Scorer[] = [];
    const mustNot: Scorer[] = [];
    for (const { clause, weight } of this.clauses) {
      const scorer = weight.scorer(leaf);
      if (scorer === null) {
        if (isRequired(clause.occur)) return null;
        continue;
      }
      if (clause.occur === 'must') must.push(scorer);
      else if (clause.occur === 'filter') filter.push(scorer);
      else if (clause.occur === 'should') should.push(scorer);
      else mustNot.push(scorer);
    }
    const minimumShouldMatch = this.query.minimumShouldMatch;
    if (should.length < minimumShouldMatch) return null;
    const scores = needsScores(this.scoreMode);
    const hasRequired = must.length + filter.length > 0;
    if (!hasRequired && should.length === 0) return null;
    // Without scores, optional clauses cannot change which docs match a query that has required ones.
    if (!scores && hasRequired && minimumShouldMatch === 0) should.length = 0;

    let scorer: Scorer;
    if (!hasRequired) {
      scorer = this.optional(should, Math.max(1, minimumShouldMatch));
    } else {
      const required = this.required(must, filter, scores);
      if (minimumShouldMatch > 0) {
        const optional = this.optional(should, minimumShouldMatch);
        scorer = new ConjunctionScorer([required, optional], [required, optional]);
      } else if (should.length > 0) {
        scorer = new ReqOptSumScorer(required, this.optional(should, 1));
      } else {
        scorer = required;
      }
    }
    if (mustNot.length === 0) return scorer;
    return new ReqExclScorer(scorer, mustNot.length === 1 ? mustNot[0]! : new DisjunctionSumScorer(mustNot));
  }

  private required(must: Scorer[], filter: Scorer[], scores: boolean): Scorer {
    if (must.length + filter.length === 1) {
      if (must.length === 1) return must[0]!;
      return scores ? new ZeroScoreScorer(filter[0]!) : filter[0]!;
    }
    return new ConjunctionScorer([...must, ...filter], must);
  }

  private optional(should: Scorer[], minimumShouldMatch: number): Scorer {
    if (should.length === 1) return should[0]!;
    if (minimumShouldMatch > 1) return new MinShouldMatchScorer(should, minimumShouldMatch);
    if (this.scoreMode === 'top_scores') return new WandScorer(should);
    return new DisjunctionSumScorer(should);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    const details: Explanation[] = [];
    let fail = false;
    let matchCount = 0;
    let shouldMatchCount = 0;
    for (const { clause, weight } of this.clauses) {
      const explanation = weight.explain(leaf, doc);
      if (explanation.isMatch) {
        if (isScoring(clause.occur)) {
          details.push(explanation);
        } else if (clause.occur === 'filter') {
          details.push(Explanation.match(0, 'match on required clause, product of:', [Explanation.match(0, '# clause'), explanation]));
        } else {
          details.push(Explanation.noMatch(`match on prohibited clause (${clause.query.toString()})`, [explanation]));
          fail = true;
        }
        if (clause.occur !== 'must_not') matchCount++;
        if (clause.occur === 'should') shouldMatchCount++;
      } else if (isRequired(clause.occur)) {
        details.push(Explanation.noMatch(`no match on required clause (${clause.query.toString()})`, [explanation]));
        fail = true;
      }
    }
    if (fail) return Explanation.noMatch('Failure to meet condition(s) of required/prohibited clause(s)', details);
    if (matchCount === 0) return Explanation.noMatch('No matching clauses', details);
    if (shouldMatchCount < this.query.minimumShouldMatch) {
      return Explanation.noMatch(`Failure to match minimum number of optional clauses: ${this.query.minimumShouldMatch}`, details);
    }
    const scorer = this.scorer(leaf);
    if (scorer === null || scorer.advance(doc) !== doc) return Explanation.noMatch('No matching clauses', details);
    return Explanation.match(scorer.score(), 'sum of:', details);
  }
}
