/**
 * How Elasticsearch prints sizes, counts and durations, digit for digit: ByteSizeValue and SizeValue
 * (`Strings.format1Decimals`, which truncates to one decimal: 47.38gb prints `47.3gb`), TimeValue
 * (`toHumanReadableString(1)`, also truncating, and `0s` for zero) and `String.format("%.2f")` (half-up on
 * the shortest decimal form). Every human-readable figure Gannet prints goes through here.
 */
import { ownValue } from './own-keys.js';
import { javaDoubleString } from './json-float.js';

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;
const TB = GB * 1024;
const PB = TB * 1024;

/** ES's `Strings.format1Decimals`: the first fraction digit of Java's Double.toString, `.0` dropped. */
export function format1Decimals(value: number, suffix: string): string {
  const text = javaDoubleString(value);
  const fractionStart = text.indexOf('.') + 1;
  const exponentAt = text.indexOf('E');
  const fraction = text.charAt(fractionStart);
  const exponent = exponentAt === -1 ? '' : text.slice(exponentAt);
  if (fraction === '0') return text.slice(0, fractionStart - 1) + exponent + suffix;
  return text.slice(0, fractionStart) + fraction + exponent + suffix;
}

/** ByteSizeValue.toString(). */
export function byteSizeString(bytes: number): string {
  if (bytes >= PB) return format1Decimals(bytes / PB, 'pb');
  if (bytes >= TB) return format1Decimals(bytes / TB, 'tb');
  if (bytes >= GB) return format1Decimals(bytes / GB, 'gb');
  if (bytes >= MB) return format1Decimals(bytes / MB, 'mb');
  if (bytes >= KB) return format1Decimals(bytes / KB, 'kb');
  return format1Decimals(bytes, 'b');
}

/** SizeValue.toString(): plain counts with k/m/g/t/p (powers of 1000). */
export function sizeValueString(count: number): string {
  if (count >= 1e15) return format1Decimals(count / 1e15, 'p');
  if (count >= 1e12) return format1Decimals(count / 1e12, 't');
  if (count >= 1e9) return format1Decimals(count / 1e9, 'g');
  if (count >= 1e6) return format1Decimals(count / 1e6, 'm');
  if (count >= 1e3) return format1Decimals(count / 1e3, 'k');
  return format1Decimals(count, '');
}

const NANOS_PER: Readonly<Record<string, number>> = {
  nanos: 1,
  micros: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86400e9,
};

/** TimeValue.toString() for a duration given in some unit; negative durations print as the raw number. */
export function timeValueString(duration: number, unitNanos: number): string {
  if (duration < 0) return String(duration);
  const nanos = duration * unitNanos;
  if (nanos === 0) return '0s';
  if (nanos >= NANOS_PER.d!) return formatDecimal(nanos / NANOS_PER.d!) + 'd';
  if (nanos >= NANOS_PER.h!) return formatDecimal(nanos / NANOS_PER.h!) + 'h';
  if (nanos >= NANOS_PER.m!) return formatDecimal(nanos / NANOS_PER.m!) + 'm';
  if (nanos >= NANOS_PER.s!) return formatDecimal(nanos / NANOS_PER.s!) + 's';
  if (nanos >= NANOS_PER.ms!) return formatDecimal(nanos / NANOS_PER.ms!) + 'ms';
  if (nanos >= NANOS_PER.micros!) return formatDecimal(nanos / NANOS_PER.micros!) + 'micros';
  return formatDecimal(nanos) + 'nanos';
}

/** TimeValue.formatDecimal with one fraction piece: truncated, trailing zeros and a zero fraction dropped. */
function formatDecimal(value: number): string {
  const text = javaDoubleString(value);
  const fractionStart = text.indexOf('.') + 1;
  const exponentAt = text.indexOf('E');
  const fractionEnd = exponentAt === -1 ? Math.min(fractionStart + 1, text.length) : exponentAt;
  const fractionDigits = text.slice(fractionStart, fractionEnd);
  const exponent = exponentAt === -1 ? '' : text.slice(exponentAt);
  if (!/[1-9]/.test(fractionDigits)) return text.slice(0, fractionStart - 1) + exponent;
  // One piece: the first fraction digit, which is not '0' here unless later digits were not.
  const first = fractionDigits.charAt(0);
  const shown = first === '0' ? '' : first;
  return text.slice(0, fractionStart) + shown + exponent;
}

/** Whole units of a byte count for `bytes=`, truncated toward zero as ByteSizeValue.getKb() and friends do. */
export function bytesInExactUnit(bytes: number, unit: string): string | undefined {
  const size = ownValue(BYTE_UNITS, unit);
  return size === undefined ? undefined : integerString(bytes / size);
}

const BYTE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: KB,
  kb: KB,
  m: MB,
  mb: MB,
  g: GB,
  gb: GB,
  t: TB,
  tb: TB,
  p: PB,
  pb: PB,
};

/** Whole units of a duration for `time=`, truncated toward zero as TimeUnit conversions do. */
export function timeInExactUnit(duration: number, unitNanos: number, unit: string): string | undefined {
  const size = ownValue(NANOS_PER, unit);
  return size === undefined ? undefined : integerString((duration * unitNanos) / size);
}

const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15 };

/** Whole units of a count for `size=` (`size=` empty means plain singles). */
export function sizeInExactUnit(count: number, unit: string): string | undefined {
  const size = ownValue(SIZE_UNITS, unit);
  return size === undefined ? undefined : integerString(count / size);
}

function integerString(value: number): string {
  const truncated = Math.trunc(value);
  // Java's long division never yields negative zero.
  return truncated === 0 ? '0' : String(truncated);
}

/**
 * Java's `String.format(Locale.ROOT, "%.2f", value)`: rounds half-up on the shortest decimal digits of the
 * double (so 1.005 prints `1.01`, where JavaScript's toFixed prints `1.00`).
 */
export function formatFixed2(value: number): string {
  // The usual value (a load average, a percentage) without BigInt or an exponent form: `_cat/nodes` prints three
  // per node and request, and the general form below was ~5% of the coordinating node's CPU per request.
  const negative = value < 0 || Object.is(value, -0);
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-6 && magnitude < 1e13) {
    // The shortest decimal form (the digits toExponential gives), positional in this range.
    const text = String(magnitude);
    const dot = text.indexOf('.');
    const sign = negative ? '-' : '';
    if (dot < 0) return `${sign}${text}.00`;
    const fraction = text.length - dot - 1;
    if (fraction <= 2) return `${sign}${text}${fraction === 1 ? '0' : ''}`;
    const kept = text.slice(dot + 1, dot + 3);
    if (text.charCodeAt(dot + 3) < 0x35) return `${sign}${text.slice(0, dot)}.${kept}`;
    // Rounding up may carry into the integer part: exact in a double below 2^53.
    const scaled = String(Number(text.slice(0, dot)) * 100 + Number(kept) + 1).padStart(3, '0');
    return `${sign}${scaled.slice(0, -2)}.${scaled.slice(-2)}`;
  }
  return formatFixed2Exponent(value);
}

/** formatFixed2 for any double, through its exponent form and BigInt digits. */
export function formatFixed2Exponent(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  const negative = value < 0 || Object.is(value, -0);
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e');
  const digits = mantissa!.replace('.', '');
  const integerLength = Number(exponentText) + 1;
  let integerPart: string;
  let fractionPart: string;
  if (integerLength <= 0) {
    integerPart = '0';
    fractionPart = '0'.repeat(-integerLength) + digits;
  } else if (integerLength >= digits.length) {
    integerPart = digits + '0'.repeat(integerLength - digits.length);
    fractionPart = '';
  } else {
    integerPart = digits.slice(0, integerLength);
    fractionPart = digits.slice(integerLength);
  }
  const kept = (fractionPart + '00').slice(0, 2);
  const roundUp = (fractionPart.charAt(2) || '0') >= '5';
  const scaled = BigInt(integerPart + kept) + (roundUp ? 1n : 0n);
  const scaledText = scaled.toString().padStart(3, '0');
  const result = `${scaledText.slice(0, -2)}.${scaledText.slice(-2)}`;
  return negative ? `-${result}` : result;
}
