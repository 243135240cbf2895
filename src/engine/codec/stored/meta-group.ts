/**
 * The metadata groups of stored fields (format 3, stored-fields-format.ts): where each group of a block lies
 * (`BlockGroups`, parsed once per block and kept with its chunk table), and a cursor over the records of one
 * group (`MetaGroupCursor`) that decodes only as far as a caller reads.
 *
 * Why lazy: an id fetch needs one record of a 16-doc group, and LZ4 must decode everything before it (later
 * bytes may copy from earlier ones) but nothing after it. The cursor decodes LZ4 sequence by sequence while it
 * finds record bounds, so a random id costs on average about half a group; the next hit in the same group
 * (hits are read in doc order) continues where the last one stopped.
 */
import type { ByteReader } from '../../store/byte-reader.js';
import { decompressBlock, type BlockCompression } from './compression.js';
import { lz4DecompressSome, type Lz4Progress } from './lz4.js';
import { TYPE_BIGINT, TYPE_BYTES, TYPE_DOUBLE, TYPE_LONG, TYPE_STRING } from './stored-fields-format.js';

const EMPTY = new Uint8Array(0);

/**
 * Where the metadata groups of one block are: per group, GROUP_FIELDS numbers side by side (an id fetch inside a
 * query loop finds its structures out of cache, so one group's figures share a cache line): its frame's file
 * offset and stored length, its decoded length, where its bytes values start and end in the block's body, and
 * how many docs it holds.
 */
export type BlockGroups = readonly number[];

export const GROUP_FIELDS = 6;
const FRAME_START = 0;
const FRAME_LENGTH = 1;
const RAW_LENGTH = 2;
const BODY_START = 3;
const BODY_END = 4;
const DOC_COUNT = 5;

/**
 * Parses the group header at the start of a block's meta stream (`meta` spans the stream) and checks that
 * the groups add up to the block's lengths.
 */
export function parseBlockGroups(meta: ByteReader, docCount: number, groupDocs: number, metaRaw: number, bodyRaw: number, where: string): BlockGroups {
  const groupCount = Math.ceil(docCount / groupDocs);
  const groups: number[] = [];
  let metaAt = 0;
  let bodyAt = 0;
  let frameAt = 0;
  for (let g = 0; g < groupCount; g++) {
    const rawLength = meta.readVInt();
    const bodyLength = meta.readVInt();
    const frameLength = meta.readVInt();
    groups.push(frameAt, frameLength, rawLength, bodyAt, bodyAt + bodyLength, Math.min(groupDocs, docCount - g * groupDocs));
    metaAt += rawLength;
    bodyAt += bodyLength;
    frameAt += frameLength;
  }
  const framesStart = meta.position;
  for (let g = 0; g < groupCount; g++) groups[GROUP_FIELDS * g + FRAME_START]! += framesStart;
  if (metaAt !== metaRaw) throw meta.corrupt(`${where}: metadata groups add up to ${metaAt} bytes, expected ${metaRaw}`);
  if (bodyAt !== bodyRaw) throw meta.corrupt(`${where}: groups' values add up to ${bodyAt} bytes, body has ${bodyRaw}`);
  if (framesStart + frameAt !== meta.end) throw meta.corrupt(`${where}: metadata frames add up to ${frameAt} bytes, ${meta.end - framesStart} stored`);
  return groups;
}

/**
 * The records of one metadata group, decoded on demand. After `reach(i)`, records 0..i have known bounds
 * (`recordStart(i)`, `recordStart(i + 1)`) and bytes (`bytes`), and `bodyStart(i)` places record i's bytes
 * values in the block's body. Reaching the last record checks that the records fill the group exactly.
 * Corruption found while reading throws corrupt_index_exception; a later call finds the same corruption.
 */
export class MetaGroupCursor {
  /** The loaded group: its block and number within it (null: nothing loaded). */
  owner: BlockGroups | null = null;
  group = -1;
  /** Holds the records: the scratch buffer, or the file itself when the metadata is stored uncompressed. */
  bytes: Buffer = Buffer.alloc(0);
  private scratch: Buffer = Buffer.alloc(0);
  /** Records live in bytes[start, end); bytes[start, decodedTo) are valid. */
  private end = 0;
  private decodedTo = 0;
  private readonly lz4: Lz4Progress = { ip: 0, op: 0 };
  private lz4End = 0;
  private file: Buffer = Buffer.alloc(0);
  private docCount = 0;
  private scanned = 0;
  private pos = 0;
  private bodyOffset = 0;
  private bodyEnd = 0;
  private readonly recordStarts: number[] = [0];
  private readonly bodyStarts: number[] = [0];
  /** For messages only. */
  private chunk = 0;
  private block = 0;

  constructor(
    private readonly compression: BlockCompression,
    private readonly corruptError: (message: string) => Error,
  ) {}

  /** Loads group `group` of a block (`file` holds its frames). */
  load(file: Buffer, groups: BlockGroups, group: number, chunk: number, block: number): void {
    // Invalid until loaded: a group that fails to load must not pass for the previous one.
    this.owner = null;
    this.chunk = chunk;
    this.block = block;
    this.group = group;
    const at = GROUP_FIELDS * group;
    const frameStart = groups[at + FRAME_START]!;
    const frameLength = groups[at + FRAME_LENGTH]!;
    const raw = groups[at + RAW_LENGTH]!;
    if (frameStart + frameLength > file.length) throw this.corrupt(`frame overruns the file`);
    let start = 0;
    if (this.compression === 'none') {
      if (frameLength !== raw) throw this.corrupt(`${frameLength} stored bytes, expected ${raw}`);
      this.bytes = file;
      start = frameStart;
      this.decodedTo = frameStart + raw;
    } else if (this.compression === 'lz4') {
      if (this.scratch.length < raw) this.scratch = Buffer.allocUnsafeSlow(Math.max(raw, 2 * this.scratch.length, 4096));
      this.bytes = this.scratch;
      this.file = file;
      this.lz4.ip = frameStart;
      this.lz4.op = 0;
      this.lz4End = frameStart + frameLength;
      this.decodedTo = 0;
    } else {
      try {
        this.bytes = decompressBlock(this.compression, EMPTY, file.subarray(frameStart, frameStart + frameLength), raw, raw);
      } catch (err) {
        throw this.corrupt(`does not decompress: ${err instanceof Error ? err.message : String(err)}`);
      }
      this.decodedTo = raw;
    }
    this.end = start + raw;
    this.pos = start;
    this.docCount = groups[at + DOC_COUNT]!;
    this.scanned = 0;
    this.recordStarts[0] = start;
    this.bodyOffset = groups[at + BODY_START]!;
    this.bodyStarts[0] = this.bodyOffset;
    this.bodyEnd = groups[at + BODY_END]!;
    this.owner = groups;
  }

  /** Makes record `record` (and every one before it) readable: its bounds known and its bytes decoded. */
  reach(record: number): void {
    while (this.scanned <= record) this.scanRecord();
    if (this.decodedTo < this.recordStarts[record + 1]!) this.decode(this.recordStarts[record + 1]!);
  }

  recordStart(record: number): number {
    return this.recordStarts[record]!;
  }

  bodyStart(record: number): number {
    return this.bodyStarts[record]!;
  }

  /** Finds where the next record ends: field count, then per field its key and value (lengths only). */
  private scanRecord(): void {
    const record = this.scanned;
    if (record >= this.docCount) throw new RangeError(`record ${record} of a ${this.docCount}-doc group`);
    const end = this.end;
    if (this.pos >= end) throw this.corrupt(`metadata ends before its record ${record}`);
    let count = this.vInt();
    while (count-- > 0) {
      if (this.pos >= end) throw this.corrupt(`record ${record} overruns the group`);
      const type = this.vInt() & 7;
      if (this.pos >= end) throw this.corrupt(`record ${record} overruns the group`);
      if (type === TYPE_BYTES) this.bodyOffset += this.vInt();
      else if (type === TYPE_STRING) {
        const length = this.vInt(); // not `pos += vInt()`: that adds to the position before the length
        this.pos += length;
      } else if (type === TYPE_LONG) {
        while (this.byte() >= 0x80);
      } else if (type === TYPE_DOUBLE || type === TYPE_BIGINT) this.pos += 8;
      else throw this.corrupt(`unknown stored value type ${type}`);
    }
    if (this.pos > end) throw this.corrupt(`record ${record} overruns the group`);
    this.scanned = record + 1;
    this.recordStarts[record + 1] = this.pos;
    this.bodyStarts[record + 1] = this.bodyOffset;
    if (this.scanned === this.docCount) {
      if (this.pos !== end) throw this.corrupt(`${end - this.pos} bytes after its docs`);
      const bodyStart = this.bodyStarts[0]!;
      if (this.bodyOffset !== this.bodyEnd) throw this.corrupt(`values add up to ${this.bodyOffset - bodyStart} bytes, group has ${this.bodyEnd - bodyStart}`);
    }
  }

  private byte(): number {
    if (this.pos >= this.decodedTo) this.decode(this.pos + 1);
    return this.bytes[this.pos++]!;
  }

  private vInt(): number {
    let b = this.byte();
    if (b < 0x80) return b;
    let result = b & 0x7f;
    for (let shift = 7; shift < 35; shift += 7) {
      b = this.byte();
      result |= (b & 0x7f) << shift;
      if (b < 0x80) return result >>> 0;
    }
    throw this.corrupt('invalid vInt');
  }

  /** Decodes at least up to `needed` (an offset in `bytes`); only LZ4 groups are ever partly decoded. */
  private decode(needed: number): void {
    if (needed > this.end) throw this.corrupt(`record overruns the group`);
    const raw = this.end;
    try {
      lz4DecompressSome(this.file, this.lz4End, this.bytes, raw, this.lz4, needed);
    } catch (err) {
      throw this.corrupt(`does not decompress: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.decodedTo = this.lz4.op;
    if (this.lz4.ip === this.lz4End && this.lz4.op !== raw) throw this.corrupt(`does not decompress: decompressed ${this.lz4.op} bytes, expected ${raw}`);
    if (this.decodedTo < needed) throw this.corrupt(`does not decompress: decompressed ${this.decodedTo} bytes, expected ${needed}`);
  }

  private corrupt(message: string): Error {
    return this.corruptError(`chunk ${this.chunk} block ${this.block} group ${this.group}: ${message}`);
  }
}
