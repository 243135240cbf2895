/**
 * Frame-of-reference packing of exactly 128 integers (a postings block), each in `bitsPerValue` bits,
 * little-endian into 32-bit words: 128 * b bits is always 4 * b whole words, so a packed block takes
 * exactly 16 * b bytes and needs no length prefix. Values must be 0 <= v < 2^b; b = 0 means all zeros
 * and takes no bytes (dense postings, where every doc delta is 1, cost nothing).
 *
 * Why bit-packing rather than vInts (bench/micro/postings-codec.ts, figures in ../FORMATS.md): on the
 * Debian corpus blocks it is 40% smaller (0.63 vs 1.04 bytes per int), because a block's width adapts to
 * its largest value while vInts pay a continuation bit per 7 bits; in V8 it decodes at roughly the same
 * speed (0.6-1.2x across runs), and it lets docs-only readers skip a block's freqs without decoding them.
 */
import type { ByteWriter } from '../../store/byte-writer.js';

export const BLOCK_SIZE = 128;

export function packedBlockBytes(bitsPerValue: number): number {
  return 16 * bitsPerValue;
}

/** Width needed for the first 128 values of `values`. */
export function blockBitsRequired(values: Int32Array): number {
  let or = 0;
  for (let i = 0; i < BLOCK_SIZE; i++) or |= values[i]!;
  return or === 0 ? 0 : 32 - Math.clz32(or);
}

const packScratch = new Uint32Array(BLOCK_SIZE);
const packScratchBytes = new Uint8Array(packScratch.buffer);

/** Writes the first 128 values of `values`, each of which must fit `bitsPerValue` bits. */
export function packBlock(values: Int32Array, bitsPerValue: number, out: ByteWriter): void {
  if (bitsPerValue === 0) return;
  const words = packScratch;
  let wordIndex = 0;
  let shift = 0;
  let word = 0;
  for (let i = 0; i < BLOCK_SIZE; i++) {
    const value = values[i]! >>> 0;
    word |= value << shift;
    const end = shift + bitsPerValue;
    if (end >= 32) {
      words[wordIndex++] = word;
      word = end > 32 ? value >>> (32 - shift) : 0;
      shift = end - 32;
    } else {
      shift = end;
    }
  }
  out.writeBytes(packScratchBytes.subarray(0, packedBlockBytes(bitsPerValue)));
}

/**
 * Decodes packed blocks. Holds an aligned scratch buffer: the block's 32-bit words are first copied there
 * (through a DataView, so whatever the block's offset in the file, and without allocating a view per block:
 * a subarray per block was most of a phrase query's garbage).
 */
export class BlockUnpacker {
  // One spare word: the branch-free read below always loads the word after the value's first word.
  private readonly words = new Uint32Array(BLOCK_SIZE + 1);
  private source: Uint8Array | null = null;
  private sourceView: DataView | null = null;

  /**
   * Reads 128 values of `bitsPerValue` bits at `offset` of `source` into `out`, each plus `add` (freqs are
   * stored minus one: adding here saves a second pass over the block).
   */
  unpack(source: Uint8Array, offset: number, bitsPerValue: number, out: Int32Array, add = 0): void {
    if (bitsPerValue === 0) {
      out.fill(add, 0, BLOCK_SIZE);
      return;
    }
    const byteCount = packedBlockBytes(bitsPerValue);
    if (offset < 0 || offset + byteCount > source.length) throw new RangeError(`packed block [${offset}, ${offset + byteCount}) outside ${source.length} bytes`);
    if (source !== this.source) {
      this.source = source;
      this.sourceView = new DataView(source.buffer, source.byteOffset, source.byteLength);
    }
    const view = this.sourceView!;
    const words = this.words;
    const wordCount = byteCount >>> 2;
    for (let w = 0; w < wordCount; w++) words[w] = view.getUint32(offset + 4 * w, true);
    words[wordCount] = 0;
    const mask = bitsPerValue === 32 ? -1 : 2 ** bitsPerValue - 1;
    if ((32 % bitsPerValue) === 0) {
      // Widths that divide 32 (1, 2, 4, 8, 16, 32; most freq blocks) never straddle words.
      let i = 0;
      for (let w = 0; w < 4 * bitsPerValue; w++) {
        const word = words[w]!;
        for (let shift = 0; shift < 32; shift += bitsPerValue) out[i++] = ((word >>> shift) & mask) + add;
      }
      return;
    }
    let bitPosition = 0;
    for (let i = 0; i < BLOCK_SIZE; i++) {
      const wordIndex = bitPosition >>> 5;
      const shift = bitPosition & 31;
      // The high part is (next word << (32 - shift)), written as two shifts so that shift 0 yields 0
      // (JS masks shift counts to 5 bits: x << 32 would be x). No branch on whether the value straddles.
      out[i] = (((words[wordIndex]! >>> shift) | ((words[wordIndex + 1]! << (31 - shift)) << 1)) & mask) + add;
      bitPosition += bitsPerValue;
    }
  }
}
