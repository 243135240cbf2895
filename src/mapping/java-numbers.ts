/**
 * Java's number parsing as Elasticsearch's field mappers use it (Long.parseLong, Double.parseDouble,
 * Float.parseFloat, new BigDecimal), so the same strings are accepted and rejected with the same messages.
 * Failures throw JavaNumberError carrying the Java exception type ES would report as `caused_by`.
 */
import { javaDoubleString } from '../common/json-float.js';

export type JavaExceptionType = 'number_format_exception' | 'illegal_argument_exception';

export class JavaNumberError extends Error {
  constructor(
    readonly type: JavaExceptionType,
    message: string,
  ) {
    super(message);
    this.name = 'JavaNumberError';
  }
}

export const LONG_MIN = -(2n ** 63n);
export const LONG_MAX = 2n ** 63n - 1n;

const LONG_PATTERN = /^[+-]?[0-9]+$/;

/** Long.parseLong: an optional sign and decimal digits, nothing else; undefined when it would throw. */
export function tryParseJavaLong(text: string): bigint | undefined {
  if (!LONG_PATTERN.test(text)) return undefined;
  const value = BigInt(text);
  return value < LONG_MIN || value > LONG_MAX ? undefined : value;
}

// FloatingDecimal.readJavaFormatString: decimal or hexadecimal floating literals, an optional type suffix.
const DECIMAL_FLOAT = /^[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)$/;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?[0-9]+)[fFdD]?$/;

/** Java's String.trim: strips every char <= U+0020 at both ends. */
function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

/** Double.parseDouble; throws NumberFormatException's message as ES shows it. */
export function parseJavaDouble(text: string): number {
  const value = tryParseJavaDouble(text);
  if (value === undefined) {
    const trimmed = javaTrim(text);
    throw new JavaNumberError('number_format_exception', trimmed.length === 0 ? 'empty String' : `For input string: "${trimmed}"`);
  }
  return value;
}

export function tryParseJavaDouble(text: string): number | undefined {
  const trimmed = javaTrim(text);
  if (trimmed.length === 0) return undefined;
  if (DECIMAL_FLOAT.test(trimmed)) {
    const body = trimmed.replace(/[fFdD]$/, '');
    if (body.endsWith('NaN')) return NaN;
    if (body.endsWith('Infinity')) return body.startsWith('-') ? -Infinity : Infinity;
    return Number(body);
  }
  const hex = HEX_FLOAT.exec(trimmed);
  if (hex && (hex[2]!.length > 0 || hex[3]!.length > 0)) {
    const mantissa = parseInt((hex[2] || '0') + (hex[3] || ''), 16) / 16 ** hex[3]!.length;
    const value = mantissa * 2 ** Number(hex[4]);
    return hex[1] === '-' ? -value : value;
  }
  return undefined;
}

/** Float.parseFloat: Java's grammar, rounded to single precision. */
export function parseJavaFloat(text: string): number {
  return Math.fround(parseJavaDouble(text));
}

/** A decimal number exactly as java.math.BigDecimal holds it: unscaled digits and a power of ten. */
interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

const BIG_DECIMAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

function parseBigDecimal(text: string): Decimal | undefined {
  const m = BIG_DECIMAL.exec(text);
  if (!m) return undefined;
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? '';
  if (intPart.length + fracPart.length === 0) return undefined;
  const exponent = (m[4] === undefined ? 0 : Number(m[4])) - fracPart.length;
  if (!Number.isFinite(exponent)) return undefined;
  return { negative: m[1] === '-', digits: (intPart + fracPart).replace(/^0+(?=.)/, ''), exponent };
}

/**
 * Elasticsearch's AbstractXContentParser.toLong: Long.parseLong first, then BigDecimal with truncation when
 * coercing; out of range and fractional values fail with ES's messages.
 */
export function javaStringToLong(text: string, coerce: boolean): bigint {
  const direct = tryParseJavaLong(text);
  if (direct !== undefined) return direct;
  const decimal = parseBigDecimal(text);
  if (decimal === undefined) throw new JavaNumberError('illegal_argument_exception', `For input string: "${text}"`);
  const outOfRange = new JavaNumberError('illegal_argument_exception', `Value [${text}] is out of range for a long`);
  const significant = decimal.digits.replace(/^0+/, '');
  // Magnitude >= 10^20 is beyond any long whatever the digits; saves building huge numbers for "1e99999999".
  if (significant.length > 0 && significant.length + decimal.exponent > 20) throw outOfRange;
  let integer: bigint;
  if (decimal.exponent >= 0) {
    integer = BigInt(decimal.digits) * 10n ** BigInt(decimal.exponent);
  } else {
    const cut = decimal.digits.length + decimal.exponent;
    const intDigits = cut > 0 ? decimal.digits.slice(0, cut) : '0';
    const fraction = cut > 0 ? decimal.digits.slice(cut) : decimal.digits;
    if (!coerce && /[1-9]/.test(fraction)) {
      throw new JavaNumberError('illegal_argument_exception', `Value [${text}] has a decimal part`);
    }
    integer = BigInt(intDigits);
  }
  if (decimal.negative) integer = -integer;
  if (integer > LONG_MAX || integer < LONG_MIN) throw outOfRange;
  return integer;
}

/** Java's Float.toString (shortest repr that round-trips through float), formatted like Double.toString. */
export function javaFloatString(value: number): string {
  if (!Number.isFinite(value) || value === 0) return javaDoubleString(value);
  for (let precision = 1; precision <= 9; precision++) {
    const candidate = Number(value.toPrecision(precision));
    if (Math.fround(candidate) === value) return javaDoubleString(candidate);
  }
  return javaDoubleString(value);
}

/** How Jackson would render a JSON number literal when read back as a Java object (Integer/Long/BigInteger/Double). */
export function javaNumberLiteralString(literal: string, isInteger: boolean): string {
  if (isInteger) return BigInt(literal).toString();
  return javaDoubleString(Number(literal));
}
