/**
 * match, match_phrase and match_phrase_prefix (MatchQueryBuilder, MatchPhraseQueryBuilder,
 * MatchPhrasePrefixQueryBuilder.fromXContent): `{"match": {"field": "text"}}` or
 * `{"match": {"field": {"query": "text", ...options}}}`, one field only.
 */
import type { Fuzziness, MatchPhrasePrefixQuery, MatchPhraseQuery, MatchQuery, Operator, QueryValue, ZeroTermsQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { isValueToken, type XContentParser } from '../xcontent/xcontent-parser.js';
import { illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost, readZeroTermsQuery } from './common-params.js';
import { defaultMatchTextOptions, readMatchTextOption } from './match-text-options.js';
import type { QueryParseContext } from './parse-context.js';

/** AbstractQueryBuilder.throwParsingExceptionOnMultipleFields. */
export function checkSingleField(parser: XContentParser, queryName: string, processed: string | undefined, current: string | undefined): void {
  if (processed !== undefined) {
    throw parsingError(parser.tokenLocation(), `[${queryName}] query doesn't support multiple fields, found [${processed}] and [${current}]`);
  }
}

/** ES's "unknown token" refusal for a structure where a value was expected. */
export function unknownToken(parser: XContentParser, queryName: string, field: string | undefined): never {
  throw parsingError(parser.tokenLocation(), `[${queryName}] unknown token [${parser.currentToken()}] after [${field}]`);
}

export function doesNotSupport(parser: XContentParser, queryName: string, field: string | undefined): never {
  throw parsingError(parser.tokenLocation(), `[${queryName}] query does not support [${field}]`);
}

/** A value or null as objectText() reads it (null stays null: "no text"). */
function readQueryValue(parser: XContentParser): QueryValue | undefined {
  return parser.objectText() ?? undefined;
}

export function parseMatch(context: QueryParseContext): MatchQuery {
  const parser = context.parser;
  let fieldName: string | undefined;
  let value: QueryValue | undefined;
  const options = defaultMatchTextOptions();
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField(parser, 'match', fieldName, currentFieldName);
      fieldName = currentFieldName;
      for (let inner = parser.nextToken(); inner !== 'END_OBJECT'; inner = parser.nextToken()) {
        if (inner === 'FIELD_NAME') {
          currentFieldName = parser.currentName();
        } else if (isValueToken(inner)) {
          if (currentFieldName === 'query') value = readQueryValue(parser);
          else if (!readMatchTextOption(parser, currentFieldName, options)) doesNotSupport(parser, 'match', currentFieldName);
        } else {
          unknownToken(parser, 'match', currentFieldName);
        }
      }
    } else {
      checkSingleField(parser, 'match', fieldName, parser.currentName());
      fieldName = parser.currentName();
      value = readQueryValue(parser);
    }
  }
  if (value === undefined) throw parsingError(parser.tokenLocation(), 'No text specified for text query');
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
  fieldName: string | undefined;
  value: QueryValue | undefined;
  boost: number;
  analyzer: string | undefined;
  slop: number;
  maxExpansions: number;
  zeroTermsQuery: ZeroTermsQuery;
  name: string | undefined;
}

/** The shared loop of match_phrase and match_phrase_prefix (the latter also takes max_expansions). */
function parsePhraseLike(context: QueryParseContext, queryName: 'match_phrase' | 'match_phrase_prefix'): PhraseOptions {
  const parser = context.parser;
  const options: PhraseOptions = {
    fieldName: undefined,
    value: undefined,
    boost: DEFAULTS.boost,
    analyzer: undefined,
    slop: DEFAULTS.slop,
    maxExpansions: DEFAULTS.maxExpansions,
    zeroTermsQuery: 'none',
    name: undefined,
  };
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField(parser, queryName, options.fieldName, currentFieldName);
      options.fieldName = currentFieldName;
      for (let inner = parser.nextToken(); inner !== 'END_OBJECT'; inner = parser.nextToken()) {
        if (inner === 'FIELD_NAME') {
          currentFieldName = parser.currentName();
        } else if (isValueToken(inner)) {
          if (currentFieldName === 'query') options.value = readQueryValue(parser);
          else if (currentFieldName === 'analyzer') options.analyzer = parser.text();
          else if (currentFieldName === 'boost') options.boost = parser.floatValue();
          else if (currentFieldName === 'slop') options.slop = parser.intValue();
          else if (currentFieldName === 'max_expansions' && queryName === 'match_phrase_prefix') options.maxExpansions = parser.intValue();
          else if (currentFieldName === '_name') options.name = parser.text();
          else if (currentFieldName === 'zero_terms_query') options.zeroTermsQuery = readZeroTermsQuery(parser);
          else doesNotSupport(parser, queryName, currentFieldName);
        } else {
          unknownToken(parser, queryName, currentFieldName);
        }
      }
    } else {
      checkSingleField(parser, queryName, options.fieldName, parser.currentName());
      options.fieldName = parser.currentName();
      options.value = readQueryValue(parser);
    }
  }
  if (options.fieldName === undefined) throw illegalArgument(`[${queryName}] requires fieldName`);
  if (options.value === undefined) throw illegalArgument(`[${queryName}] requires query value`);
  if (options.slop < 0) throw illegalArgument('No negative slop allowed.');
  return options;
}

export function parseMatchPhrase(context: QueryParseContext): MatchPhraseQuery {
  const options = parsePhraseLike(context, 'match_phrase');
  return {
    kind: 'match_phrase',
    field: options.fieldName!,
    query: options.value!,
    ...(options.analyzer !== undefined && { analyzer: options.analyzer }),
    slop: options.slop,
    zeroTermsQuery: options.zeroTermsQuery,
    boost: checkBoost(options.boost),
    ...(options.name !== undefined && { name: options.name }),
  };
}

export function parseMatchPhrasePrefix(context: QueryParseContext): MatchPhrasePrefixQuery {
  const options = parsePhraseLike(context, 'match_phrase_prefix');
  if (options.maxExpansions < 0) throw illegalArgument('No negative maxExpansions allowed.');
  return {
    kind: 'match_phrase_prefix',
    field: options.fieldName!,
    query: options.value!,
    ...(options.analyzer !== undefined && { analyzer: options.analyzer }),
    slop: options.slop,
    maxExpansions: options.maxExpansions,
    zeroTermsQuery: options.zeroTermsQuery,
    boost: checkBoost(options.boost),
    ...(options.name !== undefined && { name: options.name }),
  };
}
