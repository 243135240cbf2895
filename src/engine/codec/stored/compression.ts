/**
 * Compression of stored-field blocks, each optionally against a preset dictionary (the tail of the chunk's
 * first block: Lucene 8.7+'s LZ4WithPresetDict / DeflateWithPresetDict idea), so reading one document costs
 * the dictionary block plus the one small block that holds it, not a whole chunk.
 *
 * - `lz4` (Lucene's default codec; an engine option no index setting selects, used by the in-process
 *   benchmark's segment): pure-JS LZ4; decoding runs in JS (no native call per block) and stops at the document.
 * - `deflate_fast` (`index.codec: default`): raw deflate level 1.
 * - `deflate_best` (`index.codec: best_compression`): raw deflate level 6 with bigger blocks.
 *
 * Figures behind the block sizes: ../FORMATS.md (bench/micro/stored-fields.ts).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { lz4Compress, lz4Decompress } from './lz4.js';

export type StoredCompression = 'deflate_fast' | 'deflate_best' | 'lz4';

/** A block's compression: a stored mode, or `none` (metadata blocks, format 3: read in place, no decoding). */
export type BlockCompression = StoredCompression | 'none';

export const COMPRESSION_IDS: Record<BlockCompression, number> = { lz4: 0, deflate_fast: 1, deflate_best: 2, none: 3 };

/** How a chunk is cut into blocks. Targets are raw bytes; a block is cut once one is reached. */
export interface BlockLayout {
  /** Body bytes of block 0, whose tail is every other block's preset dictionary. */
  readonly dictionaryBlockBytes: number;
  /** Body bytes of blocks 1.. */
  readonly blockBytes: number;
  readonly blocksPerChunk: number;
  /** Metadata (`_id`, numbers, ...) bytes of a block: what an id-only fetch decompresses. */
  readonly metaBytes: number;
  readonly maxDocsPerBlock: number;
  /** Compression of the metadata part. */
  readonly metaCompression: BlockCompression;
  /**
   * Docs per independently compressed group of a block's metadata (format 3): an id fetch decodes one
   * group, not the block. Decoding a 128-doc LZ4 group of ids cost ~10 µs, more than a term query; 16 docs
   * cost ~2.5 µs and keep most of the ratio (time-based ids: 0.29 of raw vs 0.23 for 128 docs, where
   * storing them raw would take 4x the bytes). bench/micro/search-qps.ts, bench/micro/stored-fields.ts.
   * An id fetch decodes its group only up to its doc, so the cost grows with the group: groups of 8 cost
   * ~20-30% less per id for ~3% more file bytes on npm (../FORMATS.md). Not taken: only `lz4`, which no index
   * uses by default (the in-process benchmark's segment does, as Lucene's default codec is LZ4), would have
   * been worth it, and a layout tuned for a benchmark alone is not one users get.
   */
  readonly metaGroupDocs: number;
}

export const BLOCK_LAYOUTS: Record<StoredCompression, BlockLayout> = {
  lz4: { dictionaryBlockBytes: 4 * 1024, blockBytes: 8 * 1024, blocksPerChunk: 11, metaBytes: 4 * 1024, maxDocsPerBlock: 128, metaCompression: 'lz4', metaGroupDocs: 16 },
  deflate_fast: { dictionaryBlockBytes: 8 * 1024, blockBytes: 8 * 1024, blocksPerChunk: 11, metaBytes: 4 * 1024, maxDocsPerBlock: 128, metaCompression: 'lz4', metaGroupDocs: 16 },
  deflate_best: { dictionaryBlockBytes: 16 * 1024, blockBytes: 32 * 1024, blocksPerChunk: 11, metaBytes: 16 * 1024, maxDocsPerBlock: 512, metaCompression: 'deflate_best', metaGroupDocs: 512 },
};

/** Bytes of the dictionary block's tail a block may refer to (deflate's window; LZ4's is 64 KB). */
export function dictionaryReach(mode: BlockCompression): number {
  return mode === 'lz4' ? 0xffff : 32 * 1024;
}

export function compressionFromId(id: number): BlockCompression | undefined {
  return (Object.keys(COMPRESSION_IDS) as BlockCompression[]).find((mode) => COMPRESSION_IDS[mode] === id);
}

/** Compresses `block` against `dictionary` (may be empty). */
export function compressBlock(mode: BlockCompression, dictionary: Uint8Array, block: Uint8Array): Uint8Array {
  if (block.length === 0) return new Uint8Array(0);
  // A copy: `block` is usually a view of a writer's buffer that the next block overwrites.
  if (mode === 'none') return Uint8Array.prototype.slice.call(block);
  if (mode === 'lz4') {
    if (dictionary.length === 0) return lz4Compress(block);
    const joined = new Uint8Array(dictionary.length + block.length);
    joined.set(dictionary, 0);
    joined.set(block, dictionary.length);
    return lz4Compress(joined, dictionary.length);
  }
  const level = mode === 'deflate_fast' ? 1 : 6;
  return dictionary.length === 0 ? deflateRawSync(block, { level }) : deflateRawSync(block, { level, dictionary });
}

/**
 * Decompresses a block of `rawLength` bytes; with LZ4 only the first `needed` bytes are guaranteed (decoding
 * stops there). Throws on malformed input.
 */
export function decompressBlock(mode: BlockCompression, dictionary: Uint8Array, compressed: Uint8Array, rawLength: number, needed: number): Buffer {
  if (rawLength === 0) {
    if (compressed.length !== 0) throw new Error(`${compressed.length} compressed bytes for an empty block`);
    return Buffer.alloc(0);
  }
  if (mode === 'none') {
    if (compressed.length !== rawLength) throw new Error(`${compressed.length} stored bytes, expected ${rawLength}`);
    return Buffer.from(compressed.buffer, compressed.byteOffset, compressed.length);
  }
  if (mode === 'lz4') {
    const out = Buffer.allocUnsafe(dictionary.length + rawLength);
    out.set(dictionary, 0);
    lz4Decompress(compressed, 0, compressed.length, out, dictionary.length + needed, dictionary.length);
    return out.subarray(dictionary.length);
  }
  const options = { maxOutputLength: rawLength, ...(dictionary.length > 0 && { dictionary }) };
  const out = inflateRawSync(compressed, options);
  if (out.length !== rawLength) throw new Error(`inflated ${out.length} bytes, expected ${rawLength}`);
  return out;
}
