/**
 * Per-sort-field comparison for TopFieldCollector (Lucene's FieldComparator): values of kept hits live in
 * slots; a new doc is compared against the current worst kept hit (the bottom) without copying anything.
 * All comparisons already apply the field's order, so negative always means "sorts first".
 *
 * Keyword fields compare by ord inside a segment and by term bytes across segments: the bottom's term is
 * located once per segment (and per bottom change) among the segment's ords, as Lucene's TermOrdValComparator
 * does.
 */
import type { SortedNumericDocValues } from '../../engine/codec/index.js';
import type { LeafContext } from '../core/leaf-context.js';
import { exactLongValues, numericValues, ordValues, type ExactLongValues, type NumericValues, type OrdValues } from '../fetch/doc-value-reader.js';
import { modeOf, orderOf, type SortField } from './sort.js';
import type { SortValue } from './top-docs.js';

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;

export interface FieldComparator {
  readonly needsScores: boolean;
  setLeaf(leaf: LeafContext): void;
  /** Candidate `doc` (segment-local; `score` when needed) versus the bottom slot. */
  compareBottom(doc: number, score: number): number;
  copy(slot: number, doc: number, score: number): void;
  compareSlots(a: number, b: number): number;
  setBottom(slot: number): void;
  sortValue(slot: number): SortValue;
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

abstract class NumberKeyComparator implements FieldComparator {
  abstract readonly needsScores: boolean;
  protected readonly keys: Float64Array;
  protected bottomKey = 0;
  protected readonly sign: number;

  constructor(slots: number, ascending: boolean) {
    this.keys = new Float64Array(slots);
    this.sign = ascending ? 1 : -1;
  }

  abstract setLeaf(leaf: LeafContext): void;
  protected abstract key(doc: number, score: number): number;

  compareBottom(doc: number, score: number): number {
    return this.sign * compareNumbers(this.key(doc, score), this.bottomKey);
  }

  copy(slot: number, doc: number, score: number): void {
    this.keys[slot] = this.key(doc, score);
  }

  compareSlots(a: number, b: number): number {
    return this.sign * compareNumbers(this.keys[a]!, this.keys[b]!);
  }

  setBottom(slot: number): void {
    this.bottomKey = this.keys[slot]!;
  }

  abstract sortValue(slot: number): SortValue;
}

class ScoreComparator extends NumberKeyComparator {
  readonly needsScores = true;
  setLeaf(): void {}
  protected key(_doc: number, score: number): number {
    return score;
  }
  sortValue(slot: number): SortValue {
    return this.keys[slot]!;
  }
}

class DocComparator extends NumberKeyComparator {
  readonly needsScores = false;
  private docBase = 0;
  setLeaf(leaf: LeafContext): void {
    this.docBase = leaf.docBase;
  }
  protected key(doc: number): number {
    return doc + this.docBase;
  }
  sortValue(slot: number): SortValue {
    return this.keys[slot]!;
  }
}

class NumericComparator extends NumberKeyComparator {
  readonly needsScores = false;
  private values: NumericValues | null = null;
  private kind: 'long' | 'double' = 'long';
  /** Key of a doc without value: +/-Infinity to sort it last or first, or the given `missing` number. */
  private readonly missingKey: number;

  constructor(
    slots: number,
    private readonly field: SortField & { kind: 'numeric' },
  ) {
    const ascending = orderOf(field) === 'asc';
    super(slots, ascending);
    const missing = field.missing ?? 'last';
    this.missingKey = typeof missing === 'number' ? missing : (missing === 'last') === ascending ? Infinity : -Infinity;
  }

  setLeaf(leaf: LeafContext): void {
    this.values = numericValues(leaf.readers, this.field.field, modeOf(this.field), this.field.convert === 'nanos_to_millis');
    if (this.values !== null) this.kind = this.values.kind;
  }

  protected key(doc: number): number {
    return this.values?.value(doc) ?? this.missingKey;
  }

  sortValue(slot: number): SortValue {
    const key = this.keys[slot]!;
    if (this.kind === 'double') return key;
    // ES prints a missing long as Long.MIN_VALUE / MAX_VALUE.
    if (key === Infinity) return LONG_MAX;
    if (key === -Infinity) return LONG_MIN;
    return Number.isSafeInteger(key) ? key : BigInt(Math.trunc(key));
  }
}

/**
 * Numeric sort over exact 64-bit longs (date_nanos): BigInt keys, so nanoseconds never round. Within a segment
 * whose values spread less than 2^53 (nearly always), a candidate compares by its column delta against the
 * bottom's place among the deltas, found once per segment and per bottom (as TermOrdValComparator places the
 * bottom term among a segment's ords): no BigInt per document.
 */
class ExactLongComparator implements FieldComparator {
  readonly needsScores = false;
  private readonly keys: BigInt64Array;
  private bottomKey = 0n;
  private hasBottom = false;
  private values: ExactLongValues | null = null;
  private readonly sign: number;
  private readonly missingKey: bigint;
  /** The delta fast path of the current segment, or null. */
  private fast: { values: SortedNumericDocValues; min: bigint; gcd: bigint; maxDelta: number; useMax: boolean } | null = null;
  /** The bottom's place among the current segment's deltas (x.5 between two). */
  private bottomPosition = 0;

  constructor(
    slots: number,
    private readonly field: SortField & { kind: 'numeric' },
  ) {
    this.keys = new BigInt64Array(slots);
    const ascending = orderOf(field) === 'asc';
    this.sign = ascending ? 1 : -1;
    const missing = field.missing ?? 'last';
    // ES sorts a doc without value as Long.MAX_VALUE / MIN_VALUE, or as the given value.
    this.missingKey = typeof missing === 'number' ? BigInt(Math.trunc(missing)) : (missing === 'last') === ascending ? LONG_MAX : LONG_MIN;
  }

  setLeaf(leaf: LeafContext): void {
    const mode = modeOf(this.field);
    this.values = exactLongValues(leaf.readers, this.field.field, mode, this.field.convert === 'millis_to_nanos');
    this.fast = null;
    const multi = leaf.readers.docValues.sortedNumeric(this.field.field);
    if (multi !== undefined && multi.kind === 'long' && multi.deltasExact && this.field.convert === undefined && (mode === 'min' || mode === 'max')) {
      const bounds = multi.longBounds();
      const { min, gcd } = multi.deltaScale();
      if (bounds !== undefined) this.fast = { values: multi, min, gcd, maxDelta: Number((bounds.max - min) / gcd), useMax: mode === 'max' };
    }
    if (this.hasBottom && this.fast !== null) this.bottomPosition = this.positionOf(this.bottomKey);
  }

  /** Where `value` falls among the segment's deltas: a delta, x.5 between two, or beyond either end. */
  private positionOf(value: bigint): number {
    const fast = this.fast!;
    const offset = value - fast.min;
    if (offset < 0n) return -1;
    const delta = offset / fast.gcd;
    if (delta > BigInt(fast.maxDelta)) return fast.maxDelta + 1;
    return Number(delta) + (offset % fast.gcd === 0n ? 0 : 0.5);
  }

  private key(doc: number): bigint {
    return this.values?.value(doc) ?? this.missingKey;
  }

  private compare(a: bigint, b: bigint): number {
    return this.sign * (a < b ? -1 : a > b ? 1 : 0);
  }

  compareBottom(doc: number): number {
    const fast = this.fast;
    if (fast !== null) {
      const start = fast.values.docStart(doc);
      const end = fast.values.docEnd(doc);
      if (start === end) return this.compare(this.missingKey, this.bottomKey);
      const delta = fast.values.deltaAt(fast.useMax ? end - 1 : start);
      const position = this.bottomPosition;
      return this.sign * (delta < position ? -1 : delta > position ? 1 : 0);
    }
    return this.compare(this.key(doc), this.bottomKey);
  }

  copy(slot: number, doc: number): void {
    this.keys[slot] = this.key(doc);
  }

  compareSlots(a: number, b: number): number {
    return this.compare(this.keys[a]!, this.keys[b]!);
  }

  setBottom(slot: number): void {
    this.bottomKey = this.keys[slot]!;
    this.hasBottom = true;
    if (this.fast !== null) this.bottomPosition = this.positionOf(this.bottomKey);
  }

  sortValue(slot: number): SortValue {
    const key = this.keys[slot]!;
    return Number.isSafeInteger(Number(key)) ? Number(key) : key;
  }
}

class KeywordComparator implements FieldComparator {
  readonly needsScores = false;
  private readonly terms: (Buffer | null)[];
  private values: OrdValues | null = null;
  private bottomSlot = -1;
  /** The bottom's place among this segment's ords: an ord, or between two (x.5), or +/-Infinity. */
  private bottomKey = 0;
  private readonly sign: number;
  /** Whether a doc without value sorts after every term in ascending terms (before applying the order). */
  private readonly missingHigh: boolean;
  private readonly missingTerm: Buffer | null;

  constructor(
    slots: number,
    private readonly field: SortField & { kind: 'keyword' },
  ) {
    this.terms = new Array<Buffer | null>(slots).fill(null);
    const ascending = orderOf(field) === 'asc';
    this.sign = ascending ? 1 : -1;
    const missing = field.missing ?? 'last';
    this.missingTerm = missing === 'last' || missing === 'first' ? null : Buffer.from(missing, 'utf8');
    this.missingHigh = (missing === 'last') === ascending;
  }

  setLeaf(leaf: LeafContext): void {
    const mode = modeOf(this.field);
    this.values = ordValues(leaf.readers, this.field.field, mode === 'max' ? 'max' : 'min');
    if (this.bottomSlot >= 0) this.setBottom(this.bottomSlot);
  }

  /** Position of a term (or missing) among this segment's ords. */
  private keyOfTerm(term: Buffer | null): number {
    if (term === null) return this.missingHigh ? Infinity : -Infinity;
    if (this.values === null) return 0; // no doc of the segment has a value: every candidate is missing
    const found = this.values.lookupTerm(term);
    return found >= 0 ? found : -found - 1 - 0.5;
  }

  private candidateKey(doc: number): number {
    const ord = this.values === null ? -1 : this.values.ord(doc);
    if (ord >= 0) return ord;
    return this.missingTerm === null ? (this.missingHigh ? Infinity : -Infinity) : this.keyOfTerm(this.missingTerm);
  }

  compareBottom(doc: number): number {
    if (this.values === null && this.missingTerm !== null) {
      // No ords in this segment to place terms among: compare the missing term's bytes directly.
      const bottom = this.terms[this.bottomSlot] ?? null;
      return bottom === null ? this.compareWithNull() : this.sign * Buffer.compare(this.missingTerm, bottom);
    }
    return this.sign * compareNumbers(this.candidateKey(doc), this.bottomKey);
  }

  private compareWithNull(): number {
    return this.sign * (this.missingHigh ? -1 : 1);
  }

  copy(slot: number, doc: number): void {
    const ord = this.values === null ? -1 : this.values.ord(doc);
    this.terms[slot] = ord >= 0 ? this.values!.lookupOrd(ord) : this.missingTerm;
  }

  compareSlots(a: number, b: number): number {
    const termA = this.terms[a]!;
    const termB = this.terms[b]!;
    let raw: number;
    if (termA === null || termB === null) {
      raw = termA === termB ? 0 : termA === null ? (this.missingHigh ? 1 : -1) : this.missingHigh ? -1 : 1;
    } else {
      raw = Buffer.compare(termA, termB);
    }
    return this.sign * raw;
  }

  setBottom(slot: number): void {
    this.bottomSlot = slot;
    this.bottomKey = this.keyOfTerm(this.terms[slot] ?? null);
  }

  sortValue(slot: number): SortValue {
    const term = this.terms[slot];
    if (term === null || term === undefined) return null;
    // ip terms travel as the hex of their bytes: it compares as the bytes do; the hit prints the address.
    return term.toString(this.field.termsAs === 'hex' ? 'hex' : 'utf8');
  }
}

export function createComparator(field: SortField, slots: number): FieldComparator {
  switch (field.kind) {
    case 'score':
      return new ScoreComparator(slots, orderOf(field) === 'asc');
    case 'doc':
      return new DocComparator(slots, orderOf(field) === 'asc');
    case 'numeric':
      return field.exact === true ? new ExactLongComparator(slots, field) : new NumericComparator(slots, field);
    case 'keyword':
      return new KeywordComparator(slots, field);
  }
}
