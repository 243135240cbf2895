/**
 * The per-field-type query factories of ES's MappedFieldType subclasses (termQuery, termsQuery,
 * rangeQuery, prefixQuery, wildcardQuery, regexpQuery, fuzzyQuery, existsQuery) for Gannet's field types,
 * given how Gannet indexes them: text/keyword/boolean/metadata values as terms, numbers and dates as doc
 * values only (so exact and range matches become doc-value ranges).
 */
import { EsError } from '../../../common/errors.js';
import { DateFormatError } from '../../../mapping/date/date-errors.js';
import { dateFormatter, type DateFormatter } from '../../../mapping/date/date-formatter.js';
import { parseZoneId, type ZoneRef } from '../../../mapping/date/zones.js';
import { DateNanosRangeError } from '../../../mapping/date/date-nanos.js';
import { compareIp, ipToHex, IpFormatError, MAX_IP, MIN_IP, nextDown as nextIpDown, nextUp as nextIpUp, parseCidr, parseIp, type IpRange } from '../../../mapping/ip-address.js';
import type { Fuzziness, QueryValue } from '../ast/query-ast.js';
import { fuzzinessDistance } from '../parse/common-params.js';
import { illegalArgument } from '../xcontent/xcontent-errors.js';
import { queryShardError, type BuildContext } from './build-context.js';
import { typeName, type MappedField } from './field-lookup.js';
import { bool, MATCH_ALL, matchNone, type PlanQuery } from './query-plan.js';
import { normalizeKeyword, normalizeWithAnalyzer, searchAnalyzer } from './text-analysis.js';
import {
  booleanTerm,
  hasDecimalPart,
  javaString,
  nextDownDouble,
  nextDownFloat,
  nextDownHalf,
  nextUpDouble,
  nextUpFloat,
  nextUpHalf,
  objectToDouble,
  parseDateBound,
  parseDateNanosBound,
  parseFloating,
  parseInteger,
  signum,
  type IntegerType,
} from './value-conversion.js';

const LONG_MIN_VALUE = -(2n ** 63n);
const LONG_MAX_VALUE = 2n ** 63n - 1n;
const INTEGER_LIMITS: Record<IntegerType, { min: bigint; max: bigint }> = {
  long: { min: LONG_MIN_VALUE, max: LONG_MAX_VALUE },
  integer: { min: -2147483648n, max: 2147483647n },
  short: { min: -2147483648n, max: 2147483647n },
  byte: { min: -2147483648n, max: 2147483647n },
};

/** Field kinds whose values are indexed as terms (term dictionary queries apply). */
function isStringLike(field: MappedField): boolean {
  return field.kind === 'metadata' || field.options.type === 'text' || field.options.type === 'keyword';
}

/** ES's failIfNotIndexed / failIfNotIndexedNorDocValues for the term-based types. */
function checkSearchable(field: MappedField): void {
  if (field.kind === 'metadata') return;
  const options = field.options;
  if (options.type === 'text') {
    if (!options.index) throw illegalArgument(`Cannot search on field [${field.name}] since it is not indexed.`);
    return;
  }
  if (options.index) return;
  if (options.type === 'keyword') {
    // Gannet keeps keyword doc values as a sorted set it cannot yet query directly.
    throw illegalArgument(
      options.docValues
        ? `Cannot search on field [${field.name}] since it is not indexed (queries on doc values only are not supported yet).`
        : `Cannot search on field [${field.name}] since it is not indexed nor has doc values.`,
    );
  }
  if (!options.docValues) throw illegalArgument(`Cannot search on field [${field.name}] since it is not indexed nor has doc values.`);
}

/** BinaryFieldType.termQuery: binary values are never searchable. */
function refuseBinary(field: MappedField): void {
  if (field.kind === 'mapped' && field.options.type === 'binary') throw illegalArgument('Binary fields do not support searching');
}

/** ES's IllegalArgumentException (or NumberFormatException) for an address or CIDR mask that does not parse. */
function ipError(err: unknown): unknown {
  if (err instanceof IpFormatError) return err.numberFormat ? new EsError('number_format_exception', err.message) : illegalArgument(err.message);
  return err;
}

/** IpFieldType.termQuery's value: an address, or a CIDR mask (InetAddressPoint.newPrefixQuery's bounds). */
function ipTermRange(value: QueryValue): IpRange {
  const text = javaString(value);
  try {
    if (text.includes('/')) return parseCidr(text);
    const address = parseIp(text);
    return { lower: address, upper: address };
  } catch (err) {
    throw ipError(err);
  }
}

function ipRangesQuery(field: string, ranges: readonly IpRange[]): PlanQuery {
  return { type: 'bytes_range', field, ranges: ranges.map((range) => ({ lower: ipToHex(range.lower), upper: ipToHex(range.upper) })) };
}

/** The term a string-like field is searched with: normalized for keywords, verbatim otherwise. */
export function indexedTerm(context: BuildContext, field: MappedField, value: QueryValue): string {
  return normalizeKeyword(context, field, javaString(value));
}

/** MappedFieldType.termQuery. */
export function termQuery(context: BuildContext, field: MappedField, value: QueryValue, caseInsensitive = false): PlanQuery {
  refuseBinary(field);
  checkSearchable(field);
  if (field.kind === 'metadata' && field.name === '_index') {
    return javaString(value) === context.indexName ? MATCH_ALL : matchNone('User requested "match_none" query.', true);
  }
  if (isStringLike(field)) {
    const term = indexedTerm(context, field, value);
    if (caseInsensitive) return { type: 'wildcard', field: field.name, pattern: escapeWildcard(term), caseInsensitive: true };
    return { type: 'term', field: field.name, term };
  }
  const options = (field as Extract<MappedField, { kind: 'mapped' }>).options;
  switch (options.type) {
    case 'boolean':
      if (!options.index) return longExact(field.name, booleanTerm(value) === 'T' ? 1n : 0n);
      return { type: 'term', field: field.name, term: booleanTerm(value) };
    case 'date':
    case 'date_nanos':
      return rangeQuery(context, field, value, value, true, true, undefined, undefined);
    case 'ip':
      return ipRangesQuery(field.name, [ipTermRange(value)]);
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
      if (hasDecimalPart(value)) return matchNone(`Value [${javaString(value)}] has a decimal part`);
      return longExact(field.name, parseInteger(options.type, value));
    case 'double':
    case 'float':
    case 'half_float': {
      const parsed = parseFloating(options.type, value);
      return { type: 'double_range', field: field.name, lower: parsed, upper: parsed };
    }
    case 'scaled_float':
      return longExact(field.name, BigInt(Math.round(objectToDouble(value) * options.scalingFactor!)));
  }
  throw illegalArgument(`Field [${field.name}] of type [${typeName(field)}] does not support term queries`);
}

function longExact(field: string, value: bigint): PlanQuery {
  return { type: 'long_range', field, lower: value, upper: value };
}

/** A literal term as a case-insensitive wildcard pattern (ES's AutomatonQueries.caseInsensitiveTermQuery). */
function escapeWildcard(term: string): string {
  return term.replace(/[\\*?]/g, (c) => `\\${c}`);
}

/** MappedFieldType.termsQuery. */
export function termsQuery(context: BuildContext, field: MappedField, values: readonly QueryValue[]): PlanQuery {
  refuseBinary(field);
  checkSearchable(field);
  if (field.kind === 'metadata' && field.name === '_index') {
    return values.some((value) => javaString(value) === context.indexName) ? MATCH_ALL : matchNone('The "terms" query was rewritten to a "match_none" query.', true);
  }
  if (isStringLike(field)) return { type: 'term_set', field: field.name, terms: values.map((value) => indexedTerm(context, field, value)) };
  const options = (field as Extract<MappedField, { kind: 'mapped' }>).options;
  switch (options.type) {
    case 'boolean':
      if (!options.index) return { type: 'long_set', field: field.name, values: values.map((value) => (booleanTerm(value) === 'T' ? 1n : 0n)) };
      return { type: 'term_set', field: field.name, terms: values.map(booleanTerm) };
    case 'long':
    case 'integer':
    case 'short':
    case 'byte': {
      const kept = values.filter((value) => !hasDecimalPart(value));
      if (kept.length === 0) return matchNone('All values have a decimal part');
      const type = options.type;
      return { type: 'long_set', field: field.name, values: kept.map((value) => parseInteger(type, value)) };
    }
    case 'double':
    case 'float':
    case 'half_float': {
      const type = options.type;
      return { type: 'double_set', field: field.name, values: values.map((value) => parseFloating(type, value)) };
    }
    case 'scaled_float': {
      const factor = options.scalingFactor!;
      return { type: 'long_set', field: field.name, values: values.map((value) => BigInt(Math.round(objectToDouble(value) * factor))) };
    }
    case 'date':
    case 'date_nanos':
      // MappedFieldType's default: a constant-scored disjunction of term queries.
      return { type: 'constant_score', query: bool(values.map((value) => ({ occur: 'should' as const, query: termQuery(context, field, value) }))) };
    case 'ip':
      // InetAddressPoint.newSetQuery, or a disjunction of term queries when a value is a CIDR mask: either way
      // a constant-scored match of any of the addresses or masks.
      return ipRangesQuery(field.name, values.map(ipTermRange));
  }
  throw illegalArgument(`Field [${field.name}] of type [${typeName(field)}] does not support terms queries`);
}

/** MappedFieldType.rangeQuery; bounds are undefined when open. */
export function rangeQuery(
  context: BuildContext,
  field: MappedField,
  from: QueryValue | undefined,
  to: QueryValue | undefined,
  includeLower: boolean,
  includeUpper: boolean,
  format: string | undefined,
  timeZone: string | undefined,
): PlanQuery {
  checkSearchable(field);
  if (isStringLike(field)) {
    return {
      type: 'term_range',
      field: field.name,
      ...(from !== undefined && { lower: indexedTerm(context, field, from) }),
      ...(to !== undefined && { upper: indexedTerm(context, field, to) }),
      includeLower,
      includeUpper,
    };
  }
  const options = (field as Extract<MappedField, { kind: 'mapped' }>).options;
  switch (options.type) {
    case 'boolean':
      if (!options.index) {
        return longRange(field.name, from === undefined ? undefined : booleanTerm(from) === 'T' ? 1n : 0n, to === undefined ? undefined : booleanTerm(to) === 'T' ? 1n : 0n, includeLower, includeUpper);
      }
      return {
        type: 'term_range',
        field: field.name,
        ...(from !== undefined && { lower: booleanTerm(from) }),
        ...(to !== undefined && { upper: booleanTerm(to) }),
        includeLower,
        includeUpper,
      };
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
      return integerRange(field.name, options.type, from, to, includeLower, includeUpper);
    case 'double':
      return doubleRange(field.name, from === undefined ? undefined : objectToDouble(from), to === undefined ? undefined : objectToDouble(to), includeLower, includeUpper, nextUpDouble, nextDownDouble);
    case 'float':
      return doubleRange(field.name, from === undefined ? undefined : parseFloating('float', from), to === undefined ? undefined : parseFloating('float', to), includeLower, includeUpper, nextUpFloat, nextDownFloat);
    case 'half_float':
      return halfFloatRange(field.name, from, to, includeLower, includeUpper);
    case 'scaled_float':
      return scaledFloatRange(field.name, options.scalingFactor!, from, to, includeLower, includeUpper);
    case 'date':
      return dateRange(context, field.name, options.formatter, from, to, includeLower, includeUpper, format, timeZone);
    case 'date_nanos':
      return dateNanosRange(context, field.name, options.formatter, from, to, includeLower, includeUpper, format, timeZone);
    case 'ip':
      return ipRange(field.name, from, to, includeLower, includeUpper);
  }
  throw illegalArgument(`Field [${field.name}] of type [${typeName(field)}] does not support range queries`);
}

/** NumberFieldMapper's integer rangeQuery: decimal bounds move inwards, exclusive bounds step by one. */
function integerRange(field: string, type: IntegerType, from: QueryValue | undefined, to: QueryValue | undefined, includeLower: boolean, includeUpper: boolean): PlanQuery {
  const limits = INTEGER_LIMITS[type];
  let lower = limits.min;
  let upper = limits.max;
  if (from !== undefined) {
    lower = parseInteger(type === 'long' ? 'long' : 'integer', from);
    const decimal = hasDecimalPart(from);
    if ((!decimal && !includeLower) || (decimal && signum(from) > 0)) {
      if (lower === limits.max) return matchNone('');
      lower++;
    }
  }
  if (to !== undefined) {
    upper = parseInteger(type === 'long' ? 'long' : 'integer', to);
    const decimal = hasDecimalPart(to);
    if ((!decimal && !includeUpper) || (decimal && signum(to) < 0)) {
      if (upper === limits.min) return matchNone('');
      upper--;
    }
  }
  return { type: 'long_range', field, lower, upper };
}

function longRange(field: string, from: bigint | undefined, to: bigint | undefined, includeLower: boolean, includeUpper: boolean): PlanQuery {
  let lower = from ?? LONG_MIN_VALUE;
  let upper = to ?? LONG_MAX_VALUE;
  if (from !== undefined && !includeLower) lower++;
  if (to !== undefined && !includeUpper) upper--;
  return { type: 'long_range', field, lower, upper };
}

function doubleRange(
  field: string,
  from: number | undefined,
  to: number | undefined,
  includeLower: boolean,
  includeUpper: boolean,
  nextUp: (value: number) => number,
  nextDown: (value: number) => number,
): PlanQuery {
  let lower = -Infinity;
  let upper = Infinity;
  if (from !== undefined) lower = includeLower ? from : nextUp(from);
  if (to !== undefined) upper = includeUpper ? to : nextDown(to);
  return { type: 'double_range', field, lower, upper };
}

/** HALF_FLOAT.rangeQuery: bounds snapped onto the half-float grid. */
function halfFloatRange(field: string, from: QueryValue | undefined, to: QueryValue | undefined, includeLower: boolean, includeUpper: boolean): PlanQuery {
  let lower = -Infinity;
  let upper = Infinity;
  if (from !== undefined) {
    lower = Math.fround(objectToDouble(from));
    if (includeLower) lower = nextDownHalf(lower);
    lower = nextUpHalf(lower);
  }
  if (to !== undefined) {
    upper = Math.fround(objectToDouble(to));
    if (includeUpper) upper = nextUpHalf(upper);
    upper = nextDownHalf(upper);
  }
  return { type: 'double_range', field, lower, upper };
}

/** ScaledFloatFieldMapper.rangeQuery: bounds scaled, then rounded inwards, over the stored longs. */
function scaledFloatRange(field: string, factor: number, from: QueryValue | undefined, to: QueryValue | undefined, includeLower: boolean, includeUpper: boolean): PlanQuery {
  let lower = LONG_MIN_VALUE;
  let upper = LONG_MAX_VALUE;
  if (from !== undefined) {
    let scaled = objectToDouble(from) * factor;
    if (!includeLower) scaled = nextUpDouble(scaled);
    lower = BigInt(Math.round(Math.ceil(scaled)));
  }
  if (to !== undefined) {
    let scaled = objectToDouble(to) * factor;
    if (!includeUpper) scaled = nextDownDouble(scaled);
    upper = BigInt(Math.round(Math.floor(scaled)));
  }
  return { type: 'long_range', field, lower, upper };
}

/** DateFieldType.rangeQuery: exclusive lower bounds round up then step, inclusive upper bounds round up. */
function dateRange(
  context: BuildContext,
  field: string,
  fieldFormatter: DateFormatter,
  from: QueryValue | undefined,
  to: QueryValue | undefined,
  includeLower: boolean,
  includeUpper: boolean,
  format: string | undefined,
  timeZone: string | undefined,
): PlanQuery {
  const formatter = format === undefined ? fieldFormatter : formatterFor(format);
  const zone: ZoneRef | undefined = timeZone === undefined ? undefined : parseZoneId(timeZone);
  let lower = LONG_MIN_VALUE;
  let upper = LONG_MAX_VALUE;
  if (from !== undefined) {
    lower = BigInt(parseDateBound(from, { formatter, zone, roundUp: !includeLower, now: context.now }));
    if (!includeLower) lower++;
  }
  if (to !== undefined) {
    upper = BigInt(parseDateBound(to, { formatter, zone, roundUp: includeUpper, now: context.now }));
    if (!includeUpper) upper--;
  }
  return { type: 'long_range', field, lower, upper };
}

/** DateFieldType.rangeQuery at nanosecond resolution: the same rounding, bounds exact to the nanosecond. */
function dateNanosRange(
  context: BuildContext,
  field: string,
  fieldFormatter: DateFormatter,
  from: QueryValue | undefined,
  to: QueryValue | undefined,
  includeLower: boolean,
  includeUpper: boolean,
  format: string | undefined,
  timeZone: string | undefined,
): PlanQuery {
  const formatter = format === undefined ? fieldFormatter : formatterFor(format);
  const zone: ZoneRef | undefined = timeZone === undefined ? undefined : parseZoneId(timeZone);
  let lower = LONG_MIN_VALUE;
  let upper = LONG_MAX_VALUE;
  try {
    if (from !== undefined) {
      lower = parseDateNanosBound(from, { formatter, zone, roundUp: !includeLower, now: context.now });
      if (!includeLower) lower++;
    }
    if (to !== undefined) {
      upper = parseDateNanosBound(to, { formatter, zone, roundUp: includeUpper, now: context.now });
      if (!includeUpper) upper--;
    }
  } catch (err) {
    if (err instanceof DateNanosRangeError) throw illegalArgument(err.message);
    throw err;
  }
  return { type: 'long_range', field, lower, upper };
}

/** IpFieldType.rangeQuery: addresses only (no masks); exclusive bounds step to the next address. */
function ipRange(field: string, from: QueryValue | undefined, to: QueryValue | undefined, includeLower: boolean, includeUpper: boolean): PlanQuery {
  let lower = MIN_IP;
  let upper = MAX_IP;
  try {
    if (from !== undefined) {
      lower = parseIp(javaString(from));
      if (!includeLower) {
        const next = nextIpUp(lower);
        if (next === null) return matchNone('');
        lower = next;
      }
    }
    if (to !== undefined) {
      upper = parseIp(javaString(to));
      if (!includeUpper) {
        const previous = nextIpDown(upper);
        if (previous === null) return matchNone('');
        upper = previous;
      }
    }
  } catch (err) {
    throw ipError(err);
  }
  if (compareIp(lower, upper) > 0) return matchNone('');
  return ipRangesQuery(field, [{ lower, upper }]);
}

function formatterFor(format: string): DateFormatter {
  try {
    return dateFormatter(format);
  } catch (err) {
    if (err instanceof DateFormatError) throw illegalArgument(err.message);
    throw err;
  }
}

function unsupportedOn(context: BuildContext, kind: string, accepted: string, field: MappedField): never {
  throw queryShardError(context, `Can only use ${kind} queries on ${accepted} fields - not on [${field.name}] which is of type [${typeName(field)}]`);
}

function checkRegexLength(context: BuildContext, value: string, what: 'prefix' | 'regex', queryName: string): void {
  if (value.length > context.maxRegexLength) {
    throw illegalArgument(
      `The length of ${what} [${value.length}] used in the ${queryName} Query request has exceeded the allowed maximum of [${context.maxRegexLength}]. ` +
        'This maximum can be set by changing the [index.max_regex_length] index level setting.',
    );
  }
}

export function prefixQuery(context: BuildContext, field: MappedField, value: string, caseInsensitive: boolean): PlanQuery {
  checkRegexLength(context, value, 'prefix', 'Prefix');
  if (!isStringLike(field)) unsupportedOn(context, 'prefix', 'keyword, text and wildcard', field);
  checkSearchable(field);
  return { type: 'prefix', field: field.name, prefix: normalizeKeyword(context, field, value), caseInsensitive };
}

export function wildcardQuery(context: BuildContext, field: MappedField, value: string, caseInsensitive: boolean): PlanQuery {
  if (!isStringLike(field)) unsupportedOn(context, 'wildcard', 'keyword, text and wildcard', field);
  checkSearchable(field);
  // Text fields normalize the pattern with their search analyzer (StringFieldType.normalizeWildcardPattern).
  const isText = field.kind === 'mapped' && field.options.type === 'text';
  const pattern = isText ? normalizeWithAnalyzer(searchAnalyzer(context, field, false, undefined), value) : normalizeKeyword(context, field, value);
  return { type: 'wildcard', field: field.name, pattern, caseInsensitive };
}

export function regexpQuery(
  context: BuildContext,
  field: MappedField | string,
  value: string,
  flags: number,
  caseInsensitive: boolean,
  maxDeterminizedStates: number,
): PlanQuery {
  checkRegexLength(context, value, 'regex', 'Regexp');
  // For BWC ES masks the bits RegExp no longer defines.
  const syntaxFlags = flags & 0xff;
  if (typeof field === 'string') return { type: 'regexp', field, pattern: value, flags: syntaxFlags, caseInsensitive, maxDeterminizedStates };
  if (!isStringLike(field)) unsupportedOn(context, 'regexp', 'keyword and text', field);
  checkSearchable(field);
  return { type: 'regexp', field: field.name, pattern: normalizeKeyword(context, field, value), flags: syntaxFlags, caseInsensitive, maxDeterminizedStates };
}

export interface FuzzyOptions {
  readonly fuzziness: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly transpositions: boolean;
}

export function fuzzyQuery(field: MappedField, context: BuildContext, value: QueryValue, options: FuzzyOptions): PlanQuery {
  if (!isStringLike(field)) throw illegalArgument(`Can only use fuzzy queries on keyword and text fields - not on [${field.name}] which is of type [${typeName(field)}]`);
  checkSearchable(field);
  const term = indexedTerm(context, field, value);
  return {
    type: 'fuzzy',
    field: field.name,
    term,
    maxEdits: fuzzinessDistance(options.fuzziness, term),
    prefixLength: options.prefixLength,
    maxExpansions: options.maxExpansions,
    transpositions: options.transpositions,
  };
}

/** Whether the field can answer phrase queries (text with positions); ES's errors otherwise. */
export function checkPhraseSupport(field: MappedField, prefix: boolean): void {
  const kind = prefix ? 'phrase prefix' : 'phrase';
  if (field.kind === 'metadata' || field.options.type !== 'text') {
    throw illegalArgument(`Can only use ${kind} queries on text fields - not on [${field.name}] which is of type [${typeName(field)}]`);
  }
  const indexOptions = field.options.indexOptions;
  if (indexOptions !== 'positions' && indexOptions !== 'offsets') {
    throw new EsError('illegal_state_exception', `field:[${field.name}] was indexed without position data; cannot run PhraseQuery`);
  }
}
