/**
 * Painless source to tokens. Numbers keep their literal text (the parser types them as painless does: int
 * unless suffixed L/F/D or written with a fraction or exponent); strings are unescaped with painless's
 * rules (only `\\` and the delimiting quote may be escaped). Comments are skipped.
 */
import { ScriptFailure, compileMessages } from './messages.js';

export type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** The unescaped value of a string token. */
  readonly value?: string;
  readonly offset: number;
}

// Longest first, so `>>>=` is not read as `>>` `>=`.
const PUNCTUATION = [
  '>>>=', '===', '!==', '>>>', '<<=', '>>=', '==~',
  '?.', '?:', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '==', '!=', '<=', '>=', '&&', '||', '<<', '>>', '->', '::', '=~',
  '(', ')', '[', ']', '{', '}', ';', ',', '.', ':', '?', '=', '+', '-', '*', '/', '%', '<', '>', '!', '~', '&', '|', '^',
];

const isIdentStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

function fail(offset: number, text: string): never {
  throw new ScriptFailure('compile error', offset, compileMessages.unexpectedCharacter(text));
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) fail(i, '/*');
      i = end + 2;
      continue;
    }
    const start = i;
    if (isIdentStart(c)) {
      while (i < source.length && isIdentPart(source[i]!)) i++;
      tokens.push({ kind: 'ident', text: source.slice(start, i), offset: start });
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(source[i + 1] ?? ''))) {
      if (c === '0' && (source[i + 1] === 'x' || source[i + 1] === 'X')) {
        i += 2;
        while (i < source.length && /[0-9A-Fa-f]/.test(source[i]!)) i++;
      } else {
        while (i < source.length && isDigit(source[i]!)) i++;
        // A `.` followed by a digit is a fraction; `1.toString()` style member access is not painless anyway.
        if (source[i] === '.' && isDigit(source[i + 1] ?? '')) {
          i++;
          while (i < source.length && isDigit(source[i]!)) i++;
        }
        if ((source[i] === 'e' || source[i] === 'E') && /[0-9+-]/.test(source[i + 1] ?? '')) {
          i += 2;
          while (i < source.length && isDigit(source[i]!)) i++;
        }
      }
      if (i < source.length && /[lLfFdD]/.test(source[i]!)) i++;
      if (i < source.length && isIdentPart(source[i]!)) fail(i, source[i]!);
      tokens.push({ kind: 'number', text: source.slice(start, i), offset: start });
      continue;
    }
    if (c === '"' || c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= source.length) fail(start, source.slice(start, start + 20));
        const ch = source[i]!;
        if (ch === c) break;
        if (ch === '\\') {
          const next = source[i + 1];
          if (next !== '\\' && next !== c) fail(i, `\\${next ?? ''}`);
          value += next;
          i += 2;
          continue;
        }
        value += ch;
        i++;
      }
      i++;
      tokens.push({ kind: 'string', text: source.slice(start, i), value, offset: start });
      continue;
    }
    const punct = PUNCTUATION.find((p) => source.startsWith(p, i));
    if (punct === undefined) fail(i, c);
    i += punct.length;
    tokens.push({ kind: 'punct', text: punct, offset: start });
  }
  tokens.push({ kind: 'eof', text: '<EOF>', offset: source.length });
  return tokens;
}
