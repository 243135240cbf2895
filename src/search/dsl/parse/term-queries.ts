/**
 * The term-level queries whose value is not analyzed: term, terms, prefix, wildcard, regexp and fuzzy
 * (their QueryBuilders' fromXContent). Each takes one field, in a short form (`{"term": {"f": "v"}}`) or a
 * long form with options.
 */
import type { Fuzziness, FuzzyQuery, PrefixQuery, QueryValue, RegexpQuery, TermQuery, TermsQuery, WildcardQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { isValueToken, type XContentParser } from '../xcontent/xcontent-parser.js';
import { illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost, readFuzziness } from './common-params.js';
import { checkSingleField, doesNotSupport, unknownToken } from './match-queries.js';
import type { QueryParseContext } from './parse-context.js';

/** BaseTermQueryBuilder and the multi-term builders' constructor checks. */
function requireFieldAndValue<V>(field: string | undefined, value: V | null | undefined): asserts value is V {
  if (field === undefined || field.length === 0) throw illegalArgument('field name is null or empty');
  if (value === undefined || value === null) throw illegalArgument('value cannot be null');
}

export function parseTerm(context: QueryParseContext): TermQuery {
  const parser = context.parser;
  let name: string | undefined;
  let fieldName: string | undefined;
  let value: QueryValue | null | undefined;
  let boost: number = DEFAULTS.boost;
  let caseInsensitive = false;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField(parser, 'term', fieldName, currentFieldName);
      fieldName = currentFieldName;
      for (let inner = parser.nextToken(); inner !== 'END_OBJECT'; inner = parser.nextToken()) {
        if (inner === 'FIELD_NAME') {
          currentFieldName = parser.currentName();
        } else if (currentFieldName === 'term' || currentFieldName === 'value') {
          if (inner === 'START_ARRAY' && currentFieldName === 'value') {
            throw parsingError(
              parser.tokenLocation(),
              '[term] query does not support arrays for value - use a bool query with multiple term clauses in the should section or use a Terms query if scoring is not required',
            );
          }
          if (inner === 'START_OBJECT' || inner === 'START_ARRAY') unknownToken(parser, 'term', currentFieldName);
          value = parser.objectText();
        } else if (currentFieldName === '_name') {
          name = parser.text();
        } else if (currentFieldName === 'boost') {
          boost = parser.floatValue();
        } else if (currentFieldName === 'case_insensitive') {
          caseInsensitive = parser.booleanValue();
        } else {
          throw parsingError(parser.tokenLocation(), `[term] query does not support [${currentFieldName}]`);
        }
      }
    } else if (isValueToken(token)) {
      checkSingleField(parser, 'term', fieldName, parser.currentName());
      fieldName = currentFieldName;
      value = parser.objectText();
    } else if (token === 'START_ARRAY') {
      throw parsingError(parser.tokenLocation(), '[term] query does not support array of values');
    }
  }
  requireFieldAndValue(fieldName, value);
  return {
    kind: 'term',
    field: fieldName!,
    value,
    caseInsensitive,
    boost: checkBoost(boost),
    ...(name !== undefined && { name }),
  };
}

export function parseTerms(context: QueryParseContext): TermsQuery {
  const parser = context.parser;
  let fieldName: string | undefined;
  let values: QueryValue[] | undefined;
  let name: string | undefined;
  let boost: number = DEFAULTS.boost;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_ARRAY') {
      if (fieldName !== undefined) throw parsingError(parser.tokenLocation(), '[terms] query does not support multiple fields');
      fieldName = currentFieldName;
      values = [];
      while (parser.nextToken() !== 'END_ARRAY') {
        const value = parser.objectText();
        if (value === null) throw parsingError(parser.tokenLocation(), 'No value specified for terms query');
        values.push(value);
      }
    } else if (token === 'START_OBJECT') {
      if (fieldName !== undefined) {
        throw parsingError(
          parser.tokenLocation(),
          `[terms] query does not support more than one field. Already got: [${fieldName}] but also found [${currentFieldName}]`,
        );
      }
      // A terms lookup ({"index": .., "id": .., "path": ..}) needs a document fetch Gannet does not do yet.
      throw parsingError(parser.tokenLocation(), `[terms] query does not support a terms lookup for field [${currentFieldName}]: list the terms instead`);
    } else if (isValueToken(token)) {
      if (currentFieldName === 'boost') boost = parser.floatValue();
      else if (currentFieldName === '_name') name = parser.text();
      else doesNotSupport(parser, 'terms', currentFieldName);
    } else {
      unknownToken(parser, 'terms', currentFieldName);
    }
  }
  if (fieldName === undefined) {
    throw parsingError(parser.tokenLocation(), '[terms] query requires a field name, followed by array of terms or a document lookup specification');
  }
  if (fieldName.length === 0) throw illegalArgument('field name cannot be null.');
  return { kind: 'terms', field: fieldName, values: values ?? [], boost: checkBoost(boost), ...(name !== undefined && { name }) };
}

interface MultiTermCommon {
  fieldName: string | undefined;
  value: string | null | undefined;
  boost: number;
  name: string | undefined;
  rewrite: string | undefined;
  caseInsensitive: boolean;
}

/**
 * The loop prefix, wildcard and regexp share: a long form whose options are read by `option`, or the short
 * form. `valueKeys` names the keys holding the value (wildcard also accepts `wildcard`).
 */
function parseMultiTerm(
  context: QueryParseContext,
  queryName: 'prefix' | 'wildcard' | 'regexp',
  valueKeys: readonly string[],
  option: (key: string | undefined, parser: XContentParser) => boolean,
): MultiTermCommon {
  const parser = context.parser;
  const state: MultiTermCommon = { fieldName: undefined, value: undefined, boost: DEFAULTS.boost, name: undefined, rewrite: undefined, caseInsensitive: false };
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField(parser, queryName, state.fieldName, currentFieldName);
      state.fieldName = currentFieldName;
      for (let inner = parser.nextToken(); inner !== 'END_OBJECT'; inner = parser.nextToken()) {
        if (inner === 'FIELD_NAME') {
          currentFieldName = parser.currentName();
        } else if (currentFieldName !== undefined && valueKeys.includes(currentFieldName)) {
          // wildcard reads its value with text(), prefix and regexp with textOrNull().
          state.value = queryName === 'wildcard' ? parser.text() : parser.textOrNull();
        } else if (currentFieldName === '_name') {
          state.name = parser.text();
        } else if (currentFieldName === 'boost') {
          state.boost = parser.floatValue();
        } else if (currentFieldName === 'rewrite') {
          state.rewrite = parser.textOrNull() ?? undefined;
        } else if (currentFieldName === 'case_insensitive') {
          state.caseInsensitive = parser.booleanValue();
        } else if (!option(currentFieldName, parser)) {
          throw parsingError(parser.tokenLocation(), `[${queryName}] query does not support [${currentFieldName}]`);
        }
      }
    } else {
      checkSingleField(parser, queryName, state.fieldName, parser.currentName());
      state.fieldName = parser.currentName();
      state.value = queryName === 'wildcard' ? parser.text() : parser.textOrNull();
    }
  }
  return state;
}

function common(state: MultiTermCommon): { field: string; value: string; boost: number; name?: string; rewrite?: string; caseInsensitive: boolean } {
  requireFieldAndValue(state.fieldName, state.value);
  return {
    field: state.fieldName!,
    value: state.value,
    ...(state.rewrite !== undefined && { rewrite: state.rewrite }),
    caseInsensitive: state.caseInsensitive,
    boost: checkBoost(state.boost),
    ...(state.name !== undefined && { name: state.name }),
  };
}

export function parsePrefix(context: QueryParseContext): PrefixQuery {
  return { kind: 'prefix', ...common(parseMultiTerm(context, 'prefix', ['value'], () => false)) };
}

export function parseWildcard(context: QueryParseContext): WildcardQuery {
  return { kind: 'wildcard', ...common(parseMultiTerm(context, 'wildcard', ['wildcard', 'value'], () => false)) };
}

/** RegexpFlag values (Lucene's RegExp syntax flags). */
const REGEXP_FLAGS: Readonly<Record<string, number>> = {
  INTERSECTION: 0x01,
  COMPLEMENT: 0x02,
  EMPTY: 0x04,
  ANYSTRING: 0x08,
  INTERVAL: 0x20,
  NONE: 0,
  ALL: 0xff,
};

/** RegexpFlag.resolveValue: "INTERSECTION|COMPLEMENT|..." (case-insensitive); empty means ALL. */
export function resolveRegexpFlags(flags: string | null): number {
  if (flags === null || flags.length === 0) return REGEXP_FLAGS.ALL!;
  let value = 0;
  for (const part of flags.split('|')) {
    if (part.length === 0) continue;
    const upper = part.toUpperCase();
    const flag = Object.hasOwn(REGEXP_FLAGS, upper) ? REGEXP_FLAGS[upper] : undefined;
    if (flag === undefined) throw illegalArgument(`Unknown regexp flag [${part}]`);
    if (upper === 'NONE') continue;
    if (upper === 'ALL') return flag;
    value |= flag;
  }
  return value;
}

export function parseRegexp(context: QueryParseContext): RegexpQuery {
  let flags: number = DEFAULTS.regexpFlags;
  let maxDeterminizedStates: number = DEFAULTS.maxDeterminizedStates;
  const state = parseMultiTerm(context, 'regexp', ['value'], (key, parser) => {
    if (key === 'flags') flags = resolveRegexpFlags(parser.textOrNull());
    else if (key === 'flags_value') flags = parser.intValue();
    else if (key === 'max_determinized_states') maxDeterminizedStates = parser.intValue();
    else return false;
    return true;
  });
  const base = common(state);
  if (maxDeterminizedStates < 0) throw illegalArgument('[regexp] requires max_determinized_states to be non-negative');
  return { kind: 'regexp', ...base, flags, maxDeterminizedStates };
}

export function parseFuzzy(context: QueryParseContext): FuzzyQuery {
  const parser = context.parser;
  let fieldName: string | undefined;
  let value: QueryValue | null | undefined;
  let fuzziness: Fuzziness = DEFAULTS.autoFuzziness;
  let prefixLength: number = DEFAULTS.prefixLength;
  let maxExpansions: number = DEFAULTS.maxExpansions;
  let transpositions: boolean = DEFAULTS.fuzzyTranspositions;
  let rewrite: string | undefined;
  let name: string | undefined;
  let boost: number = DEFAULTS.boost;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField(parser, 'fuzzy', fieldName, currentFieldName);
      fieldName = currentFieldName;
      for (let inner = parser.nextToken(); inner !== 'END_OBJECT'; inner = parser.nextToken()) {
        if (inner === 'FIELD_NAME') {
          currentFieldName = parser.currentName();
        } else if (isValueToken(inner)) {
          switch (currentFieldName) {
            case 'term':
            case 'value':
              value = parser.objectText();
              break;
            case 'boost':
              boost = parser.floatValue();
              break;
            case 'fuzziness':
              fuzziness = readFuzziness(parser);
              break;
            case 'prefix_length':
              prefixLength = parser.intValue();
              break;
            case 'max_expansions':
              maxExpansions = parser.intValue();
              break;
            case 'transpositions':
              transpositions = parser.booleanValue();
              break;
            case 'rewrite':
              rewrite = parser.textOrNull() ?? undefined;
              break;
            case '_name':
              name = parser.text();
              break;
            default:
              throw parsingError(parser.tokenLocation(), `[fuzzy] query does not support [${currentFieldName}]`);
          }
        } else {
          throw parsingError(parser.tokenLocation(), `[fuzzy] unexpected token [${inner}] after [${currentFieldName}]`);
        }
      }
    } else {
      checkSingleField(parser, 'fuzzy', fieldName, parser.currentName());
      fieldName = parser.currentName();
      value = parser.objectText();
    }
  }
  if (fieldName === undefined || fieldName.length === 0) throw illegalArgument('field name cannot be null or empty');
  if (value === undefined || value === null) throw illegalArgument('query value cannot be null');
  return {
    kind: 'fuzzy',
    field: fieldName,
    value,
    fuzziness,
    prefixLength,
    maxExpansions,
    transpositions,
    ...(rewrite !== undefined && { rewrite }),
    boost: checkBoost(boost),
    ...(name !== undefined && { name }),
  };
}
