/**
 * Writes the doc values file (format in doc-values-format.ts). Each add* call takes one field's column:
 * the doc ids that have values (strictly increasing) and their values.
 */
import type { ByteWriter } from '../../store/byte-writer.js';
import { bitsRequired } from '../bits.js';
import { finishCodecFile, startCodecFile, writeTocPointer } from '../codec-file.js';
import { writePackedArray, writePackedArrayMeta, type PackedArrayMeta } from '../packed/packed-ints.js';
import { compareBytes } from '../terms/terms-format.js';
import {
  DOC_VALUES_CODEC,
  DOC_VALUES_VERSION_CURRENT,
  KIND_DOUBLE,
  KIND_LONG,
  TYPE_NUMERIC,
  TYPE_SORTED,
  TYPE_SORTED_NUMERIC,
  TYPE_SORTED_SET,
} from './doc-values-format.js';
import { writeDocsWithField, writeDocsWithFieldMeta } from './docs-with-field.js';
import { writeDoubleValues, writeDoubleValuesMeta } from './double-values.js';
import { writeLongValues, writeLongValuesMeta, type LongInput } from './long-values.js';
import { writeSortedTerms, writeSortedTermsMeta } from './sorted-terms.js';

export type NumericColumn =
  | { kind: 'long'; docs: Int32Array; values: LongInput }
  | { kind: 'double'; docs: Int32Array; values: Float64Array };

export interface SortedColumn {
  docs: Int32Array;
  /** One term per doc of `docs`. */
  values: readonly (string | Uint8Array)[];
}

export interface SortedSetColumn {
  docs: Int32Array;
  /** The terms of each doc of `docs` (any order, duplicates allowed; stored as a sorted set). */
  values: readonly (readonly (string | Uint8Array)[])[];
}

/**
 * A sorted set column whose terms are already sorted and distinct (the indexing buffer's, encoded once): each doc
 * of `docs` has `counts[i]` ords into `terms`, back to back in `ords` (any order, duplicates allowed). Every term
 * must be used by some doc: the file is then byte for byte what addSortedSet writes for the same values.
 */
export interface OrdinalSortedSetColumn {
  docs: Int32Array;
  counts: Int32Array;
  ords: Int32Array;
  /** Strictly increasing in byte order. */
  terms: readonly Uint8Array[];
}

export type SortedNumericColumn =
  | { kind: 'long'; docs: Int32Array; counts: Int32Array; values: LongInput }
  | { kind: 'double'; docs: Int32Array; counts: Int32Array; values: Float64Array };

export class DocValuesWriter {
  private readonly out: ByteWriter;
  /** Table-of-contents entries, written by finish() once every section is in place. */
  private readonly entries: Array<(toc: ByteWriter) => void> = [];
  private readonly names = new Set<string>();

  constructor(
    segmentId: Uint8Array,
    private readonly maxDoc: number,
  ) {
    this.out = startCodecFile(DOC_VALUES_CODEC, DOC_VALUES_VERSION_CURRENT, segmentId);
  }

  private claim(name: string): void {
    if (this.names.has(name)) throw new Error(`doc values of [${name}] added twice`);
    this.names.add(name);
  }

  addNumeric(name: string, column: NumericColumn): void {
    this.claim(name);
    if (column.values.length !== column.docs.length) throw new RangeError(`[${name}]: ${column.docs.length} docs but ${column.values.length} values`);
    const docsMeta = writeDocsWithField(this.out, column.docs, this.maxDoc);
    if (column.kind === 'long') {
      const meta = writeLongValues(this.out, column.values);
      this.entries.push((toc) => {
        writeHeader(toc, name, TYPE_NUMERIC);
        toc.writeByte(KIND_LONG);
        writeDocsWithFieldMeta(toc, docsMeta);
        writeLongValuesMeta(toc, meta);
      });
    } else {
      const meta = writeDoubleValues(this.out, column.values);
      this.entries.push((toc) => {
        writeHeader(toc, name, TYPE_NUMERIC);
        toc.writeByte(KIND_DOUBLE);
        writeDocsWithFieldMeta(toc, docsMeta);
        writeDoubleValuesMeta(toc, meta);
      });
    }
  }

  addSorted(name: string, column: SortedColumn): void {
    this.claim(name);
    if (column.values.length !== column.docs.length) throw new RangeError(`[${name}]: ${column.docs.length} docs but ${column.values.length} values`);
    checkDocs(column.docs, this.maxDoc);
    const { terms, ordOf } = sortedDistinct(column.values);
    const termsMeta = writeSortedTerms(this.out, terms);
    const ordsPlusOne = new Int32Array(this.maxDoc);
    column.docs.forEach((doc, i) => (ordsPlusOne[doc] = ordOf(column.values[i]!) + 1));
    const ords = writePackedArray(this.out, this.maxDoc, bitsRequired(terms.length), (doc) => ordsPlusOne[doc]!);
    this.entries.push((toc) => {
      writeHeader(toc, name, TYPE_SORTED);
      writeSortedTermsMeta(toc, termsMeta);
      writePackedArrayMeta(toc, ords);
    });
  }

  addSortedSet(name: string, column: SortedSetColumn): void {
    if (column.values.length !== column.docs.length) throw new RangeError(`[${name}]: ${column.docs.length} docs but ${column.values.length} value sets`);
    const { terms, ordOf } = sortedDistinct(column.values.flat());
    const counts = new Int32Array(column.docs.length);
    const ords: number[] = [];
    column.values.forEach((set, i) => {
      counts[i] = set.length;
      for (const term of set) ords.push(ordOf(term));
    });
    this.addSortedSetOrds(name, { docs: column.docs, counts, ords: Int32Array.from(ords), terms });
  }

  addSortedSetOrds(name: string, column: OrdinalSortedSetColumn): void {
    this.claim(name);
    if (column.counts.length !== column.docs.length) throw new RangeError(`[${name}]: ${column.docs.length} docs but ${column.counts.length} counts`);
    checkDocs(column.docs, this.maxDoc);
    const termsMeta = writeSortedTerms(this.out, column.terms);
    // Each doc's ords sorted and distinct (Lucene's SortedSetDocValues), in a copy.
    const ords = new Int32Array(column.ords.length);
    const counts = new Int32Array(this.maxDoc);
    let read = 0;
    let written = 0;
    for (let i = 0; i < column.docs.length; i++) {
      const count = column.counts[i]!;
      if (read + count > column.ords.length) throw new RangeError(`[${name}]: counts add up to more than the ${column.ords.length} ords`);
      const start = written;
      for (let j = 0; j < count; j++) {
        const ord = column.ords[read + j]!;
        if (!(ord >= 0 && ord < column.terms.length)) throw new RangeError(`[${name}]: ord ${ord} out of [0, ${column.terms.length})`);
        ords[written++] = ord;
      }
      read += count;
      if (count > 1) {
        const set = ords.subarray(start, written).sort();
        let distinct = 1;
        for (let j = 1; j < set.length; j++) if (set[j] !== set[distinct - 1]) set[distinct++] = set[j]!;
        written = start + distinct;
      }
      counts[column.docs[i]!] = written - start;
    }
    if (read !== column.ords.length) throw new RangeError(`[${name}]: counts add up to ${read} but there are ${column.ords.length} ords`);
    const addresses = this.writeAddresses(counts);
    const packed = writePackedArray(this.out, written, bitsRequired(Math.max(0, column.terms.length - 1)), (i) => ords[i]!);
    this.entries.push((toc) => {
      writeHeader(toc, name, TYPE_SORTED_SET);
      writeSortedTermsMeta(toc, termsMeta);
      writePackedArrayMeta(toc, addresses);
      writePackedArrayMeta(toc, packed);
    });
  }

  addSortedNumeric(name: string, column: SortedNumericColumn): void {
    this.claim(name);
    checkDocs(column.docs, this.maxDoc);
    if (column.counts.length !== column.docs.length) throw new RangeError(`[${name}]: ${column.docs.length} docs but ${column.counts.length} counts`);
    const total = column.counts.reduce((sum, count) => sum + count, 0);
    if (total !== column.values.length) throw new RangeError(`[${name}]: counts add up to ${total} but there are ${column.values.length} values`);
    const counts = new Int32Array(this.maxDoc);
    column.docs.forEach((doc, i) => (counts[doc] = column.counts[i]!));
    // Sort each doc's values (ascending, as Lucene's SortedNumericDocValues) in a copy.
    const sorted = column.values.slice();
    let start = 0;
    for (const count of column.counts) {
      sorted.subarray(start, start + count).sort();
      start += count;
    }
    const addresses = this.writeAddresses(counts);
    if (column.kind === 'long') {
      const meta = writeLongValues(this.out, sorted as LongInput);
      this.entries.push((toc) => {
        writeHeader(toc, name, TYPE_SORTED_NUMERIC);
        toc.writeByte(KIND_LONG);
        writePackedArrayMeta(toc, addresses);
        writeLongValuesMeta(toc, meta);
      });
    } else {
      const meta = writeDoubleValues(this.out, sorted as Float64Array);
      this.entries.push((toc) => {
        writeHeader(toc, name, TYPE_SORTED_NUMERIC);
        toc.writeByte(KIND_DOUBLE);
        writePackedArrayMeta(toc, addresses);
        writeDoubleValuesMeta(toc, meta);
      });
    }
  }

  /** maxDoc + 1 cumulative counts: doc d's values are [addresses[d], addresses[d + 1]). */
  private writeAddresses(counts: Int32Array): PackedArrayMeta {
    const addresses = new Float64Array(this.maxDoc + 1);
    for (let doc = 0; doc < this.maxDoc; doc++) addresses[doc + 1] = addresses[doc]! + counts[doc]!;
    const total = addresses[this.maxDoc]!;
    if (total > 0xffffffff) throw new RangeError(`too many values in one column: ${total}`);
    return writePackedArray(this.out, this.maxDoc + 1, bitsRequired(total), (i) => addresses[i]!);
  }

  finish(): { bytes: Buffer; checksum: number } {
    const tocOffset = this.out.length;
    this.out.writeVInt(this.entries.length);
    for (const write of this.entries) write(this.out);
    writeTocPointer(this.out, tocOffset);
    return finishCodecFile(this.out);
  }
}

function writeHeader(toc: ByteWriter, name: string, type: number): void {
  toc.writeString(name);
  toc.writeByte(type);
}

function checkDocs(docs: Int32Array, maxDoc: number): void {
  let previous = -1;
  for (const doc of docs) {
    if (doc <= previous || doc >= maxDoc) throw new RangeError(`doc ids must be increasing and below ${maxDoc}: got ${doc} after ${previous}`);
    previous = doc;
  }
}

function toBytes(term: string | Uint8Array): Buffer {
  return typeof term === 'string' ? Buffer.from(term, 'utf8') : Buffer.from(term);
}

/** Distinct terms in byte order, and a lookup from a term to its ord. */
function sortedDistinct(values: readonly (string | Uint8Array)[]): { terms: Buffer[]; ordOf: (term: string | Uint8Array) => number } {
  const unique = new Map<string, Buffer>();
  for (const value of values) {
    const bytes = toBytes(value);
    const key = bytes.toString('latin1');
    if (!unique.has(key)) unique.set(key, bytes);
  }
  const terms = [...unique.values()].sort((a, b) => compareBytes(a, a.length, b));
  const ords = new Map<string, number>();
  terms.forEach((term, ord) => ords.set(term.toString('latin1'), ord));
  return { terms, ordOf: (term) => ords.get(toBytes(term).toString('latin1'))! };
}

