/**
 * The text-query options match and multi_match both take, with the same names, types and defaults
 * (MatchQueryBuilder and MultiMatchQueryBuilder declare them alike): one reader, so the two parsers cannot drift.
 */
import type { Fuzziness, Operator, ZeroTermsQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { readFuzziness, readOperator, readZeroTermsQuery } from './common-params.js';
import { declareBoostAndName, type QueryOptions } from './query-options.js';

export interface MatchTextOptions {
  analyzer: string | undefined;
  boost: number;
  fuzziness: Fuzziness | undefined;
  prefixLength: number;
  maxExpansions: number;
  operator: Operator;
  minimumShouldMatch: string | undefined;
  fuzzyRewrite: string | undefined;
  fuzzyTranspositions: boolean;
  /** Unset when the request does not say (match defaults to false, multi_match leaves it out). */
  lenient: boolean | undefined;
  zeroTermsQuery: ZeroTermsQuery;
  autoGenerateSynonymsPhraseQuery: boolean;
  name?: string | undefined;
}

export function defaultMatchTextOptions(): MatchTextOptions {
  return {
    analyzer: undefined,
    boost: DEFAULTS.boost,
    fuzziness: undefined,
    prefixLength: DEFAULTS.prefixLength,
    maxExpansions: DEFAULTS.maxExpansions,
    operator: 'or',
    minimumShouldMatch: undefined,
    fuzzyRewrite: undefined,
    fuzzyTranspositions: DEFAULTS.fuzzyTranspositions,
    lenient: undefined,
    zeroTermsQuery: 'none',
    autoGenerateSynonymsPhraseQuery: true,
    name: undefined,
  };
}

/** Declares the shared options on a query's option table (each read on values only, as both builders do). */
export function declareMatchTextOptions<S extends MatchTextOptions>(options: QueryOptions<S>): QueryOptions<S> {
  return declareBoostAndName(options)
    .declare('analyzer', (parser, state) => (state.analyzer = parser.text()))
    .declare('fuzziness', (parser, state) => (state.fuzziness = readFuzziness(parser)))
    .declare('prefix_length', (parser, state) => (state.prefixLength = parser.intValue()))
    .declare('max_expansions', (parser, state) => (state.maxExpansions = parser.intValue()))
    .declare('operator', (parser, state) => (state.operator = readOperator(parser.text())))
    .declare('minimum_should_match', (parser, state) => (state.minimumShouldMatch = parser.textOrNull() ?? undefined))
    .declare('fuzzy_rewrite', (parser, state) => (state.fuzzyRewrite = parser.textOrNull() ?? undefined))
    .declare('fuzzy_transpositions', (parser, state) => (state.fuzzyTranspositions = parser.booleanValue()))
    .declare('lenient', (parser, state) => (state.lenient = parser.booleanValue()))
    .declare('zero_terms_query', (parser, state) => (state.zeroTermsQuery = readZeroTermsQuery(parser)))
    .declare('auto_generate_synonyms_phrase_query', (parser, state) => (state.autoGenerateSynonymsPhraseQuery = parser.booleanValue()));
}
