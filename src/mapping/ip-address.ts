/**
 * IP addresses as Elasticsearch reads, stores and prints them. Every address is 16 bytes (Lucene's
 * InetAddressPoint encoding: IPv4 as the IPv4-mapped IPv6 address ::ffff:a.b.c.d), so IPv4 and IPv6 values
 * sort together in unsigned byte order. Parsing follows ES's InetAddresses.forString (no host names, no
 * leading zeros in IPv4 octets, a `%scope` suffix ignored); printing follows NetworkAddress.format: IPv4 and
 * IPv4-mapped addresses as dotted quads, every other address in RFC 5952 form (the longest run of two or more
 * zero hextets compressed, leftmost on a tie, lowercase hex). CIDR masks follow InetAddresses.parseCidr.
 */

/** An encoded address: 16 bytes, big endian. */
export type IpBytes = Uint8Array;

export const IP_BYTES = 16;

/** The message of ES's IllegalArgumentException for text that is not an address. */
export function notAnIpMessage(text: string): string {
  return `'${text}' is not an IP string literal.`;
}

/** Thrown by the parsers below with ES's IllegalArgumentException (or NumberFormatException) message. */
export class IpFormatError extends Error {
  constructor(
    message: string,
    /** `number_format_exception` when a CIDR prefix is not an integer (Integer.parseInt). */
    readonly numberFormat = false,
  ) {
    super(message);
    this.name = 'IpFormatError';
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Four dotted decimal octets (no leading zeros, each 0-255) into out[offset..offset+4), or false. */
function parseIpv4(text: string, start: number, end: number, out: Uint8Array, offset: number): boolean {
  let octet = 0;
  let digits = 0;
  let value = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (octet >= 3 || digits === 0 || value > 255) return false;
      out[offset + octet++] = value;
      value = 0;
      digits = 0;
    } else if (isDigit(c)) {
      if (digits !== 0 && value === 0) return false; // a leading zero
      value = value * 10 + (c - 48);
      digits++;
      if (digits > 3) return false;
    } else {
      return false;
    }
  }
  if (octet !== 3 || digits === 0 || value > 255) return false;
  out[offset + 3] = value;
  return true;
}

/** One hextet: 1-4 hex digits. */
function parseHextet(part: string): number {
  if (part.length === 0 || part.length > 4) return -1;
  let value = 0;
  for (let i = 0; i < part.length; i++) {
    const h = hexValue(part.charCodeAt(i));
    if (h < 0) return -1;
    value = (value << 4) | h;
  }
  return value;
}

/**
 * Hextets with at most one `::` into 16 bytes, or false (Guava's textToNumericFormatV6, which ES copies): a
 * trailing dotted quad is first rewritten as two hextets.
 */
function parseIpv6(input: string, out: Uint8Array): boolean {
  let text = input;
  const lastColon = text.lastIndexOf(':');
  if (text.indexOf('.', lastColon) >= 0) {
    const quad = new Uint8Array(4);
    if (!parseIpv4(text, lastColon + 1, text.length, quad, 0)) return false;
    const hex = (a: number, b: number): string => ((a << 8) | b).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(quad[0]!, quad[1]!)}:${hex(quad[2]!, quad[3]!)}`;
  }
  // N colons make N + 1 parts; an address has 2 to 8 colons.
  const parts = text.split(':');
  if (parts.length < 3 || parts.length > 9) return false;
  // Disregarding the ends, an empty part is the "::" that skips a run of zeros.
  let skipIndex = -1;
  for (let i = 1; i < parts.length - 1; i++) {
    if (parts[i]!.length === 0) {
      if (skipIndex >= 0) return false;
      skipIndex = i;
    }
  }
  let partsHi: number;
  let partsLo: number;
  if (skipIndex >= 0) {
    partsHi = skipIndex;
    partsLo = parts.length - skipIndex - 1;
    if (parts[0]!.length === 0 && --partsHi !== 0) return false; // a leading ":" needs "::"
    if (parts[parts.length - 1]!.length === 0 && --partsLo !== 0) return false; // a trailing ":" needs "::"
  } else {
    partsHi = parts.length;
    partsLo = 0;
  }
  const skipped = 8 - (partsHi + partsLo);
  if (skipIndex >= 0 ? skipped < 1 : skipped !== 0) return false;
  const hextets: number[] = [];
  for (let i = 0; i < partsHi; i++) hextets.push(parseHextet(parts[i]!));
  for (let i = 0; i < skipped; i++) hextets.push(0);
  for (let i = partsLo; i > 0; i--) hextets.push(parseHextet(parts[parts.length - i]!));
  for (let h = 0; h < 8; h++) {
    if (hextets[h]! < 0) return false;
    out[2 * h] = hextets[h]! >>> 8;
    out[2 * h + 1] = hextets[h]! & 0xff;
  }
  return true;
}

/** The parsed address: 16 encoded bytes, and whether the text was an IPv4 literal (4 bytes in Java). */
interface ParsedIp {
  readonly bytes: IpBytes;
  /** Java's InetAddress is an Inet4Address: an IPv4 literal or an IPv4-mapped IPv6 literal. */
  readonly isIpv4: boolean;
  readonly textHasColon: boolean;
}

function parseDetailed(text: string): ParsedIp | null {
  let end = text.length;
  let hasColon = false;
  let hasDot = false;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return null;
    if (c === 46) hasDot = true;
    else if (c === 58) {
      if (hasDot) return null; // colons after dots
      hasColon = true;
    } else if (c === 37) {
      if (i === end - 1) return null; // an empty scope id
      end = i; // the rest is a scope id
      break;
    }
  }
  const bytes = new Uint8Array(IP_BYTES);
  if (hasColon) {
    if (!parseIpv6(text.slice(0, end), bytes)) return null;
    return { bytes, isIpv4: isIpv4Mapped(bytes), textHasColon: true };
  }
  if (!hasDot) return null;
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  if (!parseIpv4(text, 0, end, bytes, 12)) return null;
  return { bytes, isIpv4: true, textHasColon: false };
}

/** InetAddresses.forString + InetAddressPoint.encode: the 16 bytes, or null when the text is no address. */
export function tryParseIp(text: string): IpBytes | null {
  return parseDetailed(text)?.bytes ?? null;
}

/** Like tryParseIp, but throws IpFormatError with ES's message. */
export function parseIp(text: string): IpBytes {
  const bytes = tryParseIp(text);
  if (bytes === null) throw new IpFormatError(notAnIpMessage(text));
  return bytes;
}

export function isIpv4Mapped(bytes: IpBytes): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/** NetworkAddress.format(InetAddressPoint.decode(bytes)). */
export function formatIp(bytes: IpBytes): string {
  if (bytes.length !== IP_BYTES) throw new RangeError(`an encoded IP address has 16 bytes, not ${bytes.length}`);
  if (isIpv4Mapped(bytes)) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  const hextets = new Array<number>(8);
  for (let i = 0; i < 8; i++) hextets[i] = (bytes[2 * i]! << 8) | bytes[2 * i + 1]!;
  // The longest run of zero hextets (at least two), the leftmost on a tie.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (hextets[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && hextets[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  if (bestStart < 0) return hextets.map((h) => h.toString(16)).join(':');
  const head = hextets.slice(0, bestStart).map((h) => h.toString(16)).join(':');
  const tail = hextets.slice(bestStart + bestLength).map((h) => h.toString(16)).join(':');
  return `${head}::${tail}`;
}

/** An inclusive range of encoded addresses. */
export interface IpRange {
  readonly lower: IpBytes;
  readonly upper: IpBytes;
}

/**
 * InetAddresses.parseCidr followed by InetAddressPoint.newPrefixQuery's bounds: the host bits cleared for the
 * lower bound and set for the upper one. An IPv4 prefix counts within the IPv4 address's 32 bits.
 */
export function parseCidr(text: string): IpRange {
  // Java's String.split("/") drops trailing empty strings: "1.2.3.4/" is one field.
  const fields = text.split('/');
  while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  if (fields.length !== 2) throw new IpFormatError(`Expected [ip/prefix] but was [${text}]`);
  const addressText = fields[0]!;
  const parsed = parseDetailed(addressText);
  if (parsed === null) throw new IpFormatError(notAnIpMessage(addressText));
  if (parsed.textHasColon && parsed.isIpv4) {
    throw new IpFormatError(
      `CIDR notation is not allowed with IPv6-mapped IPv4 address [${addressText} as it introduces ambiguity as to whether the prefix length ` +
        'should be interpreted as a v4 prefix length or a v6 prefix length',
    );
  }
  const prefixText = fields[1]!;
  if (!/^[+-]?\d+$/.test(prefixText) || Math.abs(Number(prefixText)) > 2147483647) {
    throw new IpFormatError(`For input string: "${prefixText}"`, true);
  }
  const prefix = Number(prefixText);
  const bits = parsed.isIpv4 ? 32 : 128;
  if (prefix < 0 || prefix > bits) {
    throw new IpFormatError(`Illegal prefix length [${prefix}] in [${text}]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges`);
  }
  return prefixRange(parsed.bytes, (parsed.isIpv4 ? 96 : 0) + prefix);
}

/** The addresses sharing the first `prefixBits` bits (of 128) of `bytes`. */
export function prefixRange(bytes: IpBytes, prefixBits: number): IpRange {
  const lower = Uint8Array.from(bytes);
  const upper = Uint8Array.from(bytes);
  for (let i = prefixBits; i < 128; i++) {
    const mask = 1 << (7 - (i & 7));
    lower[i >> 3]! &= ~mask;
    upper[i >> 3]! |= mask;
  }
  return { lower, upper };
}

/** Unsigned byte order of two encoded addresses. */
export function compareIp(a: IpBytes, b: IpBytes): number {
  for (let i = 0; i < IP_BYTES; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** InetAddressPoint.nextUp: the next address, or null after ffff:...:ffff. */
export function nextUp(bytes: IpBytes): IpBytes | null {
  const out = Uint8Array.from(bytes);
  for (let i = IP_BYTES - 1; i >= 0; i--) {
    if (out[i] !== 0xff) {
      out[i]!++;
      return out;
    }
    out[i] = 0;
  }
  return null;
}

/** InetAddressPoint.nextDown: the previous address, or null before ::. */
export function nextDown(bytes: IpBytes): IpBytes | null {
  const out = Uint8Array.from(bytes);
  for (let i = IP_BYTES - 1; i >= 0; i--) {
    if (out[i] !== 0) {
      out[i]!--;
      return out;
    }
    out[i] = 0xff;
  }
  return null;
}

export const MIN_IP: IpBytes = new Uint8Array(IP_BYTES);
export const MAX_IP: IpBytes = new Uint8Array(IP_BYTES).fill(0xff);

/** The bytes as a 32-character lowercase hex string: sorts as the bytes do (how search carries ip values). */
export function ipToHex(bytes: IpBytes): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function hexToIp(hex: string): IpBytes {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
