/**
 * Frame-of-reference packing of exactly 128 integers (a postings block), each in `bitsPerValue` bits,
 * little-endian into 32-bit words: 128 * b bits is always 4 * b whole words, so a packed block takes
 * exactly 16 * b bytes and needs no length prefix. Values must be 0 <= v < 2^b; b = 0 means all zeros
 * and takes no bytes (dense postings, where every doc delta is 1, cost nothing).
 *
 * Why bit-packing rather than vInts (bench/micro/postings-codec.ts, figures in ../FORMATS.md): on the
 * Debian corpus blocks it is 40% smaller (0.63 vs 1.04 bytes per int), because a block's width adapts to
 * its largest value while vInts pay a continuation bit per 7 bits; with the generated per-width decoders
 * (for-decoders.ts) it decodes about 4x faster than vInts, and it lets docs-only readers skip a block's
 * freqs without decoding them.
 */
import type { ByteWriter } from '../../store/byte-writer.js';
import { consecutiveDocs, DECODERS, DELTA_DECODERS } from './for-decoders.js';

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
 * Decodes packed blocks with the width's generated straight-line decoder (for-decoders.ts), reading the
 * block's words in place through a DataView over the source, so a block at any byte offset needs no copy.
 * Keeps the view of the last source it was given: one view per file rather than one per block (a view or
 * subarray per block was most of a phrase query's garbage).
 */
export class BlockUnpacker {
  private source: Uint8Array | null = null;
  private sourceView: DataView | null = null;

  /** Reads 128 values of `bitsPerValue` bits at `offset` of `source` into `out`. */
  unpack(source: Uint8Array, offset: number, bitsPerValue: number, out: Int32Array): void {
    if (bitsPerValue === 0) {
      out.fill(0, 0, BLOCK_SIZE);
      return;
    }
    DECODERS[bitsPerValue]!(this.viewOf(source, offset, bitsPerValue), offset, out);
  }

  /**
   * Reads a block of doc gaps minus one (as postings store them) and writes the doc ids they lead to from
   * `base`: out[0] = base + value 0 + 1, out[i] = out[i - 1] + value i + 1. Returns the last doc id, computed
   * exactly (out[] holds it modulo 2^32), for the caller's range check. One pass instead of unpack plus a
   * prefix sum: a loop over out[] costs V8 about 1 ns per value, more than the decode itself.
   */
  unpackDocDeltas(source: Uint8Array, offset: number, bitsPerValue: number, out: Int32Array, base: number): number {
    if (bitsPerValue === 0) return consecutiveDocs(out, base); // every gap is 1
    return DELTA_DECODERS[bitsPerValue]!(this.viewOf(source, offset, bitsPerValue), offset, out, base);
  }

  /** The view over `source` (cached per source), once the block's bytes are known to lie inside it. */
  private viewOf(source: Uint8Array, offset: number, bitsPerValue: number): DataView {
    if (!(bitsPerValue > 0 && bitsPerValue <= 32)) throw new RangeError(`packed block width ${bitsPerValue} outside [0, 32]`);
    const byteCount = packedBlockBytes(bitsPerValue);
    if (offset < 0 || offset + byteCount > source.length) throw new RangeError(`packed block [${offset}, ${offset + byteCount}) outside ${source.length} bytes`);
    if (source !== this.source) {
      this.source = source;
      this.sourceView = new DataView(source.buffer, source.byteOffset, source.byteLength);
    }
    return this.sourceView!;
  }
}
