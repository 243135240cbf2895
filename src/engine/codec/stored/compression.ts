/**
 * The two compression modes of stored fields, named after Elasticsearch's `index.codec` values:
 * `default` is LZ4 (fast to read, what a search fetch wants), `best_compression` is raw deflate at level 6.
 * See bench/micro/stored-fields.ts for the measured trade-off on the Debian corpus.
 */
import { deflateRawSync, inflateRawSync, constants as zlibConstants } from 'node:zlib';
import { lz4Compress, lz4Decompress } from './lz4.js';

export type StoredCompression = 'lz4' | 'deflate';

export const COMPRESSION_IDS: Record<StoredCompression, number> = { lz4: 0, deflate: 1 };

export function compressionFromId(id: number): StoredCompression | undefined {
  return id === 0 ? 'lz4' : id === 1 ? 'deflate' : undefined;
}

export function compress(mode: StoredCompression, raw: Uint8Array): Uint8Array {
  return mode === 'lz4' ? lz4Compress(raw) : deflateRawSync(raw, { level: 6, strategy: zlibConstants.Z_DEFAULT_STRATEGY });
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
