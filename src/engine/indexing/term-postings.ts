/**
 * The in-memory inverted index of one field in the indexing buffer (Lucene's TermsHashPerField +
 * FreqProxTermsWriterPerField): a string -> term id dictionary and, per term, one postings stream in the
 * shared slice pool. Nothing is allocated per token; a new term costs one Map entry and a 4-int slice.
 *
 * Stream layout per document, by index options:
 *   docs      : Doc
 *   freqs     : Doc Freq
 *   positions : Doc Freq Position{Freq}      (absolute positions, ascending)
 * A document's Freq slot is reserved when the term first occurs in it and filled in when the term moves on
 * to a later document (or at flush), so positions can be appended as they come.
 */
import { growInt32 } from '../util/growable.js';
import { IntSlicePool, MAX_SLICE_LEVEL, SLICE_SIZES } from './int-slice-pool.js';

/** Index options as levels: each includes the previous. */
export const INDEX_NONE = 0;
export const INDEX_DOCS = 1;
export const INDEX_FREQS = 2;
export const INDEX_POSITIONS = 3;

/** Strings -> dense ids, in first-seen order; shared by a field's postings and its doc values. */
export class TermDictionary {
  readonly ids = new Map<string, number>();
  readonly terms: string[] = [];
  /** Sum of term lengths, for the RAM estimate. */
  chars = 0;
  /** True once a term holds a UTF-16 unit >= 0xD800, where UTF-16 order and UTF-8 byte order can differ. */
  needsByteOrderSort = false;

  add(term: string): number {
    const id = this.terms.length;
    this.ids.set(term, id);
    this.terms.push(term);
    this.chars += term.length;
    if (!this.needsByteOrderSort && HIGH_UNIT.test(term)) this.needsByteOrderSort = true;
    return id;
  }

  get size(): number {
    return this.terms.length;
  }

  get bytesUsed(): number {
    // Map entry, array slot and string header are each a few dozen bytes in V8; UTF-16 chars two each.
    return this.terms.length * 88 + this.chars * 2;
  }
}

const HIGH_UNIT = /[\ud800-\uffff]/;

/** Compares two strings in UTF-8 byte order (code point order) without encoding them. */
export function compareUtf8Order(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (supplementary code points) sort after U+E000..U+FFFF in code point order.
    if (ca >= 0xd800 && cb >= 0xd800) {
      ca = ca <= 0xdfff ? ca + 0x2000 : ca - 0x800;
      cb = cb <= 0xdfff ? cb + 0x2000 : cb - 0x800;
    }
    return ca - cb;
  }
  return a.length - b.length;
}

export class TermPostings {
  /** Per term id. */
  streamStart = new Int32Array(64);
  writePos = new Int32Array(64);
  limit = new Int32Array(64);
  level = new Uint8Array(64);
  /** 1 once the term has postings: the dictionary may hold more (values only some other structure uses). */
  started = new Uint8Array(64);
  lastDoc = new Int32Array(64);
  freq = new Int32Array(64);
  freqSlot = new Int32Array(64);
  private capacity = 64;

  constructor(
    readonly indexLevel: number,
    private readonly pool: IntSlicePool,
  ) {}

  private ensureTerm(termId: number): void {
    if (termId < this.capacity) return;
    const capacity = Math.max(this.capacity * 2, termId + 1);
    this.streamStart = growInt32(this.streamStart, capacity);
    this.writePos = growInt32(this.writePos, capacity);
    this.limit = growInt32(this.limit, capacity);
    this.lastDoc = growInt32(this.lastDoc, capacity);
    this.freq = growInt32(this.freq, capacity);
    this.freqSlot = growInt32(this.freqSlot, capacity);
    this.level = growUint8(this.level, capacity);
    this.started = growUint8(this.started, capacity);
    this.capacity = capacity;
  }

  private startTerm(termId: number): void {
    this.ensureTerm(termId);
    this.started[termId] = 1;
    const start = this.pool.allocate(0);
    this.streamStart[termId] = start;
    this.writePos[termId] = start;
    this.limit[termId] = start + SLICE_SIZES[0]! - 1;
    this.level[termId] = 0;
    this.lastDoc[termId] = -1;
    this.freq[termId] = 0;
  }

  /** True when the term has postings in this buffer. */
  has(termId: number): boolean {
    return termId < this.capacity && this.started[termId] === 1;
  }

  /**
   * Records one occurrence of `termId` in `doc` (at `position` when positions are indexed). Returns true
   * when this is the term's first occurrence in the document (for the unique term count of norms).
   */
  add(termId: number, doc: number, position: number): boolean {
    if (termId >= this.capacity || this.started[termId] === 0) this.startTerm(termId);
    let first = false;
    if (this.lastDoc[termId] !== doc) {
      if (this.indexLevel >= INDEX_FREQS && this.lastDoc[termId] >= 0) this.pool.ints[this.freqSlot[termId]!] = this.freq[termId]!;
      this.append(termId, doc);
      if (this.indexLevel >= INDEX_FREQS) {
        this.freqSlot[termId] = this.append(termId, 0);
        this.freq[termId] = 0;
      }
      this.lastDoc[termId] = doc;
      first = true;
    }
    if (this.indexLevel === INDEX_POSITIONS) this.append(termId, position);
    this.freq[termId]++;
    return first;
  }

  /** Appends one int to a term's stream; returns the address it was written at. */
  private append(termId: number, value: number): number {
    let position = this.writePos[termId]!;
    if (position === this.limit[termId]) {
      const level = Math.min(this.level[termId]! + 1, MAX_SLICE_LEVEL);
      const next = this.pool.allocate(level);
      this.pool.ints[position] = next;
      position = next;
      this.limit[termId] = next + SLICE_SIZES[level]! - 1;
      this.level[termId] = level;
    }
    this.pool.ints[position] = value;
    this.writePos[termId] = position + 1;
    return position;
  }

  /** Writes every pending document frequency into its slot; called once, before the buffer is written. */
  finish(termCount: number): void {
    if (this.indexLevel < INDEX_FREQS) return;
    const ints = this.pool.ints;
    for (let termId = 0; termId < Math.min(termCount, this.capacity); termId++) {
      if (this.started[termId] === 1) ints[this.freqSlot[termId]!] = this.freq[termId]!;
    }
  }

  get bytesUsed(): number {
    return this.capacity * 30;
  }
}

function growUint8(array: Uint8Array, length: number): Uint8Array<ArrayBuffer> {
  const grown = new Uint8Array(length);
  grown.set(array);
  return grown;
}
