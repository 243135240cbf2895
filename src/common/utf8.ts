/**
 * Request bodies must be valid UTF-8, as Jackson requires: an invalid byte is refused with Jackson's message
 * ("Invalid UTF-8 start byte 0xff" / "Invalid UTF-8 middle byte") instead of being read as U+FFFD.
 */
import { isUtf8 } from 'node:buffer';

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

/** Undefined for valid UTF-8 (checked in place, natively); else Jackson's message, located `[line:column]`. */
export function invalidUtf8(bytes: Uint8Array): { location: string; detail: string } | undefined {
  if (isUtf8(bytes)) return undefined;
  const fault = firstInvalid(bytes) ?? { offset: 0, middle: false };
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < fault.offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const byte = `0x${(bytes[fault.offset] ?? 0).toString(16).padStart(2, '0')}`;
  return {
    location: `[${line}:${fault.offset - lineStart + 1}]`,
    detail: fault.middle ? `Invalid UTF-8 middle byte after ${byte}` : `Invalid UTF-8 start byte ${byte}`,
  };
}
