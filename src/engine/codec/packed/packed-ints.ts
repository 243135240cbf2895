/**
 * Random-access packed arrays of unsigned integers of up to 32 bits (doc values ords, addresses, and the
 * low/high halves of wide longs). Layout: the values back to back, `bitsPerValue` bits each, in
 * little-endian 32-bit words, 4-byte aligned in the file, plus one padding word so a read never has to
 * check whether a value straddles the end. Readers view the words in place (no copy, no decode on open).
 */
import type { ByteReader } from '../../store/byte-reader.js';
import type { ByteWriter } from '../../store/byte-writer.js';
import { uint32View } from '../bits.js';

export interface PackedArrayMeta {
  /** Absolute file offset of the first word. */
  readonly offset: number;
  readonly count: number;
  readonly bitsPerValue: number;
}

export function packedWordCount(count: number, bitsPerValue: number): number {
  return bitsPerValue === 0 ? 0 : Math.ceil((count * bitsPerValue) / 32) + 1;
}

/** Writes `count` values (each < 2^bitsPerValue, bitsPerValue <= 32), read through `valueAt`. */
export function writePackedArray(
  out: ByteWriter,
  count: number,
  bitsPerValue: number,
  valueAt: (index: number) => number,
): PackedArrayMeta {
  if (bitsPerValue < 0 || bitsPerValue > 32) throw new RangeError(`bitsPerValue must be in [0, 32], got ${bitsPerValue}`);
  if (count * bitsPerValue >= 2 ** 32) throw new RangeError(`packed array too large: ${count} values of ${bitsPerValue} bits`);
  out.alignTo(4);
  const offset = out.length;
  if (bitsPerValue === 0) return { offset, count, bitsPerValue };
  const words = new Uint32Array(packedWordCount(count, bitsPerValue));
  let wordIndex = 0;
  let shift = 0;
  let word = 0;
  for (let i = 0; i < count; i++) {
    const value = valueAt(i) >>> 0;
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
  if (shift > 0) words[wordIndex] = word;
  out.writeBytes(new Uint8Array(words.buffer));
  return { offset, count, bitsPerValue };
}

export function writePackedArrayMeta(out: ByteWriter, meta: PackedArrayMeta): void {
  out.writeUInt64LE(meta.offset);
  out.writeVInt(meta.count);
  out.writeByte(meta.bitsPerValue);
}

export function readPackedArrayMeta(toc: ByteReader): PackedArrayMeta {
  const offset = toc.readUInt64LE();
  const count = toc.readVInt();
  const bitsPerValue = toc.readByte();
  if (bitsPerValue > 32) throw toc.corrupt(`invalid bitsPerValue ${bitsPerValue}`);
  return { offset, count, bitsPerValue };
}

/** Random access into a packed array; `get` is a handful of integer operations. */
export class PackedArrayReader {
  readonly count: number;
  readonly bitsPerValue: number;
  private readonly words: Uint32Array;
  private readonly mask: number;

  constructor(bytes: Buffer, meta: PackedArrayMeta, body: ByteReader) {
    this.count = meta.count;
    this.bitsPerValue = meta.bitsPerValue;
    this.mask = meta.bitsPerValue === 32 ? -1 : 2 ** meta.bitsPerValue - 1;
    const wordCount = packedWordCount(meta.count, meta.bitsPerValue);
    if (meta.offset < body.start || meta.offset + wordCount * 4 > body.end) {
      throw body.corrupt(`packed array [${meta.offset}, +${wordCount * 4}) lies outside the body`);
    }
    this.words = wordCount === 0 ? new Uint32Array(0) : uint32View(bytes, meta.offset, wordCount);
  }

  get(index: number): number {
    const bitsPerValue = this.bitsPerValue;
    if (bitsPerValue === 0) return 0;
    const bitPosition = index * bitsPerValue;
    const wordIndex = bitPosition >>> 5;
    const shift = bitPosition & 31;
    let value = this.words[wordIndex]! >>> shift;
    if (shift + bitsPerValue > 32) value |= this.words[wordIndex + 1]! << (32 - shift);
    return (value & this.mask) >>> 0;
  }
}
