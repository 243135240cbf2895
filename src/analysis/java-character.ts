/**
 * java.lang.Character's classification and case mapping, which Lucene's tokenizers and filters use per code
 * point. JavaScript's String methods differ where it matters: toLowerCase() applies full and contextual
 * mappings ('İ' -> "i̇", final 'Σ' -> 'ς'), Java's Character.toLowerCase(int) the simple one-to-one mapping.
 * Character data comes from the JavaScript engine's Unicode tables, which may be a newer Unicode version
 * than the JDK's; the two agree on every character both versions assign.
 */

const LETTER = /^\p{L}$/u;
const SPACE_SEPARATOR = /^[\p{Zs}\p{Zl}\p{Zp}]$/u;

// Lazily built per-BMP-char tables; supplementary code points are computed and cached on demand.
let bmpLower: Uint16Array | undefined;
let bmpFlags: Uint8Array | undefined;
const FLAG_LETTER = 1;
const FLAG_WHITESPACE = 2;
const supplementaryLower = new Map<number, number>();

function simpleLowerCase(cp: number): number {
  if (cp === 0x130) return 0x69; // the one unconditional multi-char lowercase mapping (SpecialCasing.txt)
  const lower = String.fromCodePoint(cp).toLowerCase();
  const first = lower.codePointAt(0)!;
  // A one-to-many full mapping has no simple counterpart other than the character itself.
  return lower.length === (first > 0xffff ? 2 : 1) ? first : cp;
}

function lowerTable(): Uint16Array {
  if (bmpLower === undefined) {
    bmpLower = new Uint16Array(0x10000);
    for (let c = 0; c < 0x10000; c++) bmpLower[c] = c >= 0xd800 && c <= 0xdfff ? c : simpleLowerCase(c);
  }
  return bmpLower;
}

function flagTable(): Uint8Array {
  if (bmpFlags === undefined) {
    bmpFlags = new Uint8Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCharCode(c);
      let flags = LETTER.test(s) ? FLAG_LETTER : 0;
      if (isJavaWhitespaceSlow(c, s)) flags |= FLAG_WHITESPACE;
      bmpFlags[c] = flags;
    }
  }
  return bmpFlags;
}

function isJavaWhitespaceSlow(cp: number, s: string): boolean {
  if ((cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f)) return true;
  // Java excludes the non-breaking spaces from whitespace.
  if (cp === 0xa0 || cp === 0x2007 || cp === 0x202f) return false;
  return SPACE_SEPARATOR.test(s);
}

/** Character.toLowerCase(int). */
export function javaToLowerCase(cp: number): number {
  if (cp < 0x10000) return lowerTable()[cp]!;
  let lower = supplementaryLower.get(cp);
  if (lower === undefined) {
    lower = simpleLowerCase(cp);
    supplementaryLower.set(cp, lower);
  }
  return lower;
}

/** Character.isLetter(int): general category Lu, Ll, Lt, Lm or Lo. */
export function javaIsLetter(cp: number): boolean {
  if (cp < 0x10000) return (flagTable()[cp]! & FLAG_LETTER) !== 0;
  return LETTER.test(String.fromCodePoint(cp));
}

/** Character.isWhitespace(int). No supplementary character is whitespace. */
export function javaIsWhitespace(cp: number): boolean {
  return cp < 0x10000 && (flagTable()[cp]! & FLAG_WHITESPACE) !== 0;
}

/**
 * Lucene's LowerCaseFilter / CharacterUtils.toLowerCase over a whole term: Character.toLowerCase per code
 * point. Returns the same string when nothing changes, so already-lowercase terms cost no allocation.
 */
export function lowerCaseTerm(term: string): string {
  const table = lowerTable();
  const length = term.length;
  let i = 0;
  for (; i < length; i++) {
    const c = term.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) break;
    if (table[c] !== c) break;
  }
  if (i === length) return term;
  let out = term.slice(0, i);
  while (i < length) {
    const cp = term.codePointAt(i)!;
    const lower = javaToLowerCase(cp);
    out += lower === cp ? String.fromCodePoint(cp) : String.fromCodePoint(lower);
    i += cp > 0xffff ? 2 : 1;
  }
  return out;
}
