/**
 * Painless's operators on `def` values (its DefMath): binary numeric promotion (double > float > long > int),
 * Java's int and long overflow, integer division and remainder with ArithmeticException on zero, string
 * concatenation when either side is a String, and ClassCastException for anything else.
 */
import type { BinaryOp } from './ast.js';
import { runtimeMessages } from './messages.js';
import type { Fail } from './methods.js';
import { JavaNumber, MAX_STRING_LENGTH, double, float, int, javaClassName, javaToString, long, painlessEquals, type NumberKind } from './values.js';

function promote(left: NumberKind, right: NumberKind): NumberKind {
  if (left === 'double' || right === 'double') return 'double';
  if (left === 'float' || right === 'float') return 'float';
  if (left === 'long' || right === 'long') return 'long';
  return 'int';
}

function numeric(op: '+' | '-' | '*' | '/' | '%', a: JavaNumber, b: JavaNumber, fail: Fail): JavaNumber {
  const kind = promote(a.kind, b.kind);
  if (kind === 'long') {
    const x = BigInt(a.value);
    const y = BigInt(b.value);
    switch (op) {
      case '+': return long(x + y);
      case '-': return long(x - y);
      case '*': return long(x * y);
      case '/': return y === 0n ? fail(runtimeMessages.divideByZero()) : long(x / y);
      case '%': return y === 0n ? fail(runtimeMessages.divideByZero()) : long(x % y);
    }
  }
  const x = a.toDouble();
  const y = b.toDouble();
  if (kind === 'int') {
    switch (op) {
      case '+': return int(x + y);
      case '-': return int(x - y);
      case '*': return int(Math.imul(x, y));
      // Math.trunc then |0: MIN_VALUE / -1 wraps to MIN_VALUE as in Java.
      case '/': return y === 0 ? fail(runtimeMessages.divideByZero()) : int(Math.trunc(x / y));
      case '%': return y === 0 ? fail(runtimeMessages.divideByZero()) : int(x % y);
    }
  }
  const make = kind === 'float' ? float : double;
  switch (op) {
    case '+': return make(x + y);
    case '-': return make(x - y);
    case '*': return make(x * y);
    case '/': return make(x / y);
    case '%': return make(x % y);
  }
}

export function binary(op: BinaryOp, left: unknown, right: unknown, fail: Fail): unknown {
  if (op === '==') return painlessEquals(left, right);
  if (op === '!=') return !painlessEquals(left, right);
  if (op === '+' && (typeof left === 'string' || typeof right === 'string')) {
    const joined = javaToString(left) + javaToString(right);
    if (joined.length > MAX_STRING_LENGTH) fail(runtimeMessages.stringTooLong(MAX_STRING_LENGTH));
    return joined;
  }
  if (left instanceof JavaNumber && right instanceof JavaNumber) {
    switch (op) {
      case '<': return compare(left, right) < 0;
      case '<=': return compare(left, right) <= 0;
      case '>': return compare(left, right) > 0;
      case '>=': return compare(left, right) >= 0;
      default: return numeric(op, left, right, fail);
    }
  }
  if (left === null || right === null) {
    return fail(runtimeMessages.nullPointer(`Cannot apply [${op}] to a null value`));
  }
  return fail(runtimeMessages.cannotApply(op, javaClassName(left), javaClassName(right)));
}

/** Java's numeric comparison after promotion (NaN compares false every way, as `<` does in Java). */
function compare(a: JavaNumber, b: JavaNumber): number {
  if (promote(a.kind, b.kind) === 'long' || (a.kind !== 'double' && a.kind !== 'float' && b.kind !== 'double' && b.kind !== 'float')) {
    const x = BigInt(a.value);
    const y = BigInt(b.value);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = a.toDouble();
  const y = b.toDouble();
  return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
}

export function negate(value: unknown, fail: Fail): JavaNumber {
  if (!(value instanceof JavaNumber)) {
    return value === null ? fail(runtimeMessages.nullPointer('Cannot apply [-] to a null value')) : fail(runtimeMessages.cannotApplyUnary('-', javaClassName(value)));
  }
  switch (value.kind) {
    case 'int': return int(-(value.value as number));
    case 'long': return long(-(value.value as bigint));
    case 'float': return float(-(value.value as number));
    case 'double': return double(-(value.value as number));
  }
}

export const ONE = int(1);
