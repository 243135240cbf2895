/** multi_match (MultiMatchQueryBuilder.fromXContent): one text against several fields, six ways of combining them. */
import type { FieldBoost, MultiMatchQuery, MultiMatchType, QueryValue } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { isValueToken, type XContentParser } from '../xcontent/xcontent-parser.js';
import { elasticsearchParseError, illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost, parseFieldAndBoost, putFieldBoost } from './common-params.js';
import { defaultMatchTextOptions, readMatchTextOption } from './match-text-options.js';
import { doesNotSupport, unknownToken } from './match-queries.js';
import type { QueryParseContext } from './parse-context.js';

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

export function parseMultiMatch(context: QueryParseContext): MultiMatchQuery {
  const parser = context.parser;
  let value: QueryValue | undefined;
  const fields: FieldBoost[] = [];
  let type: MultiMatchType = 'best_fields';
  let slop: number = DEFAULTS.slop;
  let tieBreaker: number | undefined;
  const options = defaultMatchTextOptions();
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (currentFieldName === 'fields') {
      if (token === 'START_ARRAY') {
        while (parser.nextToken() !== 'END_ARRAY') readField(parser, fields);
      } else if (isValueToken(token)) {
        readField(parser, fields);
      } else {
        doesNotSupport(parser, 'multi_match', currentFieldName);
      }
    } else if (isValueToken(token)) {
      switch (currentFieldName) {
        case 'query':
          value = parser.objectText() ?? undefined;
          break;
        case 'type':
          type = readMultiMatchType(parser.text());
          break;
        case 'slop':
          slop = parser.intValue();
          break;
        case 'tie_breaker':
          tieBreaker = parser.floatValue();
          break;
        default:
          if (!readMatchTextOption(parser, currentFieldName, options)) doesNotSupport(parser, 'multi_match', currentFieldName);
      }
    } else {
      unknownToken(parser, 'multi_match', currentFieldName);
    }
  }
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
