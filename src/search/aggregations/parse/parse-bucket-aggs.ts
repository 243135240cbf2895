/**
 * Bodies of the bucket aggregations: terms, range, date_range, histogram, date_histogram, filter, filters,
 * missing. Validation messages are those of ES's builders' setters.
 */
import { ownValue } from '../../../common/own-keys.js';
import { EsError } from '../../../common/errors.js';
import { javaDoubleString } from '../../../common/json-float.js';
import { aggErrors } from '../agg-errors.js';
import type {
  DateBound,
  DateHistogramSpec,
  FilterSpec,
  FiltersSpec,
  HistogramSpec,
  IpPrefixSpec,
  IpRangeEntry,
  IpRangeSpec,
  MissingSpec,
  RangeEntry,
  RangeSpec,
  TermsSpec,
} from '../spec.js';
import type { CalendarUnit } from '../support/rounding.js';
import { isObject, ObjectFields, tokenName, type JsonObject } from './object-fields.js';
import { IpFormatError, ipToHex, MAX_IP, MIN_IP, nextUp, parseCidr, parseIp, compareIp } from '../../../mapping/ip-address.js';
import { COUNT_DESC_ORDER, KEY_ASC_ORDER, parseIncludeExclude, parseOrder, parseValuesSource, valuesSourceFieldNames } from './parse-common.js';

export interface Common {
  readonly name: string;
  readonly meta: Readonly<Record<string, unknown>> | null;
}

/** Parses a query inside filter/filters; the search layer's DSL parser when it provides one. */
export type QueryParser = (query: unknown) => unknown;

function illegal(message: string): EsError {
  return aggErrors.illegalArgument(message);
}

export function parseTerms(common: Common, body: JsonObject): Omit<TermsSpec, 'subAggregations'> {
  const fields = new ObjectFields('terms', body, [
    ...valuesSourceFieldNames({ formattable: true, timeZoneAware: false }),
    'size',
    'shard_size',
    'min_doc_count',
    'shard_min_doc_count',
    'show_term_doc_count_error',
    'execution_hint',
    'collect_mode',
    'order',
    'include',
    'exclude',
  ]);
  const name = common.name;
  const size = fields.int('size') ?? 10;
  if (size <= 0) throw aggErrors.failedToParseField('terms', 'size', illegal(`[size] must be greater than 0. Found [${size}] in [${name}]`));
  const shardSize = fields.int('shard_size') ?? -1;
  if (fields.has('shard_size') && shardSize <= 0) {
    throw aggErrors.failedToParseField('terms', 'shard_size', illegal(`[shardSize] must be greater than 0. Found [${shardSize}] in [${name}]`));
  }
  const minDocCount = fields.long('min_doc_count') ?? 1;
  if (minDocCount < 0) {
    throw aggErrors.failedToParseField('terms', 'min_doc_count', illegal(`[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`));
  }
  const shardMinDocCount = fields.long('shard_min_doc_count') ?? 0;
  if (shardMinDocCount < 0) {
    throw aggErrors.failedToParseField(
      'terms',
      'shard_min_doc_count',
      illegal(`[shardMinDocCount] must be greater than or equal to 0. Found [${shardMinDocCount}] in [${name}]`),
    );
  }
  const collectMode = fields.string('collect_mode');
  if (collectMode !== undefined && collectMode !== 'depth_first' && collectMode !== 'breadth_first') {
    throw aggErrors.failedToParseField('terms', 'collect_mode', new EsError('parse_exception', `no [collect_mode] found for value [${collectMode}]`));
  }
  fields.string('execution_hint');
  return {
    ...common,
    type: 'terms',
    source: parseValuesSource(fields, { formattable: true, timeZoneAware: false }),
    size,
    shardSize,
    minDocCount,
    shardMinDocCount,
    order: fields.has('order') ? parseOrder(fields.raw('order'), 'terms') : COUNT_DESC_ORDER,
    includeExclude: parseIncludeExclude(fields.raw('include'), fields.raw('exclude'), 'terms'),
    showTermDocCountError: fields.boolean('show_term_doc_count_error') ?? false,
  };
}

function parseRangeEntry(value: unknown, parser: string): RangeEntry {
  if (!isObject(value)) throw aggErrors.unsupportedValueType(parser, 'ranges', tokenName(value));
  const fields = new ObjectFields('range', value, ['key', 'from', 'to']);
  const bound = (name: 'from' | 'to'): number | string | null => {
    const raw = fields.raw(name);
    if (raw === undefined || raw === null) return null;
    if (typeof raw === 'number' || typeof raw === 'string') return raw;
    throw aggErrors.unsupportedValueType('range', name, tokenName(raw));
  };
  return { key: fields.text('key') ?? null, from: bound('from'), to: bound('to') };
}

export function parseRange(common: Common, body: JsonObject, type: 'range' | 'date_range'): Omit<RangeSpec, 'subAggregations'> {
  const timeZoneAware = type === 'date_range';
  const fields = new ObjectFields(type, body, [...valuesSourceFieldNames({ formattable: true, timeZoneAware }), 'ranges', 'keyed']);
  const rawRanges = fields.raw('ranges');
  let ranges: RangeEntry[] = [];
  if (rawRanges !== undefined) {
    if (!Array.isArray(rawRanges)) throw aggErrors.unsupportedValueType(type, 'ranges', tokenName(rawRanges));
    ranges = rawRanges.map((r) => parseRangeEntry(r, type));
  }
  const source = parseValuesSource(fields, { formattable: true, timeZoneAware });
  if (ranges.length === 0) throw illegal(`No [ranges] specified for the [${common.name}] aggregation`);
  return { ...common, type, source, ranges, keyed: fields.boolean('keyed') ?? false };
}

/** XContentParser.textOrNull of a range bound. */
function boundText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw aggErrors.failedToParseField('ip_range', 'ranges', aggErrors.parsing(`Can't get text on a ${tokenName(value)}`));
}

/** IpRangeAggregationBuilder.parseRange and its Range constructors: bounds checked, a mask turned into bounds. */
function parseIpRangeEntry(value: unknown): IpRangeEntry {
  if (!isObject(value)) {
    throw aggErrors.failedToParseField('ip_range', 'ranges', aggErrors.parsing(`[ranges] must contain objects, but hit a ${tokenName(value)}`));
  }
  let key: string | null = null;
  let from: string | null = null;
  let to: string | null = null;
  let mask: string | null = null;
  for (const [name, raw] of Object.entries(value)) {
    if (name === 'key') key = boundText(raw);
    else if (name === 'from') from = boundText(raw);
    else if (name === 'to') to = boundText(raw);
    else if (name === 'mask') mask = boundText(raw);
    else throw aggErrors.failedToParseField('ip_range', 'ranges', aggErrors.parsing(`Unexpected ip range parameter: [${name}]`));
  }
  try {
    if (mask !== null) {
      // The lowest address of the mask is `from` and the one after its highest is `to`, each dropped at the
      // ends of the whole address space (InetAddressPoint.MIN_VALUE / MAX_VALUE).
      const range = parseCidr(mask);
      const upper = nextUp(range.upper);
      return {
        key: key ?? mask,
        from: compareIp(range.lower, MIN_IP) === 0 ? null : ipToHex(range.lower),
        to: upper === null || compareIp(range.upper, MAX_IP) === 0 ? null : ipToHex(upper),
      };
    }
    return { key, from: from === null ? null : ipToHex(parseIp(from)), to: to === null ? null : ipToHex(parseIp(to)) };
  } catch (err) {
    if (!(err instanceof IpFormatError)) throw err;
    const cause = err.numberFormat ? new EsError('number_format_exception', err.message) : aggErrors.illegalArgument(err.message);
    throw aggErrors.failedToParseField('ip_range', 'ranges', cause);
  }
}

export function parseIpRange(common: Common, body: JsonObject): Omit<IpRangeSpec, 'subAggregations'> {
  const fields = new ObjectFields('ip_range', body, [...valuesSourceFieldNames({ formattable: false, timeZoneAware: false }), 'ranges', 'keyed']);
  const rawRanges = fields.raw('ranges');
  let ranges: IpRangeEntry[] = [];
  if (rawRanges !== undefined && rawRanges !== null) {
    if (!Array.isArray(rawRanges)) throw aggErrors.unsupportedValueType('ip_range', 'ranges', tokenName(rawRanges));
    ranges = rawRanges.map(parseIpRangeEntry);
  }
  const source = parseValuesSource(fields, { formattable: false, timeZoneAware: false });
  if (ranges.length === 0) throw illegal(`No [ranges] specified for the [${common.name}] aggregation`);
  return { ...common, type: 'ip_range', source, ranges, keyed: fields.boolean('keyed') ?? false };
}

/**
 * ip_prefix (IpPrefixAggregationBuilder's ObjectParser): the setters refuse a negative `prefix_length` (its message
 * names the maximum of the family `is_ipv6` has chosen so far, as the setters run in the body's order) and a
 * `min_doc_count` below 1; a `prefix_length` above the family's maximum fails later, when the aggregator is built.
 */
export function parseIpPrefix(common: Common, body: JsonObject): Omit<IpPrefixSpec, 'subAggregations'> {
  const fields = new ObjectFields('ip_prefix', body, [
    ...valuesSourceFieldNames({ formattable: false, timeZoneAware: false }),
    'prefix_length',
    'is_ipv6',
    'append_prefix_length',
    'min_doc_count',
    'keyed',
  ]);
  const isIpv6 = fields.boolean('is_ipv6') ?? false;
  const prefixLength = fields.int('prefix_length') ?? -1;
  if (fields.has('prefix_length') && prefixLength < 0) {
    const keys = Object.keys(body);
    const ipv6SoFar = isIpv6 && keys.indexOf('is_ipv6') < keys.indexOf('prefix_length');
    throw aggErrors.failedToParseField('ip_prefix', 'prefix_length', aggErrors.outOfRange('prefix_length', 0, ipv6SoFar ? 128 : 32, prefixLength));
  }
  const minDocCount = fields.long('min_doc_count') ?? 1;
  if (minDocCount < 1) throw aggErrors.failedToParseField('ip_prefix', 'min_doc_count', aggErrors.outOfRange('min_doc_count', 1, 2147483647, minDocCount));
  const source = parseValuesSource(fields, { formattable: false, timeZoneAware: false });
  return {
    ...common,
    type: 'ip_prefix',
    source,
    prefixLength,
    isIpv6,
    appendPrefixLength: fields.boolean('append_prefix_length') ?? false,
    minDocCount,
    keyed: fields.boolean('keyed') ?? false,
  };
}

function parseDoubleBounds(fields: ObjectFields, field: string): { min: number | null; max: number | null } | null {
  const value = fields.object(field);
  if (value === undefined) return null;
  const bounds = new ObjectFields(field, value, ['min', 'max']);
  return { min: bounds.double('min') ?? null, max: bounds.double('max') ?? null };
}

/** DoubleBounds.toString: `min--max`, Java doubles, a missing bound printed as nothing. */
function doubleBounds(bounds: { readonly min: number | null; readonly max: number | null }): string {
  return `${bounds.min === null ? '' : javaDoubleString(bounds.min)}--${bounds.max === null ? '' : javaDoubleString(bounds.max)}`;
}

export function parseHistogram(common: Common, body: JsonObject): Omit<HistogramSpec, 'subAggregations'> {
  const fields = new ObjectFields('histogram', body, [
    ...valuesSourceFieldNames({ formattable: true, timeZoneAware: false }),
    'interval',
    'offset',
    'keyed',
    'min_doc_count',
    'extended_bounds',
    'hard_bounds',
    'order',
  ]);
  const name = common.name;
  const interval = fields.double('interval');
  if (interval !== undefined && !(interval > 0)) {
    throw aggErrors.failedToParseField('histogram', 'interval', illegal(`[interval] must be >0 for histogram aggregation [${name}]`));
  }
  const minDocCount = fields.long('min_doc_count') ?? 0;
  if (minDocCount < 0) {
    throw aggErrors.failedToParseField('histogram', 'min_doc_count', illegal(`[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`));
  }
  const source = parseValuesSource(fields, { formattable: true, timeZoneAware: false });
  if (interval === undefined) throw illegal(`[interval] must be >0 for histogram aggregation [${name}]`);
  const extendedBounds = parseDoubleBounds(fields, 'extended_bounds');
  const hardBounds = parseDoubleBounds(fields, 'hard_bounds');
  if (extendedBounds !== null && extendedBounds.min !== null && extendedBounds.max !== null && extendedBounds.min > extendedBounds.max) {
    throw illegal(`[extended_bounds.min][${javaDoubleString(extendedBounds.min)}] cannot be greater than [extended_bounds.max][${javaDoubleString(extendedBounds.max)}] for histogram aggregation [${name}]`);
  }
  if (hardBounds !== null && extendedBounds !== null) {
    const outside =
      (hardBounds.max !== null && extendedBounds.max !== null && hardBounds.max < extendedBounds.max) ||
      (hardBounds.min !== null && extendedBounds.min !== null && hardBounds.min > extendedBounds.min);
    if (outside) {
      throw illegal(
        `Extended bounds have to be inside hard bounds, hard bounds: [${doubleBounds(hardBounds)}], extended bounds: [${doubleBounds(extendedBounds)}]`,
      );
    }
  }
  return {
    ...common,
    type: 'histogram',
    source,
    interval,
    offset: fields.double('offset') ?? 0,
    minDocCount,
    extendedBounds,
    hardBounds,
    order: fields.has('order') ? parseOrder(fields.raw('order'), 'histogram') : KEY_ASC_ORDER,
    keyed: fields.boolean('keyed') ?? false,
  };
}

/** DateHistogramAggregationBuilder.DATE_FIELD_UNITS. */
export const CALENDAR_UNITS: Readonly<Record<string, CalendarUnit>> = {
  year: 'year',
  '1y': 'year',
  quarter: 'quarter',
  '1q': 'quarter',
  month: 'month',
  '1M': 'month',
  week: 'week',
  '1w': 'week',
  day: 'day',
  '1d': 'day',
  hour: 'hour',
  '1h': 'hour',
  minute: 'minute',
  '1m': 'minute',
  second: 'second',
  '1s': 'second',
};

const TIME_UNITS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** TimeValue.parseTimeValue to milliseconds (ES lower-cases the text first, so "1M" is a minute). */
export function parseTimeValueMillis(text: string, settingName: string): number {
  const normalized = text.toLowerCase().trim();
  if (normalized === '-1') return -1;
  if (normalized === '0') return 0;
  const match = /^(-?\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)$/.exec(normalized);
  if (match === null) {
    throw new EsError('parse_exception', `failed to parse setting [${settingName}] with value [${text}] as a time value: unit is missing or unrecognized`);
  }
  return Math.trunc(Number(match[1]) * TIME_UNITS[match[2]!]!);
}

/** DateHistogramAggregationBuilder.parseStringOffset. */
function parseOffset(value: string): number {
  if (value.startsWith('-')) return -parseTimeValueMillis(value.slice(1), 'DateHistogramAggregationBuilder.parseOffset');
  return parseTimeValueMillis(value.startsWith('+') ? value.slice(1) : value, 'DateHistogramAggregationBuilder.parseOffset');
}

function parseDateBounds(fields: ObjectFields, field: string): { min: DateBound; max: DateBound } | null {
  const value = fields.object(field);
  if (value === undefined) return null;
  const bounds = new ObjectFields(field, value, ['min', 'max']);
  const read = (name: string): DateBound => {
    const raw = bounds.raw(name);
    if (raw === undefined || raw === null) return null;
    if (typeof raw === 'number' || typeof raw === 'string') return raw;
    throw aggErrors.unsupportedValueType(field, name, tokenName(raw));
  };
  return { min: read('min'), max: read('max') };
}

export function parseDateHistogram(common: Common, body: JsonObject): Omit<DateHistogramSpec, 'subAggregations'> {
  const fields = new ObjectFields('date_histogram', body, [
    ...valuesSourceFieldNames({ formattable: true, timeZoneAware: true }),
    'calendar_interval',
    'fixed_interval',
    'offset',
    'keyed',
    'min_doc_count',
    'extended_bounds',
    'hard_bounds',
    'order',
  ]);
  const name = common.name;
  let interval: DateHistogramSpec['interval'] = null;
  // The interval fields are applied in document order, like ObjectParser: the second one fails.
  for (const key of Object.keys(body)) {
    if (key !== 'calendar_interval' && key !== 'fixed_interval') continue;
    const text = fields.string(key)!;
    fields.apply(key, () => {
      if (text.length === 0) throw illegal('[interval] must not be null: [date_histogram]');
      const kind = key === 'calendar_interval' ? 'calendar' : 'fixed';
      const checkNotMixed = (): void => {
        if (interval !== null && interval.kind !== kind) {
          throw illegal(`Cannot use [${key}] with [${interval.kind === 'calendar' ? 'calendar_interval' : 'fixed_interval'}] configuration option.`);
        }
      };
      // DateIntervalWrapper: calendar intervals are validated before the type check, fixed ones after.
      if (kind === 'calendar') {
        const unit = ownValue(CALENDAR_UNITS, text);
        if (unit === undefined) throw illegal(`The supplied interval [${text}] could not be parsed as a calendar interval.`);
        checkNotMixed();
        interval = { kind: 'calendar', unit, text };
      } else {
        checkNotMixed();
        interval = { kind: 'fixed', millis: parseTimeValueMillis(text, 'date_histogram.fixedInterval'), text };
      }
    });
  }
  const offsetRaw = fields.raw('offset');
  let offset = 0;
  if (typeof offsetRaw === 'number') offset = Math.trunc(offsetRaw);
  else if (typeof offsetRaw === 'string') offset = fields.apply('offset', () => parseOffset(offsetRaw));
  else if (offsetRaw !== undefined) throw aggErrors.unsupportedValueType('date_histogram', 'offset', tokenName(offsetRaw));
  const minDocCount = fields.long('min_doc_count') ?? 0;
  if (minDocCount < 0) {
    throw aggErrors.failedToParseField('date_histogram', 'min_doc_count', illegal(`[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`));
  }
  return {
    ...common,
    type: 'date_histogram',
    source: parseValuesSource(fields, { formattable: true, timeZoneAware: true }),
    interval,
    offset,
    minDocCount,
    extendedBounds: parseDateBounds(fields, 'extended_bounds'),
    hardBounds: parseDateBounds(fields, 'hard_bounds'),
    order: fields.has('order') ? parseOrder(fields.raw('order'), 'date_histogram') : KEY_ASC_ORDER,
    keyed: fields.boolean('keyed') ?? false,
  };
}

export function parseFilter(common: Common, body: JsonObject, parseQuery: QueryParser): Omit<FilterSpec, 'subAggregations'> {
  return { ...common, type: 'filter', query: parseQuery(body) };
}

export function parseFilters(common: Common, body: JsonObject, parseQuery: QueryParser): Omit<FiltersSpec, 'subAggregations'> {
  const name = common.name;
  const filters: Array<{ key: string; query: unknown }> = [];
  let keyed = false;
  let otherBucket: boolean | null = null;
  let otherBucketKey: string | null = null;
  for (const [field, value] of Object.entries(body)) {
    const token = tokenName(value);
    const unknown = (): EsError => aggErrors.parsing(`Unknown key for a ${token} in [${name}]: [${field}].`);
    if (typeof value === 'boolean') {
      if (field !== 'other_bucket') throw unknown();
      otherBucket = value;
    } else if (typeof value === 'string') {
      if (field !== 'other_bucket_key') throw unknown();
      otherBucketKey = value;
    } else if (isObject(value)) {
      if (field !== 'filters') throw unknown();
      for (const [key, query] of Object.entries(value)) filters.push({ key, query: parseQuery(query) });
      keyed = true;
    } else if (Array.isArray(value)) {
      if (field !== 'filters') throw unknown();
      value.forEach((query, i) => filters.push({ key: String(i), query: parseQuery(query) }));
    } else {
      throw unknown();
    }
  }
  if (filters.length === 0) throw illegal('[filters] cannot be empty.');
  // Named filters are kept in key order, whatever order the request used.
  if (keyed) filters.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (otherBucket === null && otherBucketKey !== null) otherBucket = true;
  return { ...common, type: 'filters', filters, keyed, otherBucket: otherBucket ?? false, otherBucketKey: otherBucketKey ?? '_other_' };
}

export function parseMissing(common: Common, body: JsonObject): Omit<MissingSpec, 'subAggregations'> {
  const fields = new ObjectFields('missing', body, valuesSourceFieldNames({ formattable: true, timeZoneAware: false }));
  return { ...common, type: 'missing', source: parseValuesSource(fields, { formattable: true, timeZoneAware: false }) };
}
