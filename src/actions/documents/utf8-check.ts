/**
 * Documents must be valid UTF-8, as Jackson requires: a document with an invalid byte is refused (ES's
 * "Invalid UTF-8 start byte 0xff" / "Invalid UTF-8 middle byte") instead of being stored with replacement
 * characters.
 */
import { isUtf8 } from 'node:buffer';
import { EsError } from '../../common/errors.js';

const fatal = new TextDecoder('utf-8', { fatal: true });

/** Offset of the first byte that does not start a valid UTF-8 sequence, and whether it is a start or middle byte. */
function firstInvalid(bytes: Uint8Array): { offset: number; middle: boolean } | undefined {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (length === 0) return { offset: i, middle: false };
    try {
      fatal.decode(bytes.subarray(i, i + length));
    } catch {
      return { offset: i, middle: true };
    }
    i += length;
  }
  return undefined;
}

export function checkUtf8(source: Uint8Array): void {
  // Validates in place: decoding the source to a string just to check it was an allocation per document.
  if (isUtf8(source)) return;
  const fault = firstInvalid(source) ?? { offset: 0, middle: false };
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < fault.offset; i++) {
    if (source[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const location = `[${line}:${fault.offset - lineStart + 1}]`;
  const byte = `0x${(source[fault.offset] ?? 0).toString(16).padStart(2, '0')}`;
  const detail = fault.middle ? `Invalid UTF-8 middle byte after ${byte}` : `Invalid UTF-8 start byte ${byte}`;
  const cause = new EsError('x_content_parse_exception', `${location} ${detail}`);
  throw new EsError('document_parsing_exception', `${location} failed to parse: ${cause.reason}`, { causedBy: cause });
}
