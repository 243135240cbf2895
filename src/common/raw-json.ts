/**
 * JSON text carried into a response as is, the way ES writes a document's `_source`: the bytes the client sent,
 * not a re-encoding (so `1.0` stays `1.0` and a 20-digit integer keeps its digits). The response writer prints
 * the text verbatim; where it must look inside (pretty printing, YAML, `filter_path`), `expandRawJson` turns it
 * into plain objects and arrays whose numbers stay RawJson literals.
 */
export class RawJson {
  private decoded: string | undefined;
  /**
   * The same JSON as UTF-8 bytes, in one or more consecutive parts, when it came as bytes (`ofUtf8`, `ofUtf8Parts`):
   * the compact response writer hands the parts to the socket as they are, with no decode, re-encode or copy into
   * one buffer (the `_tasks` listings of every node, decisions 0026 and 0030).
   */
  readonly utf8Parts: readonly Uint8Array[] | undefined;

  constructor(text: string);
  constructor(text: string | undefined, utf8Parts: readonly Uint8Array[]);
  constructor(text: string | undefined, utf8Parts?: readonly Uint8Array[]) {
    this.decoded = text;
    this.utf8Parts = utf8Parts;
  }

  /** JSON as UTF-8 bytes; `text` decodes them only when something asks for it (pretty printing, YAML, filter_path). */
  static ofUtf8(bytes: Uint8Array): RawJson {
    return new RawJson(undefined, [bytes]);
  }

  /** JSON as the concatenation of UTF-8 byte parts (none split inside a character), kept apart until they are written. */
  static ofUtf8Parts(parts: readonly Uint8Array[]): RawJson {
    return new RawJson(undefined, parts);
  }

  get text(): string {
    if (this.decoded === undefined) {
      const parts = this.utf8Parts!;
      this.decoded = parts.length === 1 ? bufferView(parts[0]!).toString('utf8') : Buffer.concat(parts).toString('utf8');
    }
    return this.decoded;
  }
}

function bufferView(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Parses JSON text into objects/arrays/strings/booleans/null, numbers kept as RawJson with their literal text. */
export function expandRawJson(raw: RawJson): unknown {
  const text = raw.text;
  let i = 0;
  const skip = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const fail = (): never => {
    throw new SyntaxError(`invalid JSON at offset ${i}`);
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) {
        i++;
        return JSON.parse(text.slice(start, i)) as string;
      } else i++;
    }
    return fail();
  };
  const readValue = (): unknown => {
    skip();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      skip();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        skip();
        if (text[i] !== '"') fail();
        const key = readString();
        skip();
        if (text[i] !== ':') fail();
        i++;
        // Own property even for "__proto__", so a document cannot alter the object's prototype.
        Object.defineProperty(out, key, { value: readValue(), enumerable: true, writable: true, configurable: true });
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return out;
        } else fail();
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      skip();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(readValue());
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return out;
        } else fail();
      }
    }
    if (c === '"') return readString();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 1100));
    if (literal === null) return fail();
    i += literal[0].length;
    if (literal[0] === 'true') return true;
    if (literal[0] === 'false') return false;
    if (literal[0] === 'null') return null;
    return new RawJson(literal[0]);
  };
  const value = readValue();
  skip();
  if (i !== text.length) fail();
  return value;
}

/** Compact JSON of a tree that may hold RawJson values (written verbatim). */
export function stringifyWithRaw(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((item) => stringifyWithRaw(item)).join(',')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, child]) => child !== undefined)
      .map(([key, child]) => `${JSON.stringify(key)}:${stringifyWithRaw(child)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
