/**
 * match, match_phrase and match_phrase_prefix (MatchQueryBuilder, MatchPhraseQueryBuilder,
 * MatchPhrasePrefixQueryBuilder.fromXContent): `{"match": {"field": "text"}}` or
 * `{"match": {"field": {"query": "text", ...options}}}`, one field only.
 */
import type { MatchPhrasePrefixQuery, MatchPhraseQuery, MatchQuery, QueryValue, ZeroTermsQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost, readZeroTermsQuery } from './common-params.js';
import { declareMatchTextOptions, defaultMatchTextOptions, type MatchTextOptions } from './match-text-options.js';
import type { QueryParseContext } from './parse-context.js';
import { declareBoostAndName, QueryOptions, STRUCTURE_IS_UNKNOWN_TOKEN, type OptionReader } from './query-options.js';
import { parseSingleFieldQuery, type SingleFieldQuery } from './single-field-query.js';

/** The query text as objectText() reads it; null counts as no text. */
const readQuery: OptionReader<{ value: QueryValue | undefined }> = (parser, state) => (state.value = parser.objectText() ?? undefined);

interface MatchState extends MatchTextOptions {
  value: QueryValue | undefined;
}

const MATCH: SingleFieldQuery<MatchState> = {
  options: declareMatchTextOptions(new QueryOptions<MatchState>('match', STRUCTURE_IS_UNKNOWN_TOKEN)).declare('query', readQuery),
  readShortForm: readQuery,
};

export function parseMatch(context: QueryParseContext): MatchQuery {
  const options: MatchState = { ...defaultMatchTextOptions(), value: undefined };
  const fieldName = parseSingleFieldQuery(context, MATCH, options);
  const value = options.value;
  if (value === undefined) throw parsingError(context.parser.tokenLocation(), 'No text specified for text query');
  if (fieldName === undefined) throw illegalArgument('[match] requires fieldName');
  const { analyzer, fuzziness, fuzzyRewrite, minimumShouldMatch, name } = options;
  if (options.prefixLength < 0) throw illegalArgument('[match] requires prefix length to be non-negative.');
  if (options.maxExpansions <= 0) throw illegalArgument('[match] requires maxExpansions to be positive.');
  return {
    kind: 'match',
    field: fieldName,
    query: value,
    operator: options.operator,
    ...(analyzer !== undefined && { analyzer }),
    ...(fuzziness !== undefined && { fuzziness }),
    prefixLength: options.prefixLength,
    maxExpansions: options.maxExpansions,
    fuzzyTranspositions: options.fuzzyTranspositions,
    ...(fuzzyRewrite !== undefined && { fuzzyRewrite }),
    ...(minimumShouldMatch !== undefined && { minimumShouldMatch }),
    lenient: options.lenient ?? false,
    zeroTermsQuery: options.zeroTermsQuery,
    autoGenerateSynonymsPhraseQuery: options.autoGenerateSynonymsPhraseQuery,
    boost: checkBoost(options.boost),
    ...(name !== undefined && { name }),
  };
}

interface PhraseOptions {
  value: QueryValue | undefined;
  boost: number;
  analyzer: string | undefined;
  slop: number;
  maxExpansions: number;
  zeroTermsQuery: ZeroTermsQuery;
  name?: string;
}

/** The options of match_phrase, and of match_phrase_prefix, which also takes max_expansions. */
function phraseQuery(queryName: 'match_phrase' | 'match_phrase_prefix'): SingleFieldQuery<PhraseOptions> {
  const options = declareBoostAndName(new QueryOptions<PhraseOptions>(queryName, STRUCTURE_IS_UNKNOWN_TOKEN))
    .declare('query', readQuery)
    .declare('analyzer', (parser, state) => (state.analyzer = parser.text()))
    .declare('slop', (parser, state) => (state.slop = parser.intValue()))
    .declare('zero_terms_query', (parser, state) => (state.zeroTermsQuery = readZeroTermsQuery(parser)));
  if (queryName === 'match_phrase_prefix') options.declare('max_expansions', (parser, state) => (state.maxExpansions = parser.intValue()));
  return { options, readShortForm: readQuery };
}

const MATCH_PHRASE = phraseQuery('match_phrase');
const MATCH_PHRASE_PREFIX = phraseQuery('match_phrase_prefix');

function parsePhraseLike(context: QueryParseContext, query: SingleFieldQuery<PhraseOptions>): PhraseOptions & { fieldName: string; value: QueryValue } {
  const queryName = query.options.queryName;
  const options: PhraseOptions = {
    value: undefined,
    boost: DEFAULTS.boost,
    analyzer: undefined,
    slop: DEFAULTS.slop,
    maxExpansions: DEFAULTS.maxExpansions,
    zeroTermsQuery: 'none',
  };
  const fieldName = parseSingleFieldQuery(context, query, options);
  if (fieldName === undefined) throw illegalArgument(`[${queryName}] requires fieldName`);
  if (options.value === undefined) throw illegalArgument(`[${queryName}] requires query value`);
  if (options.slop < 0) throw illegalArgument('No negative slop allowed.');
  return { ...options, fieldName, value: options.value };
}

export function parseMatchPhrase(context: QueryParseContext): MatchPhraseQuery {
  const options = parsePhraseLike(context, MATCH_PHRASE);
  return {
    kind: 'match_phrase',
    field: options.fieldName,
    query: options.value,
    ...(options.analyzer !== undefined && { analyzer: options.analyzer }),
    slop: options.slop,
    zeroTermsQuery: options.zeroTermsQuery,
    boost: checkBoost(options.boost),
    ...(options.name !== undefined && { name: options.name }),
  };
}

export function parseMatchPhrasePrefix(context: QueryParseContext): MatchPhrasePrefixQuery {
  const options = parsePhraseLike(context, MATCH_PHRASE_PREFIX);
  if (options.maxExpansions < 0) throw illegalArgument('No negative maxExpansions allowed.');
  return {
    kind: 'match_phrase_prefix',
    field: options.fieldName,
    query: options.value,
    ...(options.analyzer !== undefined && { analyzer: options.analyzer }),
    slop: options.slop,
    maxExpansions: options.maxExpansions,
    zeroTermsQuery: options.zeroTermsQuery,
    boost: checkBoost(options.boost),
    ...(options.name !== undefined && { name: options.name }),
  };
}
