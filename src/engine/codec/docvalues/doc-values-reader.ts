/**
 * Reads the doc values file: per field, random access by doc id into values viewed in place. The
 * accessors are plain methods over typed arrays, cheap enough to call once per doc when sorting or
 * aggregating a whole segment.
 */
import type { ByteReader } from '../../store/byte-reader.js';
import { openCodecFile, openToc } from '../codec-file.js';
import { PackedArrayReader, readPackedArrayMeta } from '../packed/packed-ints.js';
import {
  DOC_VALUES_CODEC,
  DOC_VALUES_VERSION_CURRENT,
  DOC_VALUES_VERSION_START,
  KIND_DOUBLE,
  KIND_LONG,
  TYPE_NUMERIC,
  TYPE_SORTED,
  TYPE_SORTED_NUMERIC,
  TYPE_SORTED_SET,
} from './doc-values-format.js';
import { DocsWithField, readDocsWithFieldMeta } from './docs-with-field.js';
import { DoubleValuesReader, readDoubleValuesMeta } from './double-values.js';
import { LongValuesReader, readLongValuesMeta } from './long-values.js';
import { readSortedTermsMeta, SortedTermsReader } from './sorted-terms.js';

/** A single long per document. get()/getBigInt() are only meaningful when has(doc). */
export class LongDocValues {
  readonly kind = 'long';
  constructor(
    private readonly docsWithField: DocsWithField,
    private readonly values: LongValuesReader,
  ) {}
  get docCount(): number {
    return this.docsWithField.docCount;
  }
  /** True when get() is exact for every value (all within 2^53). */
  get exactAsNumber(): boolean {
    return this.values.exactAsNumber;
  }
  get min(): bigint {
    return this.values.min;
  }
  get max(): bigint {
    return this.values.max;
  }
  has(doc: number): boolean {
    return this.docsWithField.has(doc);
  }
  get(doc: number): number {
    return this.values.get(this.docsWithField.index(doc));
  }
  getBigInt(doc: number): bigint {
    return this.values.getBigInt(this.docsWithField.index(doc));
  }
}

/** A single double per document. get() is only meaningful when has(doc). */
export class DoubleDocValues {
  readonly kind = 'double';
  constructor(
    private readonly docsWithField: DocsWithField,
    private readonly values: DoubleValuesReader,
  ) {}
  get docCount(): number {
    return this.docsWithField.docCount;
  }
  has(doc: number): boolean {
    return this.docsWithField.has(doc);
  }
  get(doc: number): number {
    return this.values.get(this.docsWithField.index(doc));
  }
}

export type NumericDocValues = LongDocValues | DoubleDocValues;

/** One keyword per document, as an ord into the segment's sorted distinct terms. */
export class SortedDocValues {
  constructor(
    readonly terms: SortedTermsReader,
    private readonly ords: PackedArrayReader,
  ) {}
  get valueCount(): number {
    return this.terms.termCount;
  }
  /** The doc's ord, or -1 when the doc has no value. */
  ord(doc: number): number {
    return doc >= 0 && doc < this.ords.count ? this.ords.get(doc) - 1 : -1;
  }
  lookupOrd(ord: number): Buffer {
    return this.terms.lookupOrd(ord);
  }
  lookupOrdString(ord: number): string {
    return this.terms.lookupOrdString(ord);
  }
  lookupTerm(term: Uint8Array | string): number {
    return this.terms.lookupTerm(term);
  }
}

/** Per document a sorted set of ords; the doc's ords are ordAt(i) for docStart(doc) <= i < docEnd(doc). */
export class SortedSetDocValues {
  constructor(
    readonly terms: SortedTermsReader,
    private readonly addresses: PackedArrayReader,
    private readonly ords: PackedArrayReader,
  ) {}
  get valueCount(): number {
    return this.terms.termCount;
  }
  docStart(doc: number): number {
    return this.addresses.get(doc);
  }
  docEnd(doc: number): number {
    return this.addresses.get(doc + 1);
  }
  docValueCount(doc: number): number {
    return this.addresses.get(doc + 1) - this.addresses.get(doc);
  }
  ordAt(index: number): number {
    return this.ords.get(index);
  }
  lookupOrd(ord: number): Buffer {
    return this.terms.lookupOrd(ord);
  }
  lookupOrdString(ord: number): string {
    return this.terms.lookupOrdString(ord);
  }
  lookupTerm(term: Uint8Array | string): number {
    return this.terms.lookupTerm(term);
  }
}

/** Per document sorted numbers; the doc's values are valueAt(i) for docStart(doc) <= i < docEnd(doc). */
export class SortedNumericDocValues {
  constructor(
    readonly kind: 'long' | 'double',
    private readonly addresses: PackedArrayReader,
    private readonly longs: LongValuesReader | null,
    private readonly doubles: DoubleValuesReader | null,
  ) {}
  docStart(doc: number): number {
    return this.addresses.get(doc);
  }
  docEnd(doc: number): number {
    return this.addresses.get(doc + 1);
  }
  docValueCount(doc: number): number {
    return this.addresses.get(doc + 1) - this.addresses.get(doc);
  }
  valueAt(index: number): number {
    return this.longs !== null ? this.longs.get(index) : this.doubles!.get(index);
  }
  /** Exact long value (long kind only). */
  bigIntAt(index: number): bigint {
    if (this.longs === null) throw new TypeError('bigIntAt() on double doc values');
    return this.longs.getBigInt(index);
  }
  get exactAsNumber(): boolean {
    return this.longs === null || this.longs.exactAsNumber;
  }
  /** The smallest and largest long value in the segment (deleted docs included), undefined when none or doubles. */
  longBounds(): { min: bigint; max: bigint } | undefined {
    if (this.longs === null || this.longs.count === 0) return undefined;
    return { min: this.longs.min, max: this.longs.max };
  }
  /** Long kind: whether deltaAt is exact for every value (see LongValuesReader.deltaAt). */
  get deltasExact(): boolean {
    return this.longs !== null && this.longs.deltasExact;
  }
  /** Long kind: the value's position in the column's own order, as a number (exact when deltasExact). */
  deltaAt(index: number): number {
    return this.longs!.deltaAt(index);
  }
  /** Long kind: every value is min + deltaAt(i) * gcd. */
  deltaScale(): { min: bigint; gcd: bigint } {
    if (this.longs === null) throw new TypeError('deltaScale() on double doc values');
    return { min: this.longs.min, gcd: this.longs.gcd };
  }
  /** Long kind: the deltas of values in [lower, upper]; low > high when none. */
  deltaRange(lower: bigint, upper: bigint): { low: number; high: number } {
    if (this.longs === null) throw new TypeError('deltaRange() on double doc values');
    return this.longs.deltaRange(lower, upper);
  }
}

export type DocValues = NumericDocValues | SortedDocValues | SortedSetDocValues | SortedNumericDocValues;

export class DocValuesReader {
  private readonly fields = new Map<string, DocValues>();

  constructor(bytes: Buffer, resource: string, segmentId: Uint8Array, readonly maxDoc: number) {
    const file = openCodecFile(bytes, resource, {
      codec: DOC_VALUES_CODEC,
      minVersion: DOC_VALUES_VERSION_START,
      maxVersion: DOC_VALUES_VERSION_CURRENT,
      segmentId,
    });
    const toc = openToc(file.body);
    const body = file.body.slice(file.body.start, toc.start);
    const fieldCount = toc.readCount();
    for (let i = 0; i < fieldCount; i++) {
      const name = toc.readString();
      const type = toc.readByte();
      this.fields.set(name, this.readField(bytes, toc, body, type, name));
    }
    if (toc.remaining !== 0) throw toc.corrupt(`${toc.remaining} unexpected bytes after the doc values table`);
  }

  private readField(bytes: Buffer, toc: ByteReader, body: ByteReader, type: number, name: string): DocValues {
    const maxDoc = this.maxDoc;
    switch (type) {
      case TYPE_NUMERIC: {
        const kind = toc.readByte();
        const docsWithField = new DocsWithField(bytes, readDocsWithFieldMeta(toc, maxDoc), body, maxDoc);
        if (kind === KIND_LONG) {
          const values = new LongValuesReader(bytes, readLongValuesMeta(toc), body);
          if (values.count !== docsWithField.docCount) throw toc.corrupt(`[${name}]: ${values.count} values for ${docsWithField.docCount} docs`);
          return new LongDocValues(docsWithField, values);
        }
        if (kind === KIND_DOUBLE) {
          const values = new DoubleValuesReader(bytes, readDoubleValuesMeta(toc), body);
          if (values.count !== docsWithField.docCount) throw toc.corrupt(`[${name}]: ${values.count} values for ${docsWithField.docCount} docs`);
          return new DoubleDocValues(docsWithField, values);
        }
        throw toc.corrupt(`unknown numeric kind ${kind} for [${name}]`);
      }
      case TYPE_SORTED: {
        const terms = new SortedTermsReader(bytes, readSortedTermsMeta(toc), body);
        const ords = new PackedArrayReader(bytes, readPackedArrayMeta(toc), body);
        if (ords.count !== maxDoc) throw toc.corrupt(`[${name}]: ${ords.count} ords for ${maxDoc} docs`);
        return new SortedDocValues(terms, ords);
      }
      case TYPE_SORTED_SET: {
        const terms = new SortedTermsReader(bytes, readSortedTermsMeta(toc), body);
        const addresses = new PackedArrayReader(bytes, readPackedArrayMeta(toc), body);
        const ords = new PackedArrayReader(bytes, readPackedArrayMeta(toc), body);
        checkAddresses(addresses, maxDoc, ords.count, toc, name);
        return new SortedSetDocValues(terms, addresses, ords);
      }
      case TYPE_SORTED_NUMERIC: {
        const kind = toc.readByte();
        const addresses = new PackedArrayReader(bytes, readPackedArrayMeta(toc), body);
        if (kind === KIND_LONG) {
          const longs = new LongValuesReader(bytes, readLongValuesMeta(toc), body);
          checkAddresses(addresses, maxDoc, longs.count, toc, name);
          return new SortedNumericDocValues('long', addresses, longs, null);
        }
        if (kind === KIND_DOUBLE) {
          const doubles = new DoubleValuesReader(bytes, readDoubleValuesMeta(toc), body);
          checkAddresses(addresses, maxDoc, doubles.count, toc, name);
          return new SortedNumericDocValues('double', addresses, null, doubles);
        }
        throw toc.corrupt(`unknown numeric kind ${kind} for [${name}]`);
      }
      default:
        throw toc.corrupt(`unknown doc values type ${type} for [${name}]`);
    }
  }

  numeric(field: string): NumericDocValues | undefined {
    const values = this.fields.get(field);
    return values instanceof LongDocValues || values instanceof DoubleDocValues ? values : undefined;
  }

  sorted(field: string): SortedDocValues | undefined {
    const values = this.fields.get(field);
    return values instanceof SortedDocValues ? values : undefined;
  }

  sortedSet(field: string): SortedSetDocValues | undefined {
    const values = this.fields.get(field);
    return values instanceof SortedSetDocValues ? values : undefined;
  }

  sortedNumeric(field: string): SortedNumericDocValues | undefined {
    const values = this.fields.get(field);
    return values instanceof SortedNumericDocValues ? values : undefined;
  }

  fieldNames(): string[] {
    return [...this.fields.keys()];
  }
}

function checkAddresses(addresses: PackedArrayReader, maxDoc: number, valueCount: number, toc: ByteReader, name: string): void {
  if (addresses.count !== maxDoc + 1) throw toc.corrupt(`[${name}]: ${addresses.count} addresses for ${maxDoc} docs`);
  if (addresses.get(0) !== 0 || addresses.get(maxDoc) !== valueCount) {
    throw toc.corrupt(`[${name}]: addresses end at ${addresses.get(maxDoc)} but there are ${valueCount} values`);
  }
}
