/**
 * ES's function_score (org.elasticsearch.common.lucene.search.function.FunctionScoreQuery): the wrapped
 * query's matches, rescored by functions. Each function may have a filter (FilterScoreFunction); those whose
 * filter matches a document are combined by the score mode into one factor (in double), which the boost
 * mode combines with the query score (CombineFunction, capped by max_boost, rounded to float once).
 * min_score drops documents scoring below it. The arithmetic, error messages and explanation text follow
 * ES's source; the query's own boost goes to the wrapped query, as ES passes it there.
 */
import { EsError } from '../../../common/errors.js';
import type { LeafContext } from '../../core/leaf-context.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Query } from '../../core/query.js';
import { needsScores, type ScoreMode } from '../../core/score-mode.js';
import { Scorer } from '../../core/scorer.js';
import { Weight, scorerOn } from '../../core/weight.js';
import { Explanation } from '../../explanation.js';
import { floatToString, fround } from '../../float32.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { FilterScorer, MatchProbe } from '../filter-scorer.js';
import type { LeafScoreFunction, ScoreFunction } from './score-functions.js';

export type FunctionScoreMode = 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
export type CombineFunction = 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';

export interface FilterFunction {
  /** Null: no filter (every document), as ES makes of a match_all filter. */
  readonly filter: Query | null;
  readonly function: ScoreFunction;
}

export interface FunctionScoreOptions {
  readonly scoreMode?: FunctionScoreMode;
  readonly boostMode?: CombineFunction;
  /** Float.MAX_VALUE by default. */
  readonly maxBoost?: number;
  readonly minScore?: number;
}

export const FLOAT_MAX_VALUE = 3.4028234663852886e38;

/** CombineFunction.combine: the query score and the functions' factor into the document's score. */
export function combine(mode: CombineFunction, queryScore: number, funcScore: number, maxBoost: number): number {
  const capped = Math.min(funcScore, maxBoost);
  switch (mode) {
    case 'multiply':
      return fround(queryScore * capped);
    case 'replace':
      return fround(capped);
    case 'sum':
      return fround(queryScore + capped);
    case 'avg':
      return fround((capped + queryScore) / 2.0);
    case 'min':
      return fround(Math.min(queryScore, capped));
    case 'max':
      return fround(Math.max(queryScore, capped));
  }
}

/** CombineFunction.explain (float arithmetic on the explanations' values, as ES). */
function explainCombine(mode: CombineFunction, queryExpl: Explanation, funcExpl: Explanation, maxBoost: number): Explanation {
  const capped = fround(Math.min(fround(funcExpl.value), maxBoost));
  const minExpl = Explanation.match(capped, 'min of:', [funcExpl, Explanation.match(maxBoost, 'maxBoost')]);
  const query = fround(queryExpl.value);
  switch (mode) {
    case 'multiply':
      return Explanation.match(query * capped, 'function score, product of:', [queryExpl, minExpl]);
    case 'replace':
      return minExpl;
    case 'sum':
      return Explanation.match(capped + query, 'sum of', [queryExpl, minExpl]);
    case 'avg':
      return Explanation.match((capped + query) / 2.0, 'avg of', [queryExpl, minExpl]);
    case 'min':
      return Explanation.match(Math.min(capped, query), 'min of', [queryExpl, minExpl]);
    case 'max':
      return Explanation.match(Math.max(capped, query), 'max of:', [queryExpl, minExpl]);
  }
}

export class FunctionScoreQuery extends Query {
  readonly scoreMode: FunctionScoreMode;
  readonly boostMode: CombineFunction;
  readonly maxBoost: number;
  readonly minScore: number | undefined;

  constructor(
    readonly query: Query,
    readonly functions: readonly FilterFunction[],
    options: FunctionScoreOptions = {},
  ) {
    super();
    this.scoreMode = options.scoreMode ?? 'multiply';
    this.boostMode = options.boostMode ?? 'multiply';
    this.maxBoost = fround(options.maxBoost ?? FLOAT_MAX_VALUE);
    this.minScore = options.minScore === undefined ? undefined : fround(options.minScore);
  }

  private with(query: Query, functions: readonly FilterFunction[]): FunctionScoreQuery {
    return new FunctionScoreQuery(query, functions, {
      scoreMode: this.scoreMode,
      boostMode: this.boostMode,
      maxBoost: this.maxBoost,
      ...(this.minScore !== undefined && { minScore: this.minScore }),
    });
  }

  override rewrite(searcher: IndexSearcher): Query {
    const query = this.query.rewrite(searcher);
    let changed = query !== this.query;
    const functions = this.functions.map((entry) => {
      if (entry.filter === null) return entry;
      const filter = entry.filter.rewrite(searcher);
      if (filter === entry.filter) return entry;
      changed = true;
      return { filter, function: entry.function };
    });
    return changed ? this.with(query, functions) : this;
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    if (!needsScores(scoreMode) && this.minScore === undefined) return this.query.createWeight(searcher, scoreMode, boost);
    // No function of Gannet's reads the query score; only the boost mode decides whether it is needed.
    const subScoreMode: ScoreMode = this.boostMode !== 'replace' ? 'complete' : 'complete_no_scores';
    const filters = this.functions.map((entry) => (entry.filter === null ? null : searcher.createWeight(searcher.rewrite(entry.filter), 'complete_no_scores', 1)));
    const sub = this.query.createWeight(searcher, subScoreMode, boost);
    return new FunctionScoreWeight(this, sub, filters, needsScores(subScoreMode));
  }

  toString(field?: string): string {
    return `function score (${this.query.toString(field)}, functions: [${this.functions.map((entry) => `{${entry.function.describe()}}`).join('')}])`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof FunctionScoreQuery &&
      other.toString() === this.toString() &&
      other.query.equals(this.query) &&
      other.scoreMode === this.scoreMode &&
      other.boostMode === this.boostMode &&
      other.maxBoost === this.maxBoost &&
      other.minScore === this.minScore &&
      other.functions.length === this.functions.length &&
      other.functions.every((entry, i) => entry.function === this.functions[i]!.function)
    );
  }
}

class FunctionScoreWeight extends Weight {
  constructor(
    override readonly query: FunctionScoreQuery,
    private readonly sub: Weight,
    private readonly filters: readonly (Weight | null)[],
    private readonly subNeedsScores: boolean,
  ) {
    super(query);
  }

  private functionScorer(leaf: LeafContext): FunctionFactorScorer | null {
    const inner = this.sub.scorer(leaf);
    if (inner === null) return null;
    const leafFunctions = this.query.functions.map((entry) => entry.function.leaf(leaf));
    const probes = this.filters.map((filter) => (filter === null ? null : new MatchProbe(filter.scorer(leaf))));
    return new FunctionFactorScorer(inner, this.query, leafFunctions, probes, this.subNeedsScores);
  }

  scorer(leaf: LeafContext): Scorer | null {
    const scorer = this.functionScorer(leaf);
    if (scorer === null || this.query.minScore === undefined) return scorer;
    return new MinScoreScorer(scorer, this.query.minScore);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    let explanation = this.sub.explain(leaf, doc);
    if (!explanation.isMatch) return explanation;
    const functions = this.query.functions;
    const singleFunction = functions.length === 1 && functions[0]!.filter === null;
    if (functions.length > 0) {
      const explanations: Explanation[] = [];
      functions.forEach((entry, i) => {
        const filter = this.filters[i]!;
        if (filter !== null && scorerOn(filter, leaf, doc) === null) return;
        const functionExplanation = entry.function.leaf(leaf).explain(doc, explanation);
        if (entry.filter !== null) {
          explanations.push(
            Explanation.match(fround(functionExplanation.value), 'function score, product of:', [
              Explanation.match(1, `match filter: ${entry.filter.toString()}`),
              functionExplanation,
            ]),
          );
        } else {
          explanations.push(functionExplanation);
        }
      });
      let factor: Explanation;
      if (explanations.length === 0) factor = Explanation.match(1, 'No function matched');
      else if (singleFunction && explanations.length === 1) factor = explanations[0]!;
      else {
        const scorer = this.functionScorer(leaf)!;
        scorer.advance(doc);
        factor = Explanation.match(scorer.computeScore(doc, fround(explanation.value)), `function score, score mode [${this.query.scoreMode}]`, explanations);
      }
      explanation = explainCombine(this.query.boostMode, explanation, factor, this.query.maxBoost);
    }
    const minScore = this.query.minScore;
    if (minScore !== undefined && minScore > fround(explanation.value)) {
      return Explanation.noMatch(`Score value is too low, expected at least ${floatToString(minScore)} but got ${explanation.valueString()}`, [explanation]);
    }
    return explanation;
  }
}

class FunctionFactorScorer extends FilterScorer {
  constructor(
    inner: Scorer,
    private readonly query: FunctionScoreQuery,
    private readonly functions: readonly LeafScoreFunction[],
    private readonly filters: readonly (MatchProbe | null)[],
    private readonly subNeedsScores: boolean,
  ) {
    super(inner);
  }

  score(): number {
    const doc = this.docID();
    const subQueryScore = this.subNeedsScores ? this.inner.score() : 0;
    if (this.functions.length === 0) return subQueryScore;
    const factor = this.computeScore(doc, subQueryScore);
    const score = combine(this.query.boostMode, subQueryScore, factor, this.query.maxBoost);
    if (score < 0 || Number.isNaN(score)) {
      throw new EsError('exception', `function score query returned an invalid score: ${floatToString(score)} for doc: ${doc}`);
    }
    return score;
  }

  private applies(i: number, doc: number): boolean {
    const probe = this.filters[i]!;
    return probe === null || probe.matches(doc);
  }

  /** The functions' combined factor (FunctionFactorScorer.computeScore), in double. */
  computeScore(doc: number, subQueryScore: number): number {
    const functions = this.functions;
    let factor = 1;
    switch (this.query.scoreMode) {
      case 'first':
        for (let i = 0; i < functions.length; i++) {
          if (this.applies(i, doc)) {
            factor = functions[i]!.score(doc, subQueryScore);
            break;
          }
        }
        return factor;
      case 'max': {
        let max = -Infinity;
        for (let i = 0; i < functions.length; i++) if (this.applies(i, doc)) max = Math.max(functions[i]!.score(doc, subQueryScore), max);
        return max !== -Infinity ? max : factor;
      }
      case 'min': {
        let min = Infinity;
        for (let i = 0; i < functions.length; i++) if (this.applies(i, doc)) min = Math.min(functions[i]!.score(doc, subQueryScore), min);
        return min !== Infinity ? min : factor;
      }
      case 'multiply':
        for (let i = 0; i < functions.length; i++) if (this.applies(i, doc)) factor *= functions[i]!.score(doc, subQueryScore);
        return factor;
      case 'sum':
      case 'avg': {
        let total = 0;
        let weightSum = 0;
        for (let i = 0; i < functions.length; i++) {
          if (this.applies(i, doc)) {
            total += functions[i]!.score(doc, subQueryScore);
            weightSum += this.query.functions[i]!.function.weight;
          }
        }
        if (weightSum === 0) return factor;
        return this.query.scoreMode === 'avg' ? total / weightSum : total;
      }
    }
  }
}

/** Only documents scoring at least `minScore` (ES's MinScoreScorer); each doc's score is computed once. */
class MinScoreScorer extends Scorer {
  private doc = -1;
  private current = 0;

  constructor(
    private readonly inner: Scorer,
    private readonly minScore: number,
  ) {
    super();
  }

  docID(): number {
    return this.doc;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    let doc = this.inner.docID() < target ? this.inner.advance(target) : this.inner.docID();
    while (doc !== NO_MORE_DOCS) {
      this.current = this.inner.score();
      if (this.current >= this.minScore) break;
      doc = this.inner.nextDoc();
    }
    return (this.doc = doc);
  }

  cost(): number {
    return this.inner.cost();
  }

  score(): number {
    return this.current;
  }
}
