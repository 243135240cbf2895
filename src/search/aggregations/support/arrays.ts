/**
 * Per-bucket state as growable typed arrays indexed by bucket ordinal (ES's BigArrays), so collecting never
 * allocates per document: doc counts, sums with their Kahan compensation, minima, maxima.
 */
export class DoubleArray {
  private data: Float64Array;

  constructor(
    initialSize = 16,
    private readonly fill = 0,
  ) {
    this.data = new Float64Array(Math.max(1, initialSize));
    if (fill !== 0) this.data.fill(fill);
  }

  private grow(index: number): void {
    let size = this.data.length;
    while (size <= index) size *= 2;
    const grown = new Float64Array(size);
    grown.set(this.data);
    if (this.fill !== 0) grown.fill(this.fill, this.data.length);
    this.data = grown;
  }

  get(index: number): number {
    return index < this.data.length ? this.data[index]! : this.fill;
  }

  set(index: number, value: number): void {
    if (index >= this.data.length) this.grow(index);
    this.data[index] = value;
  }

  increment(index: number, by: number): void {
    if (index >= this.data.length) this.grow(index);
    this.data[index]! += by;
  }
}

/** Kahan-compensated sums per bucket (ES's CompensatedSum over DoubleArrays). */
export class CompensatedSums {
  private readonly sums = new DoubleArray();
  private readonly compensations = new DoubleArray();

  add(index: number, value: number): void {
    const sum = this.sums.get(index);
    if (!Number.isFinite(value)) {
      this.sums.set(index, sum + value);
      return;
    }
    if (!Number.isFinite(sum)) return;
    const compensation = this.compensations.get(index);
    const corrected = value - compensation;
    const next = sum + corrected;
    this.compensations.set(index, next - sum - corrected);
    this.sums.set(index, next);
  }

  get(index: number): number {
    return this.sums.get(index);
  }
}

/** Kahan summation of a sequence, as ES's reduce phases sum shard sums. */
export class KahanSum {
  private sum = 0;
  private compensation = 0;

  add(value: number): void {
    if (!Number.isFinite(value)) {
      this.sum += value;
      return;
    }
    if (!Number.isFinite(this.sum)) return;
    const corrected = value - this.compensation;
    const next = this.sum + corrected;
    this.compensation = next - this.sum - corrected;
    this.sum = next;
  }

  value(): number {
    return this.sum;
  }
}

/**
 * Bucket ordinals keyed by (owning bucket ordinal, key), ES's LongKeyedBucketOrds: each distinct pair gets
 * the next ordinal. Keys are numbers (term ids, long values, double values or histogram keys).
 */
export class KeyedBucketOrds {
  private readonly perOwner: Array<Map<number, number> | undefined> = [];
  private readonly owners: number[] = [];
  private readonly keys: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** The ordinal of (owner, key), creating it if needed; `created` tells which. */
  add(owner: number, key: number): number {
    let map = this.perOwner[owner];
    if (map === undefined) {
      map = new Map();
      this.perOwner[owner] = map;
    }
    const existing = map.get(key);
    if (existing !== undefined) return existing;
    const ord = this.keys.length;
    map.set(key, ord);
    this.keys.push(key);
    this.owners.push(owner);
    return ord;
  }

  find(owner: number, key: number): number {
    return this.perOwner[owner]?.get(key) ?? -1;
  }

  keyOf(ord: number): number {
    return this.keys[ord]!;
  }

  /** Ordinals of one owning bucket, in creation order. */
  ordsOf(owner: number): number[] {
    const map = this.perOwner[owner];
    return map === undefined ? [] : [...map.values()];
  }
}
