/**
 * Per field type, how ES's `fields` option turns `_source` values into a field's values (each mapper's
 * valueFetcher / SourceValueFetcher.parseSourceValue): text and keyword are Java toString of the source
 * value (keywords through their normalizer and ignore_above), numbers are parsed to the field's Java type
 * (Long, Integer, Double, Float, ...) and printed as that type prints, dates are parsed with the mapping's
 * format and printed with the requested one (or the mapping's), booleans accept true/false and their
 * strings. A value that does not parse is an ignored value, not an error, as at index time.
 */
import { RawJson } from '../../common/raw-json.js';
import { javaDoubleString } from '../../common/json-float.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import { checkNanosRange, dateFormatter, formatIp, tryParseIp, type DateFormatter } from '../../mapping/index.js';
import { halfFloatRound } from '../../mapping/numeric-values.js';
import { javaFloatString, javaStringToLong, parseJavaDouble, parseJavaFloat } from '../../mapping/java-numbers.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import type { FieldCatalog, MappedField } from './field-catalog.js';
import { javaToString, jacksonNumber } from './java-values.js';
import { extractValue, type Extracted } from './source-lookup.js';
import { SourceNumber, type SourceObject, type SourceValue } from './source-tree.js';

/** A value as the response prints it: strings, booleans, and numbers already in their Java spelling. */
export type FieldValue = string | boolean | RawJson;

export interface FetchedValues {
  readonly values: FieldValue[];
  /** Source values the field could not use (DocumentField's ignoredValues). */
  readonly ignored: FieldValue[];
}

export interface ValueFetcher {
  fetch(source: SourceObject): FetchedValues;
}

/** A source scalar printed as ES prints the Java object it parsed to (for ignored and unmapped values). */
export function rawFieldValue(value: SourceValue): FieldValue {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof SourceNumber) return new RawJson(jacksonNumber(value));
  // Containers never reach a leaf fetcher except through a mapped field given an object; ES prints toString.
  return javaToString(value);
}

/** Thrown by a parse to mark the value ignored (any exception does in SourceValueFetcher). */
class Unparseable extends Error {}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** NumberFieldMapper.objectToDouble: a Number's doubleValue, else Double.parseDouble of its toString. */
function objectToDouble(value: SourceValue): number {
  if (value instanceof SourceNumber) return Number(value.text);
  if (typeof value === 'string') {
    try {
      return parseJavaDouble(value);
    } catch {
      throw new Unparseable();
    }
  }
  throw new Unparseable();
}

function checkFraction(coerce: boolean, double: number): void {
  if (!coerce && double % 1 !== 0) throw new Unparseable();
}

/** NumberType.parse(Object, coerce) for the integer types, as the Java value's digits. */
function parseIntegral(type: 'long' | 'integer' | 'short' | 'byte', value: SourceValue, coerce: boolean): bigint {
  const isLongObject = value instanceof SourceNumber && value.isInteger && fitsLong(value.text);
  if (type === 'long' && isLongObject) return BigInt((value as SourceNumber).text);
  const double = objectToDouble(value);
  if (type === 'long') {
    if (double < -9223372036854775808 || double > 9223372036854775807) throw new Unparseable();
    checkFraction(coerce, double);
    try {
      return javaStringToLong(javaToString(value), coerce);
    } catch {
      throw new Unparseable();
    }
  }
  if (double < INT_MIN || double > INT_MAX) throw new Unparseable();
  checkFraction(coerce, double);
  // Number.intValue() of an Integer/Long is exact in range; of a Double (or a parsed string) it truncates.
  const int = value instanceof SourceNumber && value.isInteger ? BigInt(value.text) : BigInt(Math.trunc(double));
  if (type === 'short' && (int < -32768n || int > 32767n)) throw new Unparseable();
  if (type === 'byte' && (int < -128n || int > 127n)) throw new Unparseable();
  return int;
}

function fitsLong(text: string): boolean {
  const big = BigInt(text);
  return big >= -(2n ** 63n) && big < 2n ** 63n;
}

/** NumberType.parse for the floating types; the result printed as Double or Float. */
function parseFloating(type: 'double' | 'float' | 'half_float', value: SourceValue): RawJson {
  if (type === 'double') {
    const double = objectToDouble(value);
    if (!Number.isFinite(double)) throw new Unparseable();
    return new RawJson(javaDoubleString(double));
  }
  let float: number;
  if (value instanceof SourceNumber) float = Math.fround(Number(value.text));
  else if (typeof value === 'string') {
    try {
      float = parseJavaFloat(value);
    } catch {
      throw new Unparseable();
    }
  } else throw new Unparseable();
  if (type === 'half_float') float = halfFloatRound(float);
  if (!Number.isFinite(float)) throw new Unparseable();
  return new RawJson(javaFloatString(float));
}

/** Booleans.parseBoolean(char[], offset, length, false) over the value's toString. */
function parseBoolean(value: SourceValue): boolean {
  if (typeof value === 'boolean') return value;
  const text = javaToString(value);
  if (text.length === 0) return false;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new Unparseable();
}

function unsupportedFormat(field: MappedField): Error {
  return illegalArgument(`Field [${field.name}] of type [${field.mapping.type}] doesn't support formats.`);
}

/** The first token of the normalizer's stream (KeywordFieldMapper.normalizeValue). */
function normalize(analysis: AnalysisRegistry | undefined, normalizer: string | null, text: string): string {
  if (normalizer === null || analysis === undefined) return text;
  const analyzer = analysis.findNormalizer(normalizer);
  if (analyzer === undefined) return text;
  const stream = analyzer.tokenStream(text);
  const term = stream.incrementToken() ? stream.token.term : text;
  while (stream.incrementToken());
  stream.end();
  return term;
}

type Parse = (value: SourceValue) => FieldValue | null;

/** The null_value as the Java object ES substitutes for a source null, in source form. */
function nullValueOf(field: MappedField): SourceValue | undefined {
  const options = field.options;
  switch (options.type) {
    case 'keyword':
      return options.nullValue ?? undefined;
    case 'boolean':
      return options.nullValue ?? undefined;
    case 'date':
    case 'date_nanos':
    case 'ip': {
      const raw = field.mapping.params['null_value'];
      return raw === null || raw === undefined ? undefined : String(raw);
    }
    case 'text':
    case 'binary':
    case 'scaled_float':
      // ScaledFloatFieldMapper's fetcher substitutes null_value only for "", not for a source null.
      return undefined;
    default: {
      const nullValue = options.nullValue;
      if (nullValue === undefined) return undefined;
      return nullValue.kind === 'long' ? new SourceNumber(nullValue.value.toString(), true) : new SourceNumber(String(nullValue.value), false);
    }
  }
}

/**
 * The parse step of the field's value fetcher, with the request's `format`. Throws ES's
 * IllegalArgumentException (unwrapped) for a format the type does not take or an invalid date format.
 */
function parserFor(field: MappedField, format: string | undefined, analysis: AnalysisRegistry | undefined): Parse {
  const options = field.options;
  switch (options.type) {
    case 'text':
      if (format !== undefined) throw illegalArgument(`Field [${field.name}] doesn't support formats.`);
      return (value) => javaToString(value);
    case 'keyword':
      if (format !== undefined) throw unsupportedFormat(field);
      return (value) => {
        const text = javaToString(value);
        if (text.length > options.ignoreAbove) return null;
        return normalize(analysis, options.normalizer, text);
      };
    case 'boolean':
      if (format !== undefined) throw unsupportedFormat(field);
      return parseBoolean;
    case 'date': {
      const printer = format === undefined ? options.formatter : compileDateFormat(format, options.locale);
      return (value) => {
        let millis: number;
        try {
          millis = options.formatter.parseMillis(dateSourceText(value));
        } catch {
          throw new Unparseable();
        }
        return printer.format(millis);
      };
    }
    case 'date_nanos': {
      const printer = format === undefined ? options.formatter : compileDateFormat(format, options.locale);
      return (value) => {
        let nanos: bigint;
        try {
          nanos = checkNanosRange(options.formatter.parseNanos(dateSourceText(value)));
        } catch {
          throw new Unparseable();
        }
        return printer.formatNanos(nanos);
      };
    }
    case 'ip':
      if (format !== undefined) throw unsupportedFormat(field);
      return (value) => {
        const bytes = tryParseIp(javaToString(value));
        if (bytes === null) throw new Unparseable();
        return formatIp(bytes);
      };
    case 'binary':
      // SourceValueFetcher.identity: the source value as it is.
      if (format !== undefined) throw unsupportedFormat(field);
      return rawFieldValue;
    case 'scaled_float': {
      if (format !== undefined) throw unsupportedFormat(field);
      const factor = options.scalingFactor ?? 1;
      const nullDouble = options.nullValue === undefined ? undefined : Number(options.nullValue.value);
      return (value) => {
        let double: number;
        if (value === '') {
          if (nullDouble === undefined) return null;
          double = nullDouble;
        } else double = objectToDouble(value);
        return new RawJson(javaDoubleString(javaRound(double * factor) / factor));
      };
    }
    case 'double':
    case 'float':
    case 'half_float': {
      if (format !== undefined) throw unsupportedFormat(field);
      const type = options.type;
      const nullValue = nullValueOf(field);
      return (value) => {
        if (value === '') return nullValue === undefined || nullValue === null ? null : parseFloating(type, nullValue);
        return parseFloating(type, value);
      };
    }
    default: {
      if (format !== undefined) throw unsupportedFormat(field);
      const type = options.type;
      const coerce = options.coerce;
      const nullValue = nullValueOf(field);
      return (value) => {
        if (value === '') return nullValue === undefined || nullValue === null ? null : new RawJson(parseIntegral(type, nullValue, coerce).toString());
        return new RawJson(parseIntegral(type, value, coerce).toString());
      };
    }
  }
}

/**
 * DateFieldType's NUMBER_FORMAT (java.text.NumberFormat, no grouping, at most 6 fraction digits) for a number in
 * the source, its toString otherwise. A float is first the double Jackson read, printed with its shortest digits.
 */
function dateSourceText(value: SourceValue): string {
  if (!(value instanceof SourceNumber)) return javaToString(value);
  if (value.isInteger) return BigInt(value.text).toString();
  return numberFormatSixDigits(Number(value.text));
}

function numberFormatSixDigits(double: number): string {
  if (!Number.isFinite(double)) return double > 0 ? '\u221e' : double < 0 ? '-\u221e' : '\ufffd';
  const negative = double < 0 || Object.is(double, -0);
  // The shortest digits of the double, as a plain decimal.
  let [mantissa, exponentText] = Math.abs(double).toString().split('e') as [string, string | undefined];
  let [intPart, fracPart = ''] = mantissa.split('.') as [string, string | undefined];
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  let digits = intPart + fracPart;
  let point = intPart.length + exponent;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits = digits.padEnd(point, '0');
  intPart = digits.slice(0, point) || '0';
  fracPart = digits.slice(point);
  if (fracPart.length > 6) {
    // HALF_EVEN on the decimal digits.
    const kept = fracPart.slice(0, 6);
    const rest = fracPart.slice(6);
    const last = Number(kept[5]!);
    const roundUp = rest[0]! > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || last % 2 === 1));
    let scaled = BigInt(intPart + kept);
    if (roundUp) scaled += 1n;
    const text = scaled.toString().padStart(7, '0');
    intPart = text.slice(0, -6);
    fracPart = text.slice(-6);
  }
  fracPart = fracPart.replace(/0+$/, '');
  const body = fracPart.length > 0 ? `${intPart.replace(/^0+(?=\d)/, '')}.${fracPart}` : intPart.replace(/^0+(?=\d)/, '');
  return negative && body !== '0' ? `-${body}` : body;
}

/** Math.round for doubles: floor(x + 0.5), as a long. */
function javaRound(value: number): number {
  return Math.floor(value + 0.5);
}

/** DateFieldType.valueFetcher: a requested format keeps the field's locale. */
function compileDateFormat(format: string, locale: string): DateFormatter {
  try {
    return dateFormatter(format, locale);
  } catch (err) {
    throw illegalArgument(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The source value fetcher of a mapped field (SourceValueFetcher): values from each source path, nested
 * arrays unwrapped breadth first (so `[[1, 2], 3]` yields 3, 1, 2 as ES does), nulls replaced by null_value.
 */
export function sourceValueFetcher(field: MappedField, catalog: FieldCatalog, format: string | undefined, analysis?: AnalysisRegistry): ValueFetcher {
  const parse = parserFor(field, format, analysis);
  const paths = catalog.sourcePaths(field.name);
  const nullValue = nullValueOf(field);
  return {
    fetch(source) {
      const values: FieldValue[] = [];
      const ignored: FieldValue[] = [];
      for (const path of paths) {
        const found = extractValue<SourceValue>(path, source, nullValue);
        if (found === undefined || found === null) continue;
        const queue: Extracted<SourceValue>[] = [found];
        while (queue.length > 0) {
          const value = queue.shift()!;
          if (Array.isArray(value)) {
            for (const item of value) if (item !== null) queue.push(item);
            continue;
          }
          try {
            const parsed = parse(value);
            if (parsed !== null) values.push(parsed);
            else ignored.push(rawFieldValue(value));
          } catch (err) {
            if (!(err instanceof Unparseable)) throw err;
            ignored.push(rawFieldValue(value));
          }
        }
      }
      return { values, ignored };
    },
  };
}
