/**
 * The one-byte document-length norm, exactly as Lucene 8/9 encode it for BM25 (SmallFloat.intToByte4 of the
 * number of tokens, decoded through BM25Similarity's LENGTH_TABLE). Matching it bit for bit is what
 * makes Gannet's BM25 scores equal Elasticsearch's: the length a document is scored with is the
 * *quantized* one (a 100-token field scores as 96 tokens long).
 *
 * The encoding: lengths below 24 are stored exactly; above, the byte is 24 plus a tiny float with
 * 4 significant bits (longToInt4) of length - 24, which is monotonic, so a larger byte never means a
 * shorter document (what block-max WAND relies on when it takes the smallest norm as the best one).
 */
import type { IndexOptions } from '../segment/field-info.js';

/** Float-like encoding of a non-negative integer keeping 4 significant bits (Lucene's longToInt4). */
export function longToInt4(value: number): number {
  if (!(value >= 0) || !Number.isSafeInteger(value)) throw new RangeError(`Only supports positive values, got ${value}`);
  const numBits = value <= 0xffffffff ? 32 - Math.clz32(value) : 32 + (32 - Math.clz32(Math.floor(value / 2 ** 32)));
  if (numBits < 4) return value; // subnormal: stored as is
  const shift = numBits - 4;
  // keep the 4 most significant bits, drop the leading 1 (implicit), and record the shift + 1 (0 = subnormal)
  const mantissa = Math.floor(value / 2 ** shift) & 0x07;
  return mantissa | ((shift + 1) << 3);
}

/** Inverse of longToInt4 (Lucene's int4ToLong). */
export function int4ToLong(encoded: number): number {
  const bits = encoded & 0x07;
  const shift = (encoded >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(2 ** 31 - 1); // 231
/** Byte values below this are lengths stored exactly (24). */
export const NUM_FREE_VALUES = 255 - MAX_INT4;

/** Encodes a length (0 <= length <= 2^31-1) into an unsigned byte, like Lucene's SmallFloat.intToByte4. */
export function intToByte4(length: number): number {
  if (!(length >= 0) || !Number.isInteger(length) || length > 2 ** 31 - 1) {
    throw new RangeError(`Only supports positive values, got ${length}`);
  }
  return length < NUM_FREE_VALUES ? length : NUM_FREE_VALUES + longToInt4(length - NUM_FREE_VALUES);
}

/** Decodes an unsigned norm byte (0..255) back to the (approximate) length it stands for. */
export function byte4ToInt(normByte: number): number {
  const unsigned = normByte & 0xff;
  return unsigned < NUM_FREE_VALUES ? unsigned : NUM_FREE_VALUES + int4ToLong(unsigned - NUM_FREE_VALUES);
}

/** BM25Similarity.LENGTH_TABLE: the length each norm byte stands for, as the float Lucene scores with. */
export const LENGTH_TABLE: Float32Array = (() => {
  const table = new Float32Array(256);
  for (let i = 0; i < 256; i++) table[i] = byte4ToInt(i);
  return table;
})();

/** What the indexer counted for one field of one document (Lucene's FieldInvertState, the parts norms use). */
export interface FieldLengthState {
  /** Number of tokens, including overlaps (tokens with a position increment of 0, such as synonyms). */
  length: number;
  /** Number of tokens with a position increment of 0. */
  numOverlap: number;
  /** Number of distinct terms. */
  uniqueTermCount: number;
}

/**
 * The norm byte Lucene's Similarity.computeNorm writes (indices created by Lucene 8+): the token count,
 * minus overlaps when discountOverlaps (the default), or the distinct term count for docs-only fields.
 * A field that is present but produced no token gets 0, as Lucene's indexing chain writes it; 0 is never
 * the norm of a field that contains a term, so no match is ever scored with it.
 */
export function computeNormByte(options: IndexOptions, state: FieldLengthState, discountOverlaps = true): number {
  if (state.length === 0) return 0;
  let numTerms: number;
  if (options === 'docs') numTerms = state.uniqueTermCount;
  else if (discountOverlaps) numTerms = state.length - state.numOverlap;
  else numTerms = state.length;
  return intToByte4(numTerms);
}
