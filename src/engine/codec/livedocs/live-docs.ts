/**
 * Live docs: which documents of a segment are not deleted. A segment is immutable but its deletes are
 * not, so each new set of deletes is written to a new file generation (`<segment>_<gen>.liv`, gen in
 * base 36 as Lucene names them); the commit point says which generation is current.
 *
 *   Body = MaxDoc(vInt) DeletedCount(vInt) Padding(to 4) Bits(u32 LE words, bit set = live)
 *
 * Bits past maxDoc are zero, and the number of cleared bits must equal DeletedCount: both are checked on
 * open, so a damaged file cannot silently resurrect or hide documents.
 */
import { bitsetWords, popCount32, uint32View } from '../bits.js';
import { finishCodecFile, openCodecFile, startCodecFile } from '../codec-file.js';

export const LIVE_DOCS_CODEC = 'GannetLiveDocs';
export const LIVE_DOCS_VERSION_START = 1;
export const LIVE_DOCS_VERSION_CURRENT = LIVE_DOCS_VERSION_START;
export const LIVE_DOCS_EXTENSION = 'liv';

export function liveDocsFileName(segmentName: string, generation: number): string {
  if (!Number.isSafeInteger(generation) || generation < 1) throw new RangeError(`live docs generation must be >= 1, got ${generation}`);
  return `${segmentName}_${generation.toString(36)}.${LIVE_DOCS_EXTENSION}`;
}

/** An immutable view of which docs are live; deleting produces a new LiveDocs. */
export class LiveDocs {
  private constructor(
    readonly maxDoc: number,
    /** Bit d set = doc d live. Do not modify. */
    readonly words: Uint32Array,
    readonly deletedCount: number,
  ) {}

  static allLive(maxDoc: number): LiveDocs {
    const words = new Uint32Array(bitsetWords(maxDoc)).fill(0xffffffff);
    if (maxDoc % 32 !== 0) words[words.length - 1] = (2 ** (maxDoc % 32) - 1) >>> 0;
    return new LiveDocs(maxDoc, words, 0);
  }

  /** Wraps words read from a file; checks the invariants. */
  static fromWords(maxDoc: number, words: Uint32Array, deletedCount: number): LiveDocs | string {
    if (words.length !== bitsetWords(maxDoc)) return `bitset has ${words.length} words, expected ${bitsetWords(maxDoc)}`;
    if (maxDoc % 32 !== 0 && words[words.length - 1]! >>> (maxDoc % 32) !== 0) return 'bits set past maxDoc';
    let live = 0;
    for (const word of words) live += popCount32(word);
    if (maxDoc - live !== deletedCount) return `bitset has ${maxDoc - live} deleted docs, expected ${deletedCount}`;
    return new LiveDocs(maxDoc, words, deletedCount);
  }

  get liveCount(): number {
    return this.maxDoc - this.deletedCount;
  }

  isLive(doc: number): boolean {
    return (this.words[doc >>> 5]! & (1 << (doc & 31))) !== 0;
  }

  /** A copy with `docs` deleted as well (already deleted docs are ignored). */
  withDeleted(docs: Iterable<number>): LiveDocs {
    const words = this.words.slice();
    let deleted = this.deletedCount;
    for (const doc of docs) {
      if (!(Number.isInteger(doc) && doc >= 0 && doc < this.maxDoc)) throw new RangeError(`doc ${doc} out of range [0, ${this.maxDoc})`);
      const mask = 1 << (doc & 31);
      if ((words[doc >>> 5]! & mask) !== 0) {
        words[doc >>> 5] = (words[doc >>> 5]! & ~mask) >>> 0;
        deleted++;
      }
    }
    return new LiveDocs(this.maxDoc, words, deleted);
  }
}

export function writeLiveDocs(segmentId: Uint8Array, generation: number, liveDocs: LiveDocs): { bytes: Buffer; checksum: number } {
  const out = startCodecFile(LIVE_DOCS_CODEC, LIVE_DOCS_VERSION_CURRENT, segmentId, generation.toString(36));
  out.writeVInt(liveDocs.maxDoc);
  out.writeVInt(liveDocs.deletedCount);
  out.alignTo(4);
  out.writeBytes(new Uint8Array(liveDocs.words.buffer, liveDocs.words.byteOffset, liveDocs.words.byteLength));
  return finishCodecFile(out);
}

export function readLiveDocs(bytes: Buffer, resource: string, segmentId: Uint8Array, generation: number, maxDoc: number): LiveDocs {
  const file = openCodecFile(bytes, resource, {
    codec: LIVE_DOCS_CODEC,
    minVersion: LIVE_DOCS_VERSION_START,
    maxVersion: LIVE_DOCS_VERSION_CURRENT,
    segmentId,
    suffix: generation.toString(36),
  });
  const body = file.body;
  const fileMaxDoc = body.readVInt();
  if (fileMaxDoc !== maxDoc) throw body.corrupt(`live docs are for ${fileMaxDoc} docs, segment has ${maxDoc}`);
  const deletedCount = body.readVInt();
  body.skipBytes((4 - (body.position % 4)) % 4);
  const wordCount = bitsetWords(maxDoc);
  if (body.remaining !== wordCount * 4) throw body.corrupt(`live docs bitset has ${body.remaining} bytes, expected ${wordCount * 4}`);
  const words = uint32View(bytes, body.position, wordCount);
  const liveDocs = LiveDocs.fromWords(maxDoc, words, deletedCount);
  if (typeof liveDocs === 'string') throw body.corrupt(liveDocs);
  return liveDocs;
}
