/**
 * Growable typed arrays for the indexing buffer: amortised O(1) append without a JS object per value,
 * so millions of postings cost a few large allocations instead of millions of small ones.
 */

export class IntList {
  values: Int32Array;
  length = 0;

  constructor(initialCapacity = 16) {
    this.values = new Int32Array(Math.max(4, initialCapacity));
  }

  /** A list holding `values` (taken over, not copied), full. */
  static adopt(values: Int32Array): IntList {
    const list = new IntList(4);
    list.values = values;
    list.length = values.length;
    return list;
  }

  push(value: number): void {
    if (this.length === this.values.length) this.grow(this.length + 1);
    this.values[this.length++] = value;
  }

  /** Room for `extra` more values, so a caller may write them straight into `values` and move `length`. */
  reserve(extra: number): Int32Array {
    if (this.length + extra > this.values.length) this.grow(this.length + extra);
    return this.values;
  }

  get(index: number): number {
    return this.values[index]!;
  }

  set(index: number, value: number): void {
    this.values[index] = value;
  }

  last(): number {
    return this.values[this.length - 1]!;
  }

  grow(minCapacity: number): void {
    let capacity = this.values.length * 2;
    while (capacity < minCapacity) capacity *= 2;
    const grown = new Int32Array(capacity);
    grown.set(this.values.subarray(0, this.length));
    this.values = grown;
  }

  /** A copy holding exactly the appended values. */
  toArray(): Int32Array {
    return this.values.slice(0, this.length);
  }

  get bytesUsed(): number {
    return this.values.byteLength;
  }
}

export class FloatList {
  values: Float64Array;
  length = 0;

  constructor(initialCapacity = 16) {
    this.values = new Float64Array(Math.max(4, initialCapacity));
  }

  /** A list holding `values` (taken over, not copied), full. */
  static adopt(values: Float64Array): FloatList {
    const list = new FloatList(4);
    list.values = values;
    list.length = values.length;
    return list;
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  /** Room for `extra` more values, so a caller may write them straight into `values` and move `length`. */
  reserve(extra: number): Float64Array {
    if (this.length + extra > this.values.length) {
      let capacity = this.values.length * 2;
      while (capacity < this.length + extra) capacity *= 2;
      const grown = new Float64Array(capacity);
      grown.set(this.values.subarray(0, this.length));
      this.values = grown;
    }
    return this.values;
  }

  get(index: number): number {
    return this.values[index]!;
  }

  set(index: number, value: number): void {
    this.values[index] = value;
  }

  toArray(): Float64Array {
    return this.values.slice(0, this.length);
  }

  get bytesUsed(): number {
    return this.values.byteLength;
  }
}

/** A byte per document (norms): grows to cover any index written, zero-filled. */
export class ByteList {
  values: Uint8Array;

  constructor(initialCapacity = 16) {
    this.values = new Uint8Array(Math.max(4, initialCapacity));
  }

  set(index: number, value: number): void {
    if (index >= this.values.length) {
      let capacity = this.values.length * 2;
      while (capacity <= index) capacity *= 2;
      const grown = new Uint8Array(capacity);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[index] = value;
  }

  /** The first `length` bytes (zero past what was set), as a fresh array. */
  toArray(length: number): Uint8Array {
    const out = new Uint8Array(length);
    out.set(this.values.subarray(0, Math.min(length, this.values.length)));
    return out;
  }

  get bytesUsed(): number {
    return this.values.byteLength;
  }
}

/** Grows an Int32Array to at least `minLength`, keeping its content. */
export function growInt32(array: Int32Array, minLength: number): Int32Array<ArrayBuffer> {
  let capacity = Math.max(array.length * 2, 16);
  while (capacity < minLength) capacity *= 2;
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}
