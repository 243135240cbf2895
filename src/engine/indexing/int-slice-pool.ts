/**
 * One growable Int32Array holding every term's postings stream of an indexing buffer, as chains of
 * slices (Lucene's ByteBlockPool/ByteSliceWriter, in ints): a term's first slice is tiny, each next one
 * larger, so rare terms waste little and frequent terms append without frequent jumps. A slice's last
 * int is the link: the address of the next slice once the slice is full.
 *
 * Addresses are absolute indexes into `ints`; growing the pool copies it, so callers re-read `ints`
 * after any call that may allocate, but addresses stay valid.
 */

/** Slice sizes by level, link slot included; the last size repeats. */
export const SLICE_SIZES: readonly number[] = [4, 8, 16, 32, 64, 128, 256, 512];
const MAX_LEVEL = SLICE_SIZES.length - 1;

export class IntSlicePool {
  ints: Int32Array;
  used = 0;

  constructor(initialInts = 16 * 1024) {
    this.ints = new Int32Array(initialInts);
  }

  /** Allocates a slice of `level`; returns its start address. */
  allocate(level: number): number {
    const size = SLICE_SIZES[level]!;
    if (this.used + size > this.ints.length) {
      let capacity = this.ints.length * 2;
      while (capacity < this.used + size) capacity *= 2;
      const grown = new Int32Array(capacity);
      grown.set(this.ints.subarray(0, this.used));
      this.ints = grown;
    }
    const start = this.used;
    this.used += size;
    return start;
  }

  get bytesUsed(): number {
    return this.ints.byteLength;
  }
}

/** The write position of one stream: where the next int goes, where its slice's link slot is, its level. */
export interface StreamCursor {
  write: number;
  limit: number;
  level: number;
}

/** Walks one stream written through StreamWriter, from its start address up to its end address. */
export class SliceReader {
  private ints: Int32Array = new Int32Array(0);
  private position = 0;
  private limit = 0;
  private level = 0;
  private end = 0;

  init(pool: IntSlicePool, start: number, end: number): void {
    this.ints = pool.ints;
    this.position = start;
    this.level = 0;
    this.limit = start + SLICE_SIZES[0]! - 1;
    this.end = end;
  }

  get done(): boolean {
    return this.position === this.end;
  }

  next(): number {
    if (this.position === this.limit) {
      this.position = this.ints[this.limit]!;
      this.level = Math.min(this.level + 1, MAX_LEVEL);
      this.limit = this.position + SLICE_SIZES[this.level]! - 1;
    }
    return this.ints[this.position++]!;
  }
}

export { MAX_LEVEL as MAX_SLICE_LEVEL };
