/**
 * Sort values between shards and on the wire: comparing the values of hits from different shards (the merge
 * of SearchPhaseController, as Lucene's TopDocs.merge compares FieldDocs), printing them as ES does in a
 * hit's `sort` array (DocValueFormat.formatSortValue: longs as longs, doubles as Java doubles, scores and
 * float fields as Java floats, keywords as strings, a missing keyword as null, dates as epoch millis unless
 * the sort gave a `format`), and reading `search_after` values back (SearchAfterBuilder).
 */
import { EsError, describeError } from '../../common/errors.js';
import { JsonFloat } from '../../common/json-float.js';
import type { SortValue } from '../collect/top-docs.js';
import type { QueryValue } from '../dsl/index.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import { floatToJsonNumber } from '../float32.js';
import { formatIp, hexToIp, ipToHex, IpFormatError, parseIp } from '../../mapping/ip-address.js';
import type { ResolvedSortField } from './sort.js';

export const LONG_MAX = 9223372036854775807n;
export const LONG_MIN = -9223372036854775808n;

/** `_shard_doc`'s value: the shard's position in the high 32 bits, the doc id in the low ones (ShardDocSortField). */
export function shardDocValue(shardIndex: number, doc: number): number {
  return shardIndex * 4294967296 + doc;
}

function asNumber(value: SortValue): number {
  if (typeof value === 'bigint') {
    if (value === LONG_MAX) return Infinity;
    if (value === LONG_MIN) return -Infinity;
    return Number(value);
  }
  return typeof value === 'number' ? value : NaN;
}

/** Code point order, which is the UTF-8 byte order Lucene compares terms in. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (U+D800..U+DFFF) encodes a code point above U+FFFF: it sorts after every BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Negative when `a` sorts before `b` for this sort field. */
export function compareSortValue(a: SortValue, b: SortValue, field: ResolvedSortField): number {
  const sign = field.order === 'asc' ? 1 : -1;
  if (field.kind === 'keyword' || field.kind === 'ip') {
    if (a === null || b === null) {
      if (a === b) return 0;
      // A doc without value goes where `missing` says, whatever the order.
      const missingFirst = field.missing === 'first';
      return (a === null) === missingFirst ? -1 : 1;
    }
    return sign * compareCodePoints(String(a), String(b));
  }
  if (typeof a === 'bigint' && typeof b === 'bigint') return sign * (a < b ? -1 : a > b ? 1 : 0);
  const x = asNumber(a);
  const y = asNumber(b);
  return sign * (x < y ? -1 : x > y ? 1 : 0);
}

export function compareSortValues(a: readonly SortValue[], b: readonly SortValue[], fields: readonly ResolvedSortField[]): number {
  for (let i = 0; i < fields.length; i++) {
    const cmp = compareSortValue(a[i]!, b[i]!, fields[i]!);
    if (cmp !== 0) return cmp;
  }
  return 0;
}

function javaDoubleValue(value: number): JsonFloat | string {
  // Jackson writes non-finite doubles as strings.
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  return new JsonFloat(value);
}

function javaLongValue(value: SortValue): number | bigint {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  const n = asNumber(value);
  if (n === Infinity) return LONG_MAX;
  if (n === -Infinity) return LONG_MIN;
  return Number.isSafeInteger(n) ? n : BigInt(Math.trunc(n));
}

/** One sort value as ES prints it in a hit's `sort` array. */
export function formatSortValue(value: SortValue, field: ResolvedSortField): unknown {
  switch (field.kind) {
    case 'score':
    case 'float': {
      const n = asNumber(value);
      return Number.isFinite(n) ? new JsonFloat(floatToJsonNumber(n)) : javaDoubleValue(n);
    }
    case 'doc':
    case 'shard_doc':
      return javaLongValue(value);
    case 'double':
      return javaDoubleValue(asNumber(value));
    case 'scaled_float': {
      const n = asNumber(value);
      return javaDoubleValue(Number.isFinite(n) ? n / (field.scalingFactor ?? 1) : n);
    }
    case 'date': {
      const long = javaLongValue(value);
      if (field.dateFormat === undefined || typeof long === 'bigint') return long;
      return field.dateFormat.format(long);
    }
    case 'date_nanos': {
      // Nanoseconds, exactly (most exceed 2^53), or formatted at nanosecond resolution.
      const long = javaLongValue(value);
      if (field.dateFormat === undefined) return long;
      return field.dateFormat.formatNanos(BigInt(long));
    }
    case 'ip':
      // DocValueFormat.IP.formatSortValue: the address.
      return value === null ? null : formatIp(hexToIp(String(value)));
    case 'long':
    case 'boolean':
      return javaLongValue(value);
    case 'keyword':
      return value === null ? null : String(value);
  }
}

function failedToParse(field: ResolvedSortField, cause: EsError): EsError {
  return illegalArgument(`Failed to parse search_after value for field [${field.field ?? (field.kind === 'score' ? '_score' : '_doc')}].`, cause);
}

function numberFormat(text: string): EsError {
  return new EsError('number_format_exception', `For input string: "${text}"`);
}

function parseLongText(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw numberFormat(text);
  return Number(text);
}

function parseDoubleText(text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || Number.isNaN(value)) throw numberFormat(text);
  return value;
}

/** The missing value's key for numeric sorts: where `_first`/`_last` put a doc without value. */
function numericMissingKey(field: ResolvedSortField): number {
  if (typeof field.missing === 'number') return field.missing;
  const ascending = field.order === 'asc';
  return (field.missing === 'last') === ascending ? Infinity : -Infinity;
}

/** A search_after value converted to the sort field's type (SearchAfterBuilder.convertValueFromSortField). */
function afterValue(raw: QueryValue | null, field: ResolvedSortField): SortValue {
  try {
    switch (field.kind) {
      case 'keyword':
        return raw === null ? null : String(raw);
      case 'ip':
        // DocValueFormat.IP.parseBytesRef.
        return raw === null ? null : ipToHex(parseIp(String(raw)));
      case 'date_nanos':
        if (raw === null) return numericMissingKey(field);
        if (typeof raw === 'bigint') return raw;
        if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : BigInt(Math.trunc(raw));
        if (field.dateFormat !== undefined) return field.dateFormat.parseNanos(String(raw));
        if (!/^[+-]?\d+$/.test(String(raw))) throw numberFormat(String(raw));
        return BigInt(String(raw));
      case 'score':
      case 'float':
      case 'double':
        if (raw === null) return numericMissingKey(field);
        return typeof raw === 'number' ? raw : parseDoubleText(String(raw));
      case 'scaled_float': {
        if (raw === null) return numericMissingKey(field);
        const value = typeof raw === 'number' ? raw : parseDoubleText(String(raw));
        return value * (field.scalingFactor ?? 1);
      }
      case 'date':
        if (raw === null) return numericMissingKey(field);
        if (typeof raw === 'number' || typeof raw === 'bigint') return Number(raw);
        if (field.dateFormat !== undefined) return field.dateFormat.parseMillis(String(raw));
        return parseLongText(String(raw));
      case 'boolean':
        if (raw === true) return 1;
        if (raw === false) return 0;
        if (raw === null) return numericMissingKey(field);
        return typeof raw === 'number' ? raw : parseLongText(String(raw));
      case 'doc':
      case 'shard_doc':
      case 'long':
        if (raw === null) return numericMissingKey(field);
        if (typeof raw === 'bigint') return field.exact === true ? raw : Number(raw);
        if (field.exact === true && typeof raw === 'string' && /^[+-]?\d+$/.test(raw)) return BigInt(raw);
        if (typeof raw === 'number') return Math.trunc(raw);
        return parseLongText(String(raw));
    }
  } catch (err) {
    if (err instanceof IpFormatError) throw failedToParse(field, new EsError('illegal_argument_exception', err.message));
    throw failedToParse(field, err instanceof EsError ? err : new EsError('illegal_argument_exception', describeError(err)));
  }
}

/** SearchAfterBuilder.buildFieldDoc's checks and conversions. */
export function parseSearchAfter(values: readonly (QueryValue | null)[], fields: readonly ResolvedSortField[]): SortValue[] {
  if (values.length !== fields.length) {
    throw illegalArgument(`search_after has ${values.length} value(s) but sort has ${fields.length}.`);
  }
  return values.map((value, i) => afterValue(value, fields[i]!));
}

/** search_after without a sort: the score (and doc) of the relevance order. */
export function parseRelevanceSearchAfter(values: readonly (QueryValue | null)[]): number {
  if (values.length !== 1) throw illegalArgument(`search_after has ${values.length} value(s) but sort has 1.`);
  return afterValue(values[0]!, { kind: 'score', order: 'desc', missing: 'last' }) as number;
}
