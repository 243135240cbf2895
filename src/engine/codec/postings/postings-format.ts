/**
 * Postings: which documents contain a term, how often, and at which positions.
 *
 * Doc file (`<segment>.doc`), body = the postings of every term with docFreq >= 2, back to back in term
 * order (a term with one document is inlined in the term dictionary instead, as Lucene "pulses" it):
 *
 *   TermPostings = SkipLength(vInt) Skip Block+
 *   Skip   = one entry per block: LastDocDelta(vInt) DocBlockLength(vLong) [PosFPDelta(vLong) PosCount(vLong)]
 *            ImpactCount(vInt) { FreqDelta(vInt) NormDelta(vInt) }*
 *   Block  = full block of 128 docs: DocBits(byte) PackedDocDeltas(16*DocBits bytes)
 *                                    [FreqBits(byte) PackedFreqs(16*FreqBits bytes)]
 *          | tail block of docFreq % 128 docs, as vInts: with freqs, vLong((delta-1)*2 + (freq == 1 ? 1 : 0))
 *            then Freq(vInt) when freq != 1; without freqs, vInt(delta-1)
 *
 * Doc deltas are stored minus one (doc - previousDoc - 1, the first relative to -1), so a dense run costs
 * zero bits; frequencies are stored minus one for the same reason (freq 1 is by far the most common).
 *
 * Skip entries give each block's last doc (for advance()), its byte length (to jump to it) and its
 * competitive impacts: the (freq, norm) pairs no other pair of the block beats on both — higher freq and
 * lower norm — which is Lucene's Impacts. Any score that grows with freq and shrinks with the norm byte
 * (BM25 does both) reaches its block maximum on one of these pairs, so block-max WAND gets the exact
 * block bound. Pairs are sorted by norm ascending, hence freq strictly ascending: both are delta-coded
 * (freq - previousFreq - 1 from 0, norm - previousNorm - 1 from -1). Fields without norms use norm 1;
 * fields without freqs use freq 1.
 *
 * Positions file (`<segment>.pos`), format 2 (Lucene84's layout without payloads and offsets): per term,
 * the position deltas of all its docs in doc order as one stream (each doc's first position relative to
 * 0), cut into blocks of 128 that straddle documents:
 *
 *   TermPositions = PosBlock* PosTail
 *   PosBlock = Bits(byte) PackedDeltas(16*Bits bytes)       (the term's first floor(totalTermFreq/128)*128)
 *   PosTail  = Delta(vInt) * (totalTermFreq % 128)
 *
 * Doc block b's skip entry gives PosFPDelta = (start of the position block that holds doc block b+1's first
 * position) - (same for block b; block 0's is the term's posStartFP) and PosCount = the positions of doc
 * block b. So the reader finds, for any doc block, the position block to decode and the offset in it
 * (the position count before the doc block, mod 128), and skips the positions of docs it steps over by
 * moving an index, or by jumping over whole blocks after reading their width byte, without decoding them.
 *
 * Format 1 (still read; `PosCount` absent): for each doc, `freq` positions as vInt deltas, and PosFPDelta
 * is the byte length of the doc block's positions. Unread positions had to be decoded one vInt at a time.
 */
export const POSTINGS_DOC_CODEC = 'GannetPostingsDoc';
export const POSTINGS_POS_CODEC = 'GannetPostingsPos';
export const POSTINGS_VERSION_START = 1;
/** Positions in packed blocks of 128 across docs, and skip entries that locate a doc block inside them. */
export const POSTINGS_VERSION_PACKED_POSITIONS = 2;
export const POSTINGS_VERSION_CURRENT = POSTINGS_VERSION_PACKED_POSITIONS;
export const DOC_EXTENSION = 'doc';
export const POS_EXTENSION = 'pos';

/** doc id meaning "exhausted"; doc ids are 0 <= doc < NO_MORE_DOCS. */
export const NO_MORE_DOCS = 0x7fffffff;
/** Largest frequency or position accepted (Java's Integer.MAX_VALUE). */
export const MAX_FREQ = 0x7fffffff;

/** Where a term's postings are and what the term dictionary stores about them (Lucene's BlockTermState). */
export interface TermState {
  docFreq: number;
  totalTermFreq: number;
  /** Offset of the term's postings in the doc file's body (after the header); -1 for a singleton. */
  docStartFP: number;
  /** Offset of the term's first position in the positions file's body; -1 when positions are not indexed. */
  posStartFP: number;
  /** The one document of a term with docFreq 1 (its freq is totalTermFreq); -1 otherwise. */
  singletonDoc: number;
}

/** What a caller needs from a postings cursor; asking for less lets the reader decode less. */
export const POSTINGS_DOCS = 0;
export const POSTINGS_FREQS = 1;
export const POSTINGS_POSITIONS = 2;
export type PostingsFlags = typeof POSTINGS_DOCS | typeof POSTINGS_FREQS | typeof POSTINGS_POSITIONS;
