/**
 * Walks one field's term dictionary in order (Lucene's TermsEnum): next(), seekCeil() and seekExact().
 * The current term lives in a reused scratch buffer: term() is valid until the enum moves.
 */
import type { ByteReader } from '../../store/byte-reader.js';
import type { PostingsEnum } from '../postings/postings-enum.js';
import type { PostingsFlags, TermState } from '../postings/postings-format.js';
import { compareBytes } from './terms-format.js';
import type { FieldTerms } from './field-terms.js';

export type SeekStatus = 'found' | 'not_found' | 'end';

export class TermsEnum {
  private scratch = Buffer.alloc(64);
  private termLength = 0;
  private blockIndex = -1;
  private termsInBlock = 0;
  private termInBlock = 0;
  private lastDocFP = 0;
  private lastPosFP = 0;
  private positioned = false;
  private exhausted = false;

  // current term's statistics
  private currentDocFreq = 0;
  private currentTotalTermFreq = 0;
  private currentDocStartFP = -1;
  private currentPosStartFP = -1;
  private currentSingletonDoc = -1;

  constructor(
    private readonly field: FieldTerms,
    private readonly reader: ByteReader,
  ) {}

  /** Moves to the next term; false when there is none (the enum is then exhausted). */
  next(): boolean {
    if (this.exhausted) return false;
    if (!this.positioned || this.termInBlock === this.termsInBlock) {
      const nextBlock = this.positioned ? this.blockIndex + 1 : 0;
      if (nextBlock >= this.field.blockCount()) {
        this.exhausted = true;
        this.positioned = true;
        return false;
      }
      this.loadBlock(nextBlock);
    }
    this.decodeTerm();
    return true;
  }

  /**
   * Positions on the smallest term >= target: 'found' (equal), 'not_found' (a greater term; the enum is on
   * it) or 'end' (no such term; the enum is exhausted).
   */
  seekCeil(target: Uint8Array): SeekStatus {
    this.exhausted = false;
    if (this.field.blockCount() === 0) {
      this.exhausted = this.positioned = true;
      return 'end';
    }
    const block = this.field.findBlock(target);
    this.loadBlock(block);
    while (this.termInBlock < this.termsInBlock) {
      this.decodeTerm();
      const cmp = compareBytes(this.scratch, this.termLength, target);
      if (cmp === 0) return 'found';
      if (cmp > 0) return 'not_found';
    }
    // Every term of the block is smaller: the ceiling is the first term of the next block.
    return this.next() ? 'not_found' : 'end';
  }

  seekExact(target: Uint8Array): boolean {
    if (!this.field.mayContain(target)) return false;
    return this.seekCeil(target) === 'found';
  }

  /** The current term's bytes (a view of a buffer the enum reuses). */
  term(): Buffer {
    return this.scratch.subarray(0, this.termLength);
  }

  termString(): string {
    return this.scratch.toString('utf8', 0, this.termLength);
  }

  /** True when the current term starts with `prefix` (for prefix/wildcard iteration). */
  startsWith(prefix: Uint8Array): boolean {
    if (this.exhausted || prefix.length > this.termLength) return false;
    for (let i = 0; i < prefix.length; i++) if (this.scratch[i] !== prefix[i]) return false;
    return true;
  }

  docFreq(): number {
    return this.currentDocFreq;
  }

  totalTermFreq(): number {
    return this.currentTotalTermFreq;
  }

  termState(): TermState {
    return {
      docFreq: this.currentDocFreq,
      totalTermFreq: this.currentTotalTermFreq,
      docStartFP: this.currentDocStartFP,
      posStartFP: this.currentPosStartFP,
      singletonDoc: this.currentSingletonDoc,
    };
  }

  postings(flags: PostingsFlags, reuse?: PostingsEnum): PostingsEnum {
    return this.field.postings(this.termState(), flags, reuse);
  }

  private loadBlock(block: number): void {
    const reader = this.reader;
    reader.seek(this.field.blockStart(block));
    this.blockIndex = block;
    this.termsInBlock = reader.readVInt();
    if (this.termsInBlock === 0) throw reader.corrupt('empty term block');
    this.lastDocFP = reader.readVLong();
    this.lastPosFP = reader.readVLong();
    this.termInBlock = 0;
    this.termLength = 0;
    this.positioned = true;
  }

  private decodeTerm(): void {
    const reader = this.reader;
    const prefix = reader.readVInt();
    const suffix = reader.readVInt();
    if (prefix > this.termLength) throw reader.corrupt(`term prefix ${prefix} longer than the previous term (${this.termLength})`);
    const length = prefix + suffix;
    if (length > this.scratch.length) {
      const grown = Buffer.alloc(Math.max(length, this.scratch.length * 2));
      this.scratch.copy(grown, 0, 0, prefix);
      this.scratch = grown;
    }
    reader.readBytesInto(this.scratch, prefix, suffix);
    this.termLength = length;
    const docFreq = reader.readVInt();
    if (docFreq === 0) throw reader.corrupt('term with docFreq 0');
    this.currentDocFreq = docFreq;
    this.currentTotalTermFreq = this.field.hasFreqs ? docFreq + reader.readVLong() : docFreq;
    if (docFreq === 1) {
      this.currentSingletonDoc = reader.readVInt();
      this.currentDocStartFP = -1;
    } else {
      this.currentSingletonDoc = -1;
      this.lastDocFP += reader.readVLong();
      this.currentDocStartFP = this.lastDocFP;
    }
    if (this.field.hasPositions) {
      this.lastPosFP += reader.readVLong();
      this.currentPosStartFP = this.lastPosFP;
    } else {
      this.currentPosStartFP = -1;
    }
    this.termInBlock++;
  }
}
