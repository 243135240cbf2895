/**
 * Typed cat cells. ES keeps the Java object in each cell (Integer, ByteSizeValue, TimeValue, String...) so
 * that `s=` sorts by value and `bytes=`/`time=`/`size=` choose the printed unit; the text is produced only
 * when the table is rendered. A cell's `kind` plays the part of the Java class: two cells compare by value
 * only when their kinds match, otherwise by their default text, as ES's TableIndexComparator does.
 */
import { javaDoubleString } from '../common/json-float.js';
import { byteSizeString, formatFixed2, sizeValueString, timeValueString } from '../common/es-units.js';

export type CatCell =
  | null
  /** An integral count (Java int/long/short). */
  | { readonly kind: 'long'; readonly value: number }
  /** A Java double, printed as Double.toString does (`0.0`, `1.5`). */
  | { readonly kind: 'double'; readonly value: number }
  /** ES's RestTable.FormattedDouble: sorts by the number, prints `%.2f`. */
  | { readonly kind: 'fixed2'; readonly value: number }
  | { readonly kind: 'bytes'; readonly bytes: number }
  /** A count printed with k/m/g suffixes (ES's SizeValue). */
  | { readonly kind: 'size'; readonly count: number }
  /** A duration of `duration` units of `unitNanos` nanoseconds each (ES's TimeValue keeps its unit too). */
  | { readonly kind: 'time'; readonly duration: number; readonly unitNanos: number }
  | { readonly kind: 'string'; readonly value: string };

export type CatCellKind = Exclude<CatCell, null>['kind'];

export const cell = {
  long: (value: number): CatCell => ({ kind: 'long', value }),
  double: (value: number): CatCell => ({ kind: 'double', value }),
  fixed2: (value: number): CatCell => ({ kind: 'fixed2', value }),
  bytes: (bytes: number): CatCell => ({ kind: 'bytes', bytes }),
  size: (count: number): CatCell => ({ kind: 'size', count }),
  millis: (millis: number): CatCell => ({ kind: 'time', duration: millis, unitNanos: 1e6 }),
  nanos: (nanos: number): CatCell => ({ kind: 'time', duration: nanos, unitNanos: 1 }),
  string: (value: string): CatCell => ({ kind: 'string', value }),
  /** A value that may be missing (a node that did not answer, a figure the OS does not give). */
  maybe: <T>(value: T | null | undefined, make: (present: T) => CatCell): CatCell =>
    value === null || value === undefined ? null : make(value),
} as const;

/** The cell's Java `toString()`, independent of any request parameter. */
export function defaultText(value: Exclude<CatCell, null>): string {
  switch (value.kind) {
    case 'long':
      return String(value.value);
    case 'double':
      return javaDoubleString(value.value);
    case 'fixed2':
      return formatFixed2(value.value);
    case 'bytes':
      return byteSizeString(value.bytes);
    case 'size':
      return sizeValueString(value.count);
    case 'time':
      return timeValueString(value.duration, value.unitNanos);
    case 'string':
      return value.value;
  }
}

/** ES's TableIndexComparator.compareCell: nulls first, same class by value, otherwise by toString(). */
export function compareCells(left: CatCell, right: CatCell): number {
  if (left === null && right === null) return 0;
  if (left === null) return -1;
  if (right === null) return 1;
  if (left.kind === right.kind) {
    const leftValue = sortValue(left);
    const rightValue = sortValue(right);
    if (typeof leftValue === 'string' && typeof rightValue === 'string') return compareStrings(leftValue, rightValue);
    return compareNumbers(leftValue as number, rightValue as number);
  }
  return compareStrings(defaultText(left), defaultText(right));
}

function sortValue(value: Exclude<CatCell, null>): number | string {
  switch (value.kind) {
    case 'long':
    case 'double':
    case 'fixed2':
      return value.value;
    case 'bytes':
      return value.bytes;
    case 'size':
      return value.count;
    case 'time':
      return value.duration * value.unitNanos;
    case 'string':
      return value.value;
  }
}

/** Java's Double.compare: -0.0 before 0.0, NaN after everything. */
function compareNumbers(left: number, right: number): number {
  if (left < right) return -1;
  if (left > right) return 1;
  if (Number.isNaN(left) || Number.isNaN(right)) return Number.isNaN(left) ? (Number.isNaN(right) ? 0 : 1) : -1;
  if (left === 0 && right === 0) return Object.is(left, right) ? 0 : Object.is(left, -0) ? -1 : 1;
  return 0;
}

/** Java's String.compareTo: UTF-16 code units, which is also how JavaScript's `<` compares strings. */
function compareStrings(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
