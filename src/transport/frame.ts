/**
 * Wire framing for node-to-node messages. Each frame is an 8-byte header — magic "GT", format version,
 * message kind, payload length (uint32 BE) — followed by a msgpack payload. The decoder accepts bytes in any
 * chunking and yields whole frames; a bad magic, an unknown version or an oversize frame is a protocol error
 * and the connection is dropped, never half-read.
 */
import { Packr, RESERVE_START_SPACE } from 'msgpackr';

export const FRAME_MAGIC = 0x4754; // "GT"
export const FRAME_VERSION = 1;
export const HEADER_BYTES = 8;
export const MAX_FRAME_BYTES = 512 * 1024 * 1024;

export const enum FrameKind {
  Request = 1,
  Response = 2,
  Error = 3,
}

export interface RequestFrame {
  kind: FrameKind.Request;
  id: number;
  action: string;
  parentTaskId?: string;
  /** The sending node's id (absent before the handshake and from old tests' raw senders). */
  sender?: string;
  /** On master-to-node messages: the master's term, which receivers check against the highest they know. */
  term?: number;
  /** The caller task's headers (X-Opaque-Id and the like); absent when it has none. */
  headers?: Record<string, string>;
  body: unknown;
}

export interface ResponseFrame {
  kind: FrameKind.Response;
  id: number;
  body: unknown;
}

export interface ErrorFrame {
  kind: FrameKind.Error;
  id: number;
  error: WireError;
}

/** An EsError as it crosses the wire. */
export interface WireError {
  type: string;
  reason: string;
  status: number;
  metadata?: Record<string, unknown>;
  causedBy?: WireError;
}

export type Frame = RequestFrame | ResponseFrame | ErrorFrame;

/** msgpackr's int64AsType 'auto' (numbers when exact, BigInts otherwise): in its code, missing from its typings. */
const INT64_AUTO = 'auto' as unknown as 'number';
const packer = new Packr({ useRecords: false, int64AsType: INT64_AUTO });
// Decode maps as Map and rebuild plain objects ourselves: msgpackr's object decoding renames a "__proto__"
// key to "__proto_" (a prototype-pollution guard), which would silently alter a legal document field.
// 64-bit integers come back as numbers when a number holds them exactly and as BigInts otherwise, so a BigInt
// sent (a date_nanos sort value, Long.MAX_VALUE for a missing one, a long query value) arrives unchanged.
const unpacker = new Packr({ useRecords: false, mapsAsObjects: false, int64AsType: INT64_AUTO });

/** Turns decoded Maps into plain objects; a "__proto__" key becomes an own property, never the prototype. */
function toPlain(value: unknown): unknown {
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of value) {
      const name = String(key);
      const plain = typeof child === 'object' && child !== null ? toPlain(child) : child;
      if (name === '__proto__') Object.defineProperty(out, name, { value: plain, enumerable: true, writable: true, configurable: true });
      else out[name] = plain;
    }
    return out;
  }
  if (Array.isArray(value)) {
    // Only objects can hold a Map (a node snapshot is ~110 numbers and strings: no call for each).
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === 'object' && child !== null) value[i] = toPlain(child);
    }
    return value;
  }
  return value;
}

export class ProtocolError extends Error {}

/**
 * A request or response body whose last value, in the order msgpack writes it, is one large byte string (a node's
 * `_tasks` listing, a replica request's operations): the frame goes to the socket as two chunks, the body encoded up
 * to that value's bin header, then the bytes as they are, never copied into the packer's buffer (decisions 0031, and
 * 0007's addendum for requests). On the wire it is an ordinary msgpack bin: the receiver cannot tell. `build` makes
 * the body with the value given in that last place; a body built otherwise is detected and encoded whole.
 */
export class TrailingBytesBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly build: (last: Uint8Array) => unknown,
  ) {}
}

/** Below this size a trailing byte string is copied into the frame (a chunk of its own costs about that much). */
const SEPARATE_BYTES = 1024;
const NO_BYTES = Buffer.alloc(0);

/** The frame as one buffer. */
export function encodeFrame(frame: Frame): Buffer {
  const chunks = encodeFrameChunks(frame);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** The frame as the chunks of one socket write: one buffer, or two for a body that is a TrailingBytesBody. */
export function encodeFrameChunks(frame: Frame): Buffer[] {
  if (frame.kind !== FrameKind.Error && frame.body instanceof TrailingBytesBody) return encodeWithTrailingBytes(frame, frame.body);
  return [encodeWhole(frame)];
}

function encodeWhole(frame: Frame): Buffer {
  const { kind, ...payload } = frame;
  // The packer leaves the header's bytes free in front of the payload, and the header is written there: no second
  // buffer and no copy of the whole frame (a copy of every frame sent was ~3% of a node's time answering `_tasks`).
  const bytes = packer.pack(payload, RESERVE_START_SPACE | HEADER_BYTES);
  writeHeader(bytes, kind, bytes.length - HEADER_BYTES);
  return bytes;
}

function writeHeader(bytes: Buffer, kind: FrameKind, bodyLength: number): void {
  if (bodyLength > MAX_FRAME_BYTES) throw new ProtocolError(`frame of ${bodyLength} bytes exceeds ${MAX_FRAME_BYTES}`);
  bytes.writeUInt16BE(FRAME_MAGIC, 0);
  bytes.writeUInt8(FRAME_VERSION, 2);
  bytes.writeUInt8(kind, 3);
  bytes.writeUInt32BE(bodyLength, 4);
}

function encodeWithTrailingBytes(frame: RequestFrame | ResponseFrame, body: TrailingBytesBody): Buffer[] {
  const bytes = body.bytes;
  // The body is the envelope's last field (request() and handle() build frames so), hence the bytes its last value.
  if (bytes.length < SEPARATE_BYTES) return [encodeWhole({ ...frame, body: body.build(bytes) })];
  // Packed with an empty bin in the last place, whose two bytes (0xc4 0x00) end the payload; they give way to a bin32
  // header of the real length, and the bytes follow as the second chunk.
  const { kind, ...payload } = frame;
  const packed = packer.pack({ ...payload, body: body.build(NO_BYTES) }, RESERVE_START_SPACE | HEADER_BYTES);
  const end = packed.length;
  if (end < HEADER_BYTES + 2 || packed[end - 2] !== 0xc4 || packed[end - 1] !== 0x00) {
    return [encodeWhole({ ...frame, body: body.build(bytes) })];
  }
  const head = Buffer.allocUnsafe(end - 2 + 5);
  packed.copy(head, 0, 0, end - 2);
  head[end - 2] = 0xc6;
  head.writeUInt32BE(bytes.length, end - 1);
  writeHeader(head, kind, head.length - HEADER_BYTES + bytes.length);
  return [head, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)];
}

export class FrameDecoder {
  /**
   * Bytes received and not yet decoded, as they arrived: a large frame comes in many socket chunks, and joining
   * them only once the whole frame is there copies each byte once (joining at every chunk was quadratic).
   */
  private chunks: Buffer[] = [];
  private buffered = 0;

  /** Feeds bytes; returns the frames completed by them. Throws ProtocolError on a malformed stream. */
  push(chunk: Buffer): Frame[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const frames: Frame[] = [];
    while (this.buffered >= HEADER_BYTES) {
      const header = this.peek(HEADER_BYTES);
      if (header.readUInt16BE(0) !== FRAME_MAGIC) throw new ProtocolError('bad frame magic: not a Gannet transport stream');
      const version = header.readUInt8(2);
      if (version !== FRAME_VERSION) throw new ProtocolError(`unsupported transport frame version ${version}`);
      const kind = header.readUInt8(3);
      const length = header.readUInt32BE(4);
      if (length > MAX_FRAME_BYTES) throw new ProtocolError(`frame of ${length} bytes exceeds ${MAX_FRAME_BYTES}`);
      if (this.buffered < HEADER_BYTES + length) break;
      const payload = this.take(HEADER_BYTES + length).subarray(HEADER_BYTES);
      if (kind !== FrameKind.Request && kind !== FrameKind.Response && kind !== FrameKind.Error) {
        throw new ProtocolError(`unknown frame kind ${kind}`);
      }
      let decoded: Record<string, unknown>;
      try {
        decoded = toPlain(unpacker.unpack(payload)) as Record<string, unknown>;
      } catch (err) {
        throw new ProtocolError(`undecodable frame payload: ${(err as Error).message}`);
      }
      frames.push({ kind, ...decoded } as Frame);
    }
    return frames;
  }

  /** The first `bytes` buffered bytes (joined when they span chunks), left in place. */
  private peek(bytes: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length >= bytes) return first;
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined;
  }

  /** Removes and returns the first `bytes` buffered bytes (there are at least that many). */
  private take(bytes: number): Buffer {
    const first = this.chunks[0]!;
    let taken: Buffer;
    if (first.length >= bytes) {
      taken = first.subarray(0, bytes);
      if (first.length === bytes) this.chunks.shift();
      else this.chunks[0] = first.subarray(bytes);
    } else {
      // The frame spans chunks: find where it ends, then remove the whole chunks at once. Shifting them one by one
      // was quadratic in the chunk count (a frame of 300 KB fed a byte at a time took 83 s; a large array's shift
      // moves every element).
      let whole = 0;
      let covered = 0;
      while (covered < bytes && covered + this.chunks[whole]!.length <= bytes) covered += this.chunks[whole++]!.length;
      const parts = this.chunks.slice(0, whole);
      if (covered < bytes) {
        const head = this.chunks[whole]!;
        parts.push(head.subarray(0, bytes - covered));
        this.chunks[whole] = head.subarray(bytes - covered);
      }
      this.chunks.splice(0, whole);
      taken = Buffer.concat(parts, bytes);
    }
    this.buffered -= bytes;
    return taken;
  }
}
