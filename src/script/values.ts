/**
 * Painless values as Java has them. Numbers carry their Java type (int, long, float, double) because the
 * arithmetic depends on it (int overflow wraps, integer division truncates, `1 + 1.0` is a double). A number
 * is a JavaNumber, which is also a RawJson so a source tree the script wrote into serialises with
 * `stringifyWithRaw` unchanged (ints and longs as digits, doubles as Java's Double.toString prints them).
 * Maps are plain objects read and written through own properties only; lists are arrays.
 */
import { RawJson } from '../common/raw-json.js';
import { javaDoubleString } from '../common/json-float.js';

export type NumberKind = 'int' | 'long' | 'float' | 'double';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** Java's Float.toString: the shortest decimal that reads back as the same float. */
function javaFloatString(value: number): string {
  if (!Number.isFinite(value) || value === 0) return javaDoubleString(value);
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return javaDoubleString(candidate);
  }
  return javaDoubleString(value);
}

function numberText(kind: NumberKind, value: number | bigint): string {
  if (kind === 'int' || kind === 'long') return String(value);
  const float = value as number;
  // Jackson quotes the non-finite doubles (QUOTE_NON_NUMERIC_NUMBERS), so the stored source stays JSON.
  if (!Number.isFinite(float)) return JSON.stringify(javaDoubleString(float));
  return kind === 'float' ? javaFloatString(float) : javaDoubleString(float);
}

export class JavaNumber extends RawJson {
  constructor(
    readonly kind: NumberKind,
    /** A bigint for a long, a number otherwise. */
    readonly value: number | bigint,
  ) {
    super(numberText(kind, value));
  }

  /** The value as a JS number (longs beyond 2^53 lose precision, as a widening to double does in Java). */
  toDouble(): number {
    return typeof this.value === 'bigint' ? Number(this.value) : this.value;
  }

  /** Java's String.valueOf for this number. */
  override toString(): string {
    if (this.kind === 'int' || this.kind === 'long') return String(this.value);
    return this.kind === 'float' ? javaFloatString(this.value as number) : javaDoubleString(this.value as number);
  }
}

export const int = (value: number): JavaNumber => new JavaNumber('int', value | 0);
export const long = (value: bigint): JavaNumber => new JavaNumber('long', BigInt.asIntN(64, value));
export const double = (value: number): JavaNumber => new JavaNumber('double', value);
export const float = (value: number): JavaNumber => new JavaNumber('float', Math.fround(value));

/** Jackson's typing of a JSON number literal, as ES's JSON parser hands it to a script. */
export function numberFromJsonText(text: string): JavaNumber {
  if (/[.eE]/.test(text)) return double(Number(text));
  const big = BigInt(text);
  if (big >= BigInt(INT_MIN) && big <= BigInt(INT_MAX)) return int(Number(big));
  if (big >= LONG_MIN && big <= LONG_MAX) return long(big);
  // Jackson would give a BigInteger, which painless can only treat as an Object; a double is the closest number.
  return double(Number(text));
}

/** A JS number from a caller (ctx metadata, JSON.parse'd params): whole numbers are int or long, others double. */
export function numberFromJs(value: number): JavaNumber {
  if (Number.isInteger(value)) {
    if (value >= INT_MIN && value <= INT_MAX) return int(value);
    if (Number.isSafeInteger(value)) return long(BigInt(value));
  }
  return double(value);
}

/** A value as the interpreter sees it: JSON-ish containers, and every number as a JavaNumber. */
export type Value = null | boolean | string | JavaNumber | Value[] | { [key: string]: unknown } | unknown[];

export function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawJson);
}

/** Normalises what a container holds (RawJson from a parsed source, JS numbers, bigints, undefined) into a Value. */
export function normalize(raw: unknown): unknown {
  if (raw === undefined || raw === null) return null;
  if (raw instanceof JavaNumber) return raw;
  if (raw instanceof RawJson) return numberFromJsonText(raw.text);
  if (typeof raw === 'number') return numberFromJs(raw);
  if (typeof raw === 'bigint') return long(raw);
  return raw;
}

/** The Java class painless would name in an error message. */
export function javaClassName(value: unknown): string {
  const normalized = normalize(value);
  if (normalized === null) return 'null';
  if (normalized instanceof JavaNumber) {
    return { int: 'java.lang.Integer', long: 'java.lang.Long', float: 'java.lang.Float', double: 'java.lang.Double' }[normalized.kind];
  }
  if (typeof normalized === 'string') return 'java.lang.String';
  if (typeof normalized === 'boolean') return 'java.lang.Boolean';
  if (Array.isArray(normalized)) return 'java.util.ArrayList';
  return 'java.util.HashMap';
}

/** Thrown when a value's string form would pass MAX_STRING_LENGTH (a shared list printed 2^30 times, say). */
export class StringTooLong extends Error {}

/** Longest string a script may build (a guard against `s += s` doubling a string until the heap is gone). */
export const MAX_STRING_LENGTH = 16 * 1024 * 1024;

/**
 * Java's String.valueOf / toString for a value (used by string concatenation): `[a, b]`, `{k=v}`, `(this Map)` /
 * `(this Collection)` for a container inside itself. Throws StringTooLong past MAX_STRING_LENGTH characters.
 */
export function javaToString(value: unknown): string {
  const parts: string[] = [];
  let length = 0;
  const path = new Set<object>();
  const emit = (text: string): void => {
    length += text.length;
    if (length > MAX_STRING_LENGTH) throw new StringTooLong();
    parts.push(text);
  };
  const visit = (raw: unknown): void => {
    const normalized = normalize(raw);
    if (normalized === null) return emit('null');
    if (typeof normalized === 'string') return emit(normalized);
    if (typeof normalized === 'boolean') return emit(String(normalized));
    if (normalized instanceof JavaNumber) return emit(normalized.toString());
    const container = normalized as object;
    if (path.has(container)) return emit(Array.isArray(container) ? '(this Collection)' : '(this Map)');
    path.add(container);
    let first = true;
    if (Array.isArray(container)) {
      emit('[');
      for (const item of container) {
        if (!first) emit(', ');
        first = false;
        visit(item);
      }
      emit(']');
    } else {
      emit('{');
      for (const [key, item] of Object.entries(container as Record<string, unknown>)) {
        if (!first) emit(', ');
        first = false;
        emit(`${key}=`);
        visit(item);
      }
      emit('}');
    }
    path.delete(container);
  };
  visit(value);
  return parts.join('');
}

/** Own-property read of a map entry (never the prototype chain: `constructor` is just a missing key). */
export function mapGet(map: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(map, key) ? normalize(map[key]) : null;
}

/** Own-property write (`__proto__` becomes an ordinary key, never the object's prototype). */
export function mapPut(map: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Painless `==` on def: numbers compare by promoted value (`1 == 1L`, `1 == 1.0`), anything else with equals(). */
export function painlessEquals(left: unknown, right: unknown): boolean {
  const a = normalize(left);
  const b = normalize(right);
  if (a instanceof JavaNumber && b instanceof JavaNumber) {
    if (a.kind === 'double' || a.kind === 'float' || b.kind === 'double' || b.kind === 'float') return a.toDouble() === b.toDouble();
    return BigInt(a.value) === BigInt(b.value);
  }
  return javaObjectEquals(a, b);
}

/** Thrown when comparing two values would visit more than MAX_COMPARED_VALUES values (deeply shared structures). */
export class ComparisonTooLarge extends Error {}

export const MAX_COMPARED_VALUES = 1_000_000;

/** Java's Objects.equals (what List.contains, indexOf and Map.containsKey use): an Integer never equals a Long. */
export function javaObjectEquals(left: unknown, right: unknown): boolean {
  let budget = MAX_COMPARED_VALUES;
  const equals = (x: unknown, y: unknown, depth: number): boolean => {
    if (--budget < 0) throw new ComparisonTooLarge();
    const a = normalize(x);
    const b = normalize(y);
    // Double.equals: NaN equals NaN, 0.0 does not equal -0.0.
    if (a instanceof JavaNumber && b instanceof JavaNumber) return a.kind === b.kind && Object.is(a.value, b.value);
    if (a === b) return true;
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
    // A container inside itself: Java would overflow its stack; this subset answers "not equal".
    if (depth > 1000) return false;
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => equals(item, b[i], depth + 1));
    if (isMap(a) && isMap(b)) {
      const keys = Object.keys(a);
      return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && equals(a[key], b[key], depth + 1));
    }
    return false;
  };
  return equals(left, right, 0);
}
