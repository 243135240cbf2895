/**
 * The action line nearly every bulk client writes, read without JSON.parse: `{"<action>":{...}}` with no
 * whitespace, whose metadata is only `_index`, `_id` and `routing` (each at most once), as plain ASCII strings
 * without escapes, e.g. `{"index":{"_index":"logs","_id":"42"}}` (the official clients' and Kibana's form).
 * JSON.parse of such a line and the walk over its object was most of a bulk request's parse on the primary's
 * event loop (the id differs on every line, so the parser's repeated-line shortcut never applies): this reads
 * the same three values straight from the bytes. Anything else (whitespace, escapes, non-ASCII, numbers, other
 * fields, a duplicate field) is not matched, and the caller reads the line the general way, which gives the
 * same result for a matched line and ES's error for a malformed one.
 */
import type { OpType } from './doc-write.js';

export interface PlainActionLine {
  readonly action: OpType;
  /** Undefined when the line does not name it (the request's default applies). */
  readonly index: string | undefined;
  readonly id: string | undefined;
  readonly routing: string | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/** The action names as the line's bytes spell them, with the `":{` that follows. */
const ACTIONS: ReadonlyArray<readonly [OpType, Uint8Array]> = (['index', 'create', 'delete', 'update'] as const).map((action) => [action, Buffer.from(`${action}":{`, 'latin1')] as const);

/** The metadata fields read here, with the `":"` that follows each name. */
const INDEX = Buffer.from('_index":"', 'latin1');
const ID = Buffer.from('_id":"', 'latin1');
const ROUTING = Buffer.from('routing":"', 'latin1');

function startsWith(bytes: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** The end (the closing quote) of a plain ASCII string value starting at `at`, or -1 when it is not plain. */
function plainStringEnd(bytes: Uint8Array, at: number): number {
  for (let i = at; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) return i;
    // Control characters (JSON.parse refuses them), escapes and anything beyond ASCII: the general reader's.
    if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1;
  }
  return -1;
}

function asciiText(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

/** The line's action and metadata when it has the plain form above; undefined for any other line. */
export function readPlainActionLine(bytes: Uint8Array): PlainActionLine | undefined {
  const length = bytes.length;
  // The shortest line is `{"index":{}}`; it ends with the two closing braces.
  if (length < 12 || bytes[0] !== OPEN || bytes[1] !== QUOTE || bytes[length - 1] !== CLOSE || bytes[length - 2] !== CLOSE) return undefined;
  let action: OpType | undefined;
  let at = 2;
  for (const [name, spelled] of ACTIONS) {
    if (startsWith(bytes, at, spelled)) {
      action = name;
      at += spelled.length;
      break;
    }
  }
  if (action === undefined) return undefined;
  let index: string | undefined;
  let id: string | undefined;
  let routing: string | undefined;
  const last = length - 2;
  if (at === last) return { action, index, id, routing };
  for (;;) {
    if (bytes[at] !== QUOTE) return undefined;
    at++;
    let field: 'index' | 'id' | 'routing';
    if (startsWith(bytes, at, ID)) {
      field = 'id';
      at += ID.length;
    } else if (startsWith(bytes, at, INDEX)) {
      field = 'index';
      at += INDEX.length;
    } else if (startsWith(bytes, at, ROUTING)) {
      field = 'routing';
      at += ROUTING.length;
    } else {
      return undefined;
    }
    const end = plainStringEnd(bytes, at);
    if (end < 0 || end >= last) return undefined;
    const value = asciiText(bytes, at, end);
    // A field given twice: JSON keeps the last value; the general reader decides.
    if (field === 'id') {
      if (id !== undefined) return undefined;
      id = value;
    } else if (field === 'index') {
      if (index !== undefined) return undefined;
      index = value;
    } else {
      if (routing !== undefined) return undefined;
      routing = value;
    }
    at = end + 1;
    if (at === last) return { action, index, id, routing };
    if (bytes[at] !== COMMA) return undefined;
    at++;
  }
}
