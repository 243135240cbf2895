/**
 * A Bloom filter over the `_id`s of one segment, so that indexing a new id (the common case) does not seek
 * the `_id` term dictionary of every segment: a negative answer is certain, a positive one is checked
 * with a real seek. About 10 bits and 7 probes per id: under 1% false positives.
 * Built by whoever writes the segment (flush or merge) or, for segments found on disk, from their `_id`
 * terms; it lives in memory only.
 */

const BITS_PER_ID = 10;
const PROBES = 7;
const SECOND_SEED = 0x9747b28c;

/**
 * An id as every segment's filter probes it: its two hashes, computed once per lookup rather than once per
 * segment, and for an ASCII id straight from its characters (its UTF-8 bytes), without a Buffer per lookup. The
 * bytes themselves are made only when a filter answers "maybe" (a real seek follows), which for a new id is
 * under 1% of the segments.
 */
export class IdProbe {
  readonly h1: number;
  readonly h2: number;
  private bytesMemo: Uint8Array | undefined;

  constructor(readonly id: string) {
    let ascii = true;
    for (let i = 0; i < id.length; i++) {
      if (id.charCodeAt(i) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      this.h1 = murmur3Ascii(id, 0);
      this.h2 = murmur3Ascii(id, SECOND_SEED) | 1;
    } else {
      const bytes = this.bytes;
      this.h1 = murmur3(bytes, 0);
      this.h2 = murmur3(bytes, SECOND_SEED) | 1;
    }
  }

  /** The id's UTF-8 bytes (made once, when first asked for). */
  get bytes(): Uint8Array {
    return (this.bytesMemo ??= Buffer.from(this.id, 'utf8'));
  }
}

export class IdFilter {
  private constructor(
    readonly words: Uint32Array,
    private readonly bitCount: number,
  ) {}

  static create(expectedIds: number): IdFilter {
    const bitCount = Math.max(64, Math.ceil(Math.max(1, expectedIds) * BITS_PER_ID));
    const words = new Uint32Array(Math.ceil(bitCount / 32));
    return new IdFilter(words, words.length * 32);
  }

  /** Wraps words produced by `create` + `add` elsewhere (a worker). */
  static fromWords(words: Uint32Array): IdFilter {
    return new IdFilter(words, words.length * 32);
  }

  add(idBytes: Uint8Array): void {
    const h1 = murmur3(idBytes, 0);
    const h2 = murmur3(idBytes, SECOND_SEED) | 1;
    const words = this.words;
    for (let i = 0; i < PROBES; i++) {
      const bit = probeBit(h1, h2, i, this.bitCount);
      words[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  mayContain(idBytes: Uint8Array): boolean {
    return this.mayContainHashed(murmur3(idBytes, 0), murmur3(idBytes, SECOND_SEED) | 1);
  }

  /** mayContain for an id whose two hashes were computed once for every segment (IdProbe). */
  mayContainProbe(probe: IdProbe): boolean {
    return this.mayContainHashed(probe.h1, probe.h2);
  }

  private mayContainHashed(h1: number, h2: number): boolean {
    const words = this.words;
    for (let i = 0; i < PROBES; i++) {
      const bit = probeBit(h1, h2, i, this.bitCount);
      if ((words[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  get bytesUsed(): number {
    return this.words.byteLength;
  }
}

/**
 * The bit probe `i` of an id tests, of `bitCount`: its hash (h1 + i * h2, unsigned) scaled into the range by a
 * multiplication (Lemire's multiply-shift, in doubles: exact below 2^53, never `bitCount` or more above), not by `%`.
 * V8 takes the remainder of an unsigned 32-bit value above 2^31 in floating point through a runtime call: with `%`,
 * probing eight segments' filters for a new id cost ~2.5 us, ~1 us like this (every write of an id not in the version
 * map probes every segment). The filter lives in memory only, built and probed by this same code, so the choice of
 * bits is no format.
 */
export function probeBit(h1: number, h2: number, i: number, bitCount: number): number {
  return Math.floor(((h1 + Math.imul(i, h2)) >>> 0) * bitCount * TWO_TO_MINUS_32);
}

/** 2^-32: multiplying by it is exact, and cheaper than dividing by 2^32. */
const TWO_TO_MINUS_32 = 1 / 4294967296;

/** MurmurHash3 x86 32-bit over bytes. */
export function murmur3(bytes: Uint8Array, seed: number): number {
  let h = seed >>> 0;
  const length = bytes.length;
  const blocks = length & ~3;
  for (let i = 0; i < blocks; i += 4) h = mixBlock(h, bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
  const tail = length & 3;
  let k = 0;
  if (tail > 0) {
    k = bytes[blocks]!;
    if (tail > 1) k ^= bytes[blocks + 1]! << 8;
    if (tail > 2) k ^= bytes[blocks + 2]! << 16;
  }
  return finish(h, tail, k, length);
}

/** murmur3 of an ASCII string's bytes (its character codes), with no byte array: equal to murmur3(utf8(text), seed). */
export function murmur3Ascii(text: string, seed: number): number {
  let h = seed >>> 0;
  const length = text.length;
  const blocks = length & ~3;
  for (let i = 0; i < blocks; i += 4) {
    h = mixBlock(h, text.charCodeAt(i) | (text.charCodeAt(i + 1) << 8) | (text.charCodeAt(i + 2) << 16) | (text.charCodeAt(i + 3) << 24));
  }
  const tail = length & 3;
  let k = 0;
  if (tail > 0) {
    k = text.charCodeAt(blocks);
    if (tail > 1) k ^= text.charCodeAt(blocks + 1) << 8;
    if (tail > 2) k ^= text.charCodeAt(blocks + 2) << 16;
  }
  return finish(h, tail, k, length);
}

/** murmur3's scramble of a block (or of the tail's bytes) before it enters the hash. */
function scramble(k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, 0x1b873593);
}

/** One 4-byte block (little-endian) mixed into the hash. */
function mixBlock(h: number, block: number): number {
  h ^= scramble(block);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** The last step: the tail's `tail` bytes (`k`), the length, then the avalanche; unsigned. */
function finish(h: number, tail: number, k: number, length: number): number {
  if (tail > 0) h ^= scramble(k);
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
