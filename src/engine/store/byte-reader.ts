/**
 * A bounds-checked cursor over a region of a file held in memory. Every read past `end` throws a
 * corruption error naming the resource, so a damaged or truncated file never yields a silent wrong value
 * (the checksum normally catches damage first; these checks catch what a checksum cannot: bugs and files
 * that are consistent but lie about their own lengths).
 */
import { errors } from '../../common/errors.js';

export class ByteReader {
  /** Absolute offset in `bytes` of the next byte to read. */
  position: number;

  constructor(
    readonly bytes: Buffer,
    readonly start: number,
    readonly end: number,
    readonly resource: string,
  ) {
    if (start < 0 || end > bytes.length || start > end) {
      throw errors.corruptIndex(`invalid region [${start}, ${end}) of a ${bytes.length}-byte file`, resource);
    }
    this.position = start;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  /** A reader over [from, to) of the same file, for a section whose bounds came from the file itself. */
  slice(from: number, to: number): ByteReader {
    if (from < this.start || to > this.end || from > to) {
      throw this.corrupt(`section [${from}, ${to}) lies outside [${this.start}, ${this.end})`);
    }
    return new ByteReader(this.bytes, from, to, this.resource);
  }

  seek(position: number): void {
    if (position < this.start || position > this.end) throw this.corrupt(`seek to ${position} outside [${this.start}, ${this.end})`);
    this.position = position;
  }

  corrupt(message: string): Error {
    return errors.corruptIndex(message, this.resource);
  }

  private need(count: number): void {
    if (this.position + count > this.end) {
      throw this.corrupt(`read past EOF: wanted ${count} bytes at ${this.position}, region ends at ${this.end}`);
    }
  }

  readByte(): number {
    if (this.position >= this.end) this.need(1);
    return this.bytes[this.position++]!;
  }

  /** Zero-copy view of the next `length` bytes. */
  readBytes(length: number): Buffer {
    this.need(length);
    const view = this.bytes.subarray(this.position, this.position + length);
    this.position += length;
    return view;
  }

  /** Copies the next `length` bytes into target[targetOffset...] (no view allocated: for hot loops). */
  readBytesInto(target: Uint8Array, targetOffset: number, length: number): void {
    this.need(length);
    const bytes = this.bytes;
    const from = this.position;
    if (length <= 32) {
      for (let i = 0; i < length; i++) target[targetOffset + i] = bytes[from + i]!;
    } else {
      target.set(bytes.subarray(from, from + length), targetOffset);
    }
    this.position = from + length;
  }

  skipBytes(length: number): void {
    this.need(length);
    this.position += length;
  }

  readVInt(): number {
    const bytes = this.bytes;
    let pos = this.position;
    const end = this.end;
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= end) {
        this.position = pos;
        this.need(1);
      }
      const b = bytes[pos++]!;
      if (shift === 28 && b > 0x0f) {
        this.position = pos;
        throw this.corrupt('invalid vInt: more than 32 bits');
      }
      result |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.position = pos;
        return result >>> 0;
      }
    }
    this.position = pos;
    throw this.corrupt('invalid vInt: more than 5 bytes');
  }

  readVLong(): number {
    const bytes = this.bytes;
    let pos = this.position;
    let result = 0;
    let multiplier = 1;
    for (let i = 0; i < 8; i++) {
      if (pos >= this.end) {
        this.position = pos;
        this.need(1);
      }
      const b = bytes[pos++]!;
      result += (b & 0x7f) * multiplier;
      if (b < 0x80) {
        this.position = pos;
        if (result > Number.MAX_SAFE_INTEGER) throw this.corrupt('invalid vLong: above 2^53-1');
        return result;
      }
      multiplier *= 0x80;
    }
    this.position = pos;
    throw this.corrupt('invalid vLong: more than 8 bytes');
  }

  readZLong(): number {
    const encoded = this.readVLong();
    return encoded % 2 === 0 ? encoded / 2 : -(encoded + 1) / 2;
  }

  readUInt32LE(): number {
    this.need(4);
    const value = this.bytes.readUInt32LE(this.position);
    this.position += 4;
    return value;
  }

  readInt32LE(): number {
    this.need(4);
    const value = this.bytes.readInt32LE(this.position);
    this.position += 4;
    return value;
  }

  readUInt32BE(): number {
    this.need(4);
    const value = this.bytes.readUInt32BE(this.position);
    this.position += 4;
    return value;
  }

  readUInt64LE(): number {
    this.need(8);
    const low = this.bytes.readUInt32LE(this.position);
    const high = this.bytes.readUInt32LE(this.position + 4);
    this.position += 8;
    const value = high * 0x100000000 + low;
    if (value > Number.MAX_SAFE_INTEGER) throw this.corrupt('invalid uint64: above 2^53-1');
    return value;
  }

  readBigInt64LE(): bigint {
    this.need(8);
    const value = this.bytes.readBigInt64LE(this.position);
    this.position += 8;
    return value;
  }

  readFloat64LE(): number {
    this.need(8);
    const value = this.bytes.readDoubleLE(this.position);
    this.position += 8;
    return value;
  }

  readString(): string {
    const length = this.readVInt();
    this.need(length);
    const value = this.bytes.toString('utf8', this.position, this.position + length);
    this.position += length;
    return value;
  }

  readLengthPrefixedBytes(): Buffer {
    return this.readBytes(this.readVInt());
  }

  /** Reads a count that must fit what is left of the region (each counted item takes >= `minBytesEach`). */
  readCount(minBytesEach = 1): number {
    const count = this.readVInt();
    if (count * minBytesEach > this.remaining) throw this.corrupt(`count ${count} exceeds the ${this.remaining} bytes left`);
    return count;
  }
}
