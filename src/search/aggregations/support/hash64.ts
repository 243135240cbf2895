/**
 * The 64-bit hashes Elasticsearch's aggregations use, computed on pairs of unsigned 32-bit words (hi, lo) so
 * per-value hashing never allocates BigInts:
 * - mix64: hppc's BitMixer.mix64 (Stafford variant 9), what cardinality hashes longs and double bits with;
 * - murmur3 x64_128 (seed 0), whose first half h1 is what cardinality hashes terms with;
 * - murmur3 x86_32, Lucene's StringHelper.murmurhash3_x86_32, what terms partitions hash terms with.
 * Results are written into a caller-owned Uint32Array [hi, lo] (`out`) to stay allocation free.
 */

/** A reusable pair of 32-bit words: out[0] = high word, out[1] = low word. */
export type Hash64 = Uint32Array;

export function newHash64(): Hash64 {
  return new Uint32Array(2);
}

/** (aHi:aLo) * (bHi:bLo) mod 2^64, with 16-bit limbs so every partial product stays exact in a double. */
function mul64(aHi: number, aLo: number, bHi: number, bLo: number, out: Hash64): void {
  const a48 = aHi >>> 16;
  const a32 = aHi & 0xffff;
  const a16 = aLo >>> 16;
  const a00 = aLo & 0xffff;
  const b48 = bHi >>> 16;
  const b32 = bHi & 0xffff;
  const b16 = bLo >>> 16;
  const b00 = bLo & 0xffff;
  let c00 = a00 * b00;
  let c16 = c00 >>> 16;
  c00 &= 0xffff;
  c16 += a16 * b00;
  let c32 = c16 >>> 16;
  c16 &= 0xffff;
  c16 += a00 * b16;
  c32 += c16 >>> 16;
  c16 &= 0xffff;
  c32 += a32 * b00;
  let c48 = c32 >>> 16;
  c32 &= 0xffff;
  c32 += a16 * b16;
  c48 += c32 >>> 16;
  c32 &= 0xffff;
  c32 += a00 * b32;
  c48 += c32 >>> 16;
  c32 &= 0xffff;
  c48 += a48 * b00 + a32 * b16 + a16 * b32 + a00 * b48;
  c48 &= 0xffff;
  out[0] = (c48 << 16) | c32;
  out[1] = (c16 << 16) | c00;
}

const scratch = new Uint32Array(2);

/** BitMixer.mix64 of the 64-bit value (hi:lo). */
export function mix64(hi: number, lo: number, out: Hash64): void {
  // z = (z ^ (z >>> 32)) * 0x4cd6944c5cc20b6d
  let zHi = hi >>> 0;
  let zLo = (lo ^ hi) >>> 0;
  mul64(zHi, zLo, 0x4cd6944c, 0x5cc20b6d, scratch);
  zHi = scratch[0]!;
  zLo = scratch[1]!;
  // z = (z ^ (z >>> 29)) * 0xfc12c5b19d3259e9
  const shiftedHi = zHi >>> 29;
  const shiftedLo = ((zHi << 3) | (zLo >>> 29)) >>> 0;
  mul64((zHi ^ shiftedHi) >>> 0, (zLo ^ shiftedLo) >>> 0, 0xfc12c5b1, 0x9d3259e9, scratch);
  zHi = scratch[0]!;
  zLo = scratch[1]!;
  // z ^ (z >>> 32)
  out[0] = zHi;
  out[1] = (zLo ^ zHi) >>> 0;
}

/** The two's complement words of an integral JS number (exact for safe integers). */
export function longWords(value: number, out: Hash64): void {
  out[1] = value >>> 0;
  out[0] = Math.floor(value / 4294967296) >>> 0;
}

const doubleView = new Float64Array(1);
const doubleWords = new Uint32Array(doubleView.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Double.doubleToLongBits: the IEEE bits, every NaN canonicalised to 0x7ff8000000000000. */
export function doubleBits(value: number, out: Hash64): void {
  if (Number.isNaN(value)) {
    out[0] = 0x7ff80000;
    out[1] = 0;
    return;
  }
  doubleView[0] = value;
  out[0] = doubleWords[LITTLE_ENDIAN ? 1 : 0]!;
  out[1] = doubleWords[LITTLE_ENDIAN ? 0 : 1]!;
}

/** mix64 of a long value, as cardinality hashes integral doc values. */
export function hashLong(value: number, out: Hash64): void {
  longWords(value, out);
  mix64(out[0]!, out[1]!, out);
}

/** mix64 of Double.doubleToLongBits, as cardinality hashes floating point doc values. */
export function hashDouble(value: number, out: Hash64): void {
  doubleBits(value, out);
  mix64(out[0]!, out[1]!, out);
}

// ---- MurmurHash3 x64_128, 64-bit arithmetic on BigInt: it runs once per distinct term, not per value. ----

const MASK64 = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

function rotl64(x: bigint, r: bigint): bigint {
  return ((x << r) | (x >> (64n - r))) & MASK64;
}

function fmix64(input: bigint): bigint {
  let k = input;
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & MASK64;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & MASK64;
  k ^= k >> 33n;
  return k;
}

function readLong(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let i = 7; i >= 0; i--) value = (value << 8n) | BigInt(bytes[offset + i]!);
  return value;
}

/** h1 of MurmurHash3.hash128(bytes, 0, length, seed 0), written as words. */
export function murmur3x64h1(bytes: Uint8Array, out: Hash64): void {
  const length = bytes.length;
  const blocks = length >>> 4;
  let h1 = 0n;
  let h2 = 0n;
  for (let i = 0; i < blocks; i++) {
    let k1 = readLong(bytes, i * 16);
    let k2 = readLong(bytes, i * 16 + 8);
    k1 = (k1 * C1) & MASK64;
    k1 = rotl64(k1, 31n);
    k1 = (k1 * C2) & MASK64;
    h1 ^= k1;
    h1 = rotl64(h1, 27n);
    h1 = (h1 + h2) & MASK64;
    h1 = (h1 * 5n + 0x52dce729n) & MASK64;
    k2 = (k2 * C2) & MASK64;
    k2 = rotl64(k2, 33n);
    k2 = (k2 * C1) & MASK64;
    h2 ^= k2;
    h2 = rotl64(h2, 31n);
    h2 = (h2 + h1) & MASK64;
    h2 = (h2 * 5n + 0x38495ab5n) & MASK64;
  }
  const tail = blocks * 16;
  const rest = length & 15;
  let k1 = 0n;
  let k2 = 0n;
  for (let i = rest - 1; i >= 8; i--) k2 = (k2 << 8n) | BigInt(bytes[tail + i]!);
  for (let i = Math.min(rest, 8) - 1; i >= 0; i--) k1 = (k1 << 8n) | BigInt(bytes[tail + i]!);
  if (rest > 8) {
    k2 = (k2 * C2) & MASK64;
    k2 = rotl64(k2, 33n);
    k2 = (k2 * C1) & MASK64;
    h2 ^= k2;
  }
  if (rest > 0) {
    k1 = (k1 * C1) & MASK64;
    k1 = rotl64(k1, 31n);
    k1 = (k1 * C2) & MASK64;
    h1 ^= k1;
  }
  const len = BigInt(length);
  h1 ^= len;
  h2 ^= len;
  h1 = (h1 + h2) & MASK64;
  h2 = (h2 + h1) & MASK64;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = (h1 + h2) & MASK64;
  out[0] = Number(h1 >> 32n);
  out[1] = Number(h1 & 0xffffffffn);
}

/** Lucene's StringHelper.murmurhash3_x86_32 as a signed int. */
export function murmur3x86(bytes: Uint8Array, seed: number): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h1 = seed | 0;
  const roundedEnd = bytes.length & ~3;
  for (let i = 0; i < roundedEnd; i += 4) {
    let k1 = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
  }
  const rest = bytes.length & 3;
  if (rest > 0) {
    let k1 = 0;
    if (rest === 3) k1 = bytes[roundedEnd + 2]! << 16;
    if (rest >= 2) k1 |= bytes[roundedEnd + 1]! << 8;
    k1 |= bytes[roundedEnd]!;
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
  }
  h1 ^= bytes.length;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 | 0;
}

/** Math.floorMod of a signed 64-bit (hi:lo) value by a small positive int. */
export function floorMod64(hi: number, lo: number, divisor: number): number {
  const value = BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
  const mod = value % BigInt(divisor);
  return Number(mod < 0n ? mod + BigInt(divisor) : mod);
}
