/**
 * Doc values collected by the indexing buffer, column by column: which documents have values, how many,
 * and the values themselves in typed arrays. A document's values for one field arrive together (the
 * indexer handles one document at a time), so appending keeps them contiguous.
 *
 * Types follow Elasticsearch: keyword -> sorted_set (ords into the field's term dictionary),
 * long/date/boolean/scaled_float -> sorted_numeric longs, double/float/half_float -> sorted_numeric doubles.
 */
import type { SortedNumericColumn, SortedSetColumn } from '../codec/index.js';
import { FloatList, IntList } from '../util/growable.js';

export class SortedSetValuesBuffer {
  readonly docs = new IntList();
  readonly counts = new IntList();
  readonly ords = new IntList();

  add(doc: number, termId: number): void {
    const docs = this.docs;
    if (docs.length > 0 && docs.last() === doc) {
      this.counts.set(this.counts.length - 1, this.counts.last() + 1);
    } else {
      docs.push(doc);
      this.counts.push(1);
    }
    this.ords.push(termId);
  }

  /** The column in the codec's form; `terms` is the field's dictionary (id -> term). */
  toColumn(terms: readonly string[]): SortedSetColumn {
    const values: string[][] = new Array(this.docs.length);
    let offset = 0;
    for (let i = 0; i < this.docs.length; i++) {
      const count = this.counts.get(i);
      const set: string[] = new Array(count);
      for (let j = 0; j < count; j++) set[j] = terms[this.ords.get(offset + j)]!;
      values[i] = set;
      offset += count;
    }
    return { docs: this.docs.toArray(), values };
  }

  get bytesUsed(): number {
    return this.docs.bytesUsed + this.counts.bytesUsed + this.ords.bytesUsed;
  }
}

export class SortedNumericValuesBuffer {
  readonly docs = new IntList();
  readonly counts = new IntList();
  private readonly numbers = new FloatList();
  /** Set once a long outside +-2^53 arrives: from then on every value is kept exactly here. */
  private bigints: BigInt64Array | null = null;
  private bigintCount = 0;

  constructor(readonly kind: 'long' | 'double') {}

  private startValue(doc: number): void {
    const docs = this.docs;
    if (docs.length > 0 && docs.last() === doc) {
      this.counts.set(this.counts.length - 1, this.counts.last() + 1);
    } else {
      docs.push(doc);
      this.counts.push(1);
    }
  }

  addDouble(doc: number, value: number): void {
    this.startValue(doc);
    this.numbers.push(value);
  }

  addLong(doc: number, value: bigint | number): void {
    this.startValue(doc);
    if (this.bigints === null) {
      if (typeof value === 'number') {
        this.numbers.push(value);
        return;
      }
      const asNumber = Number(value);
      if (Number.isSafeInteger(asNumber)) {
        this.numbers.push(asNumber);
        return;
      }
      this.switchToBigInts();
    }
    this.pushBigInt(typeof value === 'bigint' ? value : BigInt(value));
  }

  private switchToBigInts(): void {
    const count = this.numbers.length;
    const bigints = new BigInt64Array(Math.max(16, count * 2));
    for (let i = 0; i < count; i++) bigints[i] = BigInt(this.numbers.get(i));
    this.bigints = bigints;
    this.bigintCount = count;
  }

  private pushBigInt(value: bigint): void {
    let bigints = this.bigints!;
    if (this.bigintCount === bigints.length) {
      const grown = new BigInt64Array(bigints.length * 2);
      grown.set(bigints);
      this.bigints = bigints = grown;
    }
    bigints[this.bigintCount++] = BigInt.asIntN(64, value);
  }

  toColumn(): SortedNumericColumn {
    const docs = this.docs.toArray();
    const counts = this.counts.toArray();
    if (this.kind === 'double') return { kind: 'double', docs, counts, values: this.numbers.toArray() };
    const values = this.bigints === null ? this.numbers.toArray() : this.bigints.slice(0, this.bigintCount);
    return { kind: 'long', docs, counts, values };
  }

  get bytesUsed(): number {
    return this.docs.bytesUsed + this.counts.bytesUsed + this.numbers.bytesUsed + (this.bigints?.byteLength ?? 0);
  }
}
