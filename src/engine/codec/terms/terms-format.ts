/**
 * Term dictionary (`<segment>.tim`): per indexed field, its terms in UTF-8 byte order (Lucene's BytesRef
 * order, which is also Unicode code point order), with each term's statistics and postings pointers.
 *
 *   Body  = FieldSection* Toc TocPointer
 *   FieldSection = Block* Index
 *   Block = TermCount(vInt) DocBase(vLong) PosBase(vLong) TermEntry{TermCount}
 *   TermEntry = PrefixLength(vInt) SuffixLength(vInt) Suffix DocFreq(vInt) [TotalTermFreq - DocFreq (vLong)]
 *               (DocFreq == 1 ? SingletonDoc(vInt) : DocStartFPDelta(vLong)) [PosStartFPDelta(vLong)]
 *   Index = BlockCount(vInt) { BlockFPDelta(vLong) FirstTerm(vInt length + bytes) }*
 *   Toc   = FieldCount(vInt) { Name(string) Flags(byte) TermCount(vLong) SumDocFreq(vLong)
 *           SumTotalTermFreq(vLong) DocCount(vInt) IndexFP(u64) MinTerm(bytes) MaxTerm(bytes) }*
 *
 * Terms are front-coded within blocks of TERMS_PER_BLOCK: each stores the length of the prefix it shares
 * with the previous term of the block (the first shares nothing) and its remaining suffix. Pointers are
 * deltas from the previous term of the block (the first from the block's base), so they stay small.
 * All offsets (block, index, postings pointers) are relative to the start of their file's body, i.e. just
 * after the header, so that sections can be built before the header is known.
 * The index (first term and file offset of each block) is loaded into memory on a field's first use:
 * an exact seek is a binary search over block first terms plus a scan of at most one block.
 */
export const TERMS_CODEC = 'GannetTerms';
export const TERMS_VERSION_START = 1;
export const TERMS_VERSION_CURRENT = TERMS_VERSION_START;
export const TERMS_EXTENSION = 'tim';

export const TERMS_PER_BLOCK = 32;

export const FIELD_FLAG_FREQS = 1;
export const FIELD_FLAG_POSITIONS = 2;

/** Unsigned byte-wise comparison of a[aStart, aEnd) with b (no view allocated). */
export function compareByteRange(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array): number {
  const aLength = aEnd - aStart;
  const length = Math.min(aLength, b.length);
  for (let i = 0; i < length; i++) {
    const diff = a[aStart + i]! - b[i]!;
    if (diff !== 0) return diff;
  }
  return aLength - b.length;
}

/** Unsigned byte-wise comparison of a[0, aLength) with b, the order terms are sorted in. */
export function compareBytes(a: Uint8Array, aLength: number, b: Uint8Array): number {
  const length = Math.min(aLength, b.length);
  for (let i = 0; i < length; i++) {
    const diff = a[i]! - b[i]!;
    if (diff !== 0) return diff;
  }
  return aLength - b.length;
}
