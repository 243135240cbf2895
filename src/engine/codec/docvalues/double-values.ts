/**
 * Arrays of doubles: integral values (no fraction, no -0, within 2^53) reuse the long compression;
 * anything else is stored raw as little-endian float64, 8-byte aligned, and viewed in place.
 */
import type { ByteReader } from '../../store/byte-reader.js';
import type { ByteWriter } from '../../store/byte-writer.js';
import { float64View } from '../bits.js';
import { DOUBLE_ENCODING_INTEGRAL, DOUBLE_ENCODING_RAW } from './doc-values-format.js';
import { LongValuesReader, readLongValuesMeta, writeLongValues, writeLongValuesMeta, type LongValuesMeta } from './long-values.js';

export type DoubleValuesMeta =
  | { readonly encoding: typeof DOUBLE_ENCODING_INTEGRAL; readonly longs: LongValuesMeta }
  | { readonly encoding: typeof DOUBLE_ENCODING_RAW; readonly offset: number; readonly count: number };

function allIntegral(values: Float64Array, count: number): boolean {
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    if (!Number.isSafeInteger(v) || Object.is(v, -0)) return false;
  }
  return true;
}

export function writeDoubleValues(out: ByteWriter, values: Float64Array, count = values.length): DoubleValuesMeta {
  if (allIntegral(values, count)) {
    return { encoding: DOUBLE_ENCODING_INTEGRAL, longs: writeLongValues(out, values, count) };
  }
  out.alignTo(8);
  const offset = out.length;
  out.writeBytes(new Uint8Array(values.buffer, values.byteOffset, count * 8));
  return { encoding: DOUBLE_ENCODING_RAW, offset, count };
}

export function writeDoubleValuesMeta(toc: ByteWriter, meta: DoubleValuesMeta): void {
  toc.writeByte(meta.encoding);
  if (meta.encoding === DOUBLE_ENCODING_INTEGRAL) {
    writeLongValuesMeta(toc, meta.longs);
  } else {
    toc.writeUInt64LE(meta.offset);
    toc.writeVInt(meta.count);
  }
}

export function readDoubleValuesMeta(toc: ByteReader): DoubleValuesMeta {
  const encoding = toc.readByte();
  if (encoding === DOUBLE_ENCODING_INTEGRAL) return { encoding, longs: readLongValuesMeta(toc) };
  if (encoding === DOUBLE_ENCODING_RAW) return { encoding, offset: toc.readUInt64LE(), count: toc.readVInt() };
  throw toc.corrupt(`unknown double encoding ${encoding}`);
}

export class DoubleValuesReader {
  readonly count: number;
  private readonly longs: LongValuesReader | null;
  private readonly raw: Float64Array | null;

  constructor(bytes: Buffer, meta: DoubleValuesMeta, body: ByteReader) {
    if (meta.encoding === DOUBLE_ENCODING_INTEGRAL) {
      this.longs = new LongValuesReader(bytes, meta.longs, body);
      this.raw = null;
      this.count = meta.longs.count;
    } else {
      if (meta.offset < body.start || meta.offset + meta.count * 8 > body.end) throw body.corrupt('double values lie outside the body');
      this.longs = null;
      this.raw = float64View(bytes, meta.offset, meta.count);
      this.count = meta.count;
    }
  }

  get(index: number): number {
    return this.raw !== null ? this.raw[index]! : this.longs!.get(index);
  }
}
