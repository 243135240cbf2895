/**
 * Which documents have a value, for columns that store values only for those documents. All or none
 * cost nothing; otherwise a bitset of maxDoc bits, with a rank table built on open so that the value
 * index of a document (the number of documents with a value before it) is O(1).
 *
 *   Meta = Mode(byte: 0 none, 1 all, 2 bitset) [Offset(u64) DocCount(vInt)]
 */
import type { ByteReader } from '../../store/byte-reader.js';
import type { ByteWriter } from '../../store/byte-writer.js';
import { bitsetWords, buildRanks, rank, uint32View } from '../bits.js';

const MODE_NONE = 0;
const MODE_ALL = 1;
const MODE_BITSET = 2;

export interface DocsWithFieldMeta {
  readonly mode: number;
  readonly offset: number;
  readonly docCount: number;
}

/** `docs` must be strictly increasing doc ids below maxDoc. */
export function writeDocsWithField(out: ByteWriter, docs: Int32Array, maxDoc: number): DocsWithFieldMeta {
  let previous = -1;
  for (const doc of docs) {
    if (doc <= previous || doc >= maxDoc) throw new RangeError(`doc ids must be increasing and below ${maxDoc}: got ${doc} after ${previous}`);
    previous = doc;
  }
  if (docs.length === 0) return { mode: MODE_NONE, offset: 0, docCount: 0 };
  if (docs.length === maxDoc) return { mode: MODE_ALL, offset: 0, docCount: maxDoc };
  const words = new Uint32Array(bitsetWords(maxDoc));
  for (const doc of docs) words[doc >>> 5] |= 1 << (doc & 31);
  out.alignTo(4);
  const offset = out.length;
  out.writeBytes(new Uint8Array(words.buffer));
  return { mode: MODE_BITSET, offset, docCount: docs.length };
}

export function writeDocsWithFieldMeta(toc: ByteWriter, meta: DocsWithFieldMeta): void {
  toc.writeByte(meta.mode);
  if (meta.mode === MODE_BITSET) {
    toc.writeUInt64LE(meta.offset);
    toc.writeVInt(meta.docCount);
  }
}

export function readDocsWithFieldMeta(toc: ByteReader, maxDoc: number): DocsWithFieldMeta {
  const mode = toc.readByte();
  if (mode === MODE_NONE) return { mode, offset: 0, docCount: 0 };
  if (mode === MODE_ALL) return { mode, offset: 0, docCount: maxDoc };
  if (mode !== MODE_BITSET) throw toc.corrupt(`unknown docs-with-field mode ${mode}`);
  return { mode, offset: toc.readUInt64LE(), docCount: toc.readVInt() };
}

export class DocsWithField {
  readonly docCount: number;
  private readonly mode: number;
  private readonly words: Uint32Array | null;
  private readonly ranks: Int32Array | null;

  constructor(bytes: Buffer, meta: DocsWithFieldMeta, body: ByteReader, readonly maxDoc: number) {
    this.mode = meta.mode;
    this.docCount = meta.docCount;
    if (meta.mode !== MODE_BITSET) {
      this.words = this.ranks = null;
      return;
    }
    const wordCount = bitsetWords(maxDoc);
    if (meta.offset < body.start || meta.offset + wordCount * 4 > body.end) throw body.corrupt('docs-with-field bitset lies outside the body');
    this.words = uint32View(bytes, meta.offset, wordCount);
    this.ranks = buildRanks(this.words);
    if (this.ranks[wordCount] !== meta.docCount) {
      throw body.corrupt(`docs-with-field bitset has ${this.ranks[wordCount]} docs, expected ${meta.docCount}`);
    }
  }

  has(doc: number): boolean {
    if (this.mode === MODE_ALL) return doc >= 0 && doc < this.maxDoc;
    if (this.words === null) return false;
    return doc >= 0 && doc < this.maxDoc && (this.words[doc >>> 5]! & (1 << (doc & 31))) !== 0;
  }

  /** Position of `doc`'s value among the stored values (meaningful when has(doc)). */
  index(doc: number): number {
    if (this.words === null) return doc;
    return rank(this.words, this.ranks!, doc);
  }
}
