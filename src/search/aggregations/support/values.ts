/**
 * A field's values in one segment, as aggregations read them (ES's ValuesSource per leaf): numbers ascending
 * per document (longs, doubles, dates as millis, booleans as 0/1, scaled floats unscaled), or keyword
 * ordinals ascending per document (raw byte terms too: ip, binary, keyed by their hex). date_nanos values read
 * as the millisecond they fall in, as ES's aggregations see them. A document without values gets the aggregation's `missing` value, and
 * an unmapped field with `missing` behaves as if every document had that value, as in ES.
 */
import type { LiveDocs, SegmentReaders, SortedDocValues, SortedNumericDocValues, SortedSetDocValues, NumericDocValues } from '../../../engine/codec/index.js';

export interface AggregationSegment {
  readonly readers: SegmentReaders;
  /** Searcher-wide id of the segment's doc 0. */
  readonly docBase: number;
  readonly maxDoc: number;
  /** Null when every document is live. Collected docs are always live; this serves min_doc_count: 0. */
  readonly liveDocs: LiveDocs | null;
}

/** Numbers of one document: read(doc) loads them and returns how many, at(i) returns them ascending. */
export interface DocNumbers {
  read(doc: number): number;
  at(index: number): number;
}

const NO_NUMBERS: DocNumbers = { read: () => 0, at: () => NaN };

class SortedNumberValues implements DocNumbers {
  private start = 0;
  constructor(
    private readonly values: SortedNumericDocValues,
    private readonly divisor: number,
    private readonly missing: number | null,
  ) {}
  read(doc: number): number {
    this.start = this.values.docStart(doc);
    const count = this.values.docEnd(doc) - this.start;
    if (count === 0 && this.missing !== null) {
      this.start = -1;
      return 1;
    }
    return count;
  }
  at(index: number): number {
    if (this.start < 0) return this.missing!;
    const value = this.values.valueAt(this.start + index);
    return this.divisor === 1 ? value : value / this.divisor;
  }
}

/**
 * date_nanos doc values (exact 64-bit nanoseconds) read as milliseconds (DateUtils.toMilliSeconds). When the
 * segment's values spread less than 2^53 nanoseconds (104 days), each value is the segment's minimum plus a
 * delta that a double holds exactly, so the millisecond comes from number arithmetic; otherwise from a BigInt.
 */
class NanosAsMillisValues implements DocNumbers {
  private start = 0;
  /** The segment's minimum as whole milliseconds and the nanoseconds past them; gcd as a number. */
  private readonly fast: { minMillis: number; minRemainder: number; gcd: number } | null;

  constructor(
    private readonly values: SortedNumericDocValues,
    private readonly missing: number | null,
  ) {
    const bounds = values.longBounds();
    const { min, gcd } = values.deltaScale();
    this.fast =
      bounds !== undefined && values.deltasExact && bounds.max - min <= BigInt(Number.MAX_SAFE_INTEGER - 1_000_000) && min >= 0n
        ? { minMillis: Number(min / 1_000_000n), minRemainder: Number(min % 1_000_000n), gcd: Number(gcd) }
        : null;
  }

  read(doc: number): number {
    this.start = this.values.docStart(doc);
    const count = this.values.docEnd(doc) - this.start;
    if (count === 0 && this.missing !== null) {
      this.start = -1;
      return 1;
    }
    return count;
  }

  at(index: number): number {
    if (this.start < 0) return this.missing!;
    const fast = this.fast;
    if (fast === null) return Number(this.values.bigIntAt(this.start + index) / 1_000_000n);
    // Nanoseconds past the segment's minimum millisecond: below 2^53, so exact.
    const past = this.values.deltaAt(this.start + index) * fast.gcd + fast.minRemainder;
    let millis = Math.floor(past / 1_000_000);
    if (millis * 1_000_000 > past) millis--;
    else if ((millis + 1) * 1_000_000 <= past) millis++;
    return fast.minMillis + millis;
  }
}

class SingleNumberValues implements DocNumbers {
  private current = 0;
  constructor(
    private readonly values: NumericDocValues,
    private readonly divisor: number,
    private readonly missing: number | null,
  ) {}
  read(doc: number): number {
    if (this.values.has(doc)) {
      const value = this.values.get(doc);
      this.current = this.divisor === 1 ? value : value / this.divisor;
      return 1;
    }
    if (this.missing === null) return 0;
    this.current = this.missing;
    return 1;
  }
  at(): number {
    return this.current;
  }
}

class ConstantNumbers implements DocNumbers {
  constructor(private readonly value: number) {}
  read(): number {
    return 1;
  }
  at(): number {
    return this.value;
  }
}

/**
 * Numbers of `field` in a segment; `divisor` unscales scaled floats; `missing` fills documents without values;
 * `nanosToMillis` reads a date_nanos field's nanoseconds as milliseconds.
 */
export function numericValues(segment: AggregationSegment | null, field: string | null, divisor: number, missing: number | null, nanosToMillis = false): DocNumbers {
  if (segment === null || field === null) return missing === null ? NO_NUMBERS : new ConstantNumbers(missing);
  const docValues = segment.readers.docValues;
  const sortedNumeric = docValues.sortedNumeric(field);
  if (sortedNumeric !== undefined && nanosToMillis && sortedNumeric.kind === 'long') return new NanosAsMillisValues(sortedNumeric, missing);
  if (sortedNumeric !== undefined) return new SortedNumberValues(sortedNumeric, divisor, missing);
  const numeric = docValues.numeric(field);
  if (numeric !== undefined) return new SingleNumberValues(numeric, divisor, missing);
  return missing === null ? NO_NUMBERS : new ConstantNumbers(missing);
}

/** The ordinal standing for the `missing` term (not in any segment dictionary). */
export const MISSING_ORD = -2;

/** Keyword ordinals of one document, ascending; MISSING_ORD stands for the `missing` value. */
export interface DocOrds {
  read(doc: number): number;
  at(index: number): number;
  lookup(ord: number): string;
  lookupBytes(ord: number): Uint8Array;
  /** Number of distinct terms in the segment's dictionary. */
  readonly valueCount: number;
}

class SortedSetOrds implements DocOrds {
  private start = 0;
  constructor(
    private readonly values: SortedSetDocValues,
    private readonly missing: string | null,
    private readonly strings: (string | undefined)[] | undefined,
  ) {}
  get valueCount(): number {
    return this.values.valueCount;
  }
  read(doc: number): number {
    this.start = this.values.docStart(doc);
    const count = this.values.docEnd(doc) - this.start;
    if (count === 0 && this.missing !== null) {
      this.start = -1;
      return 1;
    }
    return count;
  }
  at(index: number): number {
    return this.start < 0 ? MISSING_ORD : this.values.ordAt(this.start + index);
  }
  lookup(ord: number): string {
    if (ord === MISSING_ORD) return this.missing!;
    const strings = this.strings;
    if (strings === undefined) return this.values.lookupOrdString(ord);
    return (strings[ord] ??= this.values.lookupOrdString(ord));
  }
  lookupBytes(ord: number): Uint8Array {
    return ord === MISSING_ORD ? Buffer.from(this.missing!, 'utf8') : this.values.lookupOrd(ord);
  }
}

class SortedOrds implements DocOrds {
  private current = -1;
  constructor(
    private readonly values: SortedDocValues,
    private readonly missing: string | null,
  ) {}
  get valueCount(): number {
    return this.values.valueCount;
  }
  read(doc: number): number {
    this.current = this.values.ord(doc);
    if (this.current >= 0) return 1;
    if (this.missing === null) return 0;
    this.current = MISSING_ORD;
    return 1;
  }
  at(): number {
    return this.current;
  }
  lookup(ord: number): string {
    return ord === MISSING_ORD ? this.missing! : this.values.lookupOrdString(ord);
  }
  lookupBytes(ord: number): Uint8Array {
    return ord === MISSING_ORD ? Buffer.from(this.missing!, 'utf8') : this.values.lookupOrd(ord);
  }
}

class ConstantOrds implements DocOrds {
  readonly valueCount = 0;
  constructor(private readonly missing: string | null) {}
  read(): number {
    return this.missing === null ? 0 : 1;
  }
  at(): number {
    return MISSING_ORD;
  }
  lookup(): string {
    return this.missing ?? '';
  }
  lookupBytes(): Uint8Array {
    return Buffer.from(this.missing ?? '', 'utf8');
  }
}

/**
 * Term strings already decoded in this request, by doc-values object and ordinal: a hundred terms aggregations
 * over one field decode each term once, not a hundred times (ES shares global ordinals the same way).
 */
export type TermStringCache = WeakMap<object, (string | undefined)[]>;

export function keywordValues(segment: AggregationSegment | null, field: string | null, missing: string | null, cache?: TermStringCache): DocOrds {
  if (segment === null || field === null) return new ConstantOrds(missing);
  const docValues = segment.readers.docValues;
  const sortedSet = docValues.sortedSet(field);
  if (sortedSet !== undefined) {
    let strings = cache?.get(sortedSet);
    if (cache !== undefined && strings === undefined) cache.set(sortedSet, (strings = []));
    return new SortedSetOrds(sortedSet, missing, strings);
  }
  const sorted = docValues.sorted(field);
  if (sorted !== undefined) return new SortedOrds(sorted, missing);
  return new ConstantOrds(missing);
}

/** Ordinals over raw byte terms; lookup gives the term's hex (the key that sorts as the bytes). `missing` is hex. */
class SortedSetBytesOrds extends SortedSetOrds {
  constructor(
    values: SortedSetDocValues,
    private readonly missingHex: string | null,
  ) {
    super(values, missingHex, undefined);
  }
  override lookup(ord: number): string {
    return ord === MISSING_ORD ? this.missingHex! : Buffer.from(this.lookupBytes(ord)).toString('hex');
  }
  override lookupBytes(ord: number): Uint8Array {
    return ord === MISSING_ORD ? Buffer.from(this.missingHex!, 'hex') : super.lookupBytes(ord);
  }
}

class ConstantBytesOrds extends ConstantOrds {
  constructor(private readonly missingHex: string | null) {
    super(missingHex);
  }
  override lookupBytes(): Uint8Array {
    return Buffer.from(this.missingHex ?? '', 'hex');
  }
}

/** The ords of an ip or binary field (sorted set doc values of raw bytes); `missingHex` fills documents without values. */
export function bytesValues(segment: AggregationSegment | null, field: string | null, missingHex: string | null): DocOrds {
  if (segment === null || field === null) return new ConstantBytesOrds(missingHex);
  const sortedSet = segment.readers.docValues.sortedSet(field);
  return sortedSet === undefined ? new ConstantBytesOrds(missingHex) : new SortedSetBytesOrds(sortedSet, missingHex);
}
