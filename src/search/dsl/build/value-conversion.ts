/**
 * Query values to field values, as ES's field types convert them (NumberFieldMapper.NumberType.parse,
 * DateFieldType.parseToLong, BooleanFieldType.indexedValueForSearch): same accepted inputs, same rounding,
 * same messages. Values arrive as JSON scalars; ES sees their Java toString where it parses text.
 */
import { EsError } from '../../../common/errors.js';
import { javaDoubleString } from '../../../common/json-float.js';
import { parseDateMath } from '../../../mapping/date/date-math.js';
import { dateFormatter, type DateFormatter } from '../../../mapping/date/date-formatter.js';
import { zoneOffsetMillis, type ZoneRef } from '../../../mapping/date/zones.js';
import { DateParseError, DateTimeError } from '../../../mapping/date/date-errors.js';
import { checkNanosRange } from '../../../mapping/date/date-nanos.js';
import { halfFloatRound } from '../../../mapping/numeric-values.js';
import { JavaNumberError, javaStringToLong, LONG_MAX, LONG_MIN, parseJavaDouble } from '../../../mapping/java-numbers.js';
import type { QueryValue } from '../ast/query-ast.js';
import { illegalArgument } from '../xcontent/xcontent-errors.js';

/** Object.toString() of the Java value ES holds: Integer/Long/BigInteger digits, Double.toString, the string. */
export function javaString(value: QueryValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return Number.isSafeInteger(value) ? String(value) : javaDoubleString(value);
}

function fromJava<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof JavaNumberError) throw new EsError(err.type, err.message);
    throw err;
  }
}

/** NumberType.objectToDouble: Number.doubleValue, or Double.parseDouble of the text. */
export function objectToDouble(value: QueryValue): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return fromJava(() => parseJavaDouble(String(value)));
}

/** NumberFieldMapper.hasDecimalPart. */
export function hasDecimalPart(value: QueryValue): boolean {
  if (typeof value === 'bigint') return false;
  return objectToDouble(value) % 1 !== 0;
}

/** NumberFieldMapper.signum. */
export function signum(value: QueryValue): number {
  return Math.sign(objectToDouble(value));
}

export type IntegerType = 'long' | 'integer' | 'short' | 'byte';

const INTEGER_BOUNDS: Record<Exclude<IntegerType, 'long'>, { min: number; max: number; name: string }> = {
  integer: { min: -2147483648, max: 2147483647, name: 'an integer' },
  short: { min: -32768, max: 32767, name: 'a short' },
  byte: { min: -128, max: 127, name: 'a byte' },
};

/** NumberType.parse(value, coerce=true) for the integer types. */
export function parseInteger(type: IntegerType, value: QueryValue): bigint {
  if (type === 'long') {
    if (typeof value === 'bigint') {
      if (value < LONG_MIN || value > LONG_MAX) throw illegalArgument(`Value [${value}] is out of range for a long`);
      return value;
    }
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    const asDouble = objectToDouble(value);
    if (asDouble < -9.223372036854776e18 || asDouble > 9.223372036854776e18) {
      throw illegalArgument(`Value [${javaString(value)}] is out of range for a long`);
    }
    return fromJava(() => javaStringToLong(javaString(value), true));
  }
  const bounds = INTEGER_BOUNDS[type];
  const asDouble = objectToDouble(value);
  if (asDouble < bounds.min || asDouble > bounds.max) throw illegalArgument(`Value [${javaString(value)}] is out of range for ${bounds.name}`);
  return BigInt(Math.trunc(asDouble));
}

export type FloatingType = 'double' | 'float' | 'half_float';

/** NumberType.parse for the floating types, at the type's precision; only finite values. */
export function parseFloating(type: FloatingType, value: QueryValue): number {
  const asDouble = objectToDouble(value);
  const parsed = type === 'double' ? asDouble : type === 'float' ? Math.fround(asDouble) : halfFloat(asDouble);
  if (!Number.isFinite(parsed)) throw illegalArgument(`[${type}] supports only finite values, but got [${javaString(value)}]`);
  return parsed;
}

/** The nearest IEEE half-precision value (round half to even), as HalfFloatPoint stores it. */
export function halfFloat(value: number): number {
  return halfFloatRound(value);
}

/** The spacing of half floats around a magnitude. */
function halfQuantum(abs: number): number {
  const exponent = Math.floor(Math.log2(abs));
  return exponent < -14 ? 2 ** -24 : 2 ** (exponent - 10);
}

/** Math.nextUp / nextDown for doubles (DoublePoint.nextUp treats -0.0 and 0.0 as distinct, as Lucene does). */
export function nextUpDouble(value: number): number {
  if (Number.isNaN(value) || value === Infinity) return value;
  if (Object.is(value, -0)) return 0;
  if (value === 0) return Number.MIN_VALUE;
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, value);
  const bits = buffer.getBigInt64(0);
  buffer.setBigInt64(0, value > 0 ? bits + 1n : bits - 1n);
  return buffer.getFloat64(0);
}

export function nextDownDouble(value: number): number {
  if (Number.isNaN(value) || value === -Infinity) return value;
  if (Object.is(value, 0)) return -0;
  return -nextUpDouble(-value);
}

/** FloatPoint.nextUp / nextDown on float values. */
export function nextUpFloat(value: number): number {
  if (Number.isNaN(value) || value === Infinity) return value;
  if (Object.is(value, -0)) return 0;
  if (value === 0) return 2 ** -149;
  const buffer = new DataView(new ArrayBuffer(4));
  buffer.setFloat32(0, value);
  const bits = buffer.getInt32(0);
  buffer.setInt32(0, value > 0 ? bits + 1 : bits - 1);
  return buffer.getFloat32(0);
}

export function nextDownFloat(value: number): number {
  if (Number.isNaN(value) || value === -Infinity) return value;
  if (Object.is(value, 0)) return -0;
  return -nextUpFloat(-value);
}

/** HalfFloatPoint.nextUp / nextDown on half-float values. */
export function nextUpHalf(value: number): number {
  const half = halfFloat(value);
  if (half > value) return half;
  if (half === 0) return 2 ** -24;
  if (half > 0) return half + halfQuantum(half);
  // Negative: the step towards zero is the quantum of the next smaller magnitude at a power of two.
  const magnitude = -half;
  const step = 2 ** Math.floor(Math.log2(magnitude)) === magnitude ? halfQuantum(magnitude / 2) : halfQuantum(magnitude);
  return half + step;
}

export function nextDownHalf(value: number): number {
  return -nextUpHalf(-value);
}

/** BooleanFieldType.indexedValueForSearch: the terms "T" and "F". */
export function booleanTerm(value: QueryValue): 'T' | 'F' {
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  const text = javaString(value);
  if (text === 'true') return 'T';
  if (text === 'false') return 'F';
  throw illegalArgument(`Can't parse boolean value [${text}], expected [true] or [false]`);
}

export interface DateParseOptions {
  readonly formatter: DateFormatter;
  readonly zone: ZoneRef | undefined;
  readonly roundUp: boolean;
  readonly now: () => number;
}

const EPOCH_MILLIS = dateFormatter('epoch_millis');

/**
 * DateFieldType.parseToLong: a date (in the field's or the query's format) or `now`, with date math.
 * A time zone applies to dates that do not carry their own offset. With roundUp, the fields a date leaves
 * out are filled with their maximum (ES's round-up parser): `lte: "2020-01-01"` means the end of that day.
 */
export function parseDateBound(value: QueryValue, options: DateParseOptions): number {
  const text = javaString(value);
  if (text.startsWith('now')) {
    return parseDateMath(text, options.formatter, { now: options.now, roundUp: options.roundUp, ...(options.zone && { zone: options.zone }) });
  }
  const mathIndex = text.indexOf('||');
  const datePart = mathIndex < 0 ? text : text.slice(0, mathIndex);
  let millis = parseDateMath(datePart, options.formatter, { now: options.now });
  if (options.zone !== undefined && !hasExplicitZone(datePart)) millis -= zoneOffsetMillis(options.zone, millis);
  if (options.roundUp && mathIndex < 0) millis = roundUpMissingFields(datePart, millis);
  if (mathIndex < 0) return millis;
  const math = text.slice(mathIndex + 2);
  return parseDateMath(`${millis}||${math}`, EPOCH_MILLIS, { now: options.now, roundUp: options.roundUp, ...(options.zone && { zone: options.zone }) });
}

/**
 * parseDateBound at nanosecond resolution (date_nanos): the date part keeps its nanoseconds (and rounding up fills
 * missing fields to the last nanosecond); `now` and date math work in milliseconds as ES's JavaDateMathParser
 * does, so a rounded bound ends at .999 milliseconds, and an unrounded one keeps the date's nanoseconds. The
 * result is checked against the nanosecond range (DateUtils.toLong): DateNanosRangeError outside it.
 */
export function parseDateNanosBound(value: QueryValue, options: DateParseOptions): bigint {
  const text = javaString(value);
  if (text.startsWith('now')) return checkNanosRange(BigInt(parseDateBound(value, options)) * 1_000_000n);
  const mathIndex = text.indexOf('||');
  const datePart = mathIndex < 0 ? text : text.slice(0, mathIndex);
  let nanos: bigint;
  try {
    nanos = options.formatter.parseNanos(datePart);
  } catch (err) {
    if (err instanceof DateParseError || err instanceof DateTimeError) {
      throw new EsError('parse_exception', `failed to parse date field [${datePart}] with format [${options.formatter.pattern}]: [${err.message}]`);
    }
    throw err;
  }
  if (options.zone !== undefined && !hasExplicitZone(datePart)) {
    nanos -= BigInt(zoneOffsetMillis(options.zone, Number(floorDiv(nanos, 1_000_000n)))) * 1_000_000n;
  }
  if (options.roundUp && mathIndex < 0) nanos = roundUpMissingNanos(datePart, nanos);
  if (mathIndex < 0) return checkNanosRange(nanos);
  const millis = floorDiv(nanos, 1_000_000n);
  const subMillis = nanos - millis * 1_000_000n;
  const math = text.slice(mathIndex + 2);
  const result = parseDateMath(`${millis}||${math}`, EPOCH_MILLIS, { now: options.now, roundUp: options.roundUp, ...(options.zone && { zone: options.zone }) });
  // Rounding (`/d`) clears everything below the second; adding units keeps the date's nanoseconds.
  return checkNanosRange(BigInt(result) * 1_000_000n + (math.includes('/') ? 0n : subMillis));
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** roundUpMissingFields at nanosecond resolution: a fraction of n digits is filled with nines to 9 digits. */
function roundUpMissingNanos(text: string, nanos: bigint): bigint {
  const match = ISO_PARTS.exec(text);
  if (match === null) return nanos;
  const fraction = match[7];
  if (fraction !== undefined) return fraction.length >= 9 ? nanos : nanos + 10n ** BigInt(9 - fraction.length) - 1n;
  const millis = floorDiv(nanos, 1_000_000n);
  return BigInt(roundUpMissingFields(text, Number(millis))) * 1_000_000n + 999_999n;
}

/** Epoch numbers and dates with Z or ±hh:mm carry their own instant; the query's time zone does not apply. */
function hasExplicitZone(text: string): boolean {
  if (/^-?\d+(\.\d+)?$/.test(text)) return true;
  return /(Z|[+-]\d{2}(:?\d{2})?|UTC|GMT.*)$/.test(text) && text.includes('T');
}

const ISO_PARTS = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?)?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * The round-up parser's effect on ISO-8601 dates: the missing fields take their last value.
 * Other shapes (custom formats) are left as parsed.
 */
function roundUpMissingFields(text: string, millis: number): number {
  const match = ISO_PARTS.exec(text);
  if (match === null) return millis;
  const [, , month, day, hour, minute, second, fraction] = match;
  if (fraction !== undefined) return fraction.length >= 3 ? millis : millis + 10 ** (3 - fraction.length) - 1;
  if (second !== undefined) return millis + 999;
  if (minute !== undefined) return millis + 59_999;
  if (hour !== undefined) return millis + 3_599_999;
  if (day !== undefined) return millis + 86_399_999;
  const date = new Date(millis);
  if (month !== undefined) return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - 1;
  return Date.UTC(date.getUTCFullYear() + 1, 0, 1) - 1;
}
