/**
 * The text-query options match and multi_match both take, with the same names, types and defaults
 * (MatchQueryBuilder and MultiMatchQueryBuilder declare them alike): one reader, so the two parsers cannot drift.
 */
import type { Fuzziness, Operator, ZeroTermsQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import type { XContentParser } from '../xcontent/xcontent-parser.js';
import { readFuzziness, readOperator, readZeroTermsQuery } from './common-params.js';

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
  name: string | undefined;
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

/** Reads the current value into `options` when `field` is one of the shared options; false when it is not. */
export function readMatchTextOption(parser: XContentParser, field: string | undefined, options: MatchTextOptions): boolean {
  switch (field) {
    case 'analyzer':
      options.analyzer = parser.text();
      return true;
    case 'boost':
      options.boost = parser.floatValue();
      return true;
    case 'fuzziness':
      options.fuzziness = readFuzziness(parser);
      return true;
    case 'prefix_length':
      options.prefixLength = parser.intValue();
      return true;
    case 'max_expansions':
      options.maxExpansions = parser.intValue();
      return true;
    case 'operator':
      options.operator = readOperator(parser.text());
      return true;
    case 'minimum_should_match':
      options.minimumShouldMatch = parser.textOrNull() ?? undefined;
      return true;
    case 'fuzzy_rewrite':
      options.fuzzyRewrite = parser.textOrNull() ?? undefined;
      return true;
    case 'fuzzy_transpositions':
      options.fuzzyTranspositions = parser.booleanValue();
      return true;
    case 'lenient':
      options.lenient = parser.booleanValue();
      return true;
    case 'zero_terms_query':
      options.zeroTermsQuery = readZeroTermsQuery(parser);
      return true;
    case '_name':
      options.name = parser.text();
      return true;
    case 'auto_generate_synonyms_phrase_query':
      options.autoGenerateSynonymsPhraseQuery = parser.booleanValue();
      return true;
    default:
      return false;
  }
}
