/**
 * Writes postings (doc file and positions file; format in postings-format.ts), one term at a time:
 * startTerm, then per document startDoc(doc, freq) followed by `freq` addPosition calls when the field
 * has positions, then finishTerm, which returns what the term dictionary stores.
 *
 * Per term, encoded blocks are buffered until the term ends, because the skip data (whose entries are only
 * known once each block is written) goes before the blocks. Positions go straight to the positions file:
 * in format 2 as packed blocks of 128 deltas that run across documents (the term's last partial block as
 * vInts), in format 1 (written only to test that old files stay readable) as vInts.
 */
import { ByteWriter } from '../../store/byte-writer.js';
import { BLOCK_SIZE, blockBitsRequired, packBlock } from '../packed/for-util.js';
import { CompetitiveImpactAccumulator } from './impacts.js';
import { MAX_FREQ, NO_MORE_DOCS, POSTINGS_VERSION_CURRENT, POSTINGS_VERSION_PACKED_POSITIONS, type TermState } from './postings-format.js';

export class PostingsWriter {
  readonly docOut: ByteWriter;
  readonly posOut: ByteWriter;

  private hasFreqs = false;
  private hasPositions = false;
  private norms: Uint8Array | null = null;

  // per term
  private docFreq = 0;
  private totalTermFreq = 0;
  private lastDoc = -1;
  private lastBlockLastDoc = -1;
  private termPosStartFP = -1;
  private blockPosStartFP = 0;
  /** Number of positions of the term before the current doc block (format 2's skip entries carry it). */
  private blockPosOrdinal = 0;
  private readonly blockOut = new ByteWriter(1024);
  private readonly skipOut = new ByteWriter(256);

  // current block
  private bufferCount = 0;
  private readonly docs = new Int32Array(BLOCK_SIZE);
  private readonly freqs = new Int32Array(BLOCK_SIZE);
  private readonly scratch = new Int32Array(BLOCK_SIZE);
  private readonly impactScratch = new Int32Array(512);
  private readonly impacts = new CompetitiveImpactAccumulator();

  // current doc's positions
  private positionsExpected = 0;
  private positionsSeen = 0;
  private lastPosition = 0;

  // format 2: the term's position deltas not yet written (fewer than a block)
  private readonly packedPositions: boolean;
  private readonly positionDeltas = new Int32Array(BLOCK_SIZE);
  private positionDeltaCount = 0;

  /** `version` is the format to write: the current one, or 1 to produce old files in tests. */
  constructor(docOut: ByteWriter, posOut: ByteWriter, version: number = POSTINGS_VERSION_CURRENT) {
    this.docOut = docOut;
    this.posOut = posOut;
    this.packedPositions = version >= POSTINGS_VERSION_PACKED_POSITIONS;
  }

  /** Sets the field the next terms belong to. `norms[doc]` feeds the impacts (null: no norms, use 1). */
  setField(hasFreqs: boolean, hasPositions: boolean, norms: Uint8Array | null): void {
    if (hasPositions && !hasFreqs) throw new Error('positions require freqs');
    this.hasFreqs = hasFreqs;
    this.hasPositions = hasPositions;
    this.norms = norms;
  }

  startTerm(): void {
    this.docFreq = 0;
    this.totalTermFreq = 0;
    this.lastDoc = -1;
    this.lastBlockLastDoc = -1;
    this.bufferCount = 0;
    this.blockOut.reset();
    this.skipOut.reset();
    this.termPosStartFP = this.hasPositions ? this.posOut.length : -1;
    this.blockPosStartFP = this.posOut.length;
    this.blockPosOrdinal = 0;
    this.positionDeltaCount = 0;
    this.positionsExpected = 0;
    this.positionsSeen = 0;
  }

  /** Adds a document; `freq` is ignored (taken as 1) when the field does not index freqs. */
  startDoc(doc: number, freq: number): void {
    this.checkPositionsComplete();
    // A full block is flushed only when the next doc arrives: its last doc's positions come after startDoc.
    if (this.bufferCount === BLOCK_SIZE) this.flushFullBlock();
    if (!Number.isInteger(doc) || doc <= this.lastDoc || doc >= NO_MORE_DOCS) {
      throw new RangeError(`doc ids must be increasing integers below ${NO_MORE_DOCS}: got ${doc} after ${this.lastDoc}`);
    }
    const termFreq = this.hasFreqs ? freq : 1;
    if (!Number.isInteger(termFreq) || termFreq < 1 || termFreq > MAX_FREQ) {
      throw new RangeError(`freq must be an integer in [1, ${MAX_FREQ}], got ${freq}`);
    }
    this.docs[this.bufferCount] = doc;
    this.freqs[this.bufferCount] = termFreq;
    this.bufferCount++;
    this.lastDoc = doc;
    this.docFreq++;
    this.totalTermFreq += termFreq;
    this.positionsExpected = this.hasPositions ? termFreq : 0;
    this.positionsSeen = 0;
    this.lastPosition = 0;
  }

  addPosition(position: number): void {
    if (this.positionsSeen >= this.positionsExpected) {
      throw new RangeError(`more positions than freq (${this.positionsExpected}) for doc ${this.lastDoc}`);
    }
    if (!Number.isInteger(position) || position < this.lastPosition || position > MAX_FREQ) {
      throw new RangeError(`positions must be non-decreasing integers in [0, ${MAX_FREQ}]: got ${position} after ${this.lastPosition}`);
    }
    if (this.packedPositions) {
      this.positionDeltas[this.positionDeltaCount++] = position - this.lastPosition;
      // Written as soon as it is full, so posOut.length is always where the block being filled will start.
      if (this.positionDeltaCount === BLOCK_SIZE) this.flushPositionBlock();
    } else {
      this.posOut.writeVInt(position - this.lastPosition);
    }
    this.lastPosition = position;
    this.positionsSeen++;
  }

  private flushPositionBlock(): void {
    const bits = blockBitsRequired(this.positionDeltas);
    this.posOut.writeByte(bits);
    packBlock(this.positionDeltas, bits, this.posOut);
    this.positionDeltaCount = 0;
  }

  /** The term's last positions, fewer than a block, as vInts (Lucene's vInt tail). */
  private flushPositionTail(): void {
    for (let i = 0; i < this.positionDeltaCount; i++) this.posOut.writeVInt(this.positionDeltas[i]!);
    this.positionDeltaCount = 0;
  }

  private checkPositionsComplete(): void {
    if (this.positionsSeen !== this.positionsExpected) {
      throw new RangeError(`doc ${this.lastDoc} got ${this.positionsSeen} positions, expected ${this.positionsExpected}`);
    }
  }

  private accumulateImpacts(): void {
    const norms = this.norms;
    for (let i = 0; i < this.bufferCount; i++) {
      const doc = this.docs[i]!;
      if (norms !== null && doc >= norms.length) throw new RangeError(`doc ${doc} has no norm (norms cover ${norms.length} docs)`);
      this.impacts.add(this.freqs[i]!, norms === null ? 1 : norms[doc]!);
    }
  }

  private writeSkipEntry(blockStart: number): void {
    const blockLastDoc = this.docs[this.bufferCount - 1]!;
    this.skipOut.writeVInt(blockLastDoc - this.lastBlockLastDoc);
    this.skipOut.writeVLong(this.blockOut.length - blockStart);
    if (this.hasPositions) {
      // Format 2: where the position block holding the next doc block's first position starts, and how
      // many positions this doc block has (the reader derives the offset inside that block from the sum).
      this.skipOut.writeVLong(this.posOut.length - this.blockPosStartFP);
      if (this.packedPositions) this.skipOut.writeVLong(this.totalTermFreq - this.blockPosOrdinal);
    }
    this.accumulateImpacts();
    this.impacts.writeTo(this.skipOut, this.impactScratch);
    this.lastBlockLastDoc = blockLastDoc;
    this.blockPosStartFP = this.posOut.length;
    this.blockPosOrdinal = this.totalTermFreq;
  }

  private flushFullBlock(): void {
    const blockStart = this.blockOut.length;
    const deltas = this.scratch;
    let previous = this.lastBlockLastDoc;
    for (let i = 0; i < BLOCK_SIZE; i++) {
      const doc = this.docs[i]!;
      deltas[i] = doc - previous - 1;
      previous = doc;
    }
    const docBits = blockBitsRequired(deltas);
    this.blockOut.writeByte(docBits);
    packBlock(deltas, docBits, this.blockOut);
    if (this.hasFreqs) {
      for (let i = 0; i < BLOCK_SIZE; i++) deltas[i] = this.freqs[i]! - 1;
      const freqBits = blockBitsRequired(deltas);
      this.blockOut.writeByte(freqBits);
      packBlock(deltas, freqBits, this.blockOut);
    }
    this.writeSkipEntry(blockStart);
    this.bufferCount = 0;
  }

  private flushTailBlock(): void {
    const blockStart = this.blockOut.length;
    let previous = this.lastBlockLastDoc;
    for (let i = 0; i < this.bufferCount; i++) {
      const doc = this.docs[i]!;
      const delta = doc - previous - 1;
      previous = doc;
      if (this.hasFreqs) {
        const freq = this.freqs[i]!;
        this.blockOut.writeVLong(delta * 2 + (freq === 1 ? 1 : 0));
        if (freq !== 1) this.blockOut.writeVInt(freq);
      } else {
        this.blockOut.writeVInt(delta);
      }
    }
    this.writeSkipEntry(blockStart);
    this.bufferCount = 0;
  }

  finishTerm(): TermState {
    this.checkPositionsComplete();
    if (this.docFreq === 0) throw new Error('a term must have at least one document');
    if (this.docFreq === 1) {
      this.flushPositionTail();
      // Pulsed: the term dictionary holds the doc id and the freq (totalTermFreq); the doc file nothing.
      return {
        docFreq: 1,
        totalTermFreq: this.totalTermFreq,
        docStartFP: -1,
        posStartFP: this.termPosStartFP,
        singletonDoc: this.docs[0]!,
      };
    }
    if (this.bufferCount === BLOCK_SIZE) this.flushFullBlock();
    else if (this.bufferCount > 0) this.flushTailBlock();
    this.flushPositionTail();
    const docStartFP = this.docOut.length;
    this.docOut.writeVInt(this.skipOut.length);
    this.docOut.writeBytes(this.skipOut.bytes());
    this.docOut.writeBytes(this.blockOut.bytes());
    return {
      docFreq: this.docFreq,
      totalTermFreq: this.totalTermFreq,
      docStartFP,
      posStartFP: this.termPosStartFP,
      singletonDoc: -1,
    };
  }
}
