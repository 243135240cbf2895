/**
 * The operations of a replica request (and of a peer recovery batch) as one byte string: what a primary sends for
 * every shard bulk, so its writer and its reader are two tight loops over the records (decision 0007's addendum of
 * 2026-11-29). As msgpack columns (decision 0018) every value of every operation went through msgpackr's type
 * dispatch on the primary (a source is an object: six `instanceof` checks before it is written) and was decoded
 * into an array, walked again to rebuild maps as plain objects, then gathered from eight columns into operations on
 * the replica.
 *
 * Format version 1 (little-endian):
 *
 *   u8 format (1) | u32 count | u32 textsStart | u8 textsAreAscii | count records | texts
 *   record := u8 kind, f64 seqNo, f64 primaryTerm, then
 *     index  (1): f64 version, u32 idBytes, i32 routingBytes (-1 = no routing), u32 sourceLength, source
 *     delete (2): f64 version, u32 idBytes
 *     noop   (3): u32 reasonBytes
 *   texts := every record's id, routing and reason as UTF-8, one after the other in record order
 *
 * The texts sit together so that the reader decodes them with one native call when they are ASCII (ids nearly
 * always are) and cuts each id out of that string: a thousand short ids decoded one by one cost more than the rest of
 * the request. Numbers are float64: every JavaScript number, so every seqNo, term and version a node holds (safe
 * integers up to 2^53 - 1, the -1/-2 sentinels), crosses exactly. A lone UTF-16 surrogate in an id comes back as
 * U+FFFD, as it does from the translog (an id from JSON cannot hold one unescaped).
 */
import type { ReplicatedOperation } from './replicated-operation.js';

export const OPERATIONS_FORMAT_V1 = 1;

const KIND_INDEX = 1;
const KIND_DELETE = 2;
const KIND_NOOP = 3;
const HEADER_BYTES = 1 + 4 + 4 + 1;
/** kind, seqNo, primaryTerm: every record's first fields. */
const RECORD_HEAD_BYTES = 1 + 8 + 8;
const INDEX_FIXED_BYTES = RECORD_HEAD_BYTES + 8 + 4 + 4 + 4;
const DELETE_BYTES = RECORD_HEAD_BYTES + 8 + 4;
const NOOP_BYTES = RECORD_HEAD_BYTES + 4;

/** Bytes `text` can take at most as UTF-8: 3 per UTF-16 unit (a surrogate pair's 4 bytes are 2 units). */
function utf8Bound(text: string): number {
  return 3 * text.length;
}

/** The operations as one byte string (format version 1, see the file comment). */
export function encodeOperations(operations: readonly ReplicatedOperation[]): Buffer {
  let recordBytes = 0;
  let textBound = 0;
  for (const operation of operations) {
    switch (operation.type) {
      case 'index':
        recordBytes += INDEX_FIXED_BYTES + operation.source.length;
        textBound += utf8Bound(operation.id) + (operation.routing === undefined ? 0 : utf8Bound(operation.routing));
        break;
      case 'delete':
        recordBytes += DELETE_BYTES;
        textBound += utf8Bound(operation.id);
        break;
      case 'noop':
        recordBytes += NOOP_BYTES;
        textBound += utf8Bound(operation.reason);
        break;
      default:
        throw new TypeError(`unknown replicated operation type [${String((operation as { type: unknown }).type)}]`);
    }
  }
  const textsStart = HEADER_BYTES + recordBytes;
  const bytes = Buffer.allocUnsafe(textsStart + textBound);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const texts = new TextWriter(bytes, textsStart);
  let at = HEADER_BYTES;
  for (const operation of operations) {
    view.setFloat64(at + 1, operation.seqNo, true);
    view.setFloat64(at + 9, operation.primaryTerm, true);
    if (operation.type === 'index') {
      bytes[at] = KIND_INDEX;
      view.setFloat64(at + 17, operation.version, true);
      view.setUint32(at + 25, texts.write(operation.id), true);
      view.setInt32(at + 29, operation.routing === undefined ? -1 : texts.write(operation.routing), true);
      const source = operation.source;
      view.setUint32(at + 33, source.length, true);
      bytes.set(source, at + 37);
      at += INDEX_FIXED_BYTES + source.length;
    } else if (operation.type === 'delete') {
      bytes[at] = KIND_DELETE;
      view.setFloat64(at + 17, operation.version, true);
      view.setUint32(at + 25, texts.write(operation.id), true);
      at += DELETE_BYTES;
    } else {
      bytes[at] = KIND_NOOP;
      view.setUint32(at + 17, texts.write(operation.reason), true);
      at += NOOP_BYTES;
    }
  }
  bytes[0] = OPERATIONS_FORMAT_V1;
  view.setUint32(1, operations.length, true);
  view.setUint32(5, textsStart, true);
  bytes[9] = texts.ascii ? 1 : 0;
  return bytes.subarray(0, texts.end);
}

/** Appends texts as UTF-8 at the end of the records, and remembers whether all of them were ASCII. */
class TextWriter {
  ascii = true;

  constructor(
    private readonly bytes: Buffer,
    public end: number,
  ) {}

  /** Writes `text`; returns its UTF-8 length. ASCII byte by byte (no native call for a short id). */
  write(text: string): number {
    const bytes = this.bytes;
    const start = this.end;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.ascii = false;
        const length = bytes.write(text, start, 'utf8');
        this.end = start + length;
        return length;
      }
      bytes[start + i] = code;
    }
    this.end = start + text.length;
    return text.length;
  }
}

/** Thrown for bytes that are not a well-formed operations string: the request fails, nothing is applied. */
function malformed(what: string): TypeError {
  return new TypeError(`malformed replicated operations: ${what}`);
}

/** Reads the texts section in order: cut from one decoded string when it is all ASCII, else decoded one by one. */
class TextReader {
  private readonly decoded: string | undefined;
  private at: number;

  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    private readonly end: number,
    ascii: boolean,
  ) {
    this.at = start;
    this.decoded = ascii ? bytes.toString('latin1', start, end) : undefined;
  }

  read(length: number, what: string): string {
    const from = this.at;
    const to = from + length;
    if (to > this.end) throw malformed(`${what} runs past the end`);
    this.at = to;
    return this.decoded === undefined ? this.bytes.toString('utf8', from, to) : this.decoded.substring(from - this.start, to - this.start);
  }

  get finished(): boolean {
    return this.at === this.end;
  }
}

/** The operations of a byte string `encodeOperations` wrote; every field is checked against the bytes' end. */
export function decodeOperations(bytes: Uint8Array): ReplicatedOperation[] {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buffer.length;
  if (end < HEADER_BYTES) throw malformed(`${end} bytes, less than a header`);
  if (buffer[0] !== OPERATIONS_FORMAT_V1) throw malformed(`unsupported format version [${buffer[0]}]`);
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const count = view.getUint32(1, true);
  const textsStart = view.getUint32(5, true);
  if (textsStart < HEADER_BYTES || textsStart > end) throw malformed(`texts start at ${textsStart} of ${end} bytes`);
  // Every record takes at least NOOP_BYTES: a count the bytes cannot hold is refused before allocating for it.
  if (count > (textsStart - HEADER_BYTES) / NOOP_BYTES) throw malformed(`${count} operations in ${textsStart - HEADER_BYTES} bytes of records`);
  const texts = new TextReader(buffer, textsStart, end, buffer[9] === 1);
  const operations: ReplicatedOperation[] = new Array(count);
  let at = HEADER_BYTES;
  for (let i = 0; i < count; i++) {
    if (at + RECORD_HEAD_BYTES > textsStart) throw malformed(`operation ${i} runs past the records`);
    const kind = buffer[at]!;
    const seqNo = view.getFloat64(at + 1, true);
    const primaryTerm = view.getFloat64(at + 9, true);
    if (kind === KIND_INDEX) {
      if (at + INDEX_FIXED_BYTES > textsStart) throw malformed(`operation ${i} runs past the records`);
      const version = view.getFloat64(at + 17, true);
      const id = texts.read(view.getUint32(at + 25, true), `the id of operation ${i}`);
      const routingBytes = view.getInt32(at + 29, true);
      const routing = routingBytes < 0 ? undefined : texts.read(routingBytes, `the routing of operation ${i}`);
      const sourceLength = view.getUint32(at + 33, true);
      const sourceStart = at + INDEX_FIXED_BYTES;
      at = sourceStart + sourceLength;
      if (at > textsStart) throw malformed(`the source of operation ${i} runs past the records`);
      // A view into the received frame, as msgpack's bins were: the sources are not copied.
      operations[i] = { type: 'index', id, seqNo, primaryTerm, version, source: buffer.subarray(sourceStart, at), routing };
    } else if (kind === KIND_DELETE) {
      if (at + DELETE_BYTES > textsStart) throw malformed(`operation ${i} runs past the records`);
      const version = view.getFloat64(at + 17, true);
      operations[i] = { type: 'delete', id: texts.read(view.getUint32(at + 25, true), `the id of operation ${i}`), seqNo, primaryTerm, version };
      at += DELETE_BYTES;
    } else if (kind === KIND_NOOP) {
      if (at + NOOP_BYTES > textsStart) throw malformed(`operation ${i} runs past the records`);
      operations[i] = { type: 'noop', seqNo, primaryTerm, reason: texts.read(view.getUint32(at + 17, true), `the reason of operation ${i}`) };
      at += NOOP_BYTES;
    } else {
      throw malformed(`unknown operation kind [${kind}] at operation ${i}`);
    }
  }
  if (at !== textsStart || !texts.finished) throw malformed('bytes left after the last operation');
  return operations;
}
