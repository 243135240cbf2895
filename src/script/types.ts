/**
 * Painless's static types, as far as the subset declares them: the types a local may be declared with, the
 * compile-time cast rules between them (AnalyzerCaster: widening is implicit, narrowing needs an explicit cast,
 * unrelated types never convert), and the run-time casts a value goes through when it enters a typed local or an
 * explicit cast (painless's Def.defTo*Implicit / defTo*Explicit and the JVM's checkcast), with Java's numeric
 * conversions (int overflow wraps, a double cast to int truncates and saturates, NaN becomes 0).
 */
import type { EsError } from '../common/errors.js';
import { compileMessages, runtimeMessages } from './messages.js';
import type { Fail } from './methods.js';
import { JavaNumber, double, float, int, isMap, long, normalize } from './values.js';

/** A type a local may be declared with (besides `def`). */
export type DeclaredType = 'int' | 'long' | 'float' | 'double' | 'boolean' | 'String' | 'Object' | 'Map' | 'HashMap' | 'List' | 'ArrayList';

/** What the parser knows of an expression's type: a declared type, `def` (known only at run time) or the null literal. */
export type StaticType = DeclaredType | 'def' | 'null';

export const DECLARABLE_TYPES: ReadonlySet<string> = new Set<DeclaredType>(['int', 'long', 'float', 'double', 'boolean', 'String', 'Object', 'Map', 'HashMap', 'List', 'ArrayList']);

type NumericType = 'int' | 'long' | 'float' | 'double';
const NUMERIC_RANK: Readonly<Record<NumericType, number>> = { int: 0, long: 1, float: 2, double: 3 };

export function isNumericType(type: StaticType): type is NumericType {
  return type === 'int' || type === 'long' || type === 'float' || type === 'double';
}

export function isPrimitiveType(type: StaticType): boolean {
  return isNumericType(type) || type === 'boolean';
}

/** Binary numeric promotion of two numeric types. */
export function promoteTypes(left: NumericType, right: NumericType): NumericType {
  return NUMERIC_RANK[left] >= NUMERIC_RANK[right] ? left : right;
}

/** PainlessLookupUtility.typeToCanonicalTypeName, for the messages. */
export function canonicalName(type: StaticType): string {
  switch (type) {
    case 'String': return 'java.lang.String';
    case 'Object': return 'java.lang.Object';
    case 'Map': case 'HashMap': case 'List': case 'ArrayList': return `java.util.${type}`;
    case 'null': return 'null';
    default: return type;
  }
}

/** The reference types a reference type may be assigned to without a cast (itself, its interfaces, Object). */
const SUPERTYPES: Readonly<Partial<Record<StaticType, readonly StaticType[]>>> = {
  String: ['String', 'Object'],
  Map: ['Map', 'Object'],
  HashMap: ['HashMap', 'Map', 'Object'],
  List: ['List', 'Object'],
  ArrayList: ['ArrayList', 'List', 'Object'],
  Object: ['Object'],
};

function implicitlyConvertible(from: StaticType, to: StaticType): boolean {
  if (from === to || to === 'def' || from === 'def') return true;
  if (from === 'null') return !isPrimitiveType(to);
  if (isNumericType(from) && isNumericType(to)) return NUMERIC_RANK[from] <= NUMERIC_RANK[to];
  // Boxing into Object (`Object o = 1`).
  if (isPrimitiveType(from)) return to === 'Object';
  return SUPERTYPES[from]?.includes(to) ?? false;
}

function explicitlyConvertible(from: StaticType, to: StaticType): boolean {
  if (implicitlyConvertible(from, to)) return true;
  if (isNumericType(from) && isNumericType(to)) return true;
  // An Object may hold anything: the cast is checked when it runs, as from def.
  if (from === 'Object') return true;
  // Down-casts between the collection types (Map to HashMap, List to ArrayList).
  return !isPrimitiveType(from) && !isPrimitiveType(to) && (SUPERTYPES[to]?.includes(from) ?? false);
}

/**
 * The compile-time check of a conversion (AnalyzerCaster.getLegalCast): returns the cause of the compile error, or
 * undefined when the conversion is legal (perhaps checked again at run time, from def).
 */
export function castProblem(from: StaticType, to: StaticType, explicit: boolean): EsError | undefined {
  if (explicit ? explicitlyConvertible(from, to) : implicitlyConvertible(from, to)) return undefined;
  if (from === 'null') return compileMessages.nullToPrimitive(canonicalName(to));
  return compileMessages.cannotCast(canonicalName(from), canonicalName(to));
}

/** The unboxed canonical name of a value's class, as Def's cast errors print it. */
function unboxedName(value: unknown): string {
  if (value instanceof JavaNumber) return value.kind;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'java.lang.String';
  return Array.isArray(value) ? 'java.util.ArrayList' : 'java.util.HashMap';
}

/** The boxed class name the JVM prints in a failed checkcast. */
function boxedName(value: unknown): string {
  if (value instanceof JavaNumber) return { int: 'java.lang.Integer', long: 'java.lang.Long', float: 'java.lang.Float', double: 'java.lang.Double' }[value.kind];
  if (typeof value === 'boolean') return 'java.lang.Boolean';
  return unboxedName(value);
}

/** The JVM's ClassCastException of a checkcast between two classes of java.base. */
function checkcastFailure(value: unknown, to: DeclaredType, fail: Fail): never {
  const from = boxedName(value);
  const target = canonicalName(to);
  return fail(runtimeMessages.classCast(`class ${from} cannot be cast to class ${target} (${from} and ${target} are in module java.base of loader 'bootstrap')`));
}

/** Java's narrowing of a double to an int or a long: NaN is 0, out of range saturates, the rest truncates. */
function doubleToWhole(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return 0;
  if (value <= min) return min;
  if (value >= max) return max;
  return Math.trunc(value);
}

/** A number converted to a numeric type with Java's conversions (widening or narrowing). */
function convertNumber(value: JavaNumber, to: NumericType): JavaNumber {
  if (value.kind === to) return value;
  const whole = value.kind === 'int' || value.kind === 'long';
  switch (to) {
    case 'int':
      return whole ? int(Number(BigInt.asIntN(32, BigInt(value.value)))) : int(doubleToWhole(value.value as number, -2147483648, 2147483647));
    case 'long': {
      if (whole) return long(BigInt(value.value));
      const number = value.value as number;
      if (Number.isNaN(number)) return long(0n);
      if (number >= 9223372036854775807) return long(2n ** 63n - 1n);
      if (number <= -9223372036854775808) return long(-(2n ** 63n));
      return long(BigInt(Math.trunc(number)));
    }
    case 'float':
      return float(value.toDouble());
    case 'double':
      return double(value.toDouble());
  }
}

/** A value checked into a reference type (the JVM's checkcast: no conversion, only a check). */
function checkReference(value: unknown, to: DeclaredType, fail: Fail): unknown {
  switch (to) {
    case 'Object': return value;
    case 'String': return typeof value === 'string' ? value : checkcastFailure(value, to, fail);
    case 'Map': case 'HashMap': return isMap(value) ? value : checkcastFailure(value, to, fail);
    case 'List': case 'ArrayList': return Array.isArray(value) ? value : checkcastFailure(value, to, fail);
    default: throw new Error(`${to} is not a reference type`);
  }
}

/**
 * A value entering a typed local or a typed parameter without a cast: a widening conversion (def: only if the value
 * is of a type that widens to the target, as Def.defTo*Implicit), or a reference check.
 */
export function implicitCast(raw: unknown, to: DeclaredType, fail: Fail): unknown {
  const value = normalize(raw);
  if (!isPrimitiveType(to)) return value === null ? null : checkReference(value, to, fail);
  if (value === null) return fail(runtimeMessages.nullPointer(`Cannot cast null to a primitive type [${to}]`));
  if (to === 'boolean') {
    return typeof value === 'boolean' ? value : fail(runtimeMessages.classCast(`cannot cast def [${unboxedName(value)}] to boolean`));
  }
  const target = to as NumericType;
  if (value instanceof JavaNumber && NUMERIC_RANK[value.kind] <= NUMERIC_RANK[target]) return convertNumber(value, target);
  return fail(runtimeMessages.classCast(`cannot implicitly cast def [${unboxedName(value)}] to ${to}`));
}

/** A value through an explicit cast `(type) value`: any number converts to any numeric type (Def.defTo*Explicit). */
export function explicitCast(raw: unknown, to: DeclaredType | 'def', fail: Fail): unknown {
  const value = normalize(raw);
  if (to === 'def') return value;
  if (!isPrimitiveType(to)) return value === null ? null : checkReference(value, to, fail);
  if (value === null) return fail(runtimeMessages.nullPointer(`Cannot cast null to a primitive type [${to}]`));
  if (to === 'boolean') {
    return typeof value === 'boolean' ? value : fail(runtimeMessages.classCast(`cannot cast def [${unboxedName(value)}] to boolean`));
  }
  if (value instanceof JavaNumber) return convertNumber(value, to as NumericType);
  return fail(runtimeMessages.classCast(`cannot explicitly cast def [${unboxedName(value)}] to ${to}`));
}

/** The value a declared local holds before anything is assigned (Java's defaults). */
export function defaultValue(type: DeclaredType | 'def'): unknown {
  switch (type) {
    case 'int': return int(0);
    case 'long': return long(0n);
    case 'float': return float(0);
    case 'double': return double(0);
    case 'boolean': return false;
    default: return null;
  }
}
