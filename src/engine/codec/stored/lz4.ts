/**
 * LZ4 block format (the raw format, no frame): a sequence of (literals, match) pairs, each introduced by a
 * token whose high nibble is the literal length and low nibble the match length - 4 (15 = more bytes of
 * 255 follow), then the literals, then a 2-byte little-endian back-reference distance. The last 5 bytes
 * are always literals and the last match starts at least 12 bytes before the end, as the format requires,
 * so the output is readable by any LZ4 decoder.
 *
 * Written for V8: one greedy pass with a 16K-entry hash table of 4-byte sequences, skipping faster through
 * incompressible input. The decoder can stop once it has produced the bytes a caller needs, which is
 * what lets a stored-fields read decompress only the head of a block up to the requested document.
 *
 * Both directions take an optional prefix (a preset dictionary, as Lucene's LZ4WithPresetDictCompressionMode):
 * the compressor is given `dictionary ++ block` and emits only the block, whose matches may reach back into
 * the dictionary; the decompressor is given an output that already holds the dictionary and writes after it.
 */

const MIN_MATCH = 4;
const LAST_LITERALS = 5;
const MF_LIMIT = 12;
const HASH_LOG = 14;
const MAX_DISTANCE = 0xffff;

// Entries hold `base + position`. Each call starts its positions above every entry a previous call left
// behind, so stale entries read as "too far back" and the table never needs clearing between chunks.
const hashTable = new Int32Array(1 << HASH_LOG);
let hashBase = 0;

/** Largest possible compressed size of `length` input bytes. */
export function lz4CompressBound(length: number): number {
  return length + Math.floor(length / 255) + 16;
}

function read32(bytes: Uint8Array, i: number): number {
  return bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
}

function writeLength(out: Uint8Array, op: number, length: number): number {
  while (length >= 255) {
    out[op++] = 255;
    length -= 255;
  }
  out[op++] = length;
  return op;
}

/**
 * Compresses src[prefixLength, src.length); src[0, prefixLength) is the preset dictionary (at most 64 KB
 * is reachable), which is not part of the output.
 */
export function lz4Compress(src: Uint8Array, prefixLength = 0): Uint8Array {
  const length = src.length;
  const out = new Uint8Array(lz4CompressBound(length - prefixLength));
  let op = 0;
  let anchor = prefixLength;
  if (length > prefixLength + MF_LIMIT) {
    const table = hashTable;
    if (hashBase + length + MAX_DISTANCE + 1 > 0x3fffffff) {
      table.fill(0);
      hashBase = 0;
    }
    // Every stale entry is < base, hence more than MAX_DISTANCE behind any position of this call.
    const base = hashBase + MAX_DISTANCE + 1;
    hashBase = base + length;
    const matchLimit = length - LAST_LITERALS;
    const lastMatchStart = length - MF_LIMIT;
    const dictionaryStart = Math.max(0, prefixLength - MAX_DISTANCE);
    for (let p = dictionaryStart; p + MIN_MATCH <= prefixLength; p++) table[Math.imul(read32(src, p), -1640531535) >>> (32 - HASH_LOG)] = base + p;
    let ip = prefixLength;
    while (ip < lastMatchStart) {
      const sequence = read32(src, ip);
      const hash = Math.imul(sequence, -1640531535) >>> (32 - HASH_LOG);
      let ref = table[hash]! - base;
      table[hash] = base + ip;
      if (ref < 0 || ip - ref > MAX_DISTANCE || read32(src, ref) !== sequence) {
        // No match: step further the longer we go without one (incompressible data costs little).
        ip += 1 + ((ip - anchor) >>> 6);
        continue;
      }
      while (ip > anchor && ref > 0 && src[ip - 1] === src[ref - 1]) {
        ip--;
        ref--;
      }
      let matchLength = MIN_MATCH;
      while (ip + matchLength < matchLimit && src[ip + matchLength] === src[ref + matchLength]) matchLength++;

      const literalLength = ip - anchor;
      const tokenAt = op++;
      const matchCode = matchLength - MIN_MATCH;
      out[tokenAt] = (Math.min(literalLength, 15) << 4) | Math.min(matchCode, 15);
      if (literalLength >= 15) op = writeLength(out, op, literalLength - 15);
      out.set(src.subarray(anchor, ip), op);
      op += literalLength;
      const distance = ip - ref;
      out[op++] = distance & 0xff;
      out[op++] = distance >>> 8;
      if (matchCode >= 15) op = writeLength(out, op, matchCode - 15);
      ip += matchLength;
      anchor = ip;
      // Index a position inside the match too: the next match often starts right after this one.
      if (ip - 2 < lastMatchStart) table[Math.imul(read32(src, ip - 2), -1640531535) >>> (32 - HASH_LOG)] = base + ip - 2;
    }
  }
  const literalLength = length - anchor;
  out[op++] = Math.min(literalLength, 15) << 4;
  if (literalLength >= 15) op = writeLength(out, op, literalLength - 15);
  out.set(src.subarray(anchor, length), op);
  op += literalLength;
  return out.subarray(0, op);
}

export class Lz4FormatError extends Error {}

/**
 * Decompresses src[start, end) into dst from `dstStart` (dst[0, dstStart) holds the preset dictionary, if
 * any), dst ending exactly where the original ends; stops as soon as dst is filled up to `needed` (an
 * offset in dst; pass dst.length for everything). Returns the offset reached. Malformed input throws
 * Lz4FormatError; it never reads or writes out of bounds.
 */
export function lz4Decompress(src: Uint8Array, start: number, end: number, dst: Uint8Array, needed = dst.length, dstStart = 0): number {
  const progress: Lz4Progress = { ip: start, op: dstStart };
  lz4DecompressSome(src, end, dst, dst.length, progress, needed);
  if (progress.op < needed) throw new Lz4FormatError(`decompressed ${progress.op} bytes, expected ${needed}`);
  return progress.op;
}

/** Where a resumable decode stands: the next input byte and the next output byte. */
export interface Lz4Progress {
  ip: number;
  op: number;
}

/**
 * Resumable decoding, for a caller that learns how much it needs as it reads (a stored-fields id fetch scans
 * a metadata group record by record and stops at its document): continues from `progress` (ip in src, op in
 * dst) through src[.., end) and returns once op >= `needed` or the input is used up, always at a sequence
 * boundary, so the next call picks up there. The output ends at `dstEnd` (the whole decoded block: a call may
 * write past `needed` up to the end of the sequence it was in). Malformed input throws Lz4FormatError.
 */
export function lz4DecompressSome(src: Uint8Array, end: number, dst: Uint8Array, dstEnd: number, progress: Lz4Progress, needed: number): void {
  let ip = progress.ip;
  let op = progress.op;
  const dstLength = Math.min(dstEnd, dst.length);
  while (ip < end && op < needed) {
    const token = src[ip++]!;
    let literalLength = token >>> 4;
    if (literalLength === 15) {
      let b: number;
      do {
        if (ip >= end) throw new Lz4FormatError('truncated literal length');
        b = src[ip++]!;
        literalLength += b;
      } while (b === 255);
    }
    if (ip + literalLength > end || op + literalLength > dstLength) throw new Lz4FormatError('literals overrun');
    if (literalLength < 256) {
      for (let i = 0; i < literalLength; i++) dst[op + i] = src[ip + i]!;
    } else {
      dst.set(src.subarray(ip, ip + literalLength), op);
    }
    ip += literalLength;
    op += literalLength;
    // The last sequence is literals only.
    if (ip === end) break;
    if (ip + 2 > end) throw new Lz4FormatError('truncated match offset');
    const distance = src[ip]! | (src[ip + 1]! << 8);
    ip += 2;
    if (distance === 0 || distance > op) throw new Lz4FormatError(`invalid match distance ${distance} at ${op}`);
    let matchLength = token & 15;
    if (matchLength === 15) {
      let b: number;
      do {
        if (ip >= end) throw new Lz4FormatError('truncated match length');
        b = src[ip++]!;
        matchLength += b;
      } while (b === 255);
    }
    matchLength += MIN_MATCH;
    if (op + matchLength > dstLength) throw new Lz4FormatError('match overruns the output');
    let ref = op - distance;
    if (distance >= matchLength && matchLength > 32) {
      dst.copyWithin(op, ref, ref + matchLength);
      op += matchLength;
    } else {
      const matchEnd = op + matchLength;
      while (op < matchEnd) dst[op++] = dst[ref++]!;
    }
  }
  progress.ip = ip;
  progress.op = op;
}
