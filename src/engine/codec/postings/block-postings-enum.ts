/**
 * PostingsEnum over the block format of postings-format.ts. Decodes one block of 128 doc ids at a time into
 * an Int32Array (no object per posting), freqs only when asked, skip data only when advance() needs to
 * jump, impacts are requested, or positions are read past the term's first doc block (and the skip
 * entries' impacts only when impacts() is called: skip-data.ts).
 *
 * Positions are lazy, as in Lucene's two-phase phrase matching: moving the doc cursor does no position
 * work at all. Only when nextPosition() is first called on a doc does the enum skip the positions of the
 * docs it stepped over since it last read positions (the sum of their freqs, from the decoded freq block)
 * and, when the doc is in another doc block than that read, first locate the block's positions from its
 * skip entry. A phrase whose terms meet in many docs but rarely in order reads few positions.
 */
import { ByteReader } from '../../store/byte-reader.js';
import { BLOCK_SIZE, BlockUnpacker, packedBlockBytes } from '../packed/for-util.js';
import type { TermImpacts } from './impacts.js';
import type { PostingsEnum } from './postings-enum.js';
import { SkipData } from './skip-data.js';
import { NO_MORE_DOCS, POSTINGS_FREQS, POSTINGS_POSITIONS, type PostingsFlags, type TermState } from './postings-format.js';

/** Widest packed position delta read in place: its bits plus a shift of up to 7 fit a 32-bit word. */
const MAX_IN_PLACE_BITS = 25;

export class BlockPostingsEnum implements PostingsEnum {
  private readonly unpacker = new BlockUnpacker();
  /** Apart from the doc file's unpacker, each keeping its file's view. */
  private readonly posUnpacker = new BlockUnpacker();
  private readonly docBuffer = new Int32Array(BLOCK_SIZE);
  /**
   * The block's freqs minus one, as packed blocks store them: decoding them as they are saves the unpacker
   * a pass over the block to add 1; readers add it back.
   */
  private readonly freqBuffer = new Int32Array(BLOCK_SIZE);
  private readonly docReader: ByteReader;
  private readonly posReader: ByteReader | null;
  /** The positions file as little-endian words: a packed position is one 32-bit load (nextPosition). */
  private readonly posView: DataView | null;

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
  /**
   * docBuffer[0, summed) hold doc ids, the rest of the block still the packed deltas (minus one): a block
   * that advance() located from its skip entry (whose last doc that gives) is summed only as far as the
   * targets reach, in the same pass that looks for them, as a dense term advanced to a sparse one's docs
   * rarely needs its whole block.
   */
  private summed = 0;
  /** The doc before the block's first (-1 for block 0) and the block's last doc. */
  private blockBase = -1;
  private blockLastDoc = -1;
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
    this.posView = posBytes === null ? null : new DataView(posBytes.buffer, posBytes.byteOffset, posBytes.byteLength);
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
      this.loadBlock(this.blockIndex + 1, this.nextBlockFP, this.blockIndex < 0 ? -1 : this.blockLastDoc, -1);
    }
    if (this.upto === this.summed) this.sumRest();
    return this.land(this.upto);
  }

  advance(target: number): number {
    if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
    if (this.blockIndex < 0 || target > this.blockLastDoc) {
      const next = this.blockIndex + 1;
      if (next >= this.blockCount) return this.exhaust();
      if (next === this.blockCount - 1) {
        // Only the last block is left: read on sequentially, no need to decode the skip data to find it.
        this.loadBlock(next, this.nextBlockFP, this.blockIndex < 0 ? -1 : this.blockLastDoc, -1);
        if (target > this.blockLastDoc) return this.exhaust();
      } else {
        const skip = this.skipData();
        const block = skip.blockIndexOf(target, next);
        if (block >= this.blockCount) return this.exhaust();
        this.loadBlock(block, skip.docFPs[block]!, block === 0 ? -1 : skip.lastDocs[block - 1]!, skip.lastDocs[block]!);
      }
    }
    // The current block holds a doc >= target: scan the summed docs, then sum on until one reaches it.
    const docs = this.docBuffer;
    const summed = this.summed;
    let i = this.upto;
    while (i < summed && docs[i]! < target) i++;
    if (i < summed) return this.land(i);
    const count = this.blockDocCount;
    let doc = i === 0 ? this.blockBase : docs[i - 1]!;
    do {
      if (i === count) throw this.docReader.corrupt(`doc block ${this.blockIndex} ends before its last doc ${this.blockLastDoc}`);
      doc += docs[i]! + 1;
      docs[i++] = doc;
    } while (doc < target);
    if (doc > this.blockLastDoc) throw this.docReader.corrupt(`doc id ${doc} beyond its block's last doc ${this.blockLastDoc}`);
    this.summed = i;
    return this.land(i - 1);
  }

  /** Sums the rest of the current block into doc ids. */
  private sumRest(): void {
    const docs = this.docBuffer;
    const count = this.blockDocCount;
    let i = this.summed;
    let doc = i === 0 ? this.blockBase : docs[i - 1]!;
    for (; i < count; i++) docs[i] = doc += docs[i]! + 1;
    if (doc !== this.blockLastDoc) throw this.docReader.corrupt(`doc block ${this.blockIndex} ends at ${doc}, its skip entry says ${this.blockLastDoc}`);
    this.summed = count;
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

  /** Only called when the field has freqs (wantFreqs, or positions, which imply them). */
  private freqAt(index: number): number {
    if (!this.freqsDecoded) this.decodeFreqs();
    return this.freqBuffer[index]! + 1;
  }

  private decodeFreqs(): void {
    this.unpacker.unpack(this.docBytes, this.freqOffset, this.freqBits, this.freqBuffer);
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
    const word = this.posView!.getUint32(this.posBlockData + (bit >>> 3), true);
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
      toSkip += current - this.posDocUpto;
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
        // A shift, not 2 ** bits: V8 compiles a variable power to a call of its float pow.
        this.posBlockMask = (1 << bits) - 1;
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

  /** Loads doc block `block` at `fp`; `lastDoc` is its last doc when the skip data gave it, else -1. */
  private loadBlock(block: number, fp: number, base: number, lastDoc: number): void {
    this.blockIndex = block;
    this.upto = 0;
    this.blockBase = base;
    const docs = this.docBuffer;
    if (this.singletonDoc >= 0) {
      docs[0] = this.singletonDoc;
      this.summed = 1;
      this.blockLastDoc = this.singletonDoc;
      this.freqBuffer[0] = this.totalTermFreq - 1;
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
      if (lastDoc >= 0) {
        this.unpacker.unpack(this.docBytes, docsOffset, docBits, docs);
        this.summed = 0;
        this.blockLastDoc = lastDoc;
      } else {
        const doc = this.unpacker.unpackDocDeltas(this.docBytes, docsOffset, docBits, docs, base);
        if (doc >= NO_MORE_DOCS) throw reader.corrupt(`doc id ${doc} out of range`);
        this.summed = BLOCK_SIZE;
        this.blockLastDoc = doc;
      }
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
          freqs[i] = code % 2 === 1 ? 0 : reader.readVInt() - 1;
        }
      } else {
        for (let i = 0; i < count; i++) docs[i] = doc += reader.readVInt() + 1;
      }
      if (doc >= NO_MORE_DOCS) throw reader.corrupt(`doc id ${doc} out of range`);
      this.freqsDecoded = true;
      this.blockDocCount = count;
      this.summed = count;
      this.blockLastDoc = doc;
    }
    this.nextBlockFP = reader.position;
  }

  advanceShallow(target: number): number {
    const skip = this.skipData();
    const block = skip.blockIndexOf(target, this.shallowBlockIndex);
    if (block >= skip.blockCount) return NO_MORE_DOCS;
    this.shallowBlockIndex = block;
    return skip.lastDocs[block]!;
  }

  shallowBlock(): number {
    return this.shallowBlockIndex;
  }

  impacts(): TermImpacts {
    return this.skipData().impacts();
  }

  private skipData(): SkipData {
    if (this.skip !== null) return this.skip;
    this.skip =
      this.singletonDoc >= 0
        ? SkipData.singleton(this.singletonDoc, this.totalTermFreq)
        : SkipData.decode(
            this.docReader.slice(this.skipStartFP, this.firstBlockFP),
            this.blockCount,
            this.firstBlockFP,
            this.hasPositions ? this.posStartFP : -1,
            this.packedPositions,
            // Position readers (phrases) need the block positions at once but impacts only if a minimum
            // competitive score comes; doc and freq readers are the term scorers, which bound scores from the start.
            !this.wantPositions,
          );
    return this.skip;
  }
}
