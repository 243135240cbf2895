/**
 * The sorted, distinct terms of a keyword doc-values column: ord -> term and term -> ord. Terms are
 * front-coded in blocks of TERMS_PER_BLOCK (the first of each block whole, so a block can be decoded on
 * its own); block offsets are a packed array, so lookupOrd decodes at most one block and lookupTerm
 * binary-searches block first terms then scans one block.
 *
 *   Data = Block* ; Block = FirstTerm(vInt length + bytes) { Prefix(vInt) SuffixLength(vInt) Suffix }*
 *   Meta = TermCount(vInt) DataOffset(u64) DataLength(u64) BlockOffsets(PackedArrayMeta)
 */
import type { ByteReader } from '../../store/byte-reader.js';
import { ByteWriter } from '../../store/byte-writer.js';
import { bitsRequired } from '../bits.js';
import { PackedArrayReader, readPackedArrayMeta, writePackedArray, writePackedArrayMeta, type PackedArrayMeta } from '../packed/packed-ints.js';
import { compareBytes } from '../terms/terms-format.js';

const TERMS_PER_BLOCK = 16;
const BLOCK_SHIFT = 4;

export interface SortedTermsMeta {
  readonly termCount: number;
  readonly dataOffset: number;
  readonly dataLength: number;
  readonly blockOffsets: PackedArrayMeta;
}

/** `terms` must be sorted and distinct (byte order). */
export function writeSortedTerms(out: ByteWriter, terms: readonly Uint8Array[]): SortedTermsMeta {
  const data = new ByteWriter(1024);
  const offsets: number[] = [];
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!;
    if (i % TERMS_PER_BLOCK === 0) {
      offsets.push(data.length);
      data.writeLengthPrefixedBytes(term);
    } else {
      const previous = terms[i - 1]!;
      if (compareBytes(previous, previous.length, term) >= 0) throw new RangeError('sorted terms must be strictly increasing');
      let prefix = 0;
      const max = Math.min(previous.length, term.length);
      while (prefix < max && previous[prefix] === term[prefix]) prefix++;
      data.writeVInt(prefix);
      data.writeVInt(term.length - prefix);
      data.writeBytesRange(term, prefix, term.length);
    }
  }
  const dataOffset = out.length;
  out.writeBytes(data.bytes());
  const maxOffset = offsets.length === 0 ? 0 : offsets[offsets.length - 1]!;
  const blockOffsets = writePackedArray(out, offsets.length, bitsRequired(maxOffset), (i) => offsets[i]!);
  return { termCount: terms.length, dataOffset, dataLength: data.length, blockOffsets };
}

export function writeSortedTermsMeta(toc: ByteWriter, meta: SortedTermsMeta): void {
  toc.writeVInt(meta.termCount);
  toc.writeUInt64LE(meta.dataOffset);
  toc.writeUInt64LE(meta.dataLength);
  writePackedArrayMeta(toc, meta.blockOffsets);
}

export function readSortedTermsMeta(toc: ByteReader): SortedTermsMeta {
  const termCount = toc.readVInt();
  const dataOffset = toc.readUInt64LE();
  const dataLength = toc.readUInt64LE();
  const blockOffsets = readPackedArrayMeta(toc);
  if (blockOffsets.count !== Math.ceil(termCount / TERMS_PER_BLOCK)) throw toc.corrupt('sorted terms block count mismatch');
  return { termCount, dataOffset, dataLength, blockOffsets };
}

export class SortedTermsReader {
  readonly termCount: number;
  private readonly data: ByteReader;
  private readonly blockOffsets: PackedArrayReader;
  private scratch = Buffer.alloc(64);

  constructor(bytes: Buffer, meta: SortedTermsMeta, body: ByteReader) {
    this.termCount = meta.termCount;
    this.data = body.slice(meta.dataOffset, meta.dataOffset + meta.dataLength);
    this.blockOffsets = new PackedArrayReader(bytes, meta.blockOffsets, body);
  }

  /** Decodes the block's terms up to `ordInBlock`; the term is left in scratch[0, returned length). */
  private decode(block: number, ordInBlock: number): number {
    let length = this.startBlock(block);
    for (let i = 0; i < ordInBlock; i++) length = this.nextInBlock(length);
    return length;
  }

  private startBlock(block: number): number {
    const reader = this.data;
    reader.seek(this.data.start + this.blockOffsets.get(block));
    const length = reader.readVInt();
    this.ensure(length);
    reader.readBytesInto(this.scratch, 0, length);
    return length;
  }

  /** Decodes the term after the one of `previousLength` in scratch. */
  private nextInBlock(previousLength: number): number {
    const reader = this.data;
    const prefix = reader.readVInt();
    const suffix = reader.readVInt();
    if (prefix > previousLength) throw reader.corrupt(`term prefix ${prefix} longer than the previous term`);
    const length = prefix + suffix;
    this.ensure(length);
    // No view allocated per term: a terms aggregation decodes thousands of them per request.
    reader.readBytesInto(this.scratch, prefix, suffix);
    return length;
  }

  private ensure(length: number): void {
    if (length <= this.scratch.length) return;
    const grown = Buffer.alloc(Math.max(length, this.scratch.length * 2));
    this.scratch.copy(grown);
    this.scratch = grown;
  }

  /** The term of `ord` (0 <= ord < termCount), as a new Buffer. */
  lookupOrd(ord: number): Buffer {
    if (!(ord >= 0 && ord < this.termCount)) throw new RangeError(`ord ${ord} out of range [0, ${this.termCount})`);
    const length = this.decode(ord >>> BLOCK_SHIFT, ord & (TERMS_PER_BLOCK - 1));
    return Buffer.from(this.scratch.subarray(0, length));
  }

  lookupOrdString(ord: number): string {
    if (!(ord >= 0 && ord < this.termCount)) throw new RangeError(`ord ${ord} out of range [0, ${this.termCount})`);
    const length = this.decode(ord >>> BLOCK_SHIFT, ord & (TERMS_PER_BLOCK - 1));
    return this.scratch.toString('utf8', 0, length);
  }

  /** The ord of `term`, or -(insertion point) - 1 when absent (like Arrays.binarySearch). */
  lookupTerm(term: Uint8Array | string): number {
    const target = typeof term === 'string' ? Buffer.from(term, 'utf8') : term;
    let low = 0;
    let high = this.blockOffsets.count - 1;
    let block = -1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const length = this.decode(mid, 0);
      const cmp = compareBytes(this.scratch, length, target);
      if (cmp === 0) return mid << BLOCK_SHIFT;
      if (cmp < 0) {
        block = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    if (block < 0) return -1;
    const base = block << BLOCK_SHIFT;
    const inBlock = Math.min(TERMS_PER_BLOCK, this.termCount - base);
    let length = this.startBlock(block);
    for (let i = 1; i < inBlock; i++) {
      length = this.nextInBlock(length);
      const cmp = compareBytes(this.scratch, length, target);
      if (cmp === 0) return base + i;
      if (cmp > 0) return -(base + i) - 1;
    }
    return -(base + inBlock) - 1;
  }
}
