/**
 * Reads stored documents by doc id. The chunk index (first doc and offset of every chunk) is in memory;
 * fetching a document binary-searches it, decompresses that chunk (LZ4: only up to the document) and
 * decodes the document's fields. The last decompressed chunk is kept, so fetching the next hits of a
 * page from the same chunk costs no decompression.
 */
import { ByteReader } from '../../store/byte-reader.js';
import { openCodecFile, openToc } from '../codec-file.js';
import { compressionFromId, decompress, type StoredCompression } from './compression.js';
import {
  STORED_FIELDS_CODEC,
  STORED_FIELDS_VERSION_CURRENT,
  STORED_FIELDS_VERSION_START,
  TYPE_BIGINT,
  TYPE_BYTES,
  TYPE_DOUBLE,
  TYPE_LONG,
  TYPE_STRING,
  type StoredField,
  type StoredValue,
} from './stored-fields-format.js';

interface DecodedChunk {
  readonly index: number;
  readonly raw: Buffer;
  /** Bytes of `raw` that are decoded (LZ4 stops early); the rest is not yet valid. */
  readonly available: number;
  /** Offset of each doc's record in `raw`, plus the end. */
  readonly docStarts: Float64Array;
}

export class StoredFieldsReader {
  readonly maxDoc: number;
  readonly compression: StoredCompression;
  private readonly body: ByteReader;
  private readonly chunkFirstDocs: Int32Array;
  private readonly chunkFPs: Float64Array;
  private readonly fieldNames: string[];
  private cached: DecodedChunk | null = null;

  constructor(bytes: Buffer, resource: string, segmentId: Uint8Array, expectedMaxDoc: number) {
    const file = openCodecFile(bytes, resource, {
      codec: STORED_FIELDS_CODEC,
      minVersion: STORED_FIELDS_VERSION_START,
      maxVersion: STORED_FIELDS_VERSION_CURRENT,
      segmentId,
    });
    const toc = openToc(file.body);
    this.body = file.body.slice(file.body.start, toc.start);
    const compression = compressionFromId(toc.readByte());
    if (compression === undefined) throw toc.corrupt('unknown stored fields compression');
    this.compression = compression;
    this.maxDoc = toc.readVInt();
    if (this.maxDoc !== expectedMaxDoc) throw toc.corrupt(`stored fields hold ${this.maxDoc} docs, segment has ${expectedMaxDoc}`);
    const chunkCount = toc.readCount(2);
    this.chunkFirstDocs = new Int32Array(chunkCount + 1);
    this.chunkFPs = new Float64Array(chunkCount);
    let doc = 0;
    let fp = 0;
    for (let i = 0; i < chunkCount; i++) {
      this.chunkFirstDocs[i] = doc;
      doc += toc.readVInt();
      fp += toc.readVLong();
      this.chunkFPs[i] = fp;
      if (fp < this.body.start || fp >= this.body.end) throw toc.corrupt(`chunk ${i} offset ${fp} outside the chunks`);
    }
    this.chunkFirstDocs[chunkCount] = doc;
    if (doc !== this.maxDoc) throw toc.corrupt(`chunks hold ${doc} docs, expected ${this.maxDoc}`);
    const nameCount = toc.readCount();
    this.fieldNames = [];
    for (let i = 0; i < nameCount; i++) this.fieldNames.push(toc.readString());
    if (toc.remaining !== 0) throw toc.corrupt(`${toc.remaining} unexpected bytes after the stored fields table`);
  }

  /** The stored fields of `doc`, in the order they were added; `fields` restricts which are decoded. */
  document(doc: number, fields?: ReadonlySet<string>): StoredField[] {
    if (!(Number.isInteger(doc) && doc >= 0 && doc < this.maxDoc)) throw new RangeError(`doc ${doc} out of range [0, ${this.maxDoc})`);
    const chunk = this.chunkFor(doc);
    const first = this.chunkFirstDocs[chunk.index]!;
    const start = chunk.docStarts[doc - first]!;
    const end = chunk.docStarts[doc - first + 1]!;
    const reader = new ByteReader(chunk.raw, start, end, this.body.resource);
    const count = reader.readVInt();
    const result: StoredField[] = [];
    for (let i = 0; i < count; i++) {
      const key = reader.readVInt();
      const name = this.fieldNames[Math.floor(key / 8)];
      if (name === undefined) throw reader.corrupt(`unknown stored field number ${Math.floor(key / 8)}`);
      const value = readValue(reader, key & 7);
      if (fields === undefined || fields.has(name)) result.push({ name, value });
    }
    if (reader.remaining !== 0) throw reader.corrupt(`${reader.remaining} unexpected bytes after the fields of doc ${doc}`);
    return result;
  }

  private chunkFor(doc: number): DecodedChunk {
    const firstDocs = this.chunkFirstDocs;
    let index: number;
    const cached = this.cached;
    if (cached !== null && doc >= firstDocs[cached.index]! && doc < firstDocs[cached.index + 1]!) {
      index = cached.index;
      if (cached.docStarts[doc - firstDocs[index]! + 1]! <= cached.available) return cached;
    } else {
      let low = 0;
      let high = this.chunkFPs.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (firstDocs[mid]! <= doc) low = mid;
        else high = mid - 1;
      }
      index = low;
    }
    this.cached = this.decodeChunk(index, doc - firstDocs[index]!);
    return this.cached;
  }

  private decodeChunk(index: number, docInChunk: number): DecodedChunk {
    const reader = this.body.slice(this.chunkFPs[index]!, this.body.end);
    const docCount = reader.readVInt();
    const expected = this.chunkFirstDocs[index + 1]! - this.chunkFirstDocs[index]!;
    if (docCount !== expected) throw reader.corrupt(`chunk ${index} holds ${docCount} docs, expected ${expected}`);
    const docStarts = new Float64Array(docCount + 1);
    for (let i = 0; i < docCount; i++) docStarts[i + 1] = docStarts[i]! + reader.readVInt();
    const rawLength = reader.readVInt();
    if (docStarts[docCount] !== rawLength) throw reader.corrupt(`chunk ${index}: doc lengths add up to ${docStarts[docCount]}, raw length ${rawLength}`);
    const compressed = reader.readBytes(reader.readVInt());
    const needed = this.compression === 'lz4' ? docStarts[docInChunk + 1]! : rawLength;
    let raw: Buffer;
    try {
      raw = decompress(this.compression, compressed, rawLength, needed);
    } catch (err) {
      throw reader.corrupt(`chunk ${index} does not decompress: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { index, raw, available: needed, docStarts };
  }
}

function readValue(reader: ByteReader, type: number): StoredValue {
  switch (type) {
    case TYPE_BYTES:
      return reader.readLengthPrefixedBytes();
    case TYPE_STRING:
      return reader.readString();
    case TYPE_LONG:
      return reader.readZLong();
    case TYPE_DOUBLE:
      return reader.readFloat64LE();
    case TYPE_BIGINT:
      return reader.readBigInt64LE();
    default:
      throw reader.corrupt(`unknown stored value type ${type}`);
  }
}
