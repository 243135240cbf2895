/**
 * Query plan -> the execution core's Query objects. Every plan node maps to the core class that runs it.
 * UNSUPPORTED_PLAN_TYPES lists plan nodes the core cannot run (none today); such a node would fail with a
 * clear error naming it, so a request never silently runs a different query than the one ES would.
 */
import { BooleanQuery } from '../../query/boolean/boolean-query.js';
import type { BooleanClause } from '../../query/boolean/boolean-clause.js';
import { BoostQuery } from '../../query/boost-query.js';
import { ConstantScoreQuery } from '../../query/constant-score-query.js';
import type { Query } from '../../core/query.js';
import { DisjunctionMaxQuery } from '../../query/dismax-query.js';
import { DocValuesRangeQuery } from '../../query/doc-values-range-query.js';
import { ExactLongRangeQuery } from '../../query/exact-long-range-query.js';
import { SortedSetRangesQuery } from '../../query/sorted-set-ranges-query.js';
import { formatIp, hexToIp } from '../../../mapping/ip-address.js';
import { ExistsQuery } from '../../query/exists-query.js';
import { MatchAllDocsQuery } from '../../query/match-all-docs-query.js';
import { MatchNoDocsQuery } from '../../query/match-no-docs-query.js';
import { FuzzyQuery } from '../../query/multiterm/fuzzy-query.js';
import { PrefixQuery } from '../../query/multiterm/prefix-query.js';
import { parseRewriteMethod, type RewriteMethod } from '../../query/multiterm/rewrite-method.js';
import { TermInSetQuery } from '../../query/multiterm/term-in-set-query.js';
import { WildcardQuery } from '../../query/multiterm/wildcard-query.js';
import { PhraseQuery } from '../../query/phrase/phrase-query.js';
import { MultiPhrasePrefixQuery } from '../../query/phrase/multi-phrase-prefix-query.js';
import { RegexpQuery } from '../../query/multiterm/regexp-query.js';
import { TermRangeQuery } from '../../query/multiterm/term-range-query.js';
import { BlendedTermQuery } from '../../query/blended/blended-term-query.js';
import { BoostByQuery } from '../../query/boosting/boost-by-query.js';
import { TermQuery } from '../../query/term/term-query.js';
import { FunctionScoreQuery, type FilterFunction } from '../../query/function-score/function-score-query.js';
import { DecayFunction, FieldValueFactorFunction, WeightFactorFunction, type ScoreFunction } from '../../query/function-score/score-functions.js';
import { isMatchAll, type PlanFilterFunction, type PlanQuery, type PlanType } from './query-plan.js';

/** Plan nodes the execution core cannot run yet, with the Lucene/ES class each needs (none left). */
export const UNSUPPORTED_PLAN_TYPES: Readonly<Partial<Record<PlanType, string>>> = {};

function rewriteMethod(rewrite: string | undefined): RewriteMethod | undefined {
  return rewrite === undefined ? undefined : parseRewriteMethod(rewrite);
}

/** bigint bounds of the plan to the core's number bounds (Long.MIN/MAX_VALUE mean open). */
function longBound(value: bigint, open: number): number {
  if (value <= -(2n ** 63n) || value >= 2n ** 63n - 1n) return open;
  return Number(value);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A bound a JS number holds exactly (or an open end, which longBound maps to +/-Infinity). */
function numberExact(value: bigint): boolean {
  return (value >= -MAX_SAFE && value <= MAX_SAFE) || value <= -(2n ** 63n) || value >= 2n ** 63n - 1n;
}

/** A long range: doc values compared as numbers when the bounds allow it, exactly (BigInt bounds) when not. */
function longRangeQuery(field: string, lower: bigint, upper: bigint): Query {
  if (numberExact(lower) && numberExact(upper)) return new DocValuesRangeQuery(field, longBound(lower, -Infinity), longBound(upper, Infinity));
  return new ExactLongRangeQuery(field, lower, upper);
}

/** ScoreFunctionBuilder.toFunction: the function, wrapped in a WeightFactorFunction when a weight is set. */
function scoreFunction(entry: PlanFilterFunction): ScoreFunction {
  const fn = entry.function;
  let built: ScoreFunction | undefined;
  if (fn.kind === 'field_value_factor') {
    built = new FieldValueFactorFunction({
      field: fn.field,
      factor: fn.factor,
      modifier: fn.modifier,
      ...(fn.missing !== undefined && { missing: fn.missing }),
      ...(fn.scalingFactor !== undefined && { scalingFactor: fn.scalingFactor }),
    });
  } else if (fn.kind === 'decay') {
    built = new DecayFunction({
      shape: fn.shape,
      field: fn.field,
      origin: fn.origin,
      scale: fn.scale,
      offset: fn.offset,
      decay: fn.decay,
      multiValueMode: fn.multiValueMode,
      ...(fn.scalingFactor !== undefined && { scalingFactor: fn.scalingFactor }),
    });
  }
  if (entry.weight === undefined) return built ?? new WeightFactorFunction(1);
  return new WeightFactorFunction(entry.weight, built);
}

/**
 * FunctionScoreQueryBuilder.doToQuery: a match_all filter means no filter; a single unfiltered function runs
 * in score mode `first` (the requested score_mode only matters with several functions or filters).
 */
function functionScoreQuery(plan: Extract<PlanQuery, { type: 'function_score' }>): Query {
  const functions: FilterFunction[] = plan.functions.map((entry) => ({
    filter: entry.filter === undefined || isMatchAll(entry.filter) ? null : toExecutionQuery(entry.filter),
    function: scoreFunction(entry),
  }));
  const single = functions.length === 1 && functions[0]!.filter === null;
  return new FunctionScoreQuery(toExecutionQuery(plan.query), functions, {
    scoreMode: functions.length === 0 || single ? 'first' : plan.scoreMode,
    boostMode: functions.length === 0 ? 'multiply' : plan.boostMode,
    maxBoost: plan.maxBoost,
    ...(plan.minScore !== undefined && { minScore: plan.minScore }),
  });
}

export function toExecutionQuery(plan: PlanQuery): Query {
  switch (plan.type) {
    case 'match_all':
      return new MatchAllDocsQuery();
    case 'match_none':
      return new MatchNoDocsQuery(plan.reason);
    case 'term':
      return new TermQuery(plan.field, plan.term);
    case 'bool': {
      const clauses: BooleanClause[] = plan.clauses.map((clause) => ({ occur: clause.occur, query: toExecutionQuery(clause.query) }));
      return new BooleanQuery(clauses, plan.minimumShouldMatch);
    }
    case 'boost':
      return new BoostQuery(toExecutionQuery(plan.query), plan.boost);
    case 'constant_score':
      return new ConstantScoreQuery(toExecutionQuery(plan.query));
    case 'dis_max':
      return new DisjunctionMaxQuery(plan.queries.map(toExecutionQuery), plan.tieBreaker);
    case 'phrase':
      return new PhraseQuery(
        plan.field,
        plan.terms.map((entry) => entry.term),
        { slop: plan.slop, positions: plan.terms.map((entry) => entry.position) },
      );
    case 'prefix': {
      const rewrite = rewriteMethod(plan.rewrite);
      if (plan.caseInsensitive) {
        // A case-insensitive prefix is the wildcard `<escaped prefix>*` (ES builds the same automaton).
        return new WildcardQuery(plan.field, `${plan.prefix.replace(/[\\*?]/g, (c) => `\\${c}`)}*`, {
          caseInsensitive: true,
          ...(rewrite !== undefined && { rewriteMethod: rewrite }),
        });
      }
      return new PrefixQuery(plan.field, plan.prefix, rewrite);
    }
    case 'wildcard': {
      const rewrite = rewriteMethod(plan.rewrite);
      return new WildcardQuery(plan.field, plan.pattern, { caseInsensitive: plan.caseInsensitive, ...(rewrite !== undefined && { rewriteMethod: rewrite }) });
    }
    case 'fuzzy': {
      const rewrite = rewriteMethod(plan.rewrite);
      return new FuzzyQuery(plan.field, plan.term, {
        maxEdits: plan.maxEdits,
        prefixLength: plan.prefixLength,
        maxExpansions: plan.maxExpansions,
        transpositions: plan.transpositions,
        ...(rewrite !== undefined && { rewriteMethod: rewrite }),
      });
    }
    case 'long_range':
      return longRangeQuery(plan.field, plan.lower, plan.upper);
    case 'bytes_range':
      return new SortedSetRangesQuery(
        plan.field,
        plan.ranges.map((range) => ({ lower: hexToIp(range.lower), upper: hexToIp(range.upper) })),
        formatIp,
      );
    case 'double_range':
      return new DocValuesRangeQuery(plan.field, plan.lower, plan.upper);
    case 'long_set': {
      // A point set query: one exact doc-values range per value, constant scoring as LongPoint.newSetQuery.
      const exact = [...new Set(plan.values)].map((value) => ({ occur: 'should' as const, query: longRangeQuery(plan.field, value, value) }));
      return new ConstantScoreQuery(new BooleanQuery(exact));
    }
    case 'double_set': {
      const exact = [...new Set(plan.values)].map((value) => ({ occur: 'should' as const, query: new DocValuesRangeQuery(plan.field, value, value) as Query }));
      return new ConstantScoreQuery(new BooleanQuery(exact));
    }
    case 'term_set':
      return new TermInSetQuery(plan.field, plan.terms);
    case 'field_exists':
      return new ExistsQuery(plan.field);
    case 'blended_terms':
      return new BlendedTermQuery(plan.terms, plan.tieBreaker);
    case 'term_range':
      return new TermRangeQuery(plan.field, {
        ...(plan.lower !== undefined && { lower: plan.lower }),
        ...(plan.upper !== undefined && { upper: plan.upper }),
        includeLower: plan.includeLower,
        includeUpper: plan.includeUpper,
      });
    case 'regexp': {
      const rewrite = rewriteMethod(plan.rewrite);
      return new RegexpQuery(plan.field, plan.pattern, {
        flags: plan.flags,
        caseInsensitive: plan.caseInsensitive,
        maxDeterminizedStates: plan.maxDeterminizedStates,
        ...(rewrite !== undefined && { rewriteMethod: rewrite }),
      });
    }
    case 'boosting':
      return new BoostByQuery(toExecutionQuery(plan.positive), toExecutionQuery(plan.negative), plan.negativeBoost);
    case 'named':
      // matched_queries is not reported yet; the name does not change what matches or how it scores.
      return toExecutionQuery(plan.query);
    case 'phrase_prefix': {
      // Tokens stacked at one position (same position) are alternatives there, as ES's builder adds them.
      const termArrays: string[][] = [];
      const positions: number[] = [];
      for (const entry of plan.terms) {
        if (positions.length > 0 && positions[positions.length - 1] === entry.position) termArrays[termArrays.length - 1]!.push(entry.term);
        else {
          termArrays.push([entry.term]);
          positions.push(entry.position);
        }
      }
      return new MultiPhrasePrefixQuery(plan.field, termArrays, positions, { slop: plan.slop, maxExpansions: plan.maxExpansions });
    }
    case 'function_score':
      return functionScoreQuery(plan);
  }
}
