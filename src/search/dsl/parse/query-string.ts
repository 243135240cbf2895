/**
 * query_string and simple_query_string (QueryStringQueryBuilder, SimpleQueryStringBuilder.fromXContent).
 * Only the options are read here; the query text's own syntax is parsed when the query is built, as in ES,
 * where a syntax error is a shard failure rather than a request parsing error.
 */
import { parseZoneId } from '../../../mapping/date/zones.js';
import type { FieldBoost, Fuzziness, MultiMatchType, Operator, QueryStringQuery, SimpleQueryStringQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost, parseFieldAndBoost, putFieldBoost, readFuzziness, readOperator } from './common-params.js';
import { readMultiMatchType } from './multi-match.js';
import type { QueryParseContext } from './parse-context.js';
import { declareBoostAndName, QueryOptions } from './query-options.js';

/** The options query_string and simple_query_string both take, read alike. */
interface SharedOptions {
  query: string | undefined;
  fields: FieldBoost[] | undefined;
  defaultOperator: Operator;
  analyzer: string | undefined;
  lenient: boolean | undefined;
  analyzeWildcard: boolean | undefined;
  minimumShouldMatch: string | undefined;
  quoteFieldSuffix: string | undefined;
  autoGenerateSynonymsPhraseQuery: boolean;
  fuzzyPrefixLength: number;
  fuzzyMaxExpansions: number;
  fuzzyTranspositions: boolean;
  boost: number;
  name?: string | undefined;
}

interface QueryStringState extends SharedOptions {
  defaultField: string | undefined;
  quoteAnalyzer: string | undefined;
  allowLeadingWildcard: boolean | undefined;
  enablePositionIncrements: boolean;
  escape: boolean;
  fuzziness: Fuzziness;
  fuzzyRewrite: string | undefined;
  phraseSlop: number;
  type: MultiMatchType;
  tieBreaker: number | undefined;
  rewrite: string | undefined;
  timeZone: string | undefined;
  maxDeterminizedStates: number;
}

interface SimpleQueryStringState extends SharedOptions {
  flags: number;
}

function declareSharedOptions<S extends SharedOptions>(options: QueryOptions<S>): QueryOptions<S> {
  return declareBoostAndName(options)
    .declare('query', (parser, state) => (state.query = parser.text()))
    .declare(
      'fields',
      (parser, state) => {
        const fields: FieldBoost[] = [];
        while (parser.nextToken() !== 'END_ARRAY') putFieldBoost(fields, parseFieldAndBoost(parser.text()));
        state.fields = fields;
      },
      ['array'],
    )
    .declare('default_operator', (parser, state) => (state.defaultOperator = readOperator(parser.text())))
    .declare('analyzer', (parser, state) => (state.analyzer = parser.text()))
    .declare('lenient', (parser, state) => (state.lenient = parser.booleanValue()))
    .declare('analyze_wildcard', (parser, state) => (state.analyzeWildcard = parser.booleanValue()))
    .declare('minimum_should_match', (parser, state) => (state.minimumShouldMatch = parser.textOrNull() ?? undefined))
    .declare('quote_field_suffix', (parser, state) => (state.quoteFieldSuffix = parser.textOrNull() ?? undefined))
    .declare('auto_generate_synonyms_phrase_query', (parser, state) => (state.autoGenerateSynonymsPhraseQuery = parser.booleanValue()))
    .declare('fuzzy_prefix_length', (parser, state) => (state.fuzzyPrefixLength = parser.intValue()))
    .declare('fuzzy_max_expansions', (parser, state) => (state.fuzzyMaxExpansions = parser.intValue()))
    .declare('fuzzy_transpositions', (parser, state) => (state.fuzzyTranspositions = parser.booleanValue()));
}

/**
 * The query from its options: the state's defined entries in the state's order (which is the AST's), since the
 * AST leaves unset options out; the caller has checked the query text.
 */
function toQuery<Q extends QueryStringQuery | SimpleQueryStringQuery>(kind: Q['kind'], query: string, state: SharedOptions): Q {
  const entries = Object.entries({ kind, ...state, query, boost: checkBoost(state.boost) });
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as unknown as Q;
}

const QUERY_STRING_OPTIONS = declareSharedOptions(new QueryOptions<QueryStringState>('query_string', { object: 'unknown_token', null: 'unknown_token' }))
  .declare('default_field', (parser, state) => (state.defaultField = parser.text()))
  .declare('quote_analyzer', (parser, state) => (state.quoteAnalyzer = parser.text()))
  .declare('allow_leading_wildcard', (parser, state) => (state.allowLeadingWildcard = parser.booleanValue()))
  .declare('max_determinized_states', (parser, state) => (state.maxDeterminizedStates = parser.intValue()))
  .declare('enable_position_increments', (parser, state) => (state.enablePositionIncrements = parser.booleanValue()))
  .declare('escape', (parser, state) => (state.escape = parser.booleanValue()))
  .declare('fuzzy_rewrite', (parser, state) => (state.fuzzyRewrite = parser.textOrNull() ?? undefined))
  .declare('phrase_slop', (parser, state) => (state.phraseSlop = parser.intValue()))
  .declare('fuzziness', (parser, state) => (state.fuzziness = readFuzziness(parser)))
  .declare('type', (parser, state) => (state.type = readMultiMatchType(parser.text())))
  .declare('tie_breaker', (parser, state) => (state.tieBreaker = parser.floatValue()))
  .declare('rewrite', (parser, state) => (state.rewrite = parser.textOrNull() ?? undefined))
  .declare('time_zone', (parser, state) => {
    const timeZone = parser.text();
    if (parseZoneId(timeZone) === undefined) throw parsingError(parser.tokenLocation(), `[query_string] time_zone [${timeZone}] is unknown`);
    state.timeZone = timeZone;
  });

export function parseQueryString(context: QueryParseContext): QueryStringQuery {
  const state: QueryStringState = {
    query: undefined,
    defaultField: undefined,
    fields: undefined,
    defaultOperator: 'or',
    analyzer: undefined,
    quoteAnalyzer: undefined,
    quoteFieldSuffix: undefined,
    allowLeadingWildcard: undefined,
    analyzeWildcard: undefined,
    enablePositionIncrements: true,
    escape: false,
    fuzziness: DEFAULTS.autoFuzziness,
    fuzzyPrefixLength: DEFAULTS.prefixLength,
    fuzzyMaxExpansions: DEFAULTS.maxExpansions,
    fuzzyRewrite: undefined,
    fuzzyTranspositions: DEFAULTS.fuzzyTranspositions,
    phraseSlop: DEFAULTS.slop,
    type: 'best_fields',
    tieBreaker: undefined,
    rewrite: undefined,
    minimumShouldMatch: undefined,
    lenient: undefined,
    timeZone: undefined,
    maxDeterminizedStates: DEFAULTS.maxDeterminizedStates,
    autoGenerateSynonymsPhraseQuery: true,
    boost: DEFAULTS.boost,
    name: undefined,
  };
  QUERY_STRING_OPTIONS.parseFields(context, state);
  if (state.query === undefined) throw parsingError(context.parser.tokenLocation(), '[query_string] must be provided with a [query]');
  return toQuery('query_string', state.query, state);
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

const SIMPLE_QUERY_STRING_OPTIONS = declareSharedOptions(
  new QueryOptions<SimpleQueryStringState>('simple_query_string', { value: 'unsupported_field', object: 'unknown_token', null: 'unknown_token' }),
).declare('flags', (parser, state) => {
  if (parser.currentToken() !== 'VALUE_NUMBER') {
    state.flags = resolveSimpleQueryStringFlags(parser.text());
  } else {
    const flags = parser.intValue();
    state.flags = flags < 0 ? -1 : flags;
  }
});

export function parseSimpleQueryString(context: QueryParseContext): SimpleQueryStringQuery {
  const state: SimpleQueryStringState = {
    query: undefined,
    fields: [],
    defaultOperator: 'or',
    analyzer: undefined,
    flags: DEFAULTS.simpleQueryStringFlags,
    lenient: undefined,
    analyzeWildcard: false,
    quoteFieldSuffix: undefined,
    minimumShouldMatch: undefined,
    fuzzyPrefixLength: DEFAULTS.prefixLength,
    fuzzyMaxExpansions: DEFAULTS.maxExpansions,
    fuzzyTranspositions: DEFAULTS.fuzzyTranspositions,
    autoGenerateSynonymsPhraseQuery: true,
    boost: DEFAULTS.boost,
    name: undefined,
  };
  SIMPLE_QUERY_STRING_OPTIONS.parseFields(context, state);
  if (state.query === undefined) throw parsingError(context.parser.tokenLocation(), '[simple_query_string] query text missing');
  return toQuery('simple_query_string', state.query, state);
}
