/** Small bit-level helpers shared by the formats. */
import { endianness } from 'node:os';

// Aligned sections are viewed as typed arrays in place, which reads them in host byte order; the files are
// little-endian. Refuse to run rather than misread on a big-endian host.
if (endianness() !== 'LE') throw new Error('gannet codecs require a little-endian host');

/** Bits needed to store `value` (0 for 0), for 0 <= value <= 2^53-1. */
export function bitsRequired(value: number): number {
  if (value <= 0xffffffff) return value === 0 ? 0 : 32 - Math.clz32(value);
  return 32 + bitsRequired(Math.floor(value / 0x100000000));
}

export function popCount32(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * A Uint32Array over `byteLength` bytes at `offset` of `bytes`: a view when the address is 4-byte
 * aligned (writers align their sections, so this is the normal case), else a copy.
 */
export function uint32View(bytes: Buffer, offset: number, wordCount: number): Uint32Array {
  const address = bytes.byteOffset + offset;
  if (address % 4 === 0) return new Uint32Array(bytes.buffer, address, wordCount);
  const copy = new Uint32Array(wordCount);
  new Uint8Array(copy.buffer).set(bytes.subarray(offset, offset + wordCount * 4));
  return copy;
}

export function float64View(bytes: Buffer, offset: number, count: number): Float64Array {
  const address = bytes.byteOffset + offset;
  if (address % 8 === 0) return new Float64Array(bytes.buffer, address, count);
  const copy = new Float64Array(count);
  new Uint8Array(copy.buffer).set(bytes.subarray(offset, offset + count * 8));
  return copy;
}

/** Number of 32-bit words of a bitset of `bitCount` bits. */
export function bitsetWords(bitCount: number): number {
  return (bitCount + 31) >>> 5;
}

/** Cumulative popcount before each word: rank(i) = ranks[i >>> 5] + popcount(word & lower bits). */
export function buildRanks(words: Uint32Array): Int32Array {
  const ranks = new Int32Array(words.length + 1);
  let total = 0;
  for (let i = 0; i < words.length; i++) {
    ranks[i] = total;
    total += popCount32(words[i]!);
  }
  ranks[words.length] = total;
  return ranks;
}

/** Number of set bits strictly before `index`. */
export function rank(words: Uint32Array, ranks: Int32Array, index: number): number {
  const word = index >>> 5;
  const bit = index & 31;
  return ranks[word]! + (bit === 0 ? 0 : popCount32(words[word]! & (0xffffffff >>> (32 - bit))));
}
