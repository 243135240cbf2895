/**
 * The opaque ids that point back at open search contexts. The scroll id is built as ES builds it
 * (TransportSearchHelper.buildScrollId: a StreamOutput of "include_context_uuid", the search type, then per
 * shard the context's session id, numeric id and node id, in URL-safe base64), so it looks and parses like
 * ES's. The point-in-time id is Gannet's own layout in the same encoding: per shard the index, its uuid, the
 * shard number, the node, and the context's session and id. Clients treat both as opaque.
 */
import { EsError, errors } from '../../common/errors.js';

class StreamOutput {
  private readonly bytes: number[] = [];

  vint(value: number): this {
    let remaining = value >>> 0;
    while (remaining > 0x7f) {
      this.bytes.push((remaining & 0x7f) | 0x80);
      remaining >>>= 7;
    }
    this.bytes.push(remaining);
    return this;
  }

  /** StreamOutput.writeString: the length in UTF-16 units, then the characters as UTF-8. */
  string(value: string): this {
    this.vint(value.length);
    for (const byte of Buffer.from(value, 'utf8')) this.bytes.push(byte);
    return this;
  }

  long(value: number): this {
    const buffer = Buffer.alloc(8);
    buffer.writeBigInt64BE(BigInt(value));
    for (const byte of buffer) this.bytes.push(byte);
    return this;
  }

  toBase64(): string {
    // Java's Base64.getUrlEncoder() keeps the padding.
    return Buffer.from(this.bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  }
}

class StreamInput {
  private offset = 0;

  constructor(private readonly bytes: Buffer) {}

  vint(): number {
    let value = 0;
    for (let shift = 0; shift <= 28; shift += 7) {
      const byte = this.byte();
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value >>> 0;
    }
    throw new Error('invalid vInt');
  }

  string(): string {
    const units = this.vint();
    // Decode char by char until `units` UTF-16 units are read.
    let out = '';
    while (out.length < units) {
      const first = this.byte();
      const length = first < 0x80 ? 1 : first < 0xe0 ? 2 : first < 0xf0 ? 3 : 4;
      const start = this.offset - 1;
      for (let i = 1; i < length; i++) this.byte();
      out += this.bytes.toString('utf8', start, this.offset);
    }
    return out;
  }

  long(): number {
    if (this.offset + 8 > this.bytes.length) throw new Error('unexpected end of input');
    const value = this.bytes.readBigInt64BE(this.offset);
    this.offset += 8;
    return Number(value);
  }

  private byte(): number {
    if (this.offset >= this.bytes.length) throw new Error('unexpected end of input');
    return this.bytes[this.offset++]!;
  }

  get atEnd(): boolean {
    return this.offset === this.bytes.length;
  }
}

function fromBase64Url(text: string): Buffer {
  if (!/^[A-Za-z0-9_\-+/]*={0,2}$/.test(text)) throw new Error(`Illegal base64 character in [${text}]`);
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

export interface ContextRef {
  readonly sessionId: string;
  readonly contextId: number;
  readonly nodeId: string;
}

const INCLUDE_CONTEXT_UUID = 'include_context_uuid';
const QUERY_THEN_FETCH_TYPE = 'queryThenFetch';
const QUERY_AND_FETCH_TYPE = 'queryAndFetch';

export function buildScrollId(contexts: readonly ContextRef[]): string {
  const out = new StreamOutput().string(INCLUDE_CONTEXT_UUID).string(contexts.length === 1 ? QUERY_AND_FETCH_TYPE : QUERY_THEN_FETCH_TYPE).vint(contexts.length);
  for (const context of contexts) out.string(context.sessionId).long(context.contextId).string(context.nodeId);
  return out.toBase64();
}

/** TransportSearchHelper.parseScrollId: a bad id is ES's "Cannot parse scroll id". */
export function parseScrollId(scrollId: string): ContextRef[] {
  try {
    const input = new StreamInput(fromBase64Url(scrollId));
    if (input.string() !== INCLUDE_CONTEXT_UUID) throw new Error('missing include_context_uuid marker');
    const type = input.string();
    if (type !== QUERY_THEN_FETCH_TYPE && type !== QUERY_AND_FETCH_TYPE) throw new Error(`unknown scroll type [${type}]`);
    const count = input.vint();
    const contexts: ContextRef[] = [];
    for (let i = 0; i < count; i++) contexts.push({ sessionId: input.string(), contextId: input.long(), nodeId: input.string() });
    if (!input.atEnd) throw new Error('Not all bytes were read');
    return contexts;
  } catch (err) {
    const cause = new EsError('illegal_argument_exception', malformedIdReason(err));
    throw errors.illegalArgument('Cannot parse scroll id', cause);
  }
}

export interface PitShardRef extends ContextRef {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
}

const PIT_ID_VERSION = 1;

export function encodePitId(shards: readonly PitShardRef[]): string {
  const out = new StreamOutput().vint(PIT_ID_VERSION).vint(shards.length);
  for (const shard of shards) {
    out.string(shard.index).string(shard.indexUuid).vint(shard.shard).string(shard.nodeId).string(shard.sessionId).long(shard.contextId);
  }
  return out.toBase64();
}

/** SearchContextId.decode: a bad id is "invalid id: [...]". */
export function decodePitId(id: string): PitShardRef[] {
  try {
    const input = new StreamInput(fromBase64Url(id));
    if (input.vint() !== PIT_ID_VERSION) throw new Error('unknown id version');
    const count = input.vint();
    const shards: PitShardRef[] = [];
    for (let i = 0; i < count; i++) {
      shards.push({ index: input.string(), indexUuid: input.string(), shard: input.vint(), nodeId: input.string(), sessionId: input.string(), contextId: input.long() });
    }
    if (!input.atEnd) throw new Error('Not all bytes were read');
    return shards;
  } catch (err) {
    const cause = new EsError('illegal_argument_exception', malformedIdReason(err));
    throw errors.illegalArgument(`invalid id: [${id}]`, cause);
  }
}

/** Why an id did not decode, without JavaScript's own wording for a read past the end of the bytes. */
function malformedIdReason(err: unknown): string {
  if (err instanceof RangeError || err instanceof TypeError || !(err instanceof Error)) return 'the id is truncated or malformed';
  return err.message;
}
