/**
 * The hash ES routes documents with (Murmur3HashFunction): Lucene's murmurhash3_x86_32 with seed 0 over the
 * routing string's UTF-16 code units, each written little-endian as two bytes. Hashing code units (not
 * UTF-8) is what makes ids with non-ASCII characters land on the same shard as on ES.
 */
import { murmur3 } from '../engine/segments/id-filter.js';

/** Lucene's StringHelper.murmurhash3_x86_32 over `length` bytes from `offset`; a signed 32-bit result. */
export function murmurhash3X86_32(bytes: Uint8Array, offset: number, length: number, seed: number): number {
  const range = offset === 0 && length === bytes.length ? bytes : bytes.subarray(offset, offset + length);
  return murmur3(range, seed) | 0;
}

/** ES's Murmur3HashFunction.hash(String). */
export function murmur3Routing(routing: string): number {
  const bytes = new Uint8Array(routing.length * 2);
  for (let i = 0; i < routing.length; i++) {
    const unit = routing.charCodeAt(i);
    bytes[2 * i] = unit & 0xff;
    bytes[2 * i + 1] = unit >>> 8;
  }
  return murmurhash3X86_32(bytes, 0, bytes.length, 0);
}
