/**
 * Reads stored documents by doc id. The chunk index (first doc and offset of every chunk) is in memory;
 * fetching a document binary-searches it, reads the chunk's block table and the block's group header (both
 * parsed once and kept), decodes the document's metadata group only up to the document (meta-group.ts) and,
 * only when a bytes field such as `_source` is wanted, the block's body: for blocks after the first, block 0's
 * body first, as its tail is their dictionary. Bytes values are views into the decompressed block (no copy).
 * `identity` reads just the id and routing strings, without field objects: a search's fetch of its hits' ids.
 *
 * A small LRU of decoded bodies makes neighbouring hits of a page and sequential reads (merges, scrolls)
 * decompress each block once; it holds BLOCK_CACHE_SIZE blocks per segment. The last metadata group stays
 * loaded, so hits read in doc order share it.
 */
import { ByteReader } from '../../store/byte-reader.js';
import { openCodecFile, openToc } from '../codec-file.js';
import { compressionFromId, decompressBlock, dictionaryReach, type BlockCompression, type StoredCompression } from './compression.js';
import { MetaGroupCursor, parseBlockGroups, type BlockGroups } from './meta-group.js';
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
  /** Per block, its metadata groups once a read needed them. */
  readonly groups: (BlockGroups | undefined)[];
}

/** A block's body once someone needed it. */
interface DecodedBlock {
  body: Buffer | null;
  /** Bytes of `body` that are decoded (LZ4 stops early); the rest is not yet valid. */
  bodyAvailable: number;
}

/** The names of the fields `identity` reads (`_id` and `_routing`: the codec does not know their names). */
export interface IdentityFields {
  readonly id: string;
  readonly routing: string;
}

/** A document's id and routing strings (null when not stored). */
export interface StoredIdentity {
  readonly id: string | null;
  readonly routing: string | null;
}

/** Where a document's metadata record is: its block and group are loaded in the cursor. */
interface Located {
  chunk: number;
  block: number;
  inGroup: number;
}

export class StoredFieldsReader {
  readonly maxDoc: number;
  readonly compression: StoredCompression;
  private readonly metaGroupDocs: number;
  private readonly body: ByteReader;
  private readonly chunkFirstDocs: Int32Array;
  private readonly chunkFPs: Float64Array;
  private readonly fieldNames: string[];
  private readonly tables = new Map<number, ChunkTable>();
  private readonly blocks = new Map<number, DecodedBlock>();
  /**
   * The last metadata group read, decoded as far as reads went into a buffer the reader keeps (no
   * allocation per hit; hits in doc order share a group).
   */
  private readonly cursor: MetaGroupCursor;
  private readonly located: Located = { chunk: 0, block: 0, inGroup: 0 };
  /** `identity`'s field numbers, resolved for the last names object it was given. */
  private identityNames: IdentityFields | null = null;
  private idNumber = -1;
  private routingNumber = -1;

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
    this.cursor = new MetaGroupCursor(metaCompression, (message) => this.body.corrupt(message));
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
    const { chunk, block, inGroup } = this.locate(doc);
    const cursor = this.cursor;
    cursor.reach(inGroup);
    const reader = new ByteReader(cursor.bytes, cursor.recordStart(inGroup), cursor.recordStart(inGroup + 1), this.body.resource);
    let bodyOffset = cursor.bodyStart(inGroup);
    const bodyEnd = cursor.bodyStart(inGroup + 1);
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
          const table = this.table(chunk);
          const body = this.bodyOf(chunk, table, block, this.block(chunk, block), end);
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
   * The id and routing of `doc` (the string fields named by `names`; the first value of each), without
   * building field objects: what a search reads for each hit when it does not want `_source`. Decodes the
   * doc's metadata group only up to the doc.
   */
  identity(doc: number, names: IdentityFields): StoredIdentity {
    if (this.identityNames !== names) {
      this.idNumber = this.fieldNames.indexOf(names.id);
      this.routingNumber = this.fieldNames.indexOf(names.routing);
      this.identityNames = names;
    }
    const { inGroup } = this.locate(doc);
    const cursor = this.cursor;
    cursor.reach(inGroup);
    return this.readIdentity(cursor.bytes, cursor.recordStart(inGroup), cursor.recordStart(inGroup + 1), doc);
  }

  /**
   * Drops the decoded blocks, the parsed chunk tables and the last decoded metadata group (what
   * `POST /_cache/clear` releases); the next reads decode again from the file bytes.
   */
  clearCaches(): void {
    this.blocks.clear();
    this.tables.clear();
    this.cursor.owner = null;
  }

  /** How many decoded blocks and chunk tables are held (for statistics and tests). */
  get cachedEntries(): { readonly blocks: number; readonly chunkTables: number } {
    return { blocks: this.blocks.size, chunkTables: this.tables.size };
  }

  /** Finds `doc`'s chunk, block and metadata group, and loads the group in the cursor unless it is there. */
  private locate(doc: number): Located {
    if (!(Number.isInteger(doc) && doc >= 0 && doc < this.maxDoc)) throw new RangeError(`doc ${doc} out of range [0, ${this.maxDoc})`);
    const chunk = this.chunkOf(doc);
    const table = this.table(chunk);
    const docInChunk = doc - this.chunkFirstDocs[chunk]!;
    const blockFirstDocs = table.blockFirstDocs;
    let block = 0;
    while (blockFirstDocs[block + 1]! <= docInChunk) block++;
    const groups = table.groups[block] ?? this.parseGroups(chunk, table, block);
    const docInBlock = docInChunk - blockFirstDocs[block]!;
    const group = Math.floor(docInBlock / this.metaGroupDocs);
    const cursor = this.cursor;
    if (cursor.owner !== groups || cursor.group !== group) cursor.load(this.body.bytes, groups, group, chunk, block);
    const located = this.located;
    located.chunk = chunk;
    located.block = block;
    located.inGroup = docInBlock - group * this.metaGroupDocs;
    return located;
  }

  /** Reads the id and routing strings of the record in bytes[start, end) (bounds already checked by the cursor's scan). */
  private readIdentity(bytes: Buffer, start: number, end: number, doc: number): StoredIdentity {
    const idNumber = this.idNumber;
    const routingNumber = this.routingNumber;
    let id: string | null = null;
    let routing: string | null = null;
    let pos = start;
    let count = readVIntAt(bytes, pos);
    pos = vIntEnd;
    while (count-- > 0 && pos < end) {
      const key = readVIntAt(bytes, pos);
      pos = vIntEnd;
      const type = key & 7;
      if (type === TYPE_STRING) {
        const length = readVIntAt(bytes, pos);
        pos = vIntEnd;
        const valueEnd = pos + length;
        if (valueEnd > end) break;
        const number = key >>> 3;
        if (number === idNumber && id === null) id = decodeString(bytes, pos, valueEnd);
        else if (number === routingNumber && routing === null) routing = decodeString(bytes, pos, valueEnd);
        pos = valueEnd;
      } else if (type === TYPE_BYTES) {
        readVIntAt(bytes, pos);
        pos = vIntEnd;
      } else if (type === TYPE_LONG) {
        while (pos < end && bytes[pos]! >= 0x80) pos++;
        pos++;
      } else if (type === TYPE_DOUBLE || type === TYPE_BIGINT) pos += 8;
      else break;
    }
    if (pos !== end || count !== -1) throw this.body.corrupt(`doc ${doc}: its metadata record does not parse`);
    return { id, routing };
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
      groups: new Array<BlockGroups | undefined>(blockCount),
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

  private parseGroups(chunk: number, table: ChunkTable, block: number): BlockGroups {
    const docCount = table.blockFirstDocs[block + 1]! - table.blockFirstDocs[block]!;
    const header = this.body.slice(table.metaStart[block]!, table.metaStart[block]! + table.metaCompressed[block]!);
    const groups = parseBlockGroups(header, docCount, this.metaGroupDocs, table.metaRaw[block]!, table.bodyRaw[block]!, `chunk ${chunk} block ${block}`);
    table.groups[block] = groups;
    return groups;
  }

  /** The block's decoded body holder (most recently used last in the small LRU). */
  private block(chunk: number, block: number): DecodedBlock {
    const key = chunk * 65536 + block;
    const cached = this.blocks.get(key);
    if (cached !== undefined) {
      this.blocks.delete(key);
      this.blocks.set(key, cached);
      return cached;
    }
    const decoded: DecodedBlock = { body: null, bodyAvailable: 0 };
    remember(this.blocks, key, decoded, BLOCK_CACHE_SIZE);
    return decoded;
  }

  /** The block's body, decoded at least up to `needed`. */
  private bodyOf(chunk: number, table: ChunkTable, block: number, decoded: DecodedBlock, needed: number): Buffer {
    if (decoded.body !== null && decoded.bodyAvailable >= needed) return decoded.body;
    let dictionary: Uint8Array = new Uint8Array(0);
    if (block > 0 && table.dictionaryLength > 0) {
      const first = this.block(chunk, 0);
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

/** Where the last `readVIntAt` ended (a module variable: no object per read on the hot path). */
let vIntEnd = 0;

/** A vInt at bytes[pos] (inside a record the cursor's scan already bounded); sets `vIntEnd`. */
function readVIntAt(bytes: Buffer, pos: number): number {
  let b = bytes[pos++]!;
  let result = b & 0x7f;
  for (let shift = 7; b >= 0x80 && shift < 35; shift += 7) {
    b = bytes[pos++]!;
    result |= (b & 0x7f) << shift;
  }
  vIntEnd = pos;
  return result >>> 0;
}

/**
 * UTF-8 bytes as a string. Ids are mostly ASCII: checking that in JS and decoding as latin1 (a byte per
 * character, no UTF-8 validation) costs less than the UTF-8 decoder's call.
 */
function decodeString(bytes: Buffer, start: number, end: number): string {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return bytes.toString('utf8', start, end);
  return bytes.toString('latin1', start, end);
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

