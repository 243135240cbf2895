/** multi_match (MultiMatchQueryBuilder.fromXContent): one text against several fields, six ways of combining them. */
import type { FieldBoost, MultiMatchQuery, MultiMatchType, QueryValue } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { isValueToken, type XContentParser } from '../xcontent/xcontent-parser.js';
import { elasticsearchParseError, illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost, parseFieldAndBoost, putFieldBoost } from './common-params.js';
import { declareMatchTextOptions, defaultMatchTextOptions, type MatchTextOptions } from './match-text-options.js';
import type { QueryParseContext } from './parse-context.js';
import { ANY_TOKEN, QueryOptions, refusalError, STRUCTURE_IS_UNKNOWN_TOKEN } from './query-options.js';

const TYPES: Readonly<Record<string, MultiMatchType>> = {
  best_fields: 'best_fields',
  boolean: 'best_fields',
  most_fields: 'most_fields',
  cross_fields: 'cross_fields',
  phrase: 'phrase',
  phrase_prefix: 'phrase_prefix',
  bool_prefix: 'bool_prefix',
};

/** MultiMatchQueryBuilder.Type.parse (also used by query_string's `type`). */
export function readMultiMatchType(text: string, queryName = 'multi_match'): MultiMatchType {
  const type = Object.hasOwn(TYPES, text) ? TYPES[text] : undefined;
  if (type === undefined) throw elasticsearchParseError(`failed to parse [${queryName}] query type [${text}]. unknown type.`);
  return type;
}

function readField(parser: XContentParser, fields: FieldBoost[]): void {
  putFieldBoost(fields, parseFieldAndBoost(parser.text()));
}

interface MultiMatchState extends MatchTextOptions {
  value: QueryValue | undefined;
  fields: FieldBoost[];
  type: MultiMatchType;
  slop: number;
  tieBreaker: number | undefined;
}

const MULTI_MATCH_OPTIONS = declareMatchTextOptions(new QueryOptions<MultiMatchState>('multi_match', STRUCTURE_IS_UNKNOWN_TOKEN))
  .declare('query', (parser, state) => (state.value = parser.objectText() ?? undefined))
  .declare('type', (parser, state) => (state.type = readMultiMatchType(parser.text())))
  .declare('slop', (parser, state) => (state.slop = parser.intValue()))
  .declare('tie_breaker', (parser, state) => (state.tieBreaker = parser.floatValue()))
  .declare(
    'fields',
    (parser, state) => {
      const token = parser.currentToken();
      if (token === 'START_ARRAY') {
        while (parser.nextToken() !== 'END_ARRAY') readField(parser, state.fields);
      } else if (isValueToken(token)) {
        readField(parser, state.fields);
      } else {
        throw refusalError(parser, 'multi_match', 'does_not_support', 'fields');
      }
    },
    ANY_TOKEN,
  );

export function parseMultiMatch(context: QueryParseContext): MultiMatchQuery {
  const parser = context.parser;
  const options: MultiMatchState = { ...defaultMatchTextOptions(), value: undefined, fields: [], type: 'best_fields', slop: DEFAULTS.slop, tieBreaker: undefined };
  MULTI_MATCH_OPTIONS.parseFields(context, options);
  const { value, fields, type, slop, tieBreaker } = options;
  const { analyzer, fuzziness, prefixLength, maxExpansions, fuzzyRewrite, minimumShouldMatch, lenient, name } = options;
  if (value === undefined) throw parsingError(parser.tokenLocation(), 'No text specified for multi_match query');
  if (fuzziness !== undefined && (type === 'cross_fields' || type === 'phrase' || type === 'phrase_prefix')) {
    throw parsingError(parser.tokenLocation(), `Fuzziness not allowed for type [${type}]`);
  }
  if (slop !== DEFAULTS.slop && type === 'bool_prefix') {
    throw parsingError(parser.tokenLocation(), `[slop] not allowed for type [${type}]`);
  }
  for (const field of fields) if (field.field.length === 0) throw illegalArgument('supplied field is null or empty.');
  if (maxExpansions <= 0) throw illegalArgument('Max expansions must be strictly great than zero.');
  if (prefixLength < 0) throw illegalArgument('No negative prefix length allowed.');
  if (slop < 0) throw illegalArgument('No negative slop allowed.');
  return {
    kind: 'multi_match',
    query: value,
    fields,
    type,
    operator: options.operator,
    ...(analyzer !== undefined && { analyzer }),
    slop,
    ...(fuzziness !== undefined && { fuzziness }),
    prefixLength,
    maxExpansions,
    fuzzyTranspositions: options.fuzzyTranspositions,
    ...(fuzzyRewrite !== undefined && { fuzzyRewrite }),
    ...(minimumShouldMatch !== undefined && { minimumShouldMatch }),
    ...(tieBreaker !== undefined && { tieBreaker }),
    ...(lenient !== undefined && { lenient }),
    zeroTermsQuery: options.zeroTermsQuery,
    autoGenerateSynonymsPhraseQuery: options.autoGenerateSynonymsPhraseQuery,
    boost: checkBoost(options.boost),
    ...(name !== undefined && { name }),
  };
}
