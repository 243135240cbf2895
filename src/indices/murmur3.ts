/**
 * The hash ES routes documents with (Murmur3HashFunction): Lucene's murmurhash3_x86_32 with seed 0 over the
 * routing string's UTF-16 code units, each written little-endian as two bytes. Hashing code units (not
 * UTF-8) is what makes ids with non-ASCII characters land on the same shard as on ES.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** Lucene's StringHelper.murmurhash3_x86_32 over `length` bytes from `offset`; a signed 32-bit result. */
export function murmurhash3X86_32(bytes: Uint8Array, offset: number, length: number, seed: number): number {
  let h1 = seed | 0;
  const roundedEnd = offset + (length & ~3);
  for (let i = offset; i < roundedEnd; i += 4) {
    let k1 = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k1 = Math.imul(k1, C1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, C2);
    h1 ^= k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
  }
  // The 1-3 trailing bytes, as Lucene's fall-through switch reads them.
  const tail = length & 3;
  if (tail > 0) {
    let k1 = 0;
    if (tail === 3) k1 = (bytes[roundedEnd + 2]! & 0xff) << 16;
    if (tail >= 2) k1 |= (bytes[roundedEnd + 1]! & 0xff) << 8;
    k1 |= bytes[roundedEnd]! & 0xff;
    k1 = Math.imul(k1, C1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, C2);
    h1 ^= k1;
  }
  h1 ^= length;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 | 0;
}

/** ES's Murmur3HashFunction.hash(String). */
export function murmur3Routing(routing: string): number {
  const bytes = new Uint8Array(routing.length * 2);
  for (let i = 0; i < routing.length; i++) {
    const unit = routing.charCodeAt(i);
    bytes[2 * i] = unit & 0xff;
    bytes[2 * i + 1] = unit >>> 8;
  }
  return murmurhash3X86_32(bytes, 0, bytes.length, 0);
}
