/**
 * Byte-level helpers shared by the translog's on-disk formats. Integers that Elasticsearch keeps as Java
 * longs (sequence numbers, terms, versions, offsets) are stored as big-endian signed 64-bit values, split
 * into two 32-bit halves so they stay JavaScript numbers: any safe integer, including the negative
 * sentinels (-1 "no ops performed", -2 "unassigned"), round-trips exactly. Values outside the safe range are
 * refused at write time rather than silently rounded.
 */

const TWO_POW_32 = 4294967296;

export class FormatError extends Error {}

export function writeInt64(target: Buffer, value: number, at: number): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`value ${value} is not a safe integer`);
  const high = Math.floor(value / TWO_POW_32);
  const low = value - high * TWO_POW_32;
  // Byte stores rather than writeInt32BE/writeUInt32BE: no range checks per half (both are in range by
  // construction) on the translog's per-record path; `>>>` gives a negative high word's two's complement bits.
  target[at] = high >>> 24;
  target[at + 1] = high >>> 16;
  target[at + 2] = high >>> 8;
  target[at + 3] = high;
  target[at + 4] = low >>> 24;
  target[at + 5] = low >>> 16;
  target[at + 6] = low >>> 8;
  target[at + 7] = low;
  return at + 8;
}

export function readInt64(source: Buffer, at: number): number {
  const high = source.readInt32BE(at);
  const low = source.readUInt32BE(at + 4);
  const value = high * TWO_POW_32 + low;
  if (!Number.isSafeInteger(value)) throw new FormatError(`64-bit value at byte ${at} is outside the safe integer range`);
  return value;
}

/** Bytes a LEB128 varint of a non-negative 32-bit value takes. */
export function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

export function writeVarint(target: Buffer, value: number, at: number): number {
  while (value >= 0x80) {
    target[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  target[at++] = value;
  return at;
}

/** A cursor over a buffer that throws FormatError (never RangeError) when a field runs past the end. */
export class ByteCursor {
  constructor(
    readonly bytes: Buffer,
    public position: number,
    readonly end: number,
  ) {}

  private need(count: number, what: string): void {
    if (this.position + count > this.end) throw new FormatError(`${what} runs past the end of the record`);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.position++]!;
  }

  u32(what: string): number {
    this.need(4, what);
    const value = this.bytes.readUInt32BE(this.position);
    this.position += 4;
    return value;
  }

  int64(what: string): number {
    this.need(8, what);
    const value = readInt64(this.bytes, this.position);
    this.position += 8;
    return value;
  }

  varint(what: string): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8(what);
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return value;
      scale *= 128;
    }
    throw new FormatError(`${what} is not a valid varint`);
  }

  slice(length: number, what: string): Buffer {
    this.need(length, what);
    const out = this.bytes.subarray(this.position, this.position + length);
    this.position += length;
    return out;
  }

  utf8(length: number, what: string): string {
    return this.slice(length, what).toString('utf8');
  }
}
