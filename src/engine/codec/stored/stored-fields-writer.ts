/** Writes the stored fields file (format in stored-fields-format.ts); documents are added in doc id order. */
import { ByteWriter } from '../../store/byte-writer.js';
import { finishCodecFile, startCodecFile, writeTocPointer } from '../codec-file.js';
import { BLOCK_LAYOUTS, compressBlock, COMPRESSION_IDS, dictionaryReach, type BlockLayout, type StoredCompression } from './compression.js';
import {
  STORED_FIELDS_CODEC,
  STORED_FIELDS_VERSION_CURRENT,
  TYPE_BIGINT,
  TYPE_BYTES,
  TYPE_DOUBLE,
  TYPE_LONG,
  TYPE_STRING,
  type StoredField,
} from './stored-fields-format.js';

interface WrittenBlock {
  readonly docCount: number;
  readonly metaRawLength: number;
  readonly meta: Uint8Array;
  readonly bodyRawLength: number;
  readonly body: Uint8Array;
}

export class StoredFieldsWriter {
  private readonly out: ByteWriter;
  private readonly layout: BlockLayout;
  private readonly meta = new ByteWriter(8 * 1024);
  private readonly body = new ByteWriter(64 * 1024);
  private blockDocs = 0;
  /** Where each doc of the current block starts in `meta` and in `body`: the metadata groups' bounds. */
  private readonly docMetaStarts: number[] = [];
  private readonly docBodyStarts: number[] = [];
  private readonly blocks: WrittenBlock[] = [];
  /** Tail of block 0's body: the preset dictionary of the chunk's later blocks. */
  private dictionary: Uint8Array = new Uint8Array(0);
  private readonly chunkDocCounts: number[] = [];
  private readonly chunkFPs: number[] = [];
  private readonly fieldNumbers = new Map<string, number>();
  private docCount = 0;

  /** `layout` overrides the mode's block sizes (tests use tiny blocks to exercise every boundary). */
  constructor(
    segmentId: Uint8Array,
    private readonly compression: StoredCompression = 'deflate_fast',
    layout: Partial<BlockLayout> = {},
  ) {
    this.layout = { ...BLOCK_LAYOUTS[compression], ...layout };
    this.out = startCodecFile(STORED_FIELDS_CODEC, STORED_FIELDS_VERSION_CURRENT, segmentId);
  }

  /** Adds the next document (doc id = number of documents added before) and returns its doc id. */
  addDocument(fields: readonly StoredField[]): number {
    const meta = this.meta;
    this.docMetaStarts.push(meta.length);
    this.docBodyStarts.push(this.body.length);
    meta.writeVInt(fields.length);
    for (const { name, value } of fields) {
      let number = this.fieldNumbers.get(name);
      if (number === undefined) {
        number = this.fieldNumbers.size;
        this.fieldNumbers.set(name, number);
      }
      const key = number * 8;
      if (typeof value === 'string') {
        meta.writeVInt(key + TYPE_STRING);
        meta.writeString(value);
      } else if (typeof value === 'number') {
        // Zig-zag doubles the magnitude, so only integers below 2^52 take the compact form.
        if (Number.isInteger(value) && Math.abs(value) < 2 ** 52 && !Object.is(value, -0)) {
          meta.writeVInt(key + TYPE_LONG);
          meta.writeZLong(value);
        } else {
          meta.writeVInt(key + TYPE_DOUBLE);
          meta.writeFloat64LE(value);
        }
      } else if (typeof value === 'bigint') {
        meta.writeVInt(key + TYPE_BIGINT);
        meta.writeBigInt64LE(BigInt.asIntN(64, value));
      } else {
        meta.writeVInt(key + TYPE_BYTES);
        meta.writeVInt(value.length);
        this.body.writeBytes(value);
      }
    }
    this.blockDocs++;
    const layout = this.layout;
    const bodyTarget = this.blocks.length === 0 ? layout.dictionaryBlockBytes : layout.blockBytes;
    if (this.body.length >= bodyTarget || meta.length >= layout.metaBytes || this.blockDocs >= layout.maxDocsPerBlock) {
      this.finishBlock();
      if (this.blocks.length >= layout.blocksPerChunk) this.flushChunk();
    }
    return this.docCount++;
  }

  private finishBlock(): void {
    if (this.blockDocs === 0) return;
    const bodyRaw = this.body.bytes();
    const metaRaw = this.meta.bytes();
    const first = this.blocks.length === 0;
    const body = compressBlock(this.compression, first ? new Uint8Array(0) : this.dictionary, bodyRaw);
    const meta = this.compressMeta(metaRaw, bodyRaw.length);
    // A copy: bodyRaw is a view of the writer's buffer, which the next block overwrites.
    if (first) this.dictionary = Uint8Array.prototype.slice.call(bodyRaw, Math.max(0, bodyRaw.length - dictionaryReach(this.compression)));
    this.blocks.push({ docCount: this.blockDocs, metaRawLength: metaRaw.length, meta, bodyRawLength: bodyRaw.length, body });
    this.meta.reset();
    this.body.reset();
    this.blockDocs = 0;
    this.docMetaStarts.length = 0;
    this.docBodyStarts.length = 0;
  }

  /** The block's meta stream: a header of group lengths, then each group of metaGroupDocs docs compressed alone. */
  private compressMeta(metaRaw: Uint8Array, bodyLength: number): Uint8Array {
    const groupDocs = this.layout.metaGroupDocs;
    const header = new ByteWriter(64);
    const frames: Uint8Array[] = [];
    for (let first = 0; first < this.blockDocs; first += groupDocs) {
      const last = Math.min(first + groupDocs, this.blockDocs);
      const metaEnd = last < this.blockDocs ? this.docMetaStarts[last]! : metaRaw.length;
      const bodyEnd = last < this.blockDocs ? this.docBodyStarts[last]! : bodyLength;
      const frame = compressBlock(this.layout.metaCompression, new Uint8Array(0), metaRaw.subarray(this.docMetaStarts[first]!, metaEnd));
      header.writeVInt(metaEnd - this.docMetaStarts[first]!);
      header.writeVInt(bodyEnd - this.docBodyStarts[first]!);
      header.writeVInt(frame.length);
      frames.push(frame);
    }
    const headerBytes = header.bytes();
    const out = new Uint8Array(headerBytes.length + frames.reduce((sum, frame) => sum + frame.length, 0));
    out.set(headerBytes, 0);
    let at = headerBytes.length;
    for (const frame of frames) {
      out.set(frame, at);
      at += frame.length;
    }
    return out;
  }

  private flushChunk(): void {
    this.finishBlock();
    if (this.blocks.length === 0) return;
    const out = this.out;
    this.chunkFPs.push(out.length);
    let docs = 0;
    out.writeVInt(this.blocks.length);
    for (const block of this.blocks) {
      docs += block.docCount;
      out.writeVInt(block.docCount);
      out.writeVInt(block.metaRawLength);
      out.writeVInt(block.meta.length);
      out.writeVInt(block.bodyRawLength);
      out.writeVInt(block.body.length);
    }
    out.writeVInt(this.dictionary.length);
    for (const block of this.blocks) {
      out.writeBytes(block.meta);
      out.writeBytes(block.body);
    }
    this.chunkDocCounts.push(docs);
    this.blocks.length = 0;
    this.dictionary = new Uint8Array(0);
  }

  finish(): { bytes: Buffer; checksum: number } {
    this.flushChunk();
    const out = this.out;
    const tocOffset = out.length;
    out.writeByte(COMPRESSION_IDS[this.compression]);
    out.writeByte(COMPRESSION_IDS[this.layout.metaCompression]);
    out.writeVInt(this.layout.metaGroupDocs);
    out.writeVInt(this.docCount);
    out.writeVInt(this.chunkFPs.length);
    let previousFP = 0;
    for (let i = 0; i < this.chunkFPs.length; i++) {
      out.writeVInt(this.chunkDocCounts[i]!);
      out.writeVLong(this.chunkFPs[i]! - previousFP);
      previousFP = this.chunkFPs[i]!;
    }
    out.writeVInt(this.fieldNumbers.size);
    for (const name of this.fieldNumbers.keys()) out.writeString(name);
    writeTocPointer(out, tocOffset);
    return finishCodecFile(out);
  }

  get numDocs(): number {
    return this.docCount;
  }
}
