/**
 * Writes the inverted index of a segment: the term dictionary (terms-format.ts) and, through
 * PostingsWriter, the doc and positions files. Driven field by field, term by term, in sorted order:
 *
 *   startField(name, options, norms)
 *     startTerm(bytes)   -- strictly increasing in UTF-8 byte order within the field
 *       startDoc(doc, freq) [addPosition(position) x freq]   -- doc ids increasing
 *     finishTerm()
 *   finishField() -> FieldStats
 *   finish(segmentId) -> the three files
 */
import { ByteWriter } from '../../store/byte-writer.js';
import { bitsetWords, popCount32 } from '../bits.js';
import { finishCodecFile, startCodecFile, writeTocPointer } from '../codec-file.js';
import { PostingsWriter } from '../postings/postings-writer.js';
import { POSTINGS_DOC_CODEC, POSTINGS_POS_CODEC, POSTINGS_VERSION_CURRENT, type TermState } from '../postings/postings-format.js';
import { hasFreqs, hasPositions, type FieldStats, type IndexOptions } from '../segment/field-info.js';
import {
  compareBytes,
  FIELD_FLAG_FREQS,
  FIELD_FLAG_POSITIONS,
  TERMS_CODEC,
  TERMS_PER_BLOCK,
  TERMS_VERSION_CURRENT,
} from './terms-format.js';

interface PendingTerm {
  bytes: Uint8Array;
  state: TermState;
}

interface FieldSummary {
  name: string;
  flags: number;
  stats: FieldStats;
  indexFP: number;
  minTerm: Uint8Array;
  maxTerm: Uint8Array;
}

export interface WrittenFile {
  bytes: Buffer;
  checksum: number;
}

export class FieldsWriter {
  private readonly termsOut = new ByteWriter(64 * 1024);
  private readonly docOut = new ByteWriter(64 * 1024);
  private readonly posOut = new ByteWriter(64 * 1024);
  private readonly postings = new PostingsWriter(this.docOut, this.posOut);
  private readonly summaries: FieldSummary[] = [];
  private readonly fieldNames = new Set<string>();

  // current field
  private fieldName: string | null = null;
  private fieldOptions: IndexOptions = 'docs';
  private docsWithField = new Uint32Array(0);
  private pending: PendingTerm[] = [];
  private blockFPs: number[] = [];
  private blockFirstTerms: Uint8Array[] = [];
  private termCount = 0;
  private sumDocFreq = 0;
  private sumTotalTermFreq = 0;
  private minTerm: Uint8Array | null = null;
  private lastTerm: Uint8Array | null = null;

  // current term
  private termBytes: Uint8Array | null = null;

  constructor(private readonly maxDoc: number) {}

  startField(name: string, options: IndexOptions, norms: Uint8Array | null): void {
    if (this.fieldName !== null) throw new Error(`field [${this.fieldName}] not finished`);
    if (options === 'none') throw new RangeError(`field [${name}] is not indexed`);
    if (this.fieldNames.has(name)) throw new Error(`field [${name}] written twice`);
    if (norms !== null && norms.length !== this.maxDoc) throw new RangeError(`norms of [${name}] must have ${this.maxDoc} entries`);
    this.fieldNames.add(name);
    this.fieldName = name;
    this.fieldOptions = options;
    this.postings.setField(hasFreqs(options), hasPositions(options), norms);
    this.docsWithField = new Uint32Array(bitsetWords(this.maxDoc));
    this.pending = [];
    this.blockFPs = [];
    this.blockFirstTerms = [];
    this.termCount = 0;
    this.sumDocFreq = 0;
    this.sumTotalTermFreq = 0;
    this.minTerm = null;
    this.lastTerm = null;
  }

  /**
   * `owned`: the caller never changes `term`'s bytes afterwards, so they are kept as they are (the indexing
   * buffer's terms, encoded once for the segment); otherwise they are copied (a merge reuses its term bytes).
   */
  startTerm(term: Uint8Array, owned = false): void {
    if (this.fieldName === null) throw new Error('startTerm outside a field');
    const bytes = owned ? term : new Uint8Array(term);
    if (this.lastTerm !== null && compareBytes(this.lastTerm, this.lastTerm.length, bytes) >= 0) {
      throw new RangeError(`terms of [${this.fieldName}] must be strictly increasing in UTF-8 byte order`);
    }
    this.termBytes = bytes;
    this.postings.startTerm();
  }

  startDoc(doc: number, freq: number): void {
    if (doc >= this.maxDoc) throw new RangeError(`doc ${doc} >= maxDoc ${this.maxDoc}`);
    this.postings.startDoc(doc, freq);
    this.docsWithField[doc >>> 5] |= 1 << (doc & 31);
  }

  addPosition(position: number): void {
    this.postings.addPosition(position);
  }

  finishTerm(): void {
    const bytes = this.termBytes;
    if (bytes === null) throw new Error('finishTerm without startTerm');
    const state = this.postings.finishTerm();
    this.termBytes = null;
    this.pending.push({ bytes, state });
    this.termCount++;
    this.sumDocFreq += state.docFreq;
    this.sumTotalTermFreq += state.totalTermFreq;
    if (this.minTerm === null) this.minTerm = bytes;
    this.lastTerm = bytes;
    if (this.pending.length === TERMS_PER_BLOCK) this.flushBlock();
  }

  private flushBlock(): void {
    const out = this.termsOut;
    const terms = this.pending;
    const first = terms[0]!;
    this.blockFPs.push(out.length);
    this.blockFirstTerms.push(first.bytes);
    const docBase = this.firstDocFP(terms);
    const posBase = hasPositions(this.fieldOptions) ? first.state.posStartFP : 0;
    out.writeVInt(terms.length);
    out.writeVLong(docBase);
    out.writeVLong(posBase);
    const withFreqs = hasFreqs(this.fieldOptions);
    const withPositions = hasPositions(this.fieldOptions);
    let previous: Uint8Array | null = null;
    let lastDocFP = docBase;
    let lastPosFP = posBase;
    for (const { bytes, state } of terms) {
      const prefix = previous === null ? 0 : sharedPrefixLength(previous, bytes);
      out.writeVInt(prefix);
      out.writeVInt(bytes.length - prefix);
      out.writeBytesRange(bytes, prefix, bytes.length);
      out.writeVInt(state.docFreq);
      if (withFreqs) out.writeVLong(state.totalTermFreq - state.docFreq);
      if (state.docFreq === 1) {
        out.writeVInt(state.singletonDoc);
      } else {
        out.writeVLong(state.docStartFP - lastDocFP);
        lastDocFP = state.docStartFP;
      }
      if (withPositions) {
        out.writeVLong(state.posStartFP - lastPosFP);
        lastPosFP = state.posStartFP;
      }
      previous = bytes;
    }
    this.pending = [];
  }

  /** Base for the block's doc pointers: the first non-singleton term's, or the current doc file length. */
  private firstDocFP(terms: PendingTerm[]): number {
    for (const { state } of terms) if (state.docFreq > 1) return state.docStartFP;
    return this.docOut.length;
  }

  finishField(): FieldStats {
    const name = this.fieldName;
    if (name === null) throw new Error('finishField outside a field');
    if (this.termBytes !== null) throw new Error(`term of [${name}] not finished`);
    if (this.pending.length > 0) this.flushBlock();
    const out = this.termsOut;
    const indexFP = out.length;
    out.writeVInt(this.blockFPs.length);
    let previousFP = 0;
    for (let b = 0; b < this.blockFPs.length; b++) {
      out.writeVLong(this.blockFPs[b]! - previousFP);
      previousFP = this.blockFPs[b]!;
      out.writeLengthPrefixedBytes(this.blockFirstTerms[b]!);
    }
    let docCount = 0;
    for (const word of this.docsWithField) docCount += popCount32(word);
    const stats: FieldStats = {
      docCount,
      sumDocFreq: this.sumDocFreq,
      sumTotalTermFreq: this.sumTotalTermFreq,
      termCount: this.termCount,
    };
    const flags = (hasFreqs(this.fieldOptions) ? FIELD_FLAG_FREQS : 0) | (hasPositions(this.fieldOptions) ? FIELD_FLAG_POSITIONS : 0);
    const empty = Buffer.alloc(0);
    this.summaries.push({ name, flags, stats, indexFP, minTerm: this.minTerm ?? empty, maxTerm: this.lastTerm ?? empty });
    this.fieldName = null;
    this.docsWithField = new Uint32Array(0);
    return stats;
  }

  finish(segmentId: Uint8Array): { terms: WrittenFile; doc: WrittenFile; pos: WrittenFile } {
    if (this.fieldName !== null) throw new Error(`field [${this.fieldName}] not finished`);
    const terms = startCodecFile(TERMS_CODEC, TERMS_VERSION_CURRENT, segmentId);
    terms.writeBytes(this.termsOut.bytes());
    const tocOffset = terms.length;
    terms.writeVInt(this.summaries.length);
    for (const summary of this.summaries) {
      terms.writeString(summary.name);
      terms.writeByte(summary.flags);
      terms.writeVLong(summary.stats.termCount);
      terms.writeVLong(summary.stats.sumDocFreq);
      terms.writeVLong(summary.stats.sumTotalTermFreq);
      terms.writeVInt(summary.stats.docCount);
      terms.writeUInt64LE(summary.indexFP);
      terms.writeLengthPrefixedBytes(summary.minTerm);
      terms.writeLengthPrefixedBytes(summary.maxTerm);
    }
    writeTocPointer(terms, tocOffset);
    return {
      terms: finishCodecFile(terms),
      doc: wrapBody(POSTINGS_DOC_CODEC, segmentId, this.docOut),
      pos: wrapBody(POSTINGS_POS_CODEC, segmentId, this.posOut),
    };
  }
}

/**
 * The postings files are built without a header (so file pointers start at 0 while writing) and get
 * their frame at the end; readers add the header length back (see PostingsReader / TermsReader).
 */
function wrapBody(codec: string, segmentId: Uint8Array, body: ByteWriter): WrittenFile {
  const out = startCodecFile(codec, POSTINGS_VERSION_CURRENT, segmentId);
  out.writeBytes(body.bytes());
  return finishCodecFile(out);
}

function sharedPrefixLength(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a[i] === b[i]) i++;
  return i;
}
