/**
 * java.lang.Character's classification and case mapping, which Lucene's tokenizers and filters use per code
 * point. JavaScript's String methods differ where it matters: toLowerCase() applies full and contextual
 * mappings ('İ' -> "i̇", final 'Σ' -> 'ς'), Java's Character.toLowerCase(int) the simple one-to-one mapping.
 * Character data comes from the JavaScript engine's Unicode tables, which may be a newer Unicode version
 * than the JDK's; the two agree on every character both versions assign.
 */

const LETTER = /^\p{L}$/u;
const SPACE_SEPARATOR = /^[\p{Zs}\p{Zl}\p{Zp}]$/u;

// Per-BMP-char tables, each entry computed the first time its character is looked up: building all 65,536 entries
// up front cost ~100 ms in every isolate that met a non-ASCII character (a restarted node's indexing worker paid
// it in the middle of a recovery). Supplementary code points are computed and cached on demand.
/** Simple lowercase per BMP char; 0 = not computed yet (only U+0000 lowercases to 0, answered apart). */
const bmpLower = new Uint16Array(0x10000);
/** FLAG_* per BMP char; 0 = not computed yet. */
const bmpFlags = new Uint8Array(0x10000);
const FLAG_KNOWN = 1;
const FLAG_LETTER = 2;
const FLAG_WHITESPACE = 4;
const supplementaryLower = new Map<number, number>();

function simpleLowerCase(cp: number): number {
  if (cp === 0x130) return 0x69; // the one unconditional multi-char lowercase mapping (SpecialCasing.txt)
  const lower = String.fromCodePoint(cp).toLowerCase();
  const first = lower.codePointAt(0)!;
  // A one-to-many full mapping has no simple counterpart other than the character itself.
  return lower.length === (first > 0xffff ? 2 : 1) ? first : cp;
}

function bmpLowerCase(c: number): number {
  const known = bmpLower[c]!;
  if (known !== 0 || c === 0) return known;
  const lower = c >= 0xd800 && c <= 0xdfff ? c : simpleLowerCase(c);
  bmpLower[c] = lower;
  return lower;
}

function bmpFlagsOf(c: number): number {
  const known = bmpFlags[c]!;
  if (known !== 0) return known;
  let flags = FLAG_KNOWN;
  if (c < 0xd800 || c > 0xdfff) {
    const s = String.fromCharCode(c);
    if (LETTER.test(s)) flags |= FLAG_LETTER;
    if (isJavaWhitespaceSlow(c, s)) flags |= FLAG_WHITESPACE;
  }
  bmpFlags[c] = flags;
  return flags;
}

function isJavaWhitespaceSlow(cp: number, s: string): boolean {
  if ((cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f)) return true;
  // Java excludes the non-breaking spaces from whitespace.
  if (cp === 0xa0 || cp === 0x2007 || cp === 0x202f) return false;
  return SPACE_SEPARATOR.test(s);
}

/** Character.toLowerCase(int). */
export function javaToLowerCase(cp: number): number {
  if (cp < 0x10000) return bmpLowerCase(cp);
  let lower = supplementaryLower.get(cp);
  if (lower === undefined) {
    lower = simpleLowerCase(cp);
    supplementaryLower.set(cp, lower);
  }
  return lower;
}

/** Character.isLetter(int): general category Lu, Ll, Lt, Lm or Lo. */
export function javaIsLetter(cp: number): boolean {
  if (cp < 0x10000) return (bmpFlagsOf(cp) & FLAG_LETTER) !== 0;
  return LETTER.test(String.fromCodePoint(cp));
}

/** Character.isWhitespace(int). No supplementary character is whitespace. */
export function javaIsWhitespace(cp: number): boolean {
  return cp < 0x10000 && (bmpFlagsOf(cp) & FLAG_WHITESPACE) !== 0;
}

/**
 * Lucene's LowerCaseFilter / CharacterUtils.toLowerCase over a whole term: Character.toLowerCase per code
 * point. Returns the same string when nothing changes, so already-lowercase terms cost no allocation.
 */
export function lowerCaseTerm(term: string): string {
  const length = term.length;
  let hasUpper = false;
  let i = 0;
  for (; i < length; i++) {
    const c = term.charCodeAt(i);
    if (c >= 0x80) break;
    if (c >= 0x41 && c <= 0x5a) hasUpper = true;
  }
  // ASCII: JavaScript's lowercasing is Java's there, and native.
  if (i === length) return hasUpper ? term.toLowerCase() : term;

  let changed = false;
  const codes: number[] = [];
  for (let j = 0; j < length; ) {
    const cp = term.codePointAt(j)!;
    const lower = javaToLowerCase(cp);
    if (lower !== cp) changed = true;
    if (lower > 0xffff) codes.push(0xd800 + ((lower - 0x10000) >> 10), 0xdc00 + ((lower - 0x10000) & 0x3ff));
    else codes.push(lower);
    j += cp > 0xffff ? 2 : 1;
  }
  return changed ? fromCharCodes(codes) : term;
}

/** String.fromCharCode over UTF-16 units of any count (one call with a huge argument list would overflow). */
export function fromCharCodes(codes: ArrayLike<number>, length = codes.length): string {
  const CHUNK = 8192;
  let out = '';
  for (let i = 0; i < length; i += CHUNK) {
    out += String.fromCharCode.apply(null, Array.prototype.slice.call(codes, i, Math.min(length, i + CHUNK)) as number[]);
  }
  return out;
}

/** String.fromCodePoint over code points of any count. */
export function fromCodePoints(codePoints: readonly number[]): string {
  const CHUNK = 8192;
  let out = '';
  for (let i = 0; i < codePoints.length; i += CHUNK) out += String.fromCodePoint(...codePoints.slice(i, i + CHUNK));
  return out;
}
