/**
 * CRC-32 (IEEE 802.3, the polynomial zlib and Java's CRC32 use). Node ships a native one from 20.15/22.2;
 * the table version keeps older Node 20 releases (the engines field allows 20.12) producing identical sums.
 */
import * as zlib from 'node:zlib';

type Crc32Fn = (data: Uint8Array, initial?: number) => number;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The portable implementation; exported so a test can check it agrees with the native one. */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  let crc = (initial ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const native = (zlib as unknown as { crc32?: Crc32Fn }).crc32;

/** CRC-32 of `data`, continuing from `initial` (the CRC of the bytes before it). */
export const crc32: Crc32Fn = native ? (data, initial = 0) => native(data, initial) >>> 0 : crc32Portable;

/**
 * TABLE extended for slicing-by-8 (Intel's technique, as zlib's braided CRC): row t maps a byte to the CRC of it
 * followed by t zero bytes, so eight bytes are folded per step with eight lookups.
 */
const SLICES = (() => {
  const slices = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) slices[n] = TABLE[n]!;
  for (let n = 0; n < 256; n++) {
    for (let t = 1; t < 8; t++) {
      const previous = slices[(t - 1) * 256 + n]!;
      slices[t * 256 + n] = (previous >>> 8) ^ slices[previous & 0xff]!;
    }
  }
  return slices;
})();

/**
 * Up to this many bytes, crc32Range sums in JavaScript: the native call (argument checks, a view of the range,
 * the binding) cost ~290 ns a call on this host, more than slicing-by-8 over a small translog record (~100 ns for
 * 60 bytes, ~190-270 for 180); from ~300 bytes the native code is faster.
 */
const JS_RANGE_MAX_BYTES = 256;

/** CRC-32 of `bytes[start, end)`, without a view of the range when it is small (translog records, one per operation). */
export function crc32Range(bytes: Uint8Array, start: number, end: number): number {
  if (end - start > JS_RANGE_MAX_BYTES) return crc32(bytes.subarray(start, end));
  const slices = SLICES;
  let crc = -1;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const low = crc ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    crc =
      slices[1792 + (low & 0xff)]! ^
      slices[1536 + ((low >>> 8) & 0xff)]! ^
      slices[1280 + ((low >>> 16) & 0xff)]! ^
      slices[1024 + (low >>> 24)]! ^
      slices[768 + bytes[i + 4]!]! ^
      slices[512 + bytes[i + 5]!]! ^
      slices[256 + bytes[i + 6]!]! ^
      slices[bytes[i + 7]!]!;
  }
  for (; i < end; i++) crc = slices[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** `vec` multiplied by the 32x32 bit matrix `matrix` over GF(2). */
function gf2Times(matrix: Uint32Array, vec: number): number {
  let sum = 0;
  for (let row = 0; vec !== 0; row++, vec >>>= 1) if (vec & 1) sum ^= matrix[row]!;
  return sum >>> 0;
}

function gf2Square(target: Uint32Array, matrix: Uint32Array): void {
  for (let row = 0; row < 32; row++) target[row] = gf2Times(matrix, matrix[row]!);
}

/**
 * The CRC-32 of A followed by B, from the CRC of A, the CRC of B and B's length (zlib's crc32_combine, which
 * Node does not expose): appending `length` zero bytes is a linear map on the CRC register, applied by repeated
 * squaring in O(log length) 32x32 matrix products. This lets a record's checksum be finished in microseconds when
 * the checksum of its large payload was computed earlier, elsewhere (the translog, a 95 MB source).
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  // The operator for one zero bit, then for two and four zero bits.
  odd[0] = 0xedb88320;
  for (let row = 1, bit = 1; row < 32; row++, bit <<= 1) odd[row] = bit;
  gf2Square(even, odd);
  gf2Square(odd, even);
  let crc = crcA >>> 0;
  let remaining = lengthB;
  // Each step squares the operator (a byte, two bytes, four...) and applies it where `remaining` has a one bit.
  for (;;) {
    gf2Square(even, odd);
    if (remaining % 2 === 1) crc = gf2Times(even, crc);
    remaining = Math.floor(remaining / 2);
    if (remaining === 0) break;
    gf2Square(odd, even);
    if (remaining % 2 === 1) crc = gf2Times(odd, crc);
    remaining = Math.floor(remaining / 2);
    if (remaining === 0) break;
  }
  return (crc ^ crcB) >>> 0;
}
