/**
 * Everything the indexing buffer holds for one field: its term dictionary, postings, norms and doc values,
 * plus the inversion state of the document being indexed (Lucene's FieldInvertState: position, length,
 * overlaps and distinct terms, which the norm is computed from when the document ends).
 */
import { computeNormByte, type DocValuesType, type FieldSpec, type IndexOptions } from '../codec/index.js';
import { ByteList } from '../util/growable.js';
import { SortedNumericValuesBuffer, SortedSetValuesBuffer } from './doc-values-buffer.js';
import type { IntSlicePool } from './int-slice-pool.js';
import { INDEX_DOCS, INDEX_FREQS, INDEX_NONE, INDEX_POSITIONS, TermDictionary, TermPostings } from './term-postings.js';

export const INDEX_OPTIONS_BY_LEVEL: readonly IndexOptions[] = ['none', 'docs', 'freqs', 'positions'];

export function indexLevelOf(options: 'none' | 'docs' | 'freqs' | 'positions' | 'offsets'): number {
  switch (options) {
    case 'none':
      return INDEX_NONE;
    case 'docs':
      return INDEX_DOCS;
    case 'freqs':
      return INDEX_FREQS;
    default:
      // Offsets are not stored by this codec; positions are what phrase queries and scoring need.
      return INDEX_POSITIONS;
  }
}

export class FieldBuffer {
  readonly dictionary = new TermDictionary();
  postings: TermPostings | null = null;
  norms: ByteList | null = null;
  sortedSet: SortedSetValuesBuffer | null = null;
  sortedNumeric: SortedNumericValuesBuffer | null = null;
  /**
   * How the dictionary's strings map to term bytes: UTF-8 (text, keyword), or one byte per character for fields
   * whose terms are raw bytes (ip, binary doc values), keyed by their latin1 string.
   */
  termBytes: 'utf8' | 'latin1' = 'utf8';

  // inversion state of the current document
  invertDoc = -1;
  position = -1;
  length = 0;
  numOverlap = 0;
  uniqueTerms = 0;

  constructor(
    readonly name: string,
    private readonly pool: IntSlicePool,
  ) {}

  /** Declares that the field is indexed at `level` (the first declaration wins: the mapping keeps it fixed). */
  enableIndexing(level: number, withNorms: boolean): TermPostings {
    if (this.postings === null) {
      this.postings = new TermPostings(level, this.pool);
      if (withNorms) this.norms = new ByteList(64);
    }
    return this.postings;
  }

  enableSortedSet(): SortedSetValuesBuffer {
    return (this.sortedSet ??= new SortedSetValuesBuffer());
  }

  /** A sorted set of raw byte terms (ip addresses, binary values), keyed in the dictionary by latin1 strings. */
  enableBytesSortedSet(): SortedSetValuesBuffer {
    this.termBytes = 'latin1';
    return this.enableSortedSet();
  }

  enableSortedNumeric(kind: 'long' | 'double'): SortedNumericValuesBuffer {
    return (this.sortedNumeric ??= new SortedNumericValuesBuffer(kind));
  }

  termId(term: string): number {
    const id = this.dictionary.ids.get(term);
    return id === undefined ? this.dictionary.add(term) : id;
  }

  /** Starts or continues this document's inversion; returns false when the field was already seen in it. */
  beginDocument(doc: number): boolean {
    if (this.invertDoc === doc) return false;
    this.invertDoc = doc;
    this.position = -1;
    this.length = 0;
    this.numOverlap = 0;
    this.uniqueTerms = 0;
    return true;
  }

  /** Records the document's norm (when the field has norms and the document had tokens). */
  finishDocument(doc: number): void {
    if (this.norms === null || this.length === 0) return;
    const options = INDEX_OPTIONS_BY_LEVEL[this.postings!.indexLevel]!;
    this.norms.set(doc, computeNormByte(options, { length: this.length, numOverlap: this.numOverlap, uniqueTermCount: this.uniqueTerms }));
  }

  spec(): FieldSpec {
    const level = this.postings?.indexLevel ?? INDEX_NONE;
    let docValues: DocValuesType = 'none';
    if (this.sortedSet !== null) docValues = 'sorted_set';
    else if (this.sortedNumeric !== null) docValues = 'sorted_numeric';
    return { name: this.name, indexOptions: INDEX_OPTIONS_BY_LEVEL[level]!, hasNorms: this.norms !== null, docValues };
  }

  get hasFreqs(): boolean {
    return (this.postings?.indexLevel ?? 0) >= INDEX_FREQS;
  }

  get bytesUsed(): number {
    return (
      this.dictionary.bytesUsed +
      (this.postings?.bytesUsed ?? 0) +
      (this.norms?.bytesUsed ?? 0) +
      (this.sortedSet?.bytesUsed ?? 0) +
      (this.sortedNumeric?.bytesUsed ?? 0)
    );
  }
}
