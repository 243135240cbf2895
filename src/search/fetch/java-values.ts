/**
 * How ES prints source values once it has read them as Java objects: Jackson's generator for JSON output
 * (what a filtered `_source` becomes: copyCurrentStructure writes integers exactly, floats as Java doubles,
 * strings with Jackson's escapes) and Java's toString (what the `fields` option applies to keyword and text
 * values: a source `1.50` becomes the keyword "1.5").
 */
import { javaDoubleString } from '../../common/json-float.js';
import { SourceNumber, type SourceValue } from './source-tree.js';

const HEX = '0123456789ABCDEF';

/** Jackson's UTF8JsonGenerator string escaping: short escapes for \b \t \n \f \r, \u00XX (upper-case) for other controls. */
export function jacksonString(text: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let escape: string | undefined;
    if (code === 0x22) escape = '\\"';
    else if (code === 0x5c) escape = '\\\\';
    else if (code < 0x20) {
      switch (code) {
        case 0x08:
          escape = '\\b';
          break;
        case 0x09:
          escape = '\\t';
          break;
        case 0x0a:
          escape = '\\n';
          break;
        case 0x0c:
          escape = '\\f';
          break;
        case 0x0d:
          escape = '\\r';
          break;
        default:
          escape = `\\u00${HEX[code >> 4]}${HEX[code & 0xf]}`;
      }
    }
    if (escape !== undefined) {
      out += text.slice(start, i) + escape;
      start = i + 1;
    }
  }
  return out + text.slice(start) + '"';
}

/** The double a float literal parses to (Java's Double.parseDouble and JS agree: both round correctly). */
export function literalDouble(number: SourceNumber): number {
  return Number(number.text);
}

/**
 * A number as Jackson copies it: integers with all their digits (int, long or BigInteger alike), floats as
 * Java's Double.toString, non-finite doubles quoted (Jackson's WRITE_NAN_AS_STRINGS default).
 */
export function jacksonNumber(number: SourceNumber): string {
  if (number.isInteger) return BigInt(number.text).toString();
  const value = literalDouble(number);
  const text = javaDoubleString(value);
  return Number.isFinite(value) ? text : `"${text}"`;
}

/** Compact JSON of a source value, printed as ES's XContentBuilder prints a copied structure. */
export function writeJackson(value: SourceValue): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: SourceValue, out: string[]): void {
  if (value === null) out.push('null');
  else if (typeof value === 'string') out.push(jacksonString(value));
  else if (typeof value === 'boolean') out.push(value ? 'true' : 'false');
  else if (value instanceof SourceNumber) out.push(jacksonNumber(value));
  else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
  } else {
    out.push('{');
    let first = true;
    for (const [key, child] of value) {
      if (!first) out.push(',');
      first = false;
      out.push(jacksonString(key), ':');
      write(child, out);
    }
    out.push('}');
  }
}

/**
 * Java's toString of a value read from the source map: Integer/Long/BigInteger digits, Double.toString,
 * Boolean, String, and AbstractMap/ArrayList's `{k=v, ...}` / `[a, b]` for containers.
 */
export function javaToString(value: SourceValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof SourceNumber) return value.isInteger ? BigInt(value.text).toString() : javaDoubleString(literalDouble(value));
  if (Array.isArray(value)) return `[${value.map(javaToString).join(', ')}]`;
  return `{${[...value].map(([key, child]) => `${key}=${javaToString(child)}`).join(', ')}}`;
}
