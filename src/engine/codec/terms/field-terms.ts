/**
 * One field's terms in a segment: its statistics, a lazily loaded block index, and cursors over terms
 * (TermsEnum) and postings. What a term query's Weight asks for: seekExact(term) -> TermState -> postings.
 */
import type { ByteReader } from '../../store/byte-reader.js';
import type { PostingsEnum } from '../postings/postings-enum.js';
import type { PostingsFlags, TermState } from '../postings/postings-format.js';
import type { PostingsReader } from '../postings/postings-reader.js';
import type { FieldStats } from '../segment/field-info.js';
import { TermsEnum } from './terms-enum.js';
import { compareByteRange, compareBytes } from './terms-format.js';

interface BlockIndex {
  /** Absolute file offset of each block. */
  readonly blockFPs: Float64Array;
  /** Block b's first term is firstTerms[firstTermStarts[b], firstTermStarts[b + 1]). */
  readonly firstTermStarts: Int32Array;
  readonly firstTerms: Buffer;
}

export class FieldTerms {
  private index: BlockIndex | null = null;
  /** Reused by seekExact, which never lets it escape. */
  private seekEnum: TermsEnum | null = null;

  constructor(
    readonly name: string,
    readonly hasFreqs: boolean,
    readonly hasPositions: boolean,
    readonly stats: FieldStats,
    readonly minTerm: Buffer,
    readonly maxTerm: Buffer,
    private readonly indexFP: number,
    private readonly body: ByteReader,
    private readonly postingsReader: PostingsReader,
  ) {}

  iterator(): TermsEnum {
    return new TermsEnum(this, this.body.slice(this.body.start, this.body.end));
  }

  /** The term's state, or null when the field does not contain it. */
  seekExact(term: Uint8Array | string): TermState | null {
    const bytes = typeof term === 'string' ? Buffer.from(term, 'utf8') : term;
    const termsEnum = (this.seekEnum ??= this.iterator());
    return termsEnum.seekExact(bytes) ? termsEnum.termState() : null;
  }

  postings(state: TermState, flags: PostingsFlags, reuse?: PostingsEnum): PostingsEnum {
    return this.postingsReader.postings(state, this.hasFreqs, this.hasPositions, flags, reuse);
  }

  /** False when the term is outside [minTerm, maxTerm] (a seek that needs no I/O). */
  mayContain(term: Uint8Array): boolean {
    if (this.stats.termCount === 0) return false;
    return compareBytes(this.minTerm, this.minTerm.length, term) <= 0 && compareBytes(this.maxTerm, this.maxTerm.length, term) >= 0;
  }

  blockCount(): number {
    return this.loadIndex().blockFPs.length;
  }

  blockStart(block: number): number {
    return this.loadIndex().blockFPs[block]!;
  }

  /** The last block whose first term is <= target (0 when target sorts before every term). */
  findBlock(target: Uint8Array): number {
    const { firstTermStarts, firstTerms, blockFPs } = this.loadIndex();
    let low = 0;
    let high = blockFPs.length - 1;
    let found = 0;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (compareByteRange(firstTerms, firstTermStarts[mid]!, firstTermStarts[mid + 1]!, target) <= 0) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  private loadIndex(): BlockIndex {
    if (this.index !== null) return this.index;
    const reader = this.body.slice(this.body.start, this.body.end);
    reader.seek(this.body.start + this.indexFP);
    const blockCount = reader.readCount(2);
    const blockFPs = new Float64Array(blockCount);
    const firstTermStarts = new Int32Array(blockCount + 1);
    const terms: Buffer[] = [];
    let fp = 0;
    let total = 0;
    for (let b = 0; b < blockCount; b++) {
      fp += reader.readVLong();
      if (fp >= this.indexFP) throw reader.corrupt(`term block offset ${fp} beyond the index of field [${this.name}]`);
      blockFPs[b] = this.body.start + fp;
      const term = reader.readLengthPrefixedBytes();
      terms.push(term);
      firstTermStarts[b] = total;
      total += term.length;
    }
    firstTermStarts[blockCount] = total;
    if (blockCount === 0 && this.stats.termCount > 0) throw reader.corrupt(`field [${this.name}] has terms but no blocks`);
    this.index = { blockFPs, firstTermStarts, firstTerms: Buffer.concat(terms, total) };
    return this.index;
  }
}
