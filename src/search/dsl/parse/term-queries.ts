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
import type { QueryParseContext } from './parse-context.js';
import { ANY_TOKEN, declareBoostAndName, QueryOptions, refusalError, type OptionReader } from './query-options.js';
import { parseSingleFieldQuery, type SingleFieldQuery } from './single-field-query.js';

/** BaseTermQueryBuilder and the multi-term builders' constructor checks. */
function requireFieldAndValue<V>(field: string | undefined, value: V | null | undefined): asserts value is V {
  if (field === undefined || field.length === 0) throw illegalArgument('field name is null or empty');
  if (value === undefined || value === null) throw illegalArgument('value cannot be null');
}

interface TermState {
  value: QueryValue | null | undefined;
  boost: number;
  name?: string;
  caseInsensitive: boolean;
}

/** `term` and `value`: a single value; an array under `value` gets ES's advice to use terms or a bool. */
function readTermValue(parser: XContentParser, state: TermState): void {
  const token = parser.currentToken();
  const field = parser.currentName();
  if (token === 'START_ARRAY' && field === 'value') {
    throw parsingError(
      parser.tokenLocation(),
      '[term] query does not support arrays for value - use a bool query with multiple term clauses in the should section or use a Terms query if scoring is not required',
    );
  }
  if (token === 'START_OBJECT' || token === 'START_ARRAY') throw refusalError(parser, 'term', 'unknown_token', field);
  state.value = parser.objectText();
}

const TERM: SingleFieldQuery<TermState> = {
  // TermQueryBuilder reads every option whatever its token: the accessors refuse what they cannot read.
  options: declareBoostAndName(new QueryOptions<TermState>('term'), ANY_TOKEN)
    .declare('term', readTermValue, ANY_TOKEN)
    .declare('value', readTermValue, ANY_TOKEN)
    .declare('case_insensitive', (parser, state) => (state.caseInsensitive = parser.booleanValue()), ANY_TOKEN),
  readShortForm: (parser, state) => (state.value = parser.objectText()),
  isShortForm: (parser, token) => {
    if (token === 'START_ARRAY') throw parsingError(parser.tokenLocation(), '[term] query does not support array of values');
    return isValueToken(token);
  },
};

export function parseTerm(context: QueryParseContext): TermQuery {
  const state: TermState = { value: undefined, boost: DEFAULTS.boost, caseInsensitive: false };
  const field = parseSingleFieldQuery(context, TERM, state);
  requireFieldAndValue(field, state.value);
  return {
    kind: 'term',
    field: field!,
    value: state.value,
    caseInsensitive: state.caseInsensitive,
    boost: checkBoost(state.boost),
    ...(state.name !== undefined && { name: state.name }),
  };
}

interface TermsState {
  values: QueryValue[] | undefined;
  boost: number;
  name?: string;
}

const TERMS_OPTIONS = declareBoostAndName(new QueryOptions<TermsState>('terms', { null: 'unknown_token' }));

/**
 * TermsQueryBuilder: the field is whichever key holds an array (its terms) or an object (a terms lookup); the
 * options sit beside it.
 */
export function parseTerms(context: QueryParseContext): TermsQuery {
  const parser = context.parser;
  let fieldName: string | undefined;
  const state: TermsState = { values: undefined, boost: DEFAULTS.boost };
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_ARRAY') {
      if (fieldName !== undefined) throw parsingError(parser.tokenLocation(), '[terms] query does not support multiple fields');
      fieldName = currentFieldName;
      state.values = readTermsList(parser);
    } else if (token === 'START_OBJECT') {
      if (fieldName !== undefined) {
        throw parsingError(
          parser.tokenLocation(),
          `[terms] query does not support more than one field. Already got: [${fieldName}] but also found [${currentFieldName}]`,
        );
      }
      // A terms lookup ({"index": .., "id": .., "path": ..}) needs a document fetch Gannet does not do yet.
      throw parsingError(parser.tokenLocation(), `[terms] query does not support a terms lookup for field [${currentFieldName}]: list the terms instead`);
    } else {
      TERMS_OPTIONS.parseField(context, currentFieldName, state);
    }
  }
  if (fieldName === undefined) {
    throw parsingError(parser.tokenLocation(), '[terms] query requires a field name, followed by array of terms or a document lookup specification');
  }
  if (fieldName.length === 0) throw illegalArgument('field name cannot be null.');
  return { kind: 'terms', field: fieldName, values: state.values ?? [], boost: checkBoost(state.boost), ...(state.name !== undefined && { name: state.name }) };
}

function readTermsList(parser: XContentParser): QueryValue[] {
  const values: QueryValue[] = [];
  while (parser.nextToken() !== 'END_ARRAY') {
    const value = parser.objectText();
    if (value === null) throw parsingError(parser.tokenLocation(), 'No value specified for terms query');
    values.push(value);
  }
  return values;
}

interface MultiTermState {
  value: string | null | undefined;
  boost: number;
  name?: string;
  rewrite: string | undefined;
  caseInsensitive: boolean;
}

/**
 * The options prefix, wildcard and regexp share. Their builders read each option whatever its token (the
 * accessors refuse what they cannot read); wildcard reads its value with text(), the others with textOrNull().
 */
function multiTermOptions<S extends MultiTermState>(queryName: 'prefix' | 'wildcard' | 'regexp', readValue: OptionReader<S>): QueryOptions<S> {
  return declareBoostAndName(new QueryOptions<S>(queryName), ANY_TOKEN)
    .declare('value', readValue, ANY_TOKEN)
    .declare('rewrite', (parser, state) => (state.rewrite = parser.textOrNull() ?? undefined), ANY_TOKEN)
    .declare('case_insensitive', (parser, state) => (state.caseInsensitive = parser.booleanValue()), ANY_TOKEN);
}

const readTextOrNull: OptionReader<MultiTermState> = (parser, state) => (state.value = parser.textOrNull());
const readText: OptionReader<MultiTermState> = (parser, state) => (state.value = parser.text());

const PREFIX: SingleFieldQuery<MultiTermState> = { options: multiTermOptions('prefix', readTextOrNull), readShortForm: readTextOrNull };

const WILDCARD: SingleFieldQuery<MultiTermState> = {
  options: multiTermOptions('wildcard', readText).declare('wildcard', readText, ANY_TOKEN),
  readShortForm: readText,
};

function multiTermState(): MultiTermState {
  return { value: undefined, boost: DEFAULTS.boost, rewrite: undefined, caseInsensitive: false };
}

function multiTermQuery(field: string | undefined, state: MultiTermState): { field: string; value: string; boost: number; name?: string; rewrite?: string; caseInsensitive: boolean } {
  requireFieldAndValue(field, state.value);
  return {
    field: field!,
    value: state.value,
    ...(state.rewrite !== undefined && { rewrite: state.rewrite }),
    caseInsensitive: state.caseInsensitive,
    boost: checkBoost(state.boost),
    ...(state.name !== undefined && { name: state.name }),
  };
}

export function parsePrefix(context: QueryParseContext): PrefixQuery {
  const state = multiTermState();
  return { kind: 'prefix', ...multiTermQuery(parseSingleFieldQuery(context, PREFIX, state), state) };
}

export function parseWildcard(context: QueryParseContext): WildcardQuery {
  const state = multiTermState();
  return { kind: 'wildcard', ...multiTermQuery(parseSingleFieldQuery(context, WILDCARD, state), state) };
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

interface RegexpState extends MultiTermState {
  flags: number;
  maxDeterminizedStates: number;
}

const REGEXP: SingleFieldQuery<RegexpState> = {
  options: multiTermOptions<RegexpState>('regexp', readTextOrNull)
    .declare('flags', (parser, state) => (state.flags = resolveRegexpFlags(parser.textOrNull())), ANY_TOKEN)
    .declare('flags_value', (parser, state) => (state.flags = parser.intValue()), ANY_TOKEN)
    .declare('max_determinized_states', (parser, state) => (state.maxDeterminizedStates = parser.intValue()), ANY_TOKEN),
  readShortForm: readTextOrNull,
};

export function parseRegexp(context: QueryParseContext): RegexpQuery {
  const state: RegexpState = { ...multiTermState(), flags: DEFAULTS.regexpFlags, maxDeterminizedStates: DEFAULTS.maxDeterminizedStates };
  const base = multiTermQuery(parseSingleFieldQuery(context, REGEXP, state), state);
  if (state.maxDeterminizedStates < 0) throw illegalArgument('[regexp] requires max_determinized_states to be non-negative');
  return { kind: 'regexp', ...base, flags: state.flags, maxDeterminizedStates: state.maxDeterminizedStates };
}

interface FuzzyState {
  value: QueryValue | null | undefined;
  fuzziness: Fuzziness;
  prefixLength: number;
  maxExpansions: number;
  transpositions: boolean;
  rewrite: string | undefined;
  name?: string;
  boost: number;
}

const readFuzzyValue: OptionReader<FuzzyState> = (parser, state) => (state.value = parser.objectText());

const FUZZY: SingleFieldQuery<FuzzyState> = {
  options: declareBoostAndName(new QueryOptions<FuzzyState>('fuzzy', { null: 'unexpected_token_after', object: 'unexpected_token_after', array: 'unexpected_token_after' }))
    .declare('term', readFuzzyValue)
    .declare('value', readFuzzyValue)
    .declare('fuzziness', (parser, state) => (state.fuzziness = readFuzziness(parser)))
    .declare('prefix_length', (parser, state) => (state.prefixLength = parser.intValue()))
    .declare('max_expansions', (parser, state) => (state.maxExpansions = parser.intValue()))
    .declare('transpositions', (parser, state) => (state.transpositions = parser.booleanValue()))
    .declare('rewrite', (parser, state) => (state.rewrite = parser.textOrNull() ?? undefined)),
  readShortForm: readFuzzyValue,
};

export function parseFuzzy(context: QueryParseContext): FuzzyQuery {
  const state: FuzzyState = {
    value: undefined,
    fuzziness: DEFAULTS.autoFuzziness,
    prefixLength: DEFAULTS.prefixLength,
    maxExpansions: DEFAULTS.maxExpansions,
    transpositions: DEFAULTS.fuzzyTranspositions,
    rewrite: undefined,
    boost: DEFAULTS.boost,
  };
  const field = parseSingleFieldQuery(context, FUZZY, state);
  if (field === undefined || field.length === 0) throw illegalArgument('field name cannot be null or empty');
  if (state.value === undefined || state.value === null) throw illegalArgument('query value cannot be null');
  return {
    kind: 'fuzzy',
    field,
    value: state.value,
    fuzziness: state.fuzziness,
    prefixLength: state.prefixLength,
    maxExpansions: state.maxExpansions,
    transpositions: state.transpositions,
    ...(state.rewrite !== undefined && { rewrite: state.rewrite }),
    boost: checkBoost(state.boost),
    ...(state.name !== undefined && { name: state.name }),
  };
}
