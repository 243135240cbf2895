/**
 * The stored `_source` of every buffered document, copied into one growable byte array (so the whole
 * store moves to the segment-writing worker as a single transferable buffer), with offsets per document.
 * A document without `_source` (disabled in the mapping) has length -1.
 */
import { FloatList } from '../util/growable.js';

export class SourceStore {
  bytes: Uint8Array;
  used = 0;
  /** Start offset of each document's source; -1 = no source. */
  readonly starts = new FloatList(256);
  readonly lengths = new FloatList(256);

  constructor(initialBytes = 64 * 1024) {
    this.bytes = new Uint8Array(initialBytes);
  }

  add(source: Uint8Array | undefined): void {
    if (source === undefined) {
      this.starts.push(-1);
      this.lengths.push(-1);
      return;
    }
    const needed = this.used + source.length;
    if (needed > this.bytes.length) {
      let capacity = this.bytes.length * 2;
      while (capacity < needed) capacity *= 2;
      const grown = new Uint8Array(capacity);
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    this.bytes.set(source, this.used);
    this.starts.push(this.used);
    this.lengths.push(source.length);
    this.used = needed;
  }

  get bytesUsed(): number {
    return this.bytes.byteLength + this.starts.bytesUsed * 2;
  }
}
