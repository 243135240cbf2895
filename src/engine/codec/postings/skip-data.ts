/**
 * The skip entries of one term (postings-format.ts), decoded for BlockPostingsEnum: per doc block, its last
 * doc, where it starts in the doc file and where its positions start. The entries' impacts are only walked
 * over here and decoded the first time impacts() is asked for (as Lucene's skip reader keeps a level's
 * impacts as bytes until getImpacts): a phrase or conjunction that never gets a minimum competitive score
 * needs the block positions of both its terms but none of their impacts, which are most of the bytes.
 */
import type { ByteReader } from '../../store/byte-reader.js';
import { firstBlockEndingAtOrAfter, TermImpacts } from './impacts.js';
import { NO_MORE_DOCS } from './postings-format.js';

export class SkipData {
  private decodedImpacts: TermImpacts | null;

  private constructor(
    readonly blockCount: number,
    /** Last doc id of each block, ascending. */
    readonly lastDocs: Int32Array,
    readonly docFPs: Float64Array,
    /** Per doc block: format 2, the start of the position block holding its first position; format 1, its first position. */
    readonly posFPs: Float64Array | null,
    /** Format 2: per doc block, how many positions of the term come before it. */
    readonly posOrdinals: Float64Array | null,
    /** The reader of the skip entries and, per block, the offset of its impacts' first (freq, norm) pair and their count. */
    private readonly reader: ByteReader | null,
    private readonly impactOffsets: Float64Array | null,
    private readonly impactCounts: Int32Array | null,
    impacts: TermImpacts | null,
  ) {
    this.decodedImpacts = impacts;
  }

  /** A term with one doc: the impact is its freq with the best possible norm (an upper bound is all WAND needs). */
  static singleton(doc: number, freq: number): SkipData {
    const impacts = new TermImpacts(1, Int32Array.of(doc), Int32Array.of(0, 1), Int32Array.of(freq), Uint8Array.of(1));
    return new SkipData(1, impacts.blockLastDocs, new Float64Array(1), null, null, null, null, null, impacts);
  }

  /**
   * Decodes the entries of `reader` (exactly the term's skip data). With `withImpacts` false the impacts
   * are only walked over (their offsets kept) and decoded if impacts() is called.
   */
  static decode(reader: ByteReader, blockCount: number, firstBlockFP: number, posStartFP: number, packedPositions: boolean, withImpacts: boolean): SkipData {
    const lastDocs = new Int32Array(blockCount);
    const docFPs = new Float64Array(blockCount);
    const posFPs = posStartFP >= 0 ? new Float64Array(blockCount) : null;
    const posOrdinals = posFPs !== null && packedPositions ? new Float64Array(blockCount) : null;
    const impactOffsets = withImpacts ? null : new Float64Array(blockCount);
    const impactCounts = withImpacts ? null : new Int32Array(blockCount);
    const impacts = withImpacts ? new ImpactsBuilder(blockCount) : null;
    let lastDoc = -1;
    let docFP = firstBlockFP;
    let posFP = posStartFP;
    let posOrdinal = 0;
    for (let b = 0; b < blockCount; b++) {
      lastDoc += smallVInt(reader);
      lastDocs[b] = lastDoc;
      docFPs[b] = docFP;
      docFP += smallVLong(reader);
      if (posFPs !== null) {
        posFPs[b] = posFP;
        posFP += smallVLong(reader);
        if (posOrdinals !== null) {
          posOrdinals[b] = posOrdinal;
          posOrdinal += smallVLong(reader);
        }
      }
      const count = smallVInt(reader);
      if (count === 0) throw reader.corrupt(`block ${b} has no impacts`);
      if (2 * count > reader.remaining) throw reader.corrupt(`count ${count} exceeds the ${reader.remaining} bytes left`);
      if (impacts !== null) {
        impacts.readBlock(reader, b, count);
      } else {
        impactCounts![b] = count;
        impactOffsets![b] = reader.position;
        skipVInts(reader, 2 * count);
      }
    }
    if (lastDoc >= NO_MORE_DOCS) throw reader.corrupt(`last doc ${lastDoc} out of range`);
    if (reader.remaining !== 0) throw reader.corrupt(`${reader.remaining} unexpected bytes after skip data`);
    return new SkipData(blockCount, lastDocs, docFPs, posFPs, posOrdinals, reader, impactOffsets, impactCounts, impacts?.build(lastDocs) ?? null);
  }

  /** Index of the first block whose last doc is >= target, from block `from`; blockCount when none. */
  blockIndexOf(target: number, from: number): number {
    return firstBlockEndingAtOrAfter(this.lastDocs, this.blockCount, target, from);
  }

  impacts(): TermImpacts {
    return (this.decodedImpacts ??= this.decodeImpacts());
  }

  private decodeImpacts(): TermImpacts {
    const reader = this.reader!;
    const offsets = this.impactOffsets!;
    const counts = this.impactCounts!;
    const builder = new ImpactsBuilder(this.blockCount);
    for (let b = 0; b < this.blockCount; b++) {
      reader.position = offsets[b]!;
      builder.readBlock(reader, b, counts[b]!);
    }
    return builder.build(this.lastDocs);
  }
}

/** Accumulates the blocks' impacts into the flat arrays of TermImpacts. */
class ImpactsBuilder {
  private readonly starts: Int32Array;
  private freqs: Int32Array;
  private norms: Uint8Array;
  private count = 0;

  constructor(private readonly blockCount: number) {
    this.starts = new Int32Array(blockCount + 1);
    this.freqs = new Int32Array(Math.max(4, blockCount * 2));
    this.norms = new Uint8Array(this.freqs.length);
  }

  /** Reads block b's `count` (freq, norm) pairs. */
  readBlock(reader: ByteReader, block: number, count: number): void {
    let k = this.count;
    if (k + count > this.freqs.length) this.grow(k + count);
    const freqs = this.freqs;
    const norms = this.norms;
    let freq = 0;
    let norm = -1;
    for (let i = 0; i < count; i++) {
      freq += smallVInt(reader) + 1;
      norm += smallVInt(reader) + 1;
      if (norm > 255) throw reader.corrupt(`impact norm ${norm} out of range`);
      freqs[k] = freq;
      norms[k] = norm;
      k++;
    }
    this.count = k;
    this.starts[block + 1] = k;
  }

  private grow(needed: number): void {
    const capacity = Math.max(this.freqs.length * 2, needed);
    const freqs = new Int32Array(capacity);
    freqs.set(this.freqs);
    const norms = new Uint8Array(capacity);
    norms.set(this.norms);
    this.freqs = freqs;
    this.norms = norms;
  }

  build(lastDocs: Int32Array): TermImpacts {
    return new TermImpacts(this.blockCount, lastDocs, this.starts, this.freqs.subarray(0, this.count), this.norms.subarray(0, this.count));
  }
}

/** Passes over `count` vInts: each ends at a byte below 0x80. */
function skipVInts(reader: ByteReader, count: number): void {
  const bytes = reader.bytes;
  const end = reader.end;
  let pos = reader.position;
  for (let left = count; left > 0; pos++) {
    if (pos >= end) throw reader.corrupt(`impacts overrun the skip data at ${pos}`);
    if (bytes[pos]! < 0x80) left--;
  }
  reader.position = pos;
}

/**
 * readVInt with the one-byte case inline: skip entries are mostly one-byte values, and the full reader
 * method (with its corruption checks) is too large for V8 to inline into the decoding loops.
 */
function smallVInt(reader: ByteReader): number {
  const pos = reader.position;
  if (pos < reader.end) {
    const b = reader.bytes[pos]!;
    if (b < 0x80) {
      reader.position = pos + 1;
      return b;
    }
  }
  return reader.readVInt();
}

/** readVLong with the one- and two-byte cases inline (block lengths in bytes mostly take two). */
function smallVLong(reader: ByteReader): number {
  const pos = reader.position;
  if (pos + 1 < reader.end) {
    const bytes = reader.bytes;
    const b0 = bytes[pos]!;
    if (b0 < 0x80) {
      reader.position = pos + 1;
      return b0;
    }
    const b1 = bytes[pos + 1]!;
    if (b1 < 0x80) {
      reader.position = pos + 2;
      return (b0 & 0x7f) | (b1 << 7);
    }
  }
  return reader.readVLong();
}
