/**
 * The value of a `binary` field: a JSON string of base64, decoded as Jackson's JsonParser.getBinaryValue does
 * with its default variant (MIME-NO-LINEFEEDS: the standard alphabet, `=` padding required, white space
 * allowed only between 4-character units). Failures carry Jackson's messages, which Elasticsearch passes on.
 */

const VARIANT = 'MIME-NO-LINEFEEDS';
const PADDING = 61; // '='

const DECODE = new Int8Array(128).fill(-1);
{
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) DECODE[alphabet.charCodeAt(i)] = i;
}

export class Base64DecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Base64DecodeError';
  }
}

/** The character Jackson's UTF-8 parser sees: a non-ASCII character shows as the first byte of its UTF-8 form. */
function seenByte(text: string, index: number): number {
  const code = text.codePointAt(index)!;
  if (code < 0x80) return code;
  return Buffer.from(String.fromCodePoint(code), 'utf8')[0]!;
}

/** Jackson's ParserBase.reportInvalidBase64Char, prefixed as getBinaryValue reports it. */
function invalidChar(ch: number, unitIndex: number, extra?: string): Base64DecodeError {
  let base: string;
  if (ch <= 0x20) {
    base = `Illegal white space character (code 0x${ch.toString(16)}) as character #${unitIndex + 1} of 4-char base64 unit: can only used between units`;
  } else if (ch === PADDING) {
    base = `Unexpected padding character ('=') as character #${unitIndex + 1} of 4-char base64 unit: padding only legal as 3rd or 4th character`;
  } else if (ch === 0x7f || (ch >= 0x80 && ch <= 0x9f)) {
    base = `Illegal character (code 0x${ch.toString(16)}) in base64 content`;
  } else {
    base = `Illegal character '${String.fromCharCode(ch)}' (code 0x${ch.toString(16)}) in base64 content`;
  }
  if (extra !== undefined) base += `: ${extra}`;
  return new Base64DecodeError(`Failed to decode VALUE_STRING as base64 (${VARIANT}): ${base}`);
}

/** Base64Variant.missingPaddingMessage: reported directly, without the "Failed to decode" prefix. */
function missingPadding(): Base64DecodeError {
  return new Base64DecodeError(
    `Unexpected end of base64-encoded String: base64 variant '${VARIANT}' expects padding (one or more '=' characters) at the end`,
  );
}

/** The end of the string: Jackson meets the closing quote there, and reports it as that character. */
const END = -1;
const QUOTE = 0x22;

/** Decodes `text`; throws Base64DecodeError with Jackson's message. */
export function decodeBase64Value(text: string): Uint8Array {
  const out = Buffer.allocUnsafe(Math.floor((text.length * 3) / 4) + 3);
  let written = 0;
  let i = 0;
  const length = text.length;
  const next = (): number => {
    if (i >= length) return END;
    const ch = seenByte(text, i);
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    return ch;
  };
  const bits = (ch: number): number => (ch >= 0 && ch < 128 ? DECODE[ch]! : -1);
  const invalid = (ch: number, unitIndex: number, extra?: string): Base64DecodeError => invalidChar(ch === END ? QUOTE : ch, unitIndex, extra);
  for (;;) {
    // White space is skipped between units; the end of the string between units ends the value.
    let ch: number;
    do ch = next();
    while (ch !== END && ch <= 0x20);
    if (ch === END) break;
    let b = bits(ch);
    if (b < 0) throw invalid(ch, 0);
    let data = b;
    ch = next();
    b = bits(ch);
    if (b < 0) throw invalid(ch, 1);
    data = (data << 6) | b;
    // Third character: data, padding, or the end of a unit that lacks its padding.
    ch = next();
    b = bits(ch);
    if (b < 0) {
      if (ch === END) throw missingPadding();
      if (ch !== PADDING) throw invalid(ch, 2);
      ch = next();
      if (ch !== PADDING) {
        if (ch === END) throw missingPadding();
        throw invalid(ch, 3, "expected padding character '='");
      }
      out[written++] = data >> 4;
      continue;
    }
    data = (data << 6) | b;
    ch = next();
    b = bits(ch);
    if (b < 0) {
      if (ch === END) throw missingPadding();
      if (ch !== PADDING) throw invalid(ch, 3);
      out[written++] = (data >> 10) & 0xff;
      out[written++] = (data >> 2) & 0xff;
      continue;
    }
    data = (data << 6) | b;
    out[written++] = (data >> 16) & 0xff;
    out[written++] = (data >> 8) & 0xff;
    out[written++] = data & 0xff;
  }
  return new Uint8Array(out.subarray(0, written));
}

/** java.util.Base64's encoder (with padding): how binary doc values and stored values are printed. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
