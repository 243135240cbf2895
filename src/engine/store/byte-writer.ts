/**
 * A growable in-memory output for building one file. Codec writers build a whole file in memory and hand
 * the bytes to a Directory in one call; segments are written once, so there is nothing to stream.
 *
 * Integers: fixed-width values are little-endian (so readers can view aligned sections as typed arrays
 * without copying on little-endian hosts); variable-length integers are LEB128 ("vInt"), as Lucene's
 * DataOutput writes them. vLong here covers 0..2^53-1, the integers a JS number holds exactly.
 */

const INITIAL_CAPACITY = 256;
/** Strings up to this many UTF-16 units are checked for ASCII and copied in JS (see writeString). */
const SHORT_STRING = 64;

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) >= 0x80) return false;
  return true;
}

export class ByteWriter {
  private buffer: Buffer;
  private position = 0;

  constructor(initialCapacity = INITIAL_CAPACITY) {
    this.buffer = Buffer.allocUnsafe(Math.max(16, initialCapacity));
  }

  /** Number of bytes written so far (the file pointer of the next byte). */
  get length(): number {
    return this.position;
  }

  /** The bytes written so far, without copying; valid until the next write. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.position);
  }

  /** A copy of the bytes written so far, sized exactly. */
  toBuffer(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.position));
  }

  reset(): void {
    this.position = 0;
  }

  private ensure(extra: number): void {
    const needed = this.position + extra;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.buffer.copy(grown, 0, 0, this.position);
    this.buffer = grown;
  }

  writeByte(value: number): void {
    this.ensure(1);
    this.buffer[this.position++] = value;
  }

  writeBytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.position);
    this.position += bytes.length;
  }

  /**
   * bytes[start, end) without a view of them: a term's suffix, written once per term, where making a subarray and
   * the native copy of a few bytes cost more than copying them here.
   */
  writeBytesRange(bytes: Uint8Array, start: number, end: number): void {
    if (!(start >= 0 && start <= end && end <= bytes.length)) throw new RangeError(`range [${start}, ${end}) outside ${bytes.length} bytes`);
    const length = end - start;
    if (length > 32) {
      this.writeBytes(bytes.subarray(start, end));
      return;
    }
    this.ensure(length);
    const buf = this.buffer;
    const at = this.position;
    for (let i = 0; i < length; i++) buf[at + i] = bytes[start + i]!;
    this.position = at + length;
  }

  /** Appends zero bytes until the length is a multiple of `alignment` (so typed-array views line up). */
  alignTo(alignment: number): void {
    const padding = (alignment - (this.position % alignment)) % alignment;
    this.ensure(padding);
    this.buffer.fill(0, this.position, this.position + padding);
    this.position += padding;
  }

  /** Unsigned 32-bit LEB128: 1 to 5 bytes. */
  writeVInt(value: number): void {
    if (!(value >= 0 && value <= 0xffffffff) || !Number.isInteger(value)) {
      throw new RangeError(`vInt out of range: ${value}`);
    }
    this.ensure(5);
    const buf = this.buffer;
    let pos = this.position;
    let v = value >>> 0;
    while (v >= 0x80) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos++] = v;
    this.position = pos;
  }

  /** Unsigned LEB128 for any safe integer (0..2^53-1): 1 to 8 bytes. */
  writeVLong(value: number): void {
    if (value <= 0xffffffff && value >= 0) {
      this.writeVInt(value);
      return;
    }
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`vLong out of range: ${value}`);
    this.ensure(8);
    const buf = this.buffer;
    let pos = this.position;
    let v = value;
    while (v >= 0x80) {
      buf[pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    buf[pos++] = v;
    this.position = pos;
  }

  /** Signed safe integer, zig-zag encoded so small negative numbers stay short. */
  writeZLong(value: number): void {
    if (!Number.isSafeInteger(value)) throw new RangeError(`zLong out of range: ${value}`);
    this.writeVLong(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  writeUInt32LE(value: number): void {
    this.ensure(4);
    this.buffer.writeUInt32LE(value >>> 0, this.position);
    this.position += 4;
  }

  writeInt32LE(value: number): void {
    this.ensure(4);
    this.buffer.writeInt32LE(value | 0, this.position);
    this.position += 4;
  }

  writeUInt32BE(value: number): void {
    this.ensure(4);
    this.buffer.writeUInt32BE(value >>> 0, this.position);
    this.position += 4;
  }

  /** A safe non-negative integer as 8 little-endian bytes (file pointers, lengths). */
  writeUInt64LE(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`uint64 out of range: ${value}`);
    this.ensure(8);
    this.buffer.writeUInt32LE(value % 0x100000000, this.position);
    this.buffer.writeUInt32LE(Math.floor(value / 0x100000000), this.position + 4);
    this.position += 8;
  }

  writeBigInt64LE(value: bigint): void {
    this.ensure(8);
    this.buffer.writeBigInt64LE(value, this.position);
    this.position += 8;
  }

  writeFloat64LE(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.position);
    this.position += 8;
  }

  /** UTF-8 string prefixed by its byte length as a vInt. */
  writeString(value: string): void {
    if (value.length <= SHORT_STRING && isAscii(value)) {
      // Short ASCII (ids, field names): copied unit by unit; two native calls per string cost more.
      const length = value.length;
      this.writeVInt(length);
      this.ensure(length);
      const buf = this.buffer;
      const at = this.position;
      for (let i = 0; i < length; i++) buf[at + i] = value.charCodeAt(i);
      this.position = at + length;
      return;
    }
    const length = Buffer.byteLength(value, 'utf8');
    this.writeVInt(length);
    this.ensure(length);
    this.buffer.write(value, this.position, length, 'utf8');
    this.position += length;
  }

  /** Bytes prefixed by their length as a vInt. */
  writeLengthPrefixedBytes(bytes: Uint8Array): void {
    this.writeVInt(bytes.length);
    this.writeBytes(bytes);
  }
}
