/**
 * Reads stored documents by doc id. The chunk index (first doc and offset of every chunk) is in memory;
 * fetching a document binary-searches it, reads the chunk's block table, decompresses the block's metadata
 * (small; LZ4 by default) and, only when a bytes field such as `_source` is wanted, the block's body: for
 * blocks after the first, block 0's body first, as its tail is their dictionary. Bytes values are views into
 * the decompressed block (no copy).
 *
 * A small LRU of decoded blocks makes neighbouring hits of a page and sequential reads (merges, scrolls)
 * decompress each block once; it holds BLOCK_CACHE_SIZE blocks per segment.
 */
import { ByteReader } from '../../store/byte-reader.js';
import { openCodecFile, openToc } from '../codec-file.js';
import { compressionFromId, decompressBlock, dictionaryReach, type StoredCompression } from './compression.js';
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

const BLOCK_CACHE_SIZE = 16;
const CHUNK_TABLE_CACHE_SIZE = 8;

/** One chunk's block table, parsed. */
interface ChunkTable {
  readonly blockFirstDocs: Int32Array;
  readonly metaRaw: Int32Array;
  readonly metaStart: Float64Array;
  readonly metaCompressed: Int32Array;
  readonly bodyRaw: Int32Array;
  readonly bodyStart: Float64Array;
  readonly bodyCompressed: Int32Array;
  readonly dictionaryLength: number;
}

/** A decoded block: its metadata with each doc's record offsets, and its body once someone needed it. */
interface DecodedBlock {
  readonly meta: Buffer;
  /** Offset of each doc's record in `meta`, plus the end. */
  readonly metaStarts: Int32Array;
  /** Offset of each doc's bytes values in the body, plus the end. */
  readonly bodyStarts: Int32Array;
  body: Buffer | null;
  /** Bytes of `body` that are decoded (LZ4 stops early); the rest is not yet valid. */
  bodyAvailable: number;
}

export class StoredFieldsReader {
  readonly maxDoc: number;
  readonly compression: StoredCompression;
  private readonly metaCompression: StoredCompression;
  private readonly body: ByteReader;
  private readonly chunkFirstDocs: Int32Array;
  private readonly chunkFPs: Float64Array;
  private readonly fieldNames: string[];
  private readonly tables = new Map<number, ChunkTable>();
  private readonly blocks = new Map<number, DecodedBlock>();

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
    const metaCompression = compressionFromId(toc.readByte());
    if (compression === undefined || metaCompression === undefined) throw toc.corrupt('unknown stored fields compression');
    this.compression = compression;
    this.metaCompression = metaCompression;
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
    const chunk = this.chunkOf(doc);
    const table = this.table(chunk);
    const docInChunk = doc - this.chunkFirstDocs[chunk]!;
    const blockFirstDocs = table.blockFirstDocs;
    let block = 0;
    while (blockFirstDocs[block + 1]! <= docInChunk) block++;
    const decoded = this.block(chunk, table, block);
    const docInBlock = docInChunk - blockFirstDocs[block]!;
    const reader = new ByteReader(decoded.meta, decoded.metaStarts[docInBlock]!, decoded.metaStarts[docInBlock + 1]!, this.body.resource);
    let bodyOffset = decoded.bodyStarts[docInBlock]!;
    const count = reader.readVInt();
    const result: StoredField[] = [];
    for (let i = 0; i < count; i++) {
      const key = reader.readVInt();
      const name = this.fieldNames[key >>> 3];
      if (name === undefined) throw reader.corrupt(`unknown stored field number ${key >>> 3}`);
      const type = key & 7;
      const wanted = fields === undefined || fields.has(name);
      if (type === TYPE_BYTES) {
        const length = reader.readVInt();
        if (wanted) {
          const end = bodyOffset + length;
          if (end > decoded.bodyStarts[docInBlock + 1]!) throw reader.corrupt(`doc ${doc}: bytes value overruns its body`);
          const body = this.bodyOf(chunk, table, block, decoded, end);
          result.push({ name, value: body.subarray(bodyOffset, end) });
        }
        bodyOffset += length;
      } else {
        const value = readValue(reader, type);
        if (wanted) result.push({ name, value });
      }
    }
    if (reader.remaining !== 0) throw reader.corrupt(`${reader.remaining} unexpected bytes after the fields of doc ${doc}`);
    return result;
  }

  private chunkOf(doc: number): number {
    const firstDocs = this.chunkFirstDocs;
    let low = 0;
    let high = this.chunkFPs.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (firstDocs[mid]! <= doc) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  private table(chunk: number): ChunkTable {
    const cached = this.tables.get(chunk);
    if (cached !== undefined) return cached;
    const reader = this.body.slice(this.chunkFPs[chunk]!, this.body.end);
    const blockCount = reader.readCount(5);
    if (blockCount === 0) throw reader.corrupt(`chunk ${chunk} has no blocks`);
    const table: ChunkTable = {
      blockFirstDocs: new Int32Array(blockCount + 1),
      metaRaw: new Int32Array(blockCount),
      metaStart: new Float64Array(blockCount),
      metaCompressed: new Int32Array(blockCount),
      bodyRaw: new Int32Array(blockCount),
      bodyStart: new Float64Array(blockCount),
      bodyCompressed: new Int32Array(blockCount),
      dictionaryLength: 0,
    };
    let docs = 0;
    for (let b = 0; b < blockCount; b++) {
      table.blockFirstDocs[b] = docs;
      const docCount = reader.readVInt();
      if (docCount === 0) throw reader.corrupt(`chunk ${chunk} block ${b} holds no docs`);
      docs += docCount;
      table.metaRaw[b] = reader.readVInt();
      table.metaCompressed[b] = reader.readVInt();
      table.bodyRaw[b] = reader.readVInt();
      table.bodyCompressed[b] = reader.readVInt();
    }
    table.blockFirstDocs[blockCount] = docs;
    const expected = this.chunkFirstDocs[chunk + 1]! - this.chunkFirstDocs[chunk]!;
    if (docs !== expected) throw reader.corrupt(`chunk ${chunk} holds ${docs} docs, expected ${expected}`);
    const dictionaryLength = reader.readVInt();
    if (dictionaryLength > table.bodyRaw[0]! || dictionaryLength > dictionaryReach(this.compression)) throw reader.corrupt(`chunk ${chunk}: dictionary of ${dictionaryLength} bytes`);
    let position = reader.position;
    for (let b = 0; b < blockCount; b++) {
      table.metaStart[b] = position;
      position += table.metaCompressed[b]!;
      table.bodyStart[b] = position;
      position += table.bodyCompressed[b]!;
    }
    if (position > this.body.end) throw reader.corrupt(`chunk ${chunk} overruns the chunks`);
    const result = { ...table, dictionaryLength };
    remember(this.tables, chunk, result, CHUNK_TABLE_CACHE_SIZE);
    return result;
  }

  private block(chunk: number, table: ChunkTable, block: number): DecodedBlock {
    const key = chunk * 65536 + block;
    const cached = this.blocks.get(key);
    if (cached !== undefined) {
      // Most recently used goes last.
      this.blocks.delete(key);
      this.blocks.set(key, cached);
      return cached;
    }
    const metaRaw = table.metaRaw[block]!;
    const meta = this.decompress(this.metaCompression, new Uint8Array(0), table.metaStart[block]!, table.metaCompressed[block]!, metaRaw, metaRaw, chunk, block);
    const docCount = table.blockFirstDocs[block + 1]! - table.blockFirstDocs[block]!;
    const metaStarts = new Int32Array(docCount + 1);
    const bodyStarts = new Int32Array(docCount + 1);
    const reader = new ByteReader(meta, 0, meta.length, this.body.resource);
    let bodyOffset = 0;
    for (let d = 0; d < docCount; d++) {
      metaStarts[d] = reader.position;
      bodyStarts[d] = bodyOffset;
      const count = reader.readVInt();
      for (let i = 0; i < count; i++) {
        const type = reader.readVInt() & 7;
        if (type === TYPE_BYTES) bodyOffset += reader.readVInt();
        else skipValue(reader, type);
      }
    }
    metaStarts[docCount] = reader.position;
    bodyStarts[docCount] = bodyOffset;
    if (reader.remaining !== 0) throw reader.corrupt(`chunk ${chunk} block ${block}: ${reader.remaining} bytes after its docs`);
    if (bodyOffset !== table.bodyRaw[block]) throw reader.corrupt(`chunk ${chunk} block ${block}: values add up to ${bodyOffset} bytes, body has ${table.bodyRaw[block]}`);
    const decoded: DecodedBlock = { meta, metaStarts, bodyStarts, body: null, bodyAvailable: 0 };
    remember(this.blocks, key, decoded, BLOCK_CACHE_SIZE);
    return decoded;
  }

  /** The block's body, decoded at least up to `needed`. */
  private bodyOf(chunk: number, table: ChunkTable, block: number, decoded: DecodedBlock, needed: number): Buffer {
    if (decoded.body !== null && decoded.bodyAvailable >= needed) return decoded.body;
    let dictionary: Uint8Array = new Uint8Array(0);
    if (block > 0 && table.dictionaryLength > 0) {
      const first = this.block(chunk, table, 0);
      const firstBody = this.bodyOf(chunk, table, 0, first, table.bodyRaw[0]!);
      dictionary = firstBody.subarray(firstBody.length - table.dictionaryLength);
    }
    const raw = table.bodyRaw[block]!;
    // LZ4 stops at the document the first time; a second visit (sequential reads) decodes the whole block.
    const target = this.compression === 'lz4' && decoded.body === null ? needed : raw;
    decoded.body = this.decompress(this.compression, dictionary, table.bodyStart[block]!, table.bodyCompressed[block]!, raw, target, chunk, block);
    decoded.bodyAvailable = target;
    return decoded.body;
  }

  private decompress(mode: StoredCompression, dictionary: Uint8Array, start: number, length: number, raw: number, needed: number, chunk: number, block: number): Buffer {
    const compressed = this.body.slice(start, start + length);
    try {
      return decompressBlock(mode, dictionary, compressed.readBytes(length), raw, needed);
    } catch (err) {
      if (err instanceof Error && err.name === 'EsError') throw err;
      throw compressed.corrupt(`chunk ${chunk} block ${block} does not decompress: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

function remember<K, V>(cache: Map<K, V>, key: K, value: V, size: number): void {
  cache.set(key, value);
  if (cache.size > size) cache.delete(cache.keys().next().value as K);
}

function skipValue(reader: ByteReader, type: number): void {
  switch (type) {
    case TYPE_STRING:
      reader.skipBytes(reader.readVInt());
      return;
    case TYPE_LONG:
      reader.readZLong();
      return;
    case TYPE_DOUBLE:
    case TYPE_BIGINT:
      reader.skipBytes(8);
      return;
    default:
      throw reader.corrupt(`unknown stored value type ${type}`);
  }
}

function readValue(reader: ByteReader, type: number): StoredValue {
  switch (type) {
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
