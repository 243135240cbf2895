/**
 * One value per document from a field's doc values, for sorting and for fetching sort values: numeric
 * fields reduce multiple values with ES's MultiValueMode (min, max, sum, avg and median, with ES's integer
 * rounding for longs), keyword fields give an ord (min or max of the document's set) into the segment's
 * sorted terms.
 */
import { errors } from '../../common/errors.js';
import type { SegmentReaders } from '../../engine/codec/index.js';
import type { NumericSortMode } from '../collect/sort.js';

export interface NumericValues {
  readonly kind: 'long' | 'double';
  /** The doc's reduced value, or undefined when it has none. */
  value(doc: number): number | undefined;
}

export interface OrdValues {
  /** The doc's ord, or -1 when it has no value. */
  ord(doc: number): number;
  lookupOrd(ord: number): Buffer;
  /** The ord of `term`, or -(insertion point) - 1 when absent. */
  lookupTerm(term: Uint8Array): number;
}

/** Java's Math.round for doubles: floor(x + 0.5). */
function javaRound(value: number): number {
  return Math.floor(value + 0.5);
}

/** Reduces the sorted values [start, end) of `valueAt` to one, as ES's MultiValueMode does. */
function reduce(mode: NumericSortMode, isLong: boolean, start: number, end: number, valueAt: (index: number) => number): number {
  const count = end - start;
  switch (mode) {
    case 'min':
      return valueAt(start);
    case 'max':
      return valueAt(end - 1);
    case 'sum': {
      let total = 0;
      for (let i = start; i < end; i++) total += valueAt(i);
      return total;
    }
    case 'avg': {
      let total = 0;
      for (let i = start; i < end; i++) total += valueAt(i);
      if (count === 1) return total;
      return isLong ? javaRound(total / count) : total / count;
    }
    case 'median': {
      if (count % 2 === 1) return valueAt(start + (count - 1) / 2);
      const a = valueAt(start + count / 2 - 1);
      const b = valueAt(start + count / 2);
      // Longs: (total >> 1) + (total & 1), i.e. the half rounded up.
      return isLong ? Math.ceil((a + b) / 2) : (a + b) / 2;
    }
  }
}

/**
 * A numeric field's values reduced to one per doc, as doubles. `nanosToMillis` reads date_nanos doc values as
 * milliseconds (a date_nanos field sorted with numeric_type `date`).
 */
export function numericValues(readers: SegmentReaders, field: string, mode: NumericSortMode, nanosToMillis = false): NumericValues | null {
  const single = readers.docValues.numeric(field);
  if (single !== undefined) {
    return { kind: single.kind, value: (doc) => (single.has(doc) ? single.get(doc) : undefined) };
  }
  const multi = readers.docValues.sortedNumeric(field);
  if (multi === undefined) return null;
  const isLong = multi.kind === 'long';
  const valueAt = nanosToMillis && isLong ? (index: number): number => Number(multi.bigIntAt(index) / 1_000_000n) : (index: number): number => multi.valueAt(index);
  return {
    kind: multi.kind,
    value(doc) {
      const start = multi.docStart(doc);
      const end = multi.docEnd(doc);
      return start === end ? undefined : reduce(mode, isLong, start, end, valueAt);
    },
  };
}

export interface ExactLongValues {
  /** The doc's reduced value, exactly, or undefined when it has none. */
  value(doc: number): bigint | undefined;
}

/** MultiValueMode over exact longs (ES's long arithmetic, its double division for avg). */
function reduceExact(mode: NumericSortMode, start: number, end: number, valueAt: (index: number) => bigint): bigint {
  const count = end - start;
  switch (mode) {
    case 'min':
      return valueAt(start);
    case 'max':
      return valueAt(end - 1);
    case 'sum':
    case 'avg': {
      let total = 0n;
      for (let i = start; i < end; i++) total += valueAt(i);
      total = BigInt.asIntN(64, total);
      return mode === 'sum' || count === 1 ? total : BigInt(javaRound(Number(total) / count));
    }
    case 'median': {
      if (count % 2 === 1) return valueAt(start + (count - 1) / 2);
      const sum = valueAt(start + count / 2 - 1) + valueAt(start + count / 2);
      return (sum >> 1n) + (sum & 1n);
    }
  }
}

/** The last millisecond date_nanos can hold (2262-04-11T23:47:16.854Z), DateUtils.MAX_NANOSECOND_IN_MILLIS. */
const MAX_NANOSECOND_IN_MILLIS = 9_223_372_036_854n;

/**
 * DateUtils.toNanoSeconds, as ES's numeric_type `date_nanos` applies it to each value of a date field: a date
 * before 1970 or after 2262 cannot be read at nanosecond resolution, and the search fails on it.
 */
function millisToNanoseconds(millis: bigint): bigint {
  if (millis < 0n) throw errors.illegalArgument(`milliSeconds [${millis}] are before the epoch in 1970 and cannot be processed in nanosecond resolution`);
  if (millis > MAX_NANOSECOND_IN_MILLIS) {
    throw errors.illegalArgument(`milliSeconds [${millis}] are after 2262-04-11T23:47:16.854775807 and cannot be processed in nanosecond resolution`);
  }
  return millis * 1_000_000n;
}

/**
 * A long field's values reduced to one per doc, exactly (date_nanos: nanoseconds beyond 2^53). `millisToNanos`
 * reads a date field's milliseconds at nanosecond resolution (numeric_type `date_nanos`).
 */
export function exactLongValues(readers: SegmentReaders, field: string, mode: NumericSortMode, millisToNanos = false): ExactLongValues | null {
  const convert = millisToNanos ? millisToNanoseconds : (value: bigint): bigint => value;
  const single = readers.docValues.numeric(field);
  if (single !== undefined) {
    if (single.kind !== 'long') return { value: (doc) => (single.has(doc) ? BigInt(Math.trunc(single.get(doc))) : undefined) };
    return { value: (doc) => (single.has(doc) ? convert(single.getBigInt(doc)) : undefined) };
  }
  const multi = readers.docValues.sortedNumeric(field);
  if (multi === undefined) return null;
  const valueAt = multi.kind === 'long' ? (index: number): bigint => convert(multi.bigIntAt(index)) : (index: number): bigint => BigInt(Math.trunc(multi.valueAt(index)));
  return {
    value(doc) {
      const start = multi.docStart(doc);
      const end = multi.docEnd(doc);
      return start === end ? undefined : reduceExact(mode, start, end, valueAt);
    },
  };
}

export function ordValues(readers: SegmentReaders, field: string, mode: 'min' | 'max'): OrdValues | null {
  const single = readers.docValues.sorted(field);
  if (single !== undefined) {
    return { ord: (doc) => single.ord(doc), lookupOrd: (ord) => single.lookupOrd(ord), lookupTerm: (term) => single.lookupTerm(term) };
  }
  const set = readers.docValues.sortedSet(field);
  if (set === undefined) return null;
  return {
    ord(doc) {
      const start = set.docStart(doc);
      const end = set.docEnd(doc);
      if (start === end) return -1;
      // A doc's ords are stored sorted: the first is the smallest term.
      return set.ordAt(mode === 'min' ? start : end - 1);
    },
    lookupOrd: (ord) => set.lookupOrd(ord),
    lookupTerm: (term) => set.lookupTerm(term),
  };
}
