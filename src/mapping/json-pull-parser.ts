/**
 * A pull parser over a JSON document's UTF-8 bytes, shaped like Jackson's streaming parser that Elasticsearch
 * parses documents with: one token at a time, each with the [line:column] ES prints in its errors (1-based,
 * column counted in bytes as Jackson's byte parser does). It never recurses, so a document nested a million
 * levels deep costs a stack of bytes, not a stack overflow; Jackson's default nesting limit (1000) applies.
 *
 * Contract: call next() until it returns undefined (end of input). After a token, `text` holds the field name,
 * the string value, the number's literal text or "true"/"false"; `line`/`column` locate the token's start.
 */
import { JsonConstraintError, JsonSyntaxError, MAX_NUMBER_LENGTH } from './json-syntax-error.js';

export type JsonToken =
  | 'START_OBJECT'
  | 'END_OBJECT'
  | 'START_ARRAY'
  | 'END_ARRAY'
  | 'FIELD_NAME'
  | 'VALUE_STRING'
  | 'VALUE_NUMBER'
  | 'VALUE_BOOLEAN'
  | 'VALUE_NULL';

/** Jackson's StreamReadConstraints default. */
export const MAX_JSON_NESTING_DEPTH = 1000;

/** Names (and open objects) whose storage a parser keeps between documents. */
const RETAINED_NAMES = 1024;
/** Past this many names, an object's duplicate check uses a Set. */
const MAX_LINEAR_NAMES = 16;

const OBJECT = 1;
const ARRAY = 2;

export interface TokenLocation {
  readonly line: number;
  readonly column: number;
}

export class JsonPullParser {
  private pos = 0;
  private lineNumber = 1;
  private lineStart = 0;
  /**
   * Container stack: OBJECT or ARRAY per open level. The stacks below keep their storage from document to
   * document (counters say how much is in use): truncating them made every document grow them again.
   */
  private readonly containers = new Uint8Array(MAX_JSON_NESTING_DEPTH);
  private containerCount = 0;
  /**
   * The names seen so far in each open object (Jackson's strict duplicate detection, which ES turns on): the
   * names of all open objects in one flat list, each object's from its start offset, searched linearly; an
   * object with many names gets a Set instead. No allocation per object for the usual small document.
   */
  private readonly nameList: string[] = [];
  private nameCount = 0;
  /** Per open object (objectCount of them): where its names start in nameList, and its Set once it has many. */
  private readonly nameStarts: number[] = [];
  private readonly nameSets: Array<Set<string> | undefined> = [];
  private objectCount = 0;
  /** The input as a Buffer, to decode strings without a view per string. */
  private buffer: DecodingBuffer;
  private bytes: Uint8Array;
  /** What the grammar allows next. */
  private expect: 'value' | 'name-or-end' | 'name' | 'after-value' | 'value-or-end' | 'done' = 'value';

  token: JsonToken | undefined;
  text = '';
  /** For VALUE_NUMBER: whether the literal is an integer (Jackson's INT/LONG/BIG_INTEGER) or a floating number. */
  isInteger = false;
  line = 0;
  column = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.buffer = asBuffer(bytes);
    this.skipByteOrderMark();
  }

  /** Starts over on new input, as a new parser would (parsers are reused: their stacks are allocations). */
  reset(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.buffer = asBuffer(bytes);
    this.pos = 0;
    this.lineNumber = 1;
    this.lineStart = 0;
    this.containerCount = 0;
    this.nameCount = 0;
    this.objectCount = 0;
    // Drop what an unusually large document left behind; keep the usual document's storage.
    if (this.nameList.length > RETAINED_NAMES) this.nameList.length = 0;
    // A set left by a document that failed midway is replaced when its slot's object opens: no clearing needed.
    if (this.nameSets.length > RETAINED_NAMES) this.nameSets.length = 0;
    this.expect = 'value';
    this.token = undefined;
    this.text = '';
    this.isInteger = false;
    this.line = 0;
    this.column = 0;
    this.skipByteOrderMark();
  }

  private skipByteOrderMark(): void {
    // Jackson skips a UTF-8 byte order mark.
    const bytes = this.bytes;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) this.pos = 3;
  }

  get depth(): number {
    return this.containerCount;
  }

  location(): TokenLocation {
    return { line: this.line, column: this.column };
  }

  /** Where the parser stands now (after the current token): what Jackson reports for end-of-input. */
  currentLocation(): TokenLocation {
    return { line: this.lineNumber, column: this.pos - this.lineStart + 1 };
  }

  next(): JsonToken | undefined {
    this.skipWhitespace();
    this.line = this.lineNumber;
    this.column = this.pos - this.lineStart + 1;
    const bytes = this.bytes;
    if (this.pos >= bytes.length) {
      if (this.containerCount > 0) {
        const kind = this.containers[this.containerCount - 1] === OBJECT ? 'Object' : 'Array';
        throw this.fault(`Unexpected end-of-input: expected close marker for ${kind}`);
      }
      this.token = undefined;
      return undefined;
    }
    const c = bytes[this.pos]!;
    switch (this.expect) {
      case 'done':
        // ES reads one token past the root object to detect trailing data; Jackson allows a new root value.
        this.expect = 'value';
        return this.readValue(c);
      case 'value':
        return this.readValue(c);
      case 'value-or-end':
        if (c === 0x5d /* ] */) return this.closeContainer(ARRAY);
        return this.readValue(c);
      case 'name-or-end':
        if (c === 0x7d /* } */) return this.closeContainer(OBJECT);
        return this.readName(c);
      case 'name':
        return this.readName(c);
      case 'after-value': {
        const top = this.containers[this.containerCount - 1];
        if (c === 0x2c /* , */) {
          this.pos++;
          this.skipWhitespace();
          this.line = this.lineNumber;
          this.column = this.pos - this.lineStart + 1;
          if (this.pos >= bytes.length) return this.next();
          const d = bytes[this.pos]!;
          return top === OBJECT ? this.readName(d) : this.readValue(d);
        }
        if (top === OBJECT && c === 0x7d) return this.closeContainer(OBJECT);
        if (top === ARRAY && c === 0x5d) return this.closeContainer(ARRAY);
        const entries = top === OBJECT ? 'Object entries' : 'Array entries';
        throw this.unexpectedChar(`was expecting comma to separate ${entries}`);
      }
    }
  }

  /** Skips the current container's content when positioned on START_OBJECT/START_ARRAY (Jackson's skipChildren). */
  skipChildren(): void {
    if (this.token !== 'START_OBJECT' && this.token !== 'START_ARRAY') return;
    const target = this.containerCount - 1;
    while (this.containerCount > target) {
      if (this.next() === undefined) return;
    }
  }

  private afterValue(): void {
    this.expect = this.containerCount === 0 ? 'done' : 'after-value';
  }

  private closeContainer(kind: number): JsonToken {
    this.pos++;
    this.containerCount--;
    if (kind === OBJECT) {
      this.objectCount--;
      this.nameCount = this.nameStarts[this.objectCount]!;
      this.nameSets[this.objectCount] = undefined;
    }
    this.afterValue();
    this.token = kind === OBJECT ? 'END_OBJECT' : 'END_ARRAY';
    return this.token;
  }

  private openContainer(kind: number): JsonToken {
    if (this.containerCount >= MAX_JSON_NESTING_DEPTH) {
      throw this.fault(
        `Document nesting depth (${this.containerCount + 1}) exceeds the maximum allowed (${MAX_JSON_NESTING_DEPTH}, from \`StreamReadConstraints.getMaxNestingDepth()\`)`,
      );
    }
    this.pos++;
    this.containers[this.containerCount++] = kind;
    if (kind === OBJECT) {
      this.nameStarts[this.objectCount] = this.nameCount;
      this.nameSets[this.objectCount] = undefined;
      this.objectCount++;
      this.expect = 'name-or-end';
      this.token = 'START_OBJECT';
    } else {
      this.expect = 'value-or-end';
      this.token = 'START_ARRAY';
    }
    return this.token;
  }

  private readName(c: number): JsonToken {
    if (c !== 0x22) throw this.unexpectedChar('was expecting double-quote to start field name');
    const name = this.readNameString();
    this.checkDuplicate(name);
    this.skipWhitespace();
    if (this.bytes[this.pos] !== 0x3a /* : */) {
      if (this.pos >= this.bytes.length) throw this.faultHere('Unexpected end-of-input: was expecting a colon to separate field name and value');
      throw this.unexpectedCharHere('was expecting a colon to separate field name and value');
    }
    this.pos++;
    this.expect = 'value';
    this.text = name;
    this.token = 'FIELD_NAME';
    return this.token;
  }

  private checkDuplicate(name: string): void {
    const top = this.objectCount - 1;
    const set = this.nameSets[top];
    if (set !== undefined) {
      if (set.has(name)) throw this.fault(`Duplicate field '${name}'`);
      set.add(name);
      return;
    }
    const list = this.nameList;
    const start = this.nameStarts[top]!;
    const end = this.nameCount;
    for (let i = start; i < end; i++) if (list[i] === name) throw this.fault(`Duplicate field '${name}'`);
    if (end - start < MAX_LINEAR_NAMES) {
      list[this.nameCount++] = name;
      return;
    }
    // Only the innermost object's names are at the end of the list; an outer object's set takes them from there.
    const names = new Set(list.slice(start, end));
    names.add(name);
    this.nameSets[top] = names;
    this.nameCount = start;
  }

  private readValue(c: number): JsonToken {
    switch (c) {
      case 0x7b:
        return this.openContainer(OBJECT);
      case 0x5b:
        return this.openContainer(ARRAY);
      case 0x22:
        this.text = this.readString();
        this.afterValue();
        this.token = 'VALUE_STRING';
        return this.token;
      case 0x74: // t
        this.readKeyword('true');
        this.text = 'true';
        this.afterValue();
        this.token = 'VALUE_BOOLEAN';
        return this.token;
      case 0x66: // f
        this.readKeyword('false');
        this.text = 'false';
        this.afterValue();
        this.token = 'VALUE_BOOLEAN';
        return this.token;
      case 0x6e: // n
        this.readKeyword('null');
        this.text = 'null';
        this.afterValue();
        this.token = 'VALUE_NULL';
        return this.token;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          this.readNumber();
          this.afterValue();
          this.token = 'VALUE_NUMBER';
          return this.token;
        }
        if (c === 0x5d && this.expect === 'value') {
          throw this.unexpectedChar('expected a value');
        }
        if (c === 0x7d || c === 0x5d || c === 0x2c || c === 0x3a) throw this.unexpectedChar('expected a value');
        throw this.unrecognizedToken();
    }
  }

  private readKeyword(word: string): void {
    const start = this.pos;
    for (let i = 0; i < word.length; i++) {
      if (this.bytes[start + i] !== word.charCodeAt(i)) throw this.unrecognizedToken();
    }
    const after = this.bytes[start + word.length];
    if (after !== undefined && isIdentifierByte(after)) throw this.unrecognizedToken();
    this.pos = start + word.length;
  }

  private unrecognizedToken(): JsonSyntaxError {
    const start = this.pos;
    let end = start;
    while (end < this.bytes.length && isIdentifierByte(this.bytes[end]!) && end - start < 256) end++;
    if (end === start) end = start + 1;
    const word = Buffer.from(this.bytes.subarray(start, end)).toString('utf8');
    return this.fault(
      `Unrecognized token '${word}': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')`,
    );
  }

  private readNumber(): void {
    const bytes = this.bytes;
    const start = this.pos;
    let p = start;
    if (bytes[p] === 0x2d) p++;
    const intStart = p;
    if (bytes[p] === undefined || bytes[p]! < 0x30 || bytes[p]! > 0x39) {
      this.pos = p;
      throw this.fault("Unexpected character ('-' (code 45)) in numeric value: expected digit (0-9) to follow minus sign, for valid numeric value");
    }
    while (p < bytes.length && bytes[p]! >= 0x30 && bytes[p]! <= 0x39) p++;
    if (bytes[intStart] === 0x30 && p - intStart > 1) throw this.fault('Invalid numeric value: Leading zeroes not allowed');
    let integer = true;
    if (bytes[p] === 0x2e /* . */) {
      integer = false;
      p++;
      const fracStart = p;
      while (p < bytes.length && bytes[p]! >= 0x30 && bytes[p]! <= 0x39) p++;
      if (p === fracStart) {
        this.pos = p;
        throw this.unexpectedCharHere('Decimal point not followed by a digit');
      }
    }
    if (bytes[p] === 0x65 || bytes[p] === 0x45) {
      integer = false;
      p++;
      if (bytes[p] === 0x2b || bytes[p] === 0x2d) p++;
      const expStart = p;
      while (p < bytes.length && bytes[p]! >= 0x30 && bytes[p]! <= 0x39) p++;
      if (p === expStart) {
        this.pos = p;
        throw this.unexpectedCharHere('Exponent indicator not followed by a digit');
      }
    }
    const after = bytes[p];
    if (after !== undefined && isIdentifierByte(after)) {
      this.pos = p;
      throw this.unexpectedCharHere('Expected space separating root-level values');
    }
    // Jackson's StreamReadConstraints: an integer's digits, or a floating number's whole literal, at most 1000
    // characters (a 2,000,000-digit literal is refused before anything converts it).
    const length = integer ? p - intStart : p - start;
    if (length > MAX_NUMBER_LENGTH) {
      throw new JsonConstraintError(
        `Number value length (${length}) exceeds the maximum allowed (${MAX_NUMBER_LENGTH}, from \`StreamReadConstraints.getMaxNumberLength()\`)`,
        this.lineNumber,
        start - this.lineStart + 1,
      );
    }
    this.text = latin1(bytes, start, p);
    this.isInteger = integer;
    this.pos = p;
  }

  /**
   * A field name: the same names come back in document after document, so a short name without escapes is
   * looked up by its bytes in a small cache and comes back as the string decoded the first time (no decoding,
   * and a string whose hash is already computed for the mapping and field lookups that follow).
   */
  private readNameString(): string {
    const bytes = this.bytes;
    const start = this.pos + 1;
    const limit = Math.min(bytes.length, start + MAX_CACHED_NAME_BYTES);
    let hash = 0;
    for (let p = start; p < limit; p++) {
      const b = bytes[p]!;
      if (b === 0x22) {
        const length = p - start;
        const slot = (hash ^ length) & (NAME_CACHE_SIZE - 1);
        const cached = nameCache[slot];
        if (cached !== undefined && cached.bytes.length === length && sameBytesAt(cached.bytes, bytes, start)) {
          this.pos = p + 1;
          return cached.text;
        }
        const text = this.buffer.utf8Slice(start, p);
        nameCache[slot] = { bytes: bytes.slice(start, p), text };
        this.pos = p + 1;
        return text;
      }
      if (b === 0x5c || b < 0x20) break;
      hash = (Math.imul(hash, 31) + b) | 0;
    }
    return this.readString();
  }

  private readString(): string {
    const bytes = this.bytes;
    let p = this.pos + 1;
    const start = p;
    // Fast path: no escapes, no control characters; decode the whole run at once.
    while (p < bytes.length) {
      const b = bytes[p]!;
      if (b === 0x22) {
        this.pos = p + 1;
        return this.buffer.utf8Slice(start, p);
      }
      if (b === 0x5c || b < 0x20) break;
      p++;
    }
    const parts: string[] = [];
    let runStart = start;
    for (;;) {
      if (p >= bytes.length) {
        this.pos = p;
        throw this.faultHere('Unexpected end-of-input in VALUE_STRING');
      }
      const b = bytes[p]!;
      if (b === 0x22) {
        parts.push(this.buffer.utf8Slice(runStart, p));
        this.pos = p + 1;
        return parts.join('');
      }
      if (b < 0x20) {
        this.pos = p;
        const name = b === 0x0a ? 'CTRL-CHAR, code 10' : `CTRL-CHAR, code ${b}`;
        throw this.faultHere(`Illegal unquoted character ((${name})): has to be escaped using backslash to be included in string value`);
      }
      if (b !== 0x5c) {
        p++;
        continue;
      }
      parts.push(this.buffer.utf8Slice(runStart, p));
      const e = bytes[p + 1];
      p += 2;
      switch (e) {
        case 0x22: parts.push('"'); break;
        case 0x5c: parts.push('\\'); break;
        case 0x2f: parts.push('/'); break;
        case 0x62: parts.push('\b'); break;
        case 0x66: parts.push('\f'); break;
        case 0x6e: parts.push('\n'); break;
        case 0x72: parts.push('\r'); break;
        case 0x74: parts.push('\t'); break;
        case 0x75: {
          let code = 0;
          for (let i = 0; i < 4; i++) {
            const h = hexValue(bytes[p + i]);
            if (h < 0) {
              this.pos = p + i;
              throw this.faultHere('Unexpected character in hex escape: expected a hex-digit for character escape sequence');
            }
            code = code * 16 + h;
          }
          p += 4;
          parts.push(String.fromCharCode(code));
          break;
        }
        default: {
          this.pos = p - 1;
          if (e === undefined) throw this.faultHere('Unexpected end-of-input in character escape sequence');
          const ch = String.fromCharCode(e);
          throw this.faultHere(`Unrecognized character escape '${ch}' (code ${e})`);
        }
      }
      runStart = p;
    }
  }

  private skipWhitespace(): void {
    const bytes = this.bytes;
    let p = this.pos;
    while (p < bytes.length) {
      const b = bytes[p]!;
      if (b === 0x20 || b === 0x09 || b === 0x0d) p++;
      else if (b === 0x0a) {
        p++;
        this.lineNumber++;
        this.lineStart = p;
      } else break;
    }
    this.pos = p;
  }

  private unexpectedChar(expected: string): JsonSyntaxError {
    return this.fault(`Unexpected character (${describeChar(this.bytes, this.pos)}): ${expected}`);
  }

  private unexpectedCharHere(expected: string): JsonSyntaxError {
    return this.faultHere(`Unexpected character (${describeChar(this.bytes, this.pos)}): ${expected}`);
  }

  /** A fault located at the current token's start. */
  private fault(message: string): JsonSyntaxError {
    return new JsonSyntaxError(message, this.line, this.column);
  }

  /** A fault located where the parser stands. */
  private faultHere(message: string): JsonSyntaxError {
    return new JsonSyntaxError(message, this.lineNumber, this.pos - this.lineStart + 1);
  }
}

/** Field names up to this many bytes are cached (longer ones are rare and decoded each time). */
const MAX_CACHED_NAME_BYTES = 64;
/** Slots of the name cache (a power of two); a colliding name replaces the slot's previous one. */
const NAME_CACHE_SIZE = 1024;
/** Decoded field names by their UTF-8 bytes, shared by every parser on this thread. */
const nameCache: Array<{ readonly bytes: Uint8Array; readonly text: string } | undefined> = new Array(NAME_CACHE_SIZE).fill(undefined);

/** Whether `input` holds `expected` at `at`. */
function sameBytesAt(expected: Uint8Array, input: Uint8Array, at: number): boolean {
  const length = expected.length;
  for (let i = 0; i < length; i++) if (expected[i] !== input[at + i]) return false;
  return true;
}

/**
 * Node's Buffer with the UTF-8 decoder that `toString('utf8', start, end)` ends in, called directly: the
 * argument normalisation and encoding lookup around it cost about as much as decoding a short string.
 */
type DecodingBuffer = Buffer & { utf8Slice(start: number, end: number): string };

function asBuffer(bytes: Uint8Array): DecodingBuffer {
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as DecodingBuffer;
}

const EMPTY = Buffer.alloc(0);
/** A parser no one is using, kept for the next document (taken, so a nested use gets its own). */
let idleParser: JsonPullParser | undefined;

/** A parser on `bytes`: the idle one reset, or a new one. Give it back with releaseParser when done. */
export function acquireParser(bytes: Uint8Array): JsonPullParser {
  const parser = idleParser;
  if (parser === undefined) return new JsonPullParser(bytes);
  idleParser = undefined;
  parser.reset(bytes);
  return parser;
}

/** Returns a parser for reuse; it must not be used afterwards. It keeps no reference to its input. */
export function releaseParser(parser: JsonPullParser): void {
  parser.reset(EMPTY);
  idleParser = parser;
}

function isIdentifierByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b >= 0x80;
}

function hexValue(b: number | undefined): number {
  if (b === undefined) return -1;
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

function describeChar(bytes: Uint8Array, pos: number): string {
  const b = bytes[pos];
  if (b === undefined) return 'end-of-input';
  if (b < 0x80) {
    if (b < 0x20) return `CTRL-CHAR, code ${b}`;
    return `'${String.fromCharCode(b)}' (code ${b})`;
  }
  // Decode the full UTF-8 character for the message, as Jackson does.
  const text = Buffer.from(bytes.subarray(pos, pos + 4)).toString('utf8');
  const cp = text.codePointAt(0) ?? b;
  return `'${String.fromCodePoint(cp)}' (code ${cp} / 0x${cp.toString(16)})`;
}
