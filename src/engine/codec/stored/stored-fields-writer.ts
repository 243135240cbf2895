/** Writes the stored fields file (format in stored-fields-format.ts); documents are added in doc id order. */
import { ByteWriter } from '../../store/byte-writer.js';
import { finishCodecFile, startCodecFile, writeTocPointer } from '../codec-file.js';
import { CHUNK_SIZES, compress, COMPRESSION_IDS, type StoredCompression } from './compression.js';
import {
  MAX_DOCS_PER_CHUNK,
  STORED_FIELDS_CODEC,
  STORED_FIELDS_VERSION_CURRENT,
  TYPE_BIGINT,
  TYPE_BYTES,
  TYPE_DOUBLE,
  TYPE_LONG,
  TYPE_STRING,
  type StoredField,
} from './stored-fields-format.js';

export class StoredFieldsWriter {
  private readonly out: ByteWriter;
  private readonly pending = new ByteWriter(64 * 1024);
  private readonly pendingLengths: number[] = [];
  private readonly chunkDocCounts: number[] = [];
  private readonly chunkFPs: number[] = [];
  private readonly fieldNumbers = new Map<string, number>();
  private docCount = 0;

  constructor(
    segmentId: Uint8Array,
    private readonly compression: StoredCompression = 'deflate_fast',
    private readonly chunkSize = CHUNK_SIZES[compression],
  ) {
    this.out = startCodecFile(STORED_FIELDS_CODEC, STORED_FIELDS_VERSION_CURRENT, segmentId);
  }

  /** Adds the next document (doc id = number of documents added before) and returns its doc id. */
  addDocument(fields: readonly StoredField[]): number {
    const start = this.pending.length;
    const doc = this.pending;
    doc.writeVInt(fields.length);
    for (const { name, value } of fields) {
      let number = this.fieldNumbers.get(name);
      if (number === undefined) {
        number = this.fieldNumbers.size;
        this.fieldNumbers.set(name, number);
      }
      const key = number * 8;
      if (typeof value === 'string') {
        doc.writeVInt(key + TYPE_STRING);
        doc.writeString(value);
      } else if (typeof value === 'number') {
        // Zig-zag doubles the magnitude, so only integers below 2^52 take the compact form.
        if (Number.isInteger(value) && Math.abs(value) < 2 ** 52 && !Object.is(value, -0)) {
          doc.writeVInt(key + TYPE_LONG);
          doc.writeZLong(value);
        } else {
          doc.writeVInt(key + TYPE_DOUBLE);
          doc.writeFloat64LE(value);
        }
      } else if (typeof value === 'bigint') {
        doc.writeVInt(key + TYPE_BIGINT);
        doc.writeBigInt64LE(BigInt.asIntN(64, value));
      } else {
        doc.writeVInt(key + TYPE_BYTES);
        doc.writeLengthPrefixedBytes(value);
      }
    }
    this.pendingLengths.push(doc.length - start);
    if (doc.length >= this.chunkSize || this.pendingLengths.length >= MAX_DOCS_PER_CHUNK) this.flushChunk();
    return this.docCount++;
  }

  private flushChunk(): void {
    if (this.pendingLengths.length === 0) return;
    const out = this.out;
    this.chunkFPs.push(out.length);
    this.chunkDocCounts.push(this.pendingLengths.length);
    out.writeVInt(this.pendingLengths.length);
    for (const length of this.pendingLengths) out.writeVInt(length);
    const raw = this.pending.bytes();
    const compressed = compress(this.compression, raw);
    out.writeVInt(raw.length);
    out.writeVInt(compressed.length);
    out.writeBytes(compressed);
    this.pending.reset();
    this.pendingLengths.length = 0;
  }

  finish(): { bytes: Buffer; checksum: number } {
    this.flushChunk();
    const out = this.out;
    const tocOffset = out.length;
    out.writeByte(COMPRESSION_IDS[this.compression]);
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
