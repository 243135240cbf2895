/**
 * Request-body parsing with the limits ES applies: valid UTF-8 (Jackson rejects invalid bytes), a nesting
 * limit of 1000 (Jackson's StreamReadConstraints default) checked before parsing, and parse errors reported
 * as x_content_parse_exception with the `[line:column]` prefix ES uses.
 */
import { EsError } from '../common/errors.js';
import { findJsonSyntaxFault } from './json-syntax.js';

export const MAX_NESTING_DEPTH = 1000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    throw new EsError(
      'x_content_parse_exception',
      `[1:${offset + 1}] Invalid UTF-8 start byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')}`,
    );
  }
}

function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (length === 0) return i;
    try {
      utf8.decode(bytes.subarray(i, i + length));
    } catch {
      return i;
    }
    i += length;
  }
  return 0;
}

/** Line and column (1-based) of a character offset, as ES prints parse locations. */
export function lineColumn(text: string, offset: number): [number, number] {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return [line, offset - lineStart + 1];
}

/** Throws when objects/arrays nest deeper than the limit; strings are skipped so brackets inside them don't count. */
export function checkNestingDepth(text: string, limit = MAX_NESTING_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash escapes the next char
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) {
        const [line, column] = lineColumn(text, i);
        throw new EsError(
          'x_content_parse_exception',
          `[${line}:${column}] Document nesting depth (${depth}) exceeds the maximum allowed (${limit})`,
        );
      }
    } else if (c === 125 || c === 93) depth--;
  }
}

export function parseJsonText(text: string): unknown {
  checkNestingDepth(text);
  try {
    return JSON.parse(text);
  } catch (err) {
    const fault = findJsonSyntaxFault(text) ?? { offset: text.length, message: (err as Error).message };
    const [line, column] = lineColumn(text, fault.offset);
    throw new EsError('x_content_parse_exception', `[${line}:${column}] ${fault.message}`);
  }
}

export function parseJsonBytes(bytes: Uint8Array): unknown {
  return parseJsonText(decodeUtf8(bytes));
}
