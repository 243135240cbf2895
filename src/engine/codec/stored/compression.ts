/**
 * Compression modes of stored fields. Measured on the Debian corpus (bench/micro/stored-fields.ts; figures
 * in ../FORMATS.md): in Node, native deflate decompresses a chunk faster than the pure-JS LZ4 and compresses
 * faster at level 1, while its output is ~30% smaller, so deflate is the default:
 *
 * - `deflate_fast` (default, ES `index.codec: default`): raw deflate level 1, 16 KB chunks.
 * - `deflate_best` (ES `best_compression`): raw deflate level 6, 60 KB chunks.
 * - `lz4`: pure-JS LZ4, 16 KB chunks; the fastest single-document fetch (decoding stops at the document)
 *   at ~1.4x the bytes of deflate_fast.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { lz4Compress, lz4Decompress } from './lz4.js';

export type StoredCompression = 'deflate_fast' | 'deflate_best' | 'lz4';

export const COMPRESSION_IDS: Record<StoredCompression, number> = { lz4: 0, deflate_fast: 1, deflate_best: 2 };

/** Raw bytes per chunk each mode aims for. */
export const CHUNK_SIZES: Record<StoredCompression, number> = { lz4: 16 * 1024, deflate_fast: 16 * 1024, deflate_best: 60 * 1024 };

export function compressionFromId(id: number): StoredCompression | undefined {
  return (Object.keys(COMPRESSION_IDS) as StoredCompression[]).find((mode) => COMPRESSION_IDS[mode] === id);
}

export function compress(mode: StoredCompression, raw: Uint8Array): Uint8Array {
  if (mode === 'lz4') return lz4Compress(raw);
  return deflateRawSync(raw, { level: mode === 'deflate_fast' ? 1 : 6 });
}

/**
 * Decompresses into a new buffer of `rawLength` bytes; with LZ4 only the first `needed` bytes are
 * guaranteed (decoding stops there). Throws on malformed input.
 */
export function decompress(mode: StoredCompression, compressed: Uint8Array, rawLength: number, needed: number): Buffer {
  if (mode === 'lz4') {
    const out = Buffer.allocUnsafe(rawLength);
    lz4Decompress(compressed, 0, compressed.length, out, needed);
    return out;
  }
  const out = inflateRawSync(compressed, { maxOutputLength: Math.max(rawLength, 1) });
  if (out.length !== rawLength) throw new Error(`inflated ${out.length} bytes, expected ${rawLength}`);
  return out;
}
