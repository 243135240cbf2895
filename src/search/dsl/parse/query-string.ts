/**
 * query_string and simple_query_string (QueryStringQueryBuilder, SimpleQueryStringBuilder.fromXContent).
 * Only the options are read here; the query text's own syntax is parsed when the query is built, as in ES,
 * where a syntax error is a shard failure rather than a request parsing error.
 */
import { parseZoneId } from '../../../mapping/date/zones.js';
import type { FieldBoost, Fuzziness, MultiMatchType, Operator, QueryStringQuery, SimpleQueryStringQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { isValueToken } from '../xcontent/xcontent-parser.js';
import { illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost, parseFieldAndBoost, putFieldBoost, readFuzziness, readOperator } from './common-params.js';
import { readMultiMatchType } from './multi-match.js';
import type { QueryParseContext } from './parse-context.js';

export function parseQueryString(context: QueryParseContext): QueryStringQuery {
  const parser = context.parser;
  let query: string | undefined;
  let defaultField: string | undefined;
  let analyzer: string | undefined;
  let quoteAnalyzer: string | undefined;
  let name: string | undefined;
  let boost: number = DEFAULTS.boost;
  let maxDeterminizedStates: number = DEFAULTS.maxDeterminizedStates;
  let enablePositionIncrements = true;
  let escape = false;
  let fuzzyPrefixLength: number = DEFAULTS.prefixLength;
  let fuzzyMaxExpansions: number = DEFAULTS.maxExpansions;
  let phraseSlop: number = DEFAULTS.slop;
  let type: MultiMatchType = 'best_fields';
  let tieBreaker: number | undefined;
  let analyzeWildcard: boolean | undefined;
  let allowLeadingWildcard: boolean | undefined;
  let minimumShouldMatch: string | undefined;
  let quoteFieldSuffix: string | undefined;
  let lenient: boolean | undefined;
  let defaultOperator: Operator = 'or';
  let timeZone: string | undefined;
  let fuzziness: Fuzziness = DEFAULTS.autoFuzziness;
  let fuzzyRewrite: string | undefined;
  let rewrite: string | undefined;
  let fields: FieldBoost[] | undefined;
  let autoGenerateSynonymsPhraseQuery = true;
  let fuzzyTranspositions: boolean = DEFAULTS.fuzzyTranspositions;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_ARRAY') {
      if (currentFieldName !== 'fields') throw parsingError(parser.tokenLocation(), `[query_string] query does not support [${currentFieldName}]`);
      fields = [];
      while (parser.nextToken() !== 'END_ARRAY') putFieldBoost(fields, parseFieldAndBoost(parser.text()));
    } else if (isValueToken(token)) {
      switch (currentFieldName) {
        case 'query':
          query = parser.text();
          break;
        case 'default_field':
          defaultField = parser.text();
          break;
        case 'default_operator':
          defaultOperator = readOperator(parser.text());
          break;
        case 'analyzer':
          analyzer = parser.text();
          break;
        case 'quote_analyzer':
          quoteAnalyzer = parser.text();
          break;
        case 'allow_leading_wildcard':
          allowLeadingWildcard = parser.booleanValue();
          break;
        case 'max_determinized_states':
          maxDeterminizedStates = parser.intValue();
          break;
        case 'enable_position_increments':
          enablePositionIncrements = parser.booleanValue();
          break;
        case 'escape':
          escape = parser.booleanValue();
          break;
        case 'fuzzy_prefix_length':
          fuzzyPrefixLength = parser.intValue();
          break;
        case 'fuzzy_max_expansions':
          fuzzyMaxExpansions = parser.intValue();
          break;
        case 'fuzzy_rewrite':
          fuzzyRewrite = parser.textOrNull() ?? undefined;
          break;
        case 'phrase_slop':
          phraseSlop = parser.intValue();
          break;
        case 'fuzziness':
          fuzziness = readFuzziness(parser);
          break;
        case 'boost':
          boost = parser.floatValue();
          break;
        case 'type':
          type = readMultiMatchType(parser.text());
          break;
        case 'tie_breaker':
          tieBreaker = parser.floatValue();
          break;
        case 'analyze_wildcard':
          analyzeWildcard = parser.booleanValue();
          break;
        case 'rewrite':
          rewrite = parser.textOrNull() ?? undefined;
          break;
        case 'minimum_should_match':
          minimumShouldMatch = parser.textOrNull() ?? undefined;
          break;
        case 'quote_field_suffix':
          quoteFieldSuffix = parser.textOrNull() ?? undefined;
          break;
        case 'lenient':
          lenient = parser.booleanValue();
          break;
        case 'time_zone':
          timeZone = parser.text();
          if (parseZoneId(timeZone) === undefined) throw parsingError(parser.tokenLocation(), `[query_string] time_zone [${timeZone}] is unknown`);
          break;
        case '_name':
          name = parser.text();
          break;
        case 'auto_generate_synonyms_phrase_query':
          autoGenerateSynonymsPhraseQuery = parser.booleanValue();
          break;
        case 'fuzzy_transpositions':
          fuzzyTranspositions = parser.booleanValue();
          break;
        default:
          throw parsingError(parser.tokenLocation(), `[query_string] query does not support [${currentFieldName}]`);
      }
    } else {
      throw parsingError(parser.tokenLocation(), `[query_string] unknown token [${token}] after [${currentFieldName}]`);
    }
  }
  if (query === undefined) throw parsingError(parser.tokenLocation(), '[query_string] must be provided with a [query]');
  return {
    kind: 'query_string',
    query,
    ...(defaultField !== undefined && { defaultField }),
    ...(fields !== undefined && { fields }),
    defaultOperator,
    ...(analyzer !== undefined && { analyzer }),
    ...(quoteAnalyzer !== undefined && { quoteAnalyzer }),
    ...(quoteFieldSuffix !== undefined && { quoteFieldSuffix }),
    ...(allowLeadingWildcard !== undefined && { allowLeadingWildcard }),
    ...(analyzeWildcard !== undefined && { analyzeWildcard }),
    enablePositionIncrements,
    escape,
    fuzziness,
    fuzzyPrefixLength,
    fuzzyMaxExpansions,
    ...(fuzzyRewrite !== undefined && { fuzzyRewrite }),
    fuzzyTranspositions,
    phraseSlop,
    type,
    ...(tieBreaker !== undefined && { tieBreaker }),
    ...(rewrite !== undefined && { rewrite }),
    ...(minimumShouldMatch !== undefined && { minimumShouldMatch }),
    ...(lenient !== undefined && { lenient }),
    ...(timeZone !== undefined && { timeZone }),
    maxDeterminizedStates,
    autoGenerateSynonymsPhraseQuery,
    boost: checkBoost(boost),
    ...(name !== undefined && { name }),
  };
}

/** Lucene's SimpleQueryParser operator bits, by ES's SimpleQueryStringFlag name. */
export const SIMPLE_QUERY_STRING_FLAGS: Readonly<Record<string, number>> = {
  ALL: -1,
  NONE: 0,
  AND: 1 << 0,
  NOT: 1 << 1,
  OR: 1 << 2,
  PREFIX: 1 << 3,
  PHRASE: 1 << 4,
  PRECEDENCE: 1 << 5,
  ESCAPE: 1 << 6,
  WHITESPACE: 1 << 7,
  FUZZY: 1 << 8,
  NEAR: 1 << 9,
  SLOP: 1 << 9,
};

/** SimpleQueryStringFlag.resolveFlags: "AND|OR|PREFIX", case-insensitive; empty means ALL. */
export function resolveSimpleQueryStringFlags(flags: string): number {
  if (flags.length === 0) return -1;
  let value = 0;
  for (const part of flags.split('|')) {
    if (part.length === 0) continue;
    const upper = part.toUpperCase();
    const flag = Object.hasOwn(SIMPLE_QUERY_STRING_FLAGS, upper) ? SIMPLE_QUERY_STRING_FLAGS[upper] : undefined;
    if (flag === undefined) throw illegalArgument(`Unknown simple_query_string flag [${part}]`);
    if (upper === 'NONE') return 0;
    if (upper === 'ALL') return -1;
    value |= flag;
  }
  return value;
}

export function parseSimpleQueryString(context: QueryParseContext): SimpleQueryStringQuery {
  const parser = context.parser;
  let query: string | undefined;
  let boost: number = DEFAULTS.boost;
  let name: string | undefined;
  let minimumShouldMatch: string | undefined;
  let fields: FieldBoost[] | undefined;
  let defaultOperator: Operator = 'or';
  let analyzer: string | undefined;
  let flags: number = DEFAULTS.simpleQueryStringFlags;
  let lenient: boolean | undefined;
  let analyzeWildcard = false;
  let quoteFieldSuffix: string | undefined;
  let autoGenerateSynonymsPhraseQuery = true;
  let fuzzyPrefixLength: number = DEFAULTS.prefixLength;
  let fuzzyMaxExpansions: number = DEFAULTS.maxExpansions;
  let fuzzyTranspositions: boolean = DEFAULTS.fuzzyTranspositions;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_ARRAY') {
      if (currentFieldName !== 'fields') throw parsingError(parser.tokenLocation(), `[simple_query_string] query does not support [${currentFieldName}]`);
      fields = [];
      while (parser.nextToken() !== 'END_ARRAY') putFieldBoost(fields, parseFieldAndBoost(parser.text()));
    } else if (isValueToken(token)) {
      switch (currentFieldName) {
        case 'query':
          query = parser.text();
          break;
        case 'boost':
          boost = parser.floatValue();
          break;
        case 'analyzer':
          analyzer = parser.text();
          break;
        case 'default_operator':
          defaultOperator = readOperator(parser.text());
          break;
        case 'flags':
          if (token !== 'VALUE_NUMBER') {
            flags = resolveSimpleQueryStringFlags(parser.text());
          } else {
            flags = parser.intValue();
            if (flags < 0) flags = -1;
          }
          break;
        case 'lenient':
          lenient = parser.booleanValue();
          break;
        case 'analyze_wildcard':
          analyzeWildcard = parser.booleanValue();
          break;
        case '_name':
          name = parser.text();
          break;
        case 'minimum_should_match':
          minimumShouldMatch = parser.textOrNull() ?? undefined;
          break;
        case 'quote_field_suffix':
          quoteFieldSuffix = parser.textOrNull() ?? undefined;
          break;
        case 'auto_generate_synonyms_phrase_query':
          autoGenerateSynonymsPhraseQuery = parser.booleanValue();
          break;
        case 'fuzzy_prefix_length':
          fuzzyPrefixLength = parser.intValue();
          break;
        case 'fuzzy_max_expansions':
          fuzzyMaxExpansions = parser.intValue();
          break;
        case 'fuzzy_transpositions':
          fuzzyTranspositions = parser.booleanValue();
          break;
        default:
          throw parsingError(parser.tokenLocation(), `[simple_query_string] unsupported field [${parser.currentName()}]`);
      }
    } else {
      throw parsingError(parser.tokenLocation(), `[simple_query_string] unknown token [${token}] after [${currentFieldName}]`);
    }
  }
  if (query === undefined) throw parsingError(parser.tokenLocation(), '[simple_query_string] query text missing');
  return {
    kind: 'simple_query_string',
    query,
    fields: fields ?? [],
    defaultOperator,
    ...(analyzer !== undefined && { analyzer }),
    flags,
    ...(lenient !== undefined && { lenient }),
    analyzeWildcard,
    ...(quoteFieldSuffix !== undefined && { quoteFieldSuffix }),
    ...(minimumShouldMatch !== undefined && { minimumShouldMatch }),
    fuzzyPrefixLength,
    fuzzyMaxExpansions,
    fuzzyTranspositions,
    autoGenerateSynonymsPhraseQuery,
    boost: checkBoost(boost),
    ...(name !== undefined && { name }),
  };
}
