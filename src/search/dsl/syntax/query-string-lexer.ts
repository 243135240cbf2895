/**
 * The token manager of Lucene's classic QueryParser (QueryParser.jj), which query_string uses: the same
 * token kinds, the same longest-match rule (ties go to the kind declared first), and the same three lexical
 * states (DEFAULT, Boost after `^`, Range inside `[..]`/`{..}`). Lexical errors carry Lucene's wording.
 */

export type TokenKind =
  | 'EOF'
  | 'AND'
  | 'OR'
  | 'NOT'
  | 'PLUS'
  | 'MINUS'
  | 'BAREOPER'
  | 'LPAREN'
  | 'RPAREN'
  | 'COLON'
  | 'STAR'
  | 'CARAT'
  | 'QUOTED'
  | 'TERM'
  | 'FUZZY_SLOP'
  | 'PREFIXTERM'
  | 'WILDTERM'
  | 'REGEXPTERM'
  | 'RANGEIN_START'
  | 'RANGEEX_START'
  | 'NUMBER'
  | 'RANGE_TO'
  | 'RANGEIN_END'
  | 'RANGEEX_END'
  | 'RANGE_QUOTED'
  | 'RANGE_GOOP';

export interface Token {
  readonly kind: TokenKind;
  readonly image: string;
  /** 1-based, as JavaCC reports them. */
  readonly line: number;
  readonly column: number;
}

/** JavaCC's tokenImage, used in "Encountered ..." messages. */
export const TOKEN_IMAGES: Record<TokenKind, string> = {
  EOF: '<EOF>',
  AND: '<AND>',
  OR: '<OR>',
  NOT: '<NOT>',
  PLUS: '"+"',
  MINUS: '"-"',
  BAREOPER: '<BAREOPER>',
  LPAREN: '"("',
  RPAREN: '")"',
  COLON: '":"',
  STAR: '"*"',
  CARAT: '"^"',
  QUOTED: '<QUOTED>',
  TERM: '<TERM>',
  FUZZY_SLOP: '<FUZZY_SLOP>',
  PREFIXTERM: '<PREFIXTERM>',
  WILDTERM: '<WILDTERM>',
  REGEXPTERM: '<REGEXPTERM>',
  RANGEIN_START: '"["',
  RANGEEX_START: '"{"',
  NUMBER: '<NUMBER>',
  RANGE_TO: '"TO"',
  RANGEIN_END: '"]"',
  RANGEEX_END: '"}"',
  RANGE_QUOTED: '<RANGE_QUOTED>',
  RANGE_GOOP: '<RANGE_GOOP>',
};

/** Lucene's TokenMgrError: a character no token can start with, or input ending inside a token. */
export class QueryStringLexicalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryStringLexicalError';
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\u3000']);
const NOT_TERM_START = new Set([' ', '\t', '\n', '\r', '\u3000', '+', '-', '!', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '*', '?', '\\', '/']);

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** JavaCC's addEscapes, for error messages. */
function addEscapes(text: string): string {
  return text.replace(/[\b\t\n\f\r"'\\]/g, (c) => {
    switch (c) {
      case '\b':
        return '\\b';
      case '\t':
        return '\\t';
      case '\n':
        return '\\n';
      case '\f':
        return '\\f';
      case '\r':
        return '\\r';
      default:
        return `\\${c}`;
    }
  });
}

type LexState = 'DEFAULT' | 'Boost' | 'Range';

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let state: LexState = 'DEFAULT';
  let pos = 0;
  let line = 1;
  let lineStart = 0;

  /** Length of an escaped-or-plain char run matching `accept` from `start` (escapes count as one char). */
  const termCharAt = (index: number, allowStartOnly: boolean): number => {
    const c = input[index];
    if (c === undefined) return 0;
    if (c === '\\') return input[index + 1] === undefined ? -1 : 2;
    if (!NOT_TERM_START.has(c)) return 1;
    if (!allowStartOnly && (c === '-' || c === '+')) return 1;
    return 0;
  };

  const lexicalError = (errorAt: number, after: string): never => {
    const column = errorAt - lineStart + 1;
    const encountered = errorAt >= input.length ? '<EOF> ' : `"${addEscapes(input[errorAt]!)}" (${input.charCodeAt(errorAt)}), `;
    throw new QueryStringLexicalError(`Lexical error at line ${line}, column ${column}.  Encountered: ${encountered}after : "${addEscapes(after)}"`);
  };

  while (true) {
    if (state !== 'Boost') {
      while (pos < input.length && WHITESPACE.has(input[pos]!)) {
        if (input[pos] === '\n') {
          line++;
          lineStart = pos + 1;
        }
        pos++;
      }
    }
    const column = pos - lineStart + 1;
    if (pos >= input.length) {
      if (state === 'Boost') lexicalError(pos, '');
      // JavaCC reports end of input at the last character read (column 0 for an empty text).
      tokens.push({ kind: 'EOF', image: '', line, column: pos - lineStart });
      return tokens;
    }
    const emit = (kind: TokenKind, length: number): void => {
      tokens.push({ kind, image: input.slice(pos, pos + length), line, column });
      pos += length;
    };

    if (state === 'Boost') {
      let end = pos;
      while (isDigit(input[end])) end++;
      if (end === pos) lexicalError(pos, '');
      if (input[end] === '.' && isDigit(input[end + 1])) {
        end++;
        while (isDigit(input[end])) end++;
      }
      emit('NUMBER', end - pos);
      state = 'DEFAULT';
      continue;
    }

    if (state === 'Range') {
      const c = input[pos]!;
      if (input.startsWith('TO', pos) && rangeGoopLength(input, pos) === 2) {
        emit('RANGE_TO', 2);
      } else if (c === ']') {
        emit('RANGEIN_END', 1);
        state = 'DEFAULT';
      } else if (c === '}') {
        emit('RANGEEX_END', 1);
        state = 'DEFAULT';
      } else if (c === '"') {
        const quotedLength = rangeQuotedLength(input, pos);
        const goopLength = rangeGoopLength(input, pos);
        if (quotedLength > 0 && quotedLength >= goopLength) emit('RANGE_QUOTED', quotedLength);
        else emit('RANGE_GOOP', goopLength);
      } else {
        emit('RANGE_GOOP', rangeGoopLength(input, pos));
      }
      continue;
    }

    // DEFAULT: compute every candidate's length; the longest wins, the first declared on a tie.
    const candidates: Array<[TokenKind, number]> = [];
    const c = input[pos]!;
    if (input.startsWith('AND', pos)) candidates.push(['AND', 3]);
    else if (input.startsWith('&&', pos)) candidates.push(['AND', 2]);
    if (input.startsWith('OR', pos)) candidates.push(['OR', 2]);
    else if (input.startsWith('||', pos)) candidates.push(['OR', 2]);
    if (input.startsWith('NOT', pos)) candidates.push(['NOT', 3]);
    else if (c === '!') candidates.push(['NOT', 1]);
    if (c === '+') candidates.push(['PLUS', 1]);
    if (c === '-') candidates.push(['MINUS', 1]);
    if ((c === '+' || c === '-' || c === '!') && input[pos + 1] !== undefined && WHITESPACE.has(input[pos + 1]!)) candidates.push(['BAREOPER', 2]);
    if (c === '(') candidates.push(['LPAREN', 1]);
    if (c === ')') candidates.push(['RPAREN', 1]);
    if (c === ':') candidates.push(['COLON', 1]);
    if (c === '*') candidates.push(['STAR', 1]);
    if (c === '^') candidates.push(['CARAT', 1]);
    if (c === '"') {
      const quoted = quotedLength(input, pos);
      if (quoted > 0) candidates.push(['QUOTED', quoted]);
    }
    // TERM: a term start char then term chars.
    const startLength = termCharAt(pos, true);
    let termLength = 0;
    if (startLength > 0) {
      termLength = startLength;
      for (let step = termCharAt(pos + termLength, false); step > 0; step = termCharAt(pos + termLength, false)) termLength += step;
      candidates.push(['TERM', termLength]);
    }
    if (c === '~') candidates.push(['FUZZY_SLOP', fuzzySlopLength(input, pos, termCharAt)]);
    // PREFIXTERM: "*" alone, or a term followed by "*".
    if (c === '*') candidates.push(['PREFIXTERM', 1]);
    if (termLength > 0 && input[pos + termLength] === '*') candidates.push(['PREFIXTERM', termLength + 1]);
    // WILDTERM: (term start | * | ?) (term char | * | ?)*
    if (startLength > 0 || c === '*' || c === '?') {
      let length = startLength > 0 ? startLength : 1;
      for (;;) {
        const next = input[pos + length];
        if (next === '*' || next === '?') {
          length++;
          continue;
        }
        const step = termCharAt(pos + length, false);
        if (step <= 0) break;
        length += step;
      }
      candidates.push(['WILDTERM', length]);
    }
    if (c === '/') {
      const regexp = regexpLength(input, pos);
      if (regexp > 0) candidates.push(['REGEXPTERM', regexp]);
    }
    if (c === '[') candidates.push(['RANGEIN_START', 1]);
    if (c === '{') candidates.push(['RANGEEX_START', 1]);

    if (startLength < 0 || candidates.length === 0) {
      // An escape at the very end, an unterminated quote or regexp, or a stray character.
      const after = c === '"' || c === '/' || c === '\\' ? input.slice(pos) : '';
      lexicalError(c === '"' || c === '/' || c === '\\' ? input.length : pos, after);
    }
    let best = candidates[0]!;
    for (const candidate of candidates) if (candidate[1] > best[1]) best = candidate;
    emit(best[0], best[1]);
    if (best[0] === 'CARAT') state = 'Boost';
    else if (best[0] === 'RANGEIN_START' || best[0] === 'RANGEEX_START') state = 'Range';
  }
}

/** <QUOTED: "\"" (~["\"","\\"] | "\\" ~[])* "\"">; 0 when unterminated. */
function quotedLength(input: string, start: number): number {
  let index = start + 1;
  while (index < input.length) {
    const c = input[index]!;
    if (c === '\\') {
      if (index + 1 >= input.length) return 0;
      index += 2;
      continue;
    }
    if (c === '"') return index + 1 - start;
    index++;
  }
  return 0;
}

/** <FUZZY_SLOP: "~" ((digits)+ (("." digits+)? (term char)*) | (term char)*)>. */
function fuzzySlopLength(input: string, start: number, termCharAt: (index: number, startOnly: boolean) => number): number {
  let index = start + 1;
  if (isDigit(input[index])) {
    while (isDigit(input[index])) index++;
    if (input[index] === '.' && isDigit(input[index + 1])) {
      index++;
      while (isDigit(input[index])) index++;
    }
  }
  for (let step = termCharAt(index, false); step > 0; step = termCharAt(index, false)) index += step;
  return index - start;
}

/** <REGEXPTERM: "/" (~["/"] | "\\/")* "/">; 0 when unterminated. */
function regexpLength(input: string, start: number): number {
  let index = start + 1;
  while (index < input.length) {
    if (input[index] === '\\' && input[index + 1] === '/') {
      index += 2;
      continue;
    }
    if (input[index] === '/') return index + 1 - start;
    index++;
  }
  return 0;
}

/** <RANGE_QUOTED: "\"" (~["\""] | "\\\"")+ "\"">; 0 when it does not match. */
function rangeQuotedLength(input: string, start: number): number {
  let index = start + 1;
  let count = 0;
  while (index < input.length) {
    if (input[index] === '\\' && input[index + 1] === '"') {
      index += 2;
      count++;
      continue;
    }
    if (input[index] === '"') return count > 0 ? index + 1 - start : 0;
    index++;
    count++;
  }
  return 0;
}

/** <RANGE_GOOP: (~[" ", "]", "}"])+>. */
function rangeGoopLength(input: string, start: number): number {
  let index = start;
  while (index < input.length && input[index] !== ' ' && input[index] !== ']' && input[index] !== '}') index++;
  return index - start;
}
