/**
 * PostingsEnum over the block format of postings-format.ts. Decodes one block of 128 doc ids at a time into
 * an Int32Array (no object per posting), freqs only when asked, skip data only when advance() needs to
 * jump, impacts are requested, or positions are read past the term's first doc block.
 *
 * Positions are lazy, as in Lucene's two-phase phrase matching: moving the doc cursor does no position
 * work at all. Only when nextPosition() is first called on a doc does the enum skip the positions of the
 * docs it stepped over since it last read positions (the sum of their freqs, from the decoded freq block)
 * and, when the doc is in another doc block than that read, first locate the block's positions from its
 * skip entry. A phrase whose terms meet in many docs but rarely in order reads few positions.
 */
import { ByteReader } from '../../store/byte-reader.js';
import { BLOCK_SIZE, BlockUnpacker, packedBlockBytes } from '../packed/for-util.js';
import { TermImpacts } from './impacts.js';
import type { PostingsEnum } from './postings-enum.js';
import { NO_MORE_DOCS, POSTINGS_FREQS, POSTINGS_POSITIONS, type PostingsFlags, type TermState } from './postings-format.js';

/** Widest packed position delta read in place: its bits plus a shift of up to 7 fit a 32-bit word. */
const MAX_IN_PLACE_BITS = 25;

/** Skip data of one term, decoded: block positions in the files plus the impacts. */
interface SkipData {
  readonly impacts: TermImpacts;
  readonly docFPs: Float64Array;
  /** Per doc block: format 2, the start of the position block holding its first position; format 1, its first position. */
  readonly posFPs: Float64Array | null;
  /** Format 2: per doc block, how many positions of the term come before it. */
  readonly posOrdinals: Float64Array | null;
}

export class BlockPostingsEnum implements PostingsEnum {
  private readonly unpacker = new BlockUnpacker();
  /** Apart from the doc file's unpacker, each keeping its file's view. */
  private readonly posUnpacker = new BlockUnpacker();
  private readonly docBuffer = new Int32Array(BLOCK_SIZE);
  private readonly freqBuffer = new Int32Array(BLOCK_SIZE);
  private readonly docReader: ByteReader;
  private readonly posReader: ByteReader | null;

  private hasFreqs = false;
  private hasPositions = false;
  private wantFreqs = false;
  private wantPositions = false;

  private docFreq = 0;
  private totalTermFreq = 0;
  private singletonDoc = -1;
  private skipStartFP = 0;
  private firstBlockFP = 0;
  private posStartFP = 0;
  private blockCount = 0;
  private fullBlockCount = 0;
  private skip: SkipData | null = null;
  private shallowBlockIndex = 0;

  private doc = -1;
  private blockIndex = -1;
  private blockDocCount = 0;
  private upto = 0;
  private nextBlockFP = 0;
  private freqsDecoded = true;
  private freqBits = 0;
  private freqOffset = 0;

  // Positions. The position stream stands just before the first position of doc `posDocUpto` of doc block
  // `posDocBlock`, give or take `posToSkip` positions still to pass (the unread rest of a doc whose
  // positions were started, or a doc block's offset in its first position block).
  private readonly posBuffer = new Int32Array(BLOCK_SIZE);
  /**
   * >= 0: the current position block is packed at this width and its deltas are read in place, one at a
   * time, from posBlockData (a doc's few positions cost a few byte loads, not the decoding of 128);
   * -1: posBuffer holds the block (the vInt tail, or a width too large to read in place).
   */
  private posBlockBits = -1;
  private posBlockData = 0;
  private posBlockMask = 0;
  /** Next delta to return from posBuffer; BLOCK_SIZE: consumed, the next block starts at posNextFP. */
  private posBufferUpto = BLOCK_SIZE;
  /** Format 2: file offset of the next position block; format 1: of the next vInt. */
  private posNextFP = 0;
  /** Ordinal (within the term) of the first position of the block at posNextFP: full block or vInt tail. */
  private posNextOrdinal = 0;
  private posToSkip = 0;
  private posDocBlock = -1;
  private posDocUpto = 0;
  private positionsStarted = false;
  private lastPosition = 0;

  constructor(
    private readonly docBytes: Buffer,
    docRegion: { start: number; end: number },
    private readonly posBytes: Buffer | null,
    posRegion: { start: number; end: number } | null,
    docResource: string,
    posResource: string,
    /** Positions file of format 2 (packed blocks) rather than 1 (vInts per doc). */
    private readonly packedPositions: boolean,
  ) {
    this.docReader = new ByteReader(docBytes, docRegion.start, docRegion.end, docResource);
    this.posReader = posBytes !== null && posRegion !== null ? new ByteReader(posBytes, posRegion.start, posRegion.end, posResource) : null;
  }

  belongsTo(docBytes: Buffer): boolean {
    return this.docBytes === docBytes;
  }

  /** Positions the enum on a term. `hasFreqs`/`hasPositions` are the field's index options. */
  reset(state: TermState, hasFreqs: boolean, hasPositions: boolean, flags: PostingsFlags): this {
    this.hasFreqs = hasFreqs;
    this.hasPositions = hasPositions && this.posReader !== null;
    this.wantPositions = this.hasPositions && flags >= POSTINGS_POSITIONS;
    this.wantFreqs = hasFreqs && (flags >= POSTINGS_FREQS || this.wantPositions);
    this.docFreq = state.docFreq;
    this.totalTermFreq = state.totalTermFreq;
    this.singletonDoc = state.singletonDoc;
    // Term states hold offsets relative to the file bodies; the readers work with absolute offsets.
    this.posStartFP = state.posStartFP < 0 || this.posReader === null ? -1 : this.posReader.start + state.posStartFP;
    this.blockCount = Math.ceil(state.docFreq / BLOCK_SIZE);
    this.fullBlockCount = Math.floor(state.docFreq / BLOCK_SIZE);
    this.skip = null;
    this.shallowBlockIndex = 0;
    this.doc = -1;
    this.blockIndex = -1;
    this.blockDocCount = 0;
    this.upto = 0;
    this.posDocBlock = -1;
    this.positionsStarted = false;
    if (state.singletonDoc < 0) {
      this.docReader.seek(this.docReader.start + state.docStartFP);
      const skipLength = this.docReader.readVInt();
      this.skipStartFP = this.docReader.position;
      this.firstBlockFP = this.skipStartFP + skipLength;
      if (this.firstBlockFP > this.docReader.end) throw this.docReader.corrupt(`skip data of ${skipLength} bytes overruns the file`);
      this.nextBlockFP = this.firstBlockFP;
    }
    return this;
  }

  docID(): number {
    return this.doc;
  }

  cost(): number {
    return this.docFreq;
  }

  nextDoc(): number {
    if (this.upto === this.blockDocCount) {
      if (this.blockIndex + 1 >= this.blockCount) return (this.doc = NO_MORE_DOCS);
      const base = this.blockIndex < 0 ? -1 : this.docBuffer[this.blockDocCount - 1]!;
      this.loadBlock(this.blockIndex + 1, this.nextBlockFP, base);
    }
    return this.land(this.upto);
  }

  advance(target: number): number {
    if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
    if (this.blockIndex < 0 || target > this.docBuffer[this.blockDocCount - 1]!) {
      const next = this.blockIndex + 1;
      if (next >= this.blockCount) return this.exhaust();
      if (next === this.blockCount - 1) {
        // Only the last block is left: read on sequentially, no need to decode the skip data to find it.
        const base = this.blockIndex < 0 ? -1 : this.docBuffer[this.blockDocCount - 1]!;
        this.loadBlock(next, this.nextBlockFP, base);
        if (target > this.docBuffer[this.blockDocCount - 1]!) return this.exhaust();
      } else {
        const skip = this.skipData();
        const block = skip.impacts.blockIndexOf(target, next);
        if (block >= this.blockCount) return this.exhaust();
        this.loadBlock(block, skip.docFPs[block]!, block === 0 ? -1 : skip.impacts.blockLastDocs[block - 1]!);
      }
    }
    // The current block holds a doc >= target: scan to it.
    const docs = this.docBuffer;
    let i = this.upto;
    while (docs[i]! < target) i++;
    return this.land(i);
  }

  private exhaust(): number {
    this.blockIndex = this.blockCount;
    this.upto = this.blockDocCount = 0;
    return (this.doc = NO_MORE_DOCS);
  }

  private land(index: number): number {
    this.upto = index + 1;
    this.positionsStarted = false;
    return (this.doc = this.docBuffer[index]!);
  }

  freq(): number {
    return this.wantFreqs ? this.freqAt(this.upto - 1) : 1;
  }

  private freqAt(index: number): number {
    if (!this.hasFreqs) return 1;
    if (!this.freqsDecoded) this.decodeFreqs();
    return this.freqBuffer[index]!;
  }

  private decodeFreqs(): void {
    this.unpacker.unpack(this.docBytes, this.freqOffset, this.freqBits, this.freqBuffer, 1);
    this.freqsDecoded = true;
  }

  nextPosition(): number {
    if (!this.positionsStarted) {
      if (!this.wantPositions) return -1;
      this.startPositions();
    }
    this.posToSkip--;
    if (!this.packedPositions) return this.nextVIntPosition();
    if (this.posBufferUpto === BLOCK_SIZE) this.refillPositions();
    const index = this.posBufferUpto++;
    const bits = this.posBlockBits;
    if (bits < 0) return (this.lastPosition += this.posBuffer[index]!);
    // Value i of a packed block starts at bit i * bits of its little-endian bytes; with bits <= 25 it lies
    // within the 4 bytes from its first one (the codec footer guarantees 16 bytes after any block).
    const bit = index * bits;
    const at = this.posBlockData + (bit >>> 3);
    const bytes = this.posBytes!;
    const word = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
    return (this.lastPosition += (word >>> (bit & 7)) & this.posBlockMask);
  }

  /** Brings the position stream to the current doc's first position. */
  private startPositions(): void {
    const current = this.upto - 1;
    if (this.posDocBlock !== this.blockIndex) this.locateBlockPositions();
    let toSkip = this.posToSkip;
    if (this.posDocUpto < current) {
      if (!this.freqsDecoded) this.decodeFreqs();
      const freqs = this.freqBuffer;
      for (let i = this.posDocUpto; i < current; i++) toSkip += freqs[i]!;
    }
    if (toSkip > 0) this.skipPositions(toSkip);
    this.posDocUpto = current + 1;
    this.posToSkip = this.freqAt(current);
    this.lastPosition = 0;
    this.positionsStarted = true;
  }

  /** Points the position stream at the first position of the current doc block (from its skip entry). */
  private locateBlockPositions(): void {
    const block = this.blockIndex;
    this.posDocBlock = block;
    this.posDocUpto = 0;
    this.posBufferUpto = BLOCK_SIZE;
    if (block === 0) {
      this.posNextFP = this.posStartFP;
      this.posNextOrdinal = 0;
      this.posToSkip = 0;
      return;
    }
    const skip = this.skipData();
    this.posNextFP = skip.posFPs![block]!;
    if (skip.posOrdinals === null) {
      this.posToSkip = 0;
      return;
    }
    // Position blocks start at multiples of 128 positions: the doc block starts inside one, at ordinal % 128.
    const ordinal = skip.posOrdinals[block]!;
    const offsetInBlock = ordinal % BLOCK_SIZE;
    this.posNextOrdinal = ordinal - offsetInBlock;
    this.posToSkip = offsetInBlock;
  }

  private skipPositions(count: number): void {
    if (!this.packedPositions) {
      const reader = this.posReader!;
      reader.seek(this.posNextFP);
      for (let pending = count; pending > 0; pending--) reader.readVInt();
      this.posNextFP = reader.position;
      return;
    }
    const upto = this.posBufferUpto + count;
    if (upto <= BLOCK_SIZE) {
      this.posBufferUpto = upto;
      return;
    }
    // Past the decoded block: whole blocks are passed over by their width byte, without decoding them
    // (each has a position after it, so it is full, not the vInt tail).
    let left = upto - BLOCK_SIZE;
    if (left >= BLOCK_SIZE) {
      const reader = this.posReader!;
      reader.seek(this.posNextFP);
      while (left >= BLOCK_SIZE) {
        const bits = reader.readByte();
        if (bits > 32) throw reader.corrupt(`invalid position block width ${bits}`);
        reader.skipBytes(packedBlockBytes(bits));
        this.posNextOrdinal += BLOCK_SIZE;
        left -= BLOCK_SIZE;
      }
      this.posNextFP = reader.position;
    }
    this.refillPositions();
    this.posBufferUpto = left;
  }

  /** Decodes the position block at posNextFP: a packed block, or the term's vInt tail. */
  private refillPositions(): void {
    const reader = this.posReader!;
    reader.seek(this.posNextFP);
    const buffer = this.posBuffer;
    const count = this.totalTermFreq - this.posNextOrdinal;
    if (count >= BLOCK_SIZE) {
      const bits = reader.readByte();
      if (bits > 32) throw reader.corrupt(`invalid position block width ${bits}`);
      const offset = reader.position;
      reader.skipBytes(packedBlockBytes(bits));
      if (bits <= MAX_IN_PLACE_BITS && reader.position + 3 <= reader.bytes.length) {
        this.posBlockBits = bits;
        this.posBlockData = offset;
        this.posBlockMask = 2 ** bits - 1;
      } else {
        this.posBlockBits = -1;
        this.posUnpacker.unpack(reader.bytes, offset, bits, buffer);
      }
    } else {
      if (count <= 0) throw reader.corrupt('read past the last position of the term');
      for (let i = 0; i < count; i++) buffer[i] = reader.readVInt();
      this.posBlockBits = -1;
    }
    this.posNextFP = reader.position;
    this.posNextOrdinal += BLOCK_SIZE;
    this.posBufferUpto = 0;
  }

  private nextVIntPosition(): number {
    const reader = this.posReader!;
    reader.seek(this.posNextFP);
    this.lastPosition += reader.readVInt();
    this.posNextFP = reader.position;
    return this.lastPosition;
  }

  private loadBlock(block: number, fp: number, base: number): void {
    this.blockIndex = block;
    this.upto = 0;
    const docs = this.docBuffer;
    if (this.singletonDoc >= 0) {
      docs[0] = this.singletonDoc;
      this.freqBuffer[0] = this.totalTermFreq;
      this.freqsDecoded = true;
      this.blockDocCount = 1;
      return;
    }
    const reader = this.docReader;
    reader.seek(fp);
    if (block < this.fullBlockCount) {
      const docBits = reader.readByte();
      if (docBits > 31) throw reader.corrupt(`invalid doc block width ${docBits}`);
      const docsOffset = reader.position;
      reader.skipBytes(packedBlockBytes(docBits));
      this.unpacker.unpack(this.docBytes, docsOffset, docBits, docs);
      let doc = base;
      for (let i = 0; i < BLOCK_SIZE; i++) docs[i] = doc += docs[i]! + 1;
      if (doc >= NO_MORE_DOCS) throw reader.corrupt(`doc id ${doc} out of range`);
      if (this.hasFreqs) {
        this.freqBits = reader.readByte();
        if (this.freqBits > 31) throw reader.corrupt(`invalid freq block width ${this.freqBits}`);
        this.freqOffset = reader.position;
        reader.skipBytes(packedBlockBytes(this.freqBits));
        this.freqsDecoded = false;
      }
      this.blockDocCount = BLOCK_SIZE;
    } else {
      const count = this.docFreq - block * BLOCK_SIZE;
      const freqs = this.freqBuffer;
      let doc = base;
      if (this.hasFreqs) {
        for (let i = 0; i < count; i++) {
          const code = reader.readVLong();
          doc += Math.floor(code / 2) + 1;
          docs[i] = doc;
          freqs[i] = code % 2 === 1 ? 1 : reader.readVInt();
        }
      } else {
        for (let i = 0; i < count; i++) docs[i] = doc += reader.readVInt() + 1;
      }
      if (doc >= NO_MORE_DOCS) throw reader.corrupt(`doc id ${doc} out of range`);
      this.freqsDecoded = true;
      this.blockDocCount = count;
    }
    this.nextBlockFP = reader.position;
  }

  advanceShallow(target: number): number {
    const impacts = this.impacts();
    const block = impacts.blockIndexOf(target, this.shallowBlockIndex);
    if (block >= impacts.blockCount) return NO_MORE_DOCS;
    this.shallowBlockIndex = block;
    return impacts.blockLastDocs[block]!;
  }

  shallowBlock(): number {
    return this.shallowBlockIndex;
  }

  impacts(): TermImpacts {
    return this.skipData().impacts;
  }

  private skipData(): SkipData {
    if (this.skip !== null) return this.skip;
    if (this.singletonDoc >= 0) {
      // One doc: the impact is its freq with the best possible norm (the enum does not know the doc's norm;
      // an upper bound is all WAND needs).
      this.skip = {
        impacts: new TermImpacts(1, Int32Array.of(this.singletonDoc), Int32Array.of(0, 1), Int32Array.of(this.totalTermFreq), Uint8Array.of(1)),
        docFPs: new Float64Array(1),
        posFPs: null,
        posOrdinals: null,
      };
      return this.skip;
    }
    this.skip = decodeSkipData(
      this.docReader.slice(this.skipStartFP, this.firstBlockFP),
      this.blockCount,
      this.firstBlockFP,
      this.hasPositions ? this.posStartFP : -1,
      this.packedPositions,
    );
    return this.skip;
  }
}

function decodeSkipData(reader: ByteReader, blockCount: number, firstBlockFP: number, posStartFP: number, packedPositions: boolean): SkipData {
  const lastDocs = new Int32Array(blockCount);
  const docFPs = new Float64Array(blockCount);
  const posFPs = posStartFP >= 0 ? new Float64Array(blockCount) : null;
  const posOrdinals = posFPs !== null && packedPositions ? new Float64Array(blockCount) : null;
  const impactStarts = new Int32Array(blockCount + 1);
  let impactFreqs = new Int32Array(Math.max(4, blockCount * 2));
  let impactNorms = new Uint8Array(impactFreqs.length);
  let impactCount = 0;
  let lastDoc = -1;
  let docFP = firstBlockFP;
  let posFP = posStartFP;
  let posOrdinal = 0;
  for (let b = 0; b < blockCount; b++) {
    lastDoc += reader.readVInt();
    lastDocs[b] = lastDoc;
    docFPs[b] = docFP;
    docFP += reader.readVLong();
    if (posFPs !== null) {
      posFPs[b] = posFP;
      posFP += reader.readVLong();
      if (posOrdinals !== null) {
        posOrdinals[b] = posOrdinal;
        posOrdinal += reader.readVLong();
      }
    }
    const count = reader.readCount(2);
    if (count === 0) throw reader.corrupt(`block ${b} has no impacts`);
    if (impactCount + count > impactFreqs.length) {
      const capacity = Math.max(impactFreqs.length * 2, impactCount + count);
      const freqs = new Int32Array(capacity);
      freqs.set(impactFreqs);
      const norms = new Uint8Array(capacity);
      norms.set(impactNorms);
      impactFreqs = freqs;
      impactNorms = norms;
    }
    let freq = 0;
    let norm = -1;
    for (let i = 0; i < count; i++) {
      freq += reader.readVInt() + 1;
      norm += reader.readVInt() + 1;
      if (norm > 255) throw reader.corrupt(`impact norm ${norm} out of range`);
      impactFreqs[impactCount] = freq;
      impactNorms[impactCount] = norm;
      impactCount++;
    }
    impactStarts[b + 1] = impactCount;
  }
  if (lastDoc >= NO_MORE_DOCS) throw reader.corrupt(`last doc ${lastDoc} out of range`);
  if (reader.remaining !== 0) throw reader.corrupt(`${reader.remaining} unexpected bytes after skip data`);
  return {
    impacts: new TermImpacts(blockCount, lastDocs, impactStarts, impactFreqs.subarray(0, impactCount), impactNorms.subarray(0, impactCount)),
    docFPs,
    posFPs,
    posOrdinals,
  };
}
