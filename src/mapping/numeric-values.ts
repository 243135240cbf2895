/**
 * Reading a number from a document token the way ES's NumberFieldMapper does (NumberType.parse(parser, coerce)
 * over Jackson's accessors): strings only when coercing, truncation of decimals into integer types when
 * coercing, Jackson's range errors for JSON numbers, ES's range errors for strings, finiteness for floats.
 * Failures throw EsError causes; `ignorable` tells whether ignore_malformed may swallow them.
 */
import { EsError } from '../common/errors.js';
import { javaDoubleString } from '../common/json-float.js';
import type { JsonToken, TokenLocation } from './json-pull-parser.js';
import { JavaNumberError, javaFloatString, javaStringToLong, LONG_MAX, LONG_MIN, parseJavaDouble, parseJavaFloat } from './java-numbers.js';
import type { NumericFieldType } from './mapping-model.js';

export type NumericValue = { readonly kind: 'long'; readonly value: bigint } | { readonly kind: 'double'; readonly value: number };

export interface NumberToken {
  readonly token: JsonToken;
  readonly text: string;
  readonly isInteger: boolean;
  readonly location: TokenLocation;
}

/** A failure reading a value; ignore_malformed applies only to IllegalArgumentExceptions on value tokens. */
export class ValueError extends Error {
  constructor(
    override readonly cause: EsError,
    readonly ignorable: boolean,
  ) {
    super(cause.reason);
    this.name = 'ValueError';
  }
}

const JAVA_CLASS: Record<NumericFieldType, string> = {
  long: 'Long',
  integer: 'Integer',
  short: 'Short',
  byte: 'Integer',
  double: 'Double',
  scaled_float: 'Double',
  float: 'Float',
  half_float: 'Float',
};

function iae(message: string): ValueError {
  return new ValueError(new EsError('illegal_argument_exception', message), true);
}

/** An XContentParseException (an IllegalArgumentException in ES): "[l:c] message". */
function xContentParse(location: TokenLocation, message: string): ValueError {
  return new ValueError(new EsError('x_content_parse_exception', `[${location.line}:${location.column}] ${message}`), true);
}

function fromJava<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof JavaNumberError) throw new ValueError(new EsError(err.type, err.message), true);
    throw err;
  }
}

/** Jackson's token names, which its messages use. */
function jacksonTokenName(t: NumberToken): string {
  if (t.token === 'VALUE_BOOLEAN') return t.text === 'true' ? 'VALUE_TRUE' : 'VALUE_FALSE';
  if (t.token === 'VALUE_NUMBER') return t.isInteger ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT';
  return t.token;
}

const INT_RANGE = '(-2147483648 - 2147483647)';
const LONG_RANGE = '(-9223372036854775808 - 9223372036854775807)';

/** Jackson's getLongValue on a number token. */
function jacksonLong(t: NumberToken): bigint {
  if (t.isInteger) {
    // Up to 15 digits a literal is a safe integer: read as a number first (much cheaper than parsing a BigInt).
    if (t.text.length <= 15) return BigInt(Number(t.text));
    const value = BigInt(t.text);
    if (value < LONG_MIN || value > LONG_MAX) throw xContentParse(t.location, `Numeric value (${t.text}) out of range of long ${LONG_RANGE}`);
    return value;
  }
  const d = Number(t.text);
  if (!(d >= -9.223372036854776e18 && d < 9.223372036854776e18)) {
    throw xContentParse(t.location, `Numeric value (${t.text}) out of range of long ${LONG_RANGE}`);
  }
  return BigInt(Math.trunc(d));
}

/** Jackson's getIntValue on a number token. */
function jacksonInt(t: NumberToken): number {
  const d = Number(t.text);
  if (!(d >= -2147483648 && d <= 2147483647) || (t.isInteger && (BigInt(t.text) < -2147483648n || BigInt(t.text) > 2147483647n))) {
    throw xContentParse(t.location, `Numeric value (${t.text}) out of range of int ${INT_RANGE}`);
  }
  return Math.trunc(d);
}

/** ES's ensureNumberConversion: without coercion a JSON number must convert exactly. */
function ensureExact(t: NumberToken, coerce: boolean, result: number | bigint, type: NumericFieldType): void {
  if (coerce) return;
  const full = Number(t.text);
  if (Number(result) !== full) throw iae(`${javaDoubleString(full)} cannot be converted to ${JAVA_CLASS[type]} without data loss`);
}

function checkFinite(type: 'double' | 'float' | 'half_float', value: number, shown: number): void {
  if (!Number.isFinite(value)) {
    const text = type === 'double' ? javaDoubleString(shown) : javaFloatString(shown);
    throw iae(`[${type}] supports only finite values, but got [${text}]`);
  }
}

/**
 * Reads the token as the numeric type. Returns undefined for "no value" (null, or an empty string while
 * coercing), which the caller replaces with null_value.
 */
export function readNumber(type: NumericFieldType, t: NumberToken, coerce: boolean): NumericValue | undefined {
  if (t.token === 'VALUE_NULL') return undefined;
  if (t.token === 'START_OBJECT') throw new ValueError(new EsError('illegal_argument_exception', 'Cannot parse object as number'), false);
  if (t.token === 'VALUE_STRING') {
    if (coerce && t.text.length === 0) return undefined;
    if (!coerce) throw iae(`${JAVA_CLASS[type]} value passed as String`);
    return fromJava(() => fromString(type, t.text));
  }
  if (t.token !== 'VALUE_NUMBER') {
    throw xContentParse(t.location, `Current token (${jacksonTokenName(t)}) not numeric, can not use numeric value accessors`);
  }
  switch (type) {
    case 'long': {
      const value = jacksonLong(t);
      ensureExact(t, coerce, value, type);
      return { kind: 'long', value };
    }
    case 'integer': {
      const value = jacksonInt(t);
      ensureExact(t, coerce, value, type);
      return { kind: 'long', value: BigInt(value) };
    }
    case 'short': {
      const value = jacksonInt(t);
      if (value < -32768 || value > 32767) throw xContentParse(t.location, `Numeric value (${t.text}) out of range of Java short`);
      ensureExact(t, coerce, value, type);
      return { kind: 'long', value: BigInt(value) };
    }
    case 'byte': {
      const value = jacksonInt(t);
      ensureExact(t, coerce, value, type);
      if (value < -128 || value > 127) throw iae(`Value [${value}] is out of range for a byte`);
      return { kind: 'long', value: BigInt(value) };
    }
    case 'double':
    case 'scaled_float': {
      const value = Number(t.text);
      checkFinite('double', value, value);
      return { kind: 'double', value };
    }
    case 'float': {
      const value = Math.fround(Number(t.text));
      checkFinite('float', value, value);
      return { kind: 'double', value };
    }
    case 'half_float': {
      const value = Math.fround(Number(t.text));
      checkFinite('half_float', halfFloatRound(value), value);
      return { kind: 'double', value: halfFloatRound(value) };
    }
  }
}

function fromString(type: NumericFieldType, text: string): NumericValue {
  switch (type) {
    case 'long':
      return { kind: 'long', value: javaStringToLong(text, true) };
    case 'integer':
    case 'byte': {
      const d = parseJavaDouble(text);
      if (d < -2147483648 || d > 2147483647) throw iae(`Value [${text}] is out of range for an integer`);
      const value = Number.isNaN(d) ? 0 : Math.trunc(d);
      if (type === 'byte' && (value < -128 || value > 127)) throw iae(`Value [${value}] is out of range for a byte`);
      return { kind: 'long', value: BigInt(value) };
    }
    case 'short': {
      const d = parseJavaDouble(text);
      if (d < -32768 || d > 32767) throw iae(`Value [${text}] is out of range for a short`);
      return { kind: 'long', value: BigInt(Number.isNaN(d) ? 0 : Math.trunc(d)) };
    }
    case 'double':
    case 'scaled_float': {
      const value = parseJavaDouble(text);
      checkFinite('double', value, value);
      return { kind: 'double', value };
    }
    case 'float': {
      const value = parseJavaFloat(text);
      checkFinite('float', value, value);
      return { kind: 'double', value };
    }
    case 'half_float': {
      const value = parseJavaFloat(text);
      checkFinite('half_float', halfFloatRound(value), value);
      return { kind: 'double', value: halfFloatRound(value) };
    }
  }
}

/** A float rounded to IEEE half precision (round half to even), as Lucene's HalfFloatPoint stores it. */
export function halfFloatRound(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  if (abs >= 65520) return sign * Infinity;
  let exponent = Math.floor(Math.log2(abs));
  if (2 ** exponent > abs) exponent--;
  else if (2 ** (exponent + 1) <= abs) exponent++;
  const quantum = exponent < -14 ? 2 ** -24 : 2 ** (exponent - 10);
  const scaled = abs / quantum;
  let rounded = Math.round(scaled);
  if (Math.abs(scaled - Math.trunc(scaled) - 0.5) < 1e-12 && rounded % 2 !== 0) rounded -= 1;
  return sign * rounded * quantum;
}
