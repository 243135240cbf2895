/**
 * Response writers for the XContent formats Gannet serves: JSON (compact, or pretty the way ES's Jackson
 * printer lays it out: two-space indent, `"key" : value`, `{ }` and `[ ]` for empty containers, a line feed at
 * the end) and YAML (as `format=yaml` prints it). Values may contain JsonFloat to force a Java-style double.
 */
import { JsonFloat, javaDoubleString } from '../common/json-float.js';
import { RawJson, expandRawJson } from '../common/raw-json.js';

export function writeJson(value: unknown, pretty: boolean): string {
  const parts: Array<string | Uint8Array> = [];
  if (pretty) {
    writePretty(value, parts as string[], '');
    parts.push('\n');
  } else {
    writeCompact(value, parts);
  }
  return parts.every((part) => typeof part === 'string') ? (parts as string[]).join('') : joinBytes(parts).toString('utf8');
}

/**
 * The response body as UTF-8 bytes. Compact JSON copies RawJson given as bytes (`RawJson.ofUtf8`) in as they are:
 * the other nodes' `_tasks` listings go from the transport frame to the HTTP response without a decode and a
 * re-encode (decision 0026).
 */
export function writeJsonBytes(value: unknown, pretty: boolean): Buffer {
  if (pretty) return Buffer.from(writeJson(value, true), 'utf8');
  const parts: Array<string | Uint8Array> = [];
  writeCompact(value, parts);
  return writeJsonBytesOf(parts);
}

/**
 * Compact JSON as the chunks a socket write takes one after the other (decision 0030): byte parts of at least
 * `SEPARATE_PART_BYTES` stay as they are, everything between them (text, small byte parts) is joined into one buffer.
 * A response holding no large byte part is one chunk, as writeJsonBytes makes it. The `_tasks` listings of the nodes
 * (~15-30 KB each under 50 concurrent listings) go to the socket without being copied into one response buffer.
 */
export function writeJsonChunks(value: unknown): Buffer[] {
  const parts: Array<string | Uint8Array> = [];
  writeCompact(value, parts);
  let large = false;
  for (let i = 0; i < parts.length && !large; i++) large = typeof parts[i] !== 'string' && (parts[i] as Uint8Array).length >= SEPARATE_PART_BYTES;
  if (!large) return [writeJsonBytesOf(parts)];
  const chunks: Buffer[] = [];
  let between: Array<string | Uint8Array> = [];
  for (const part of parts) {
    if (typeof part !== 'string' && part.length >= SEPARATE_PART_BYTES) {
      if (between.length > 0) chunks.push(joinBytes(between));
      between = [];
      chunks.push(Buffer.isBuffer(part) ? part : Buffer.from(part.buffer, part.byteOffset, part.byteLength));
    } else {
      between.push(part);
    }
  }
  if (between.length > 0) chunks.push(joinBytes(between));
  return chunks;
}

/**
 * A byte part this large is its own chunk of the socket write; smaller ones are copied in with their neighbours (a
 * write of one more chunk costs about what copying ~1 KB does).
 */
const SEPARATE_PART_BYTES = 1024;

function writeJsonBytesOf(parts: ReadonlyArray<string | Uint8Array>): Buffer {
  for (let i = 0; i < parts.length; i++) if (typeof parts[i] !== 'string') return joinBytes(parts);
  return Buffer.from((parts as string[]).join(''), 'utf8');
}

/** Runs of text joined, then everything written into one buffer of the exact size, byte parts copied as they are. */
function joinBytes(parts: ReadonlyArray<string | Uint8Array>): Buffer {
  const pieces: Array<string | Uint8Array> = [];
  let size = 0;
  let run: string[] = [];
  const endRun = () => {
    if (run.length === 0) return;
    const text = run.join('');
    pieces.push(text);
    size += Buffer.byteLength(text, 'utf8');
    run = [];
  };
  for (const part of parts) {
    if (typeof part === 'string') {
      run.push(part);
    } else {
      endRun();
      pieces.push(part);
      size += part.length;
    }
  }
  endRun();
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      at += out.write(piece, at, 'utf8');
    } else {
      out.set(piece, at);
      at += piece.length;
    }
  }
  return out;
}

/**
 * A JSON string literal, as JSON.stringify writes it. Most keys and values are short printable ASCII, which needs
 * no escape: quoting those directly takes half the time of a JSON.stringify call, and a response writes one per key
 * and string value.
 */
function quote(text: string): string {
  if (text.length > 64) return JSON.stringify(text);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(text);
  }
  return `"${text}"`;
}

function scalar(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : JSON.stringify(javaDoubleString(value));
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    default:
      break;
  }
  if (value instanceof JsonFloat) {
    const text = javaDoubleString(value.value);
    return Number.isFinite(value.value) ? text : JSON.stringify(text);
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  return undefined;
}

function entriesOf(value: object): Array<[string, unknown]> {
  if (value instanceof Map) return [...value.entries()].filter(([, v]) => v !== undefined);
  return Object.entries(value).filter(([, v]) => v !== undefined);
}

function writeCompact(value: unknown, out: Array<string | Uint8Array>): void {
  if (value instanceof RawJson) {
    const parts = value.utf8Parts;
    if (parts === undefined) out.push(value.text);
    else for (let i = 0; i < parts.length; i++) out.push(parts[i]!);
    return;
  }
  const simple = scalar(value);
  if (simple !== undefined) {
    out.push(simple);
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      writeCompact(value[i] === undefined ? null : value[i], out);
    }
    out.push(']');
    return;
  }
  out.push('{');
  // The entries as entriesOf gives them, without an array of pairs per object: every response goes through here.
  let first = true;
  if (value instanceof Map) {
    for (const [key, child] of value) {
      if (child === undefined) continue;
      if (!first) out.push(',');
      first = false;
      out.push(quote(key), ':');
      writeCompact(child, out);
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (child === undefined) continue;
      if (!first) out.push(',');
      first = false;
      out.push(quote(key), ':');
      writeCompact(child, out);
    }
  }
  out.push('}');
}

function writePretty(value: unknown, out: string[], indent: string): void {
  if (value instanceof RawJson) value = expandRawJson(value);
  if (value instanceof RawJson) {
    out.push(value.text);
    return;
  }
  const simple = scalar(value);
  if (simple !== undefined) {
    out.push(simple);
    return;
  }
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[ ]');
      return;
    }
    out.push('[\n');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',\n');
      out.push(inner);
      writePretty(value[i] === undefined ? null : value[i], out, inner);
    }
    out.push('\n', indent, ']');
    return;
  }
  const entries = entriesOf(value as object);
  if (entries.length === 0) {
    out.push('{ }');
    return;
  }
  out.push('{\n');
  for (let i = 0; i < entries.length; i++) {
    const [key, child] = entries[i]!;
    if (i > 0) out.push(',\n');
    out.push(inner, quote(key), ' : ');
    writePretty(child, out, inner);
  }
  out.push('\n', indent, '}');
}

/** YAML as ES's YAML generator writes it: a `---` document start, block style, quoted strings where needed. */
export function writeYaml(value: unknown): string {
  const lines: string[] = ['---'];
  writeYamlValue(value, lines, '', null);
  return lines.join('\n') + '\n';
}

function yamlScalar(value: unknown): string | undefined {
  if (value instanceof RawJson) {
    const expanded = expandRawJson(value);
    return expanded instanceof RawJson ? expanded.text : yamlScalar(expanded);
  }
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return yamlString(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof JsonFloat) return javaDoubleString(value.value);
  if (value instanceof Date) return yamlString(value.toISOString());
  return undefined;
}

function yamlString(text: string): string {
  const plain =
    text.length > 0 &&
    /^[A-Za-z_/][A-Za-z0-9_ ./-]*$/.test(text) &&
    !/^(true|false|null|yes|no|on|off|~)$/i.test(text) &&
    !text.endsWith(' ');
  return plain ? text : JSON.stringify(text);
}

function writeYamlValue(value: unknown, lines: string[], indent: string, prefix: string | null): void {
  if (value instanceof RawJson) value = expandRawJson(value);
  const simple = yamlScalar(value);
  if (simple !== undefined) {
    lines.push(`${prefix ?? indent}${simple}`);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      lines.push(`${prefix ?? indent}[]`);
      return;
    }
    if (prefix !== null) lines.push(prefix.trimEnd());
    for (const item of value) {
      writeYamlItem(item, lines, indent);
    }
    return;
  }
  const entries = entriesOf(value as object);
  if (entries.length === 0) {
    lines.push(`${prefix ?? indent}{}`);
    return;
  }
  if (prefix !== null) lines.push(prefix.trimEnd());
  for (const [key, rawChild] of entries) {
    const child = rawChild instanceof RawJson ? expandRawJson(rawChild) : rawChild;
    const keyText = `${indent}${yamlString(key)}: `;
    const childSimple = yamlScalar(child);
    if (childSimple !== undefined) lines.push(keyText + childSimple);
    else if (Array.isArray(child) && child.length === 0) lines.push(keyText + '[]');
    else if (!Array.isArray(child) && entriesOf(child as object).length === 0) lines.push(keyText + '{}');
    else {
      lines.push(keyText.trimEnd());
      if (Array.isArray(child)) for (const item of child) writeYamlItem(item, lines, indent);
      else writeYamlValue(child, lines, indent + '  ', null);
    }
  }
}

function writeYamlItem(item: unknown, lines: string[], indent: string): void {
  if (item instanceof RawJson) item = expandRawJson(item);
  const simple = yamlScalar(item);
  if (simple !== undefined) {
    lines.push(`${indent}- ${simple}`);
    return;
  }
  // Objects in a list: the first key shares the "- " line, the rest align under it.
  const nested: string[] = [];
  writeYamlValue(item, nested, indent + '  ', null);
  if (nested.length === 0) return;
  nested[0] = `${indent}- ${nested[0]!.slice(indent.length + 2)}`;
  lines.push(...nested);
}
