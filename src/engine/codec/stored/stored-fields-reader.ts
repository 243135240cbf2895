/**
 * Reads stored documents by doc id. The chunk index (first doc and offset of every chunk) is in memory;
 * fetching a document binary-searches it, reads the chunk's block table, reads the block's metadata (in
 * place since format 3; LZ4 or deflate in format 2 and best_compression) up to the document and, only when a bytes field such as `_source` is wanted, the block's body: for
 * blocks after the first, block 0's body first, as its tail is their dictionary. Bytes values are views into
 * the decompressed block (no copy).
 *
 * A small LRU of decoded blocks makes neighbouring hits of a page and sequential reads (merges, scrolls)
 * decompress each block once; it holds BLOCK_CACHE_SIZE blocks per segment.
 */
import { ByteReader } from '../../store/byte-reader.js';
import { openCodecFile, openToc } from '../codec-file.js';
import { lz4Decompress } from './lz4.js';
import { compressionFromId, decompressBlock, dictionaryReach, type BlockCompression, type StoredCompression } from './compression.js';
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
const EMPTY = new Uint8Array(0);
/** Parsed block tables are small (7 numbers a block); 1,024 chunks cover ~1.4M LZ4-layout docs. */
const CHUNK_TABLE_CACHE_SIZE = 1024;

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

/** A block being read: where its metadata groups are, and its body once someone needed it. */
interface DecodedBlock {
  readonly docCount: number;
  /** Per group, plus the end: where it starts in the joined metadata and in the body. */
  readonly groupMetaStarts: number[];
  readonly groupBodyStarts: number[];
  /** Per group: its frame's file offset and length. */
  readonly groupFrameStarts: number[];
  readonly groupFrameLengths: number[];
  body: Buffer | null;
  /** Bytes of `body` that are decoded (LZ4 stops early); the rest is not yet valid. */
  bodyAvailable: number;
}

export class StoredFieldsReader {
  readonly maxDoc: number;
  readonly compression: StoredCompression;
  private readonly metaCompression: BlockCompression;
  private readonly metaGroupDocs: number;
  private readonly body: ByteReader;
  private readonly chunkFirstDocs: Int32Array;
  private readonly chunkFPs: Float64Array;
  private readonly fieldNames: string[];
  private readonly tables = new Map<number, ChunkTable>();
  private readonly blocks = new Map<number, DecodedBlock>();
  /**
   * The last metadata group read, decoded into a buffer the reader keeps (no allocation per hit; sequential
   * reads use a group 16 times): its bytes in `groupBytes` (the scratch buffer, or the file itself when the
   * metadata is stored uncompressed), each doc's record offset in it and its values' offset in the block's
   * body, plus the ends.
   */
  private groupOwner: DecodedBlock | null = null;
  private groupIndex = -1;
  private groupBytes: Buffer = Buffer.alloc(0);
  private scratch: Buffer = Buffer.alloc(0);
  private readonly groupDocStarts: number[] = [];
  private readonly groupDocBodyStarts: number[] = [];

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
    if (compression === undefined || compression === 'none' || metaCompression === undefined) throw toc.corrupt('unknown stored fields compression');
    this.compression = compression;
    this.metaCompression = metaCompression;
    this.metaGroupDocs = toc.readVInt();
    if (this.metaGroupDocs === 0) throw toc.corrupt('metadata groups of 0 docs');
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
    const group = Math.floor(docInBlock / this.metaGroupDocs);
    if (this.groupOwner !== decoded || this.groupIndex !== group) this.readGroup(decoded, group, chunk, block);
    const inGroup = docInBlock - group * this.metaGroupDocs;
    const reader = new ByteReader(this.groupBytes, this.groupDocStarts[inGroup]!, this.groupDocStarts[inGroup + 1]!, this.body.resource);
    let bodyOffset = this.groupDocBodyStarts[inGroup]!;
    const bodyEnd = this.groupDocBodyStarts[inGroup + 1]!;
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
          if (end > bodyEnd) throw reader.corrupt(`doc ${doc}: bytes value overruns its body`);
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

  /**
   * Drops the decoded blocks, the parsed chunk tables and the last decoded metadata group (what
   * `POST /_cache/clear` releases); the next reads decode again from the file bytes.
   */
  clearCaches(): void {
    this.blocks.clear();
    this.tables.clear();
    this.groupOwner = null;
    this.groupIndex = -1;
  }

  /** How many decoded blocks and chunk tables are held (for statistics and tests). */
  get cachedEntries(): { readonly blocks: number; readonly chunkTables: number } {
    return { blocks: this.blocks.size, chunkTables: this.tables.size };
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
    const docCount = table.blockFirstDocs[block + 1]! - table.blockFirstDocs[block]!;
    const groupCount = Math.ceil(docCount / this.metaGroupDocs);
    const metaEnd = table.metaStart[block]! + table.metaCompressed[block]!;
    const header = this.body.slice(table.metaStart[block]!, metaEnd);
    const groupMetaStarts: number[] = [];
    const groupBodyStarts: number[] = [];
    const groupFrameStarts: number[] = [];
    const groupFrameLengths: number[] = [];
    let metaAt = 0;
    let bodyAt = 0;
    let frameAt = 0;
    for (let g = 0; g < groupCount; g++) {
      groupMetaStarts.push(metaAt);
      groupBodyStarts.push(bodyAt);
      metaAt += header.readVInt();
      bodyAt += header.readVInt();
      const frameLength = header.readVInt();
      groupFrameStarts.push(frameAt);
      groupFrameLengths.push(frameLength);
      frameAt += frameLength;
    }
    groupMetaStarts.push(metaAt);
    groupBodyStarts.push(bodyAt);
    const framesStart = header.position;
    for (let g = 0; g < groupCount; g++) groupFrameStarts[g]! += framesStart;
    const where = `chunk ${chunk} block ${block}`;
    if (metaAt !== metaRaw) throw header.corrupt(`${where}: metadata groups add up to ${metaAt} bytes, expected ${metaRaw}`);
    if (bodyAt !== table.bodyRaw[block]) throw header.corrupt(`${where}: groups' values add up to ${bodyAt} bytes, body has ${table.bodyRaw[block]}`);
    if (framesStart + frameAt !== metaEnd) throw header.corrupt(`${where}: metadata frames add up to ${frameAt} bytes, ${metaEnd - framesStart} stored`);
    const decoded: DecodedBlock = { docCount, groupMetaStarts, groupBodyStarts, groupFrameStarts, groupFrameLengths, body: null, bodyAvailable: 0 };
    remember(this.blocks, key, decoded, BLOCK_CACHE_SIZE);
    return decoded;
  }

  /**
   * Decodes one metadata group of the block and finds its docs' record offsets (inline vInt decoding:
   * this loop is most of an id fetch), checking the records add up to the group's lengths.
   */
  private readGroup(decoded: DecodedBlock, group: number, chunk: number, block: number): void {
    // Invalid until this group is read whole: a corrupt group must not pass for the previous one.
    this.groupOwner = null;
    const raw = decoded.groupMetaStarts[group + 1]! - decoded.groupMetaStarts[group]!;
    let bodyOffset = decoded.groupBodyStarts[group]!;
    const bodyEnd = decoded.groupBodyStarts[group + 1]!;
    const where = `chunk ${chunk} block ${block} group ${group}`;
    const frameStart = decoded.groupFrameStarts[group]!;
    const frame = this.body.slice(frameStart, frameStart + decoded.groupFrameLengths[group]!);
    let meta: Buffer;
    let pos: number;
    if (this.metaCompression === 'none') {
      if (frame.remaining !== raw) throw frame.corrupt(`${where}: ${frame.remaining} stored bytes, expected ${raw}`);
      meta = this.body.bytes;
      pos = frameStart;
    } else {
      try {
        if (this.metaCompression === 'lz4') {
          if (this.scratch.length < raw) this.scratch = Buffer.allocUnsafeSlow(Math.max(raw, 2 * this.scratch.length, 4096));
          const reached = lz4Decompress(this.body.bytes, frame.start, frame.end, this.scratch.subarray(0, raw));
          if (reached !== raw) throw new Error(`decompressed ${reached} bytes, expected ${raw}`);
          meta = this.scratch;
        } else {
          meta = decompressBlock(this.metaCompression, EMPTY, frame.readBytes(frame.remaining), raw, raw);
        }
      } catch (err) {
        if (err instanceof Error && err.name === 'EsError') throw err;
        throw frame.corrupt(`${where} does not decompress: ${err instanceof Error ? err.message : String(err)}`);
      }
      pos = 0;
    }
    const end = pos + raw;
    const metaStarts = this.groupDocStarts;
    const bodyStarts = this.groupDocBodyStarts;
    const corrupt = (message: string): Error => this.body.corrupt(`${where}: ${message}`);
    // Reads a vInt at `pos` (a record is checked against `end` after it is read: a vInt may overrun by a few bytes).
    const vInt = (): number => {
      let b = meta[pos++]!;
      if (b < 0x80) return b;
      let result = b & 0x7f;
      for (let shift = 7; shift < 35; shift += 7) {
        if (pos >= end) throw corrupt('truncated vInt');
        b = meta[pos++]!;
        result |= (b & 0x7f) << shift;
        if (b < 0x80) return result >>> 0;
      }
      throw corrupt('invalid vInt');
    };
    const first = group * this.metaGroupDocs;
    const docs = Math.min(this.metaGroupDocs, decoded.docCount - first);
    metaStarts.length = docs + 1;
    bodyStarts.length = docs + 1;
    for (let i = 0; i < docs; i++) {
      const d = first + i;
      metaStarts[i] = pos;
      bodyStarts[i] = bodyOffset;
      if (pos >= end) throw corrupt(`metadata ends before doc ${d}`);
      let count = vInt();
      while (count-- > 0) {
        if (pos >= end) throw corrupt(`record of doc ${d} overruns the group`);
        const type = vInt() & 7;
        if (pos >= end) throw corrupt(`record of doc ${d} overruns the group`);
        if (type === TYPE_BYTES) bodyOffset += vInt();
        else if (type === TYPE_STRING) {
          const length = vInt(); // not `pos += vInt()`: that adds to the position before the length
          pos += length;
        } else if (type === TYPE_LONG) {
          while (pos < end && meta[pos]! >= 0x80) pos++;
          pos++;
        } else if (type === TYPE_DOUBLE || type === TYPE_BIGINT) pos += 8;
        else throw corrupt(`unknown stored value type ${type}`);
      }
      if (pos > end) throw corrupt(`record of doc ${d} overruns the group`);
    }
    if (pos !== end) throw corrupt(`${end - pos} bytes after its docs`);
    if (bodyOffset !== bodyEnd) throw corrupt(`values add up to ${bodyOffset - decoded.groupBodyStarts[group]!} bytes, group has ${bodyEnd - decoded.groupBodyStarts[group]!}`);
    metaStarts[docs] = end;
    bodyStarts[docs] = bodyEnd;
    this.groupBytes = meta;
    this.groupOwner = decoded;
    this.groupIndex = group;
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

  private decompress(mode: BlockCompression, dictionary: Uint8Array, start: number, length: number, raw: number, needed: number, chunk: number, block: number): Buffer {
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

