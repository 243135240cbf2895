/**
 * Lucene's CharTokenizer family: a token is a maximal run of code points accepted by `isTokenChar`, each
 * passed through `normalize`. A run longer than `maxTokenLength` UTF-16 chars is emitted in pieces: the
 * token ends as soon as its (normalized) length reaches the limit, and the run continues as a new token.
 */
import { Token, type Tokenizer } from '../token-stream.js';
import { fromCodePoints, javaIsLetter, javaIsWhitespace, javaToLowerCase } from '../java-character.js';

export const DEFAULT_MAX_CHAR_TOKEN_LENGTH = 255;
/** StandardTokenizer.MAX_TOKEN_LENGTH_LIMIT, which CharTokenizer also enforces. */
const MAX_TOKEN_LENGTH_LIMIT = 1024 * 1024;

export abstract class CharTokenizer implements Tokenizer {
  readonly token = new Token();
  private text = '';
  private position = 0;

  constructor(private readonly maxTokenLength: number = DEFAULT_MAX_CHAR_TOKEN_LENGTH) {
    if (!Number.isInteger(maxTokenLength) || maxTokenLength <= 0 || maxTokenLength > MAX_TOKEN_LENGTH_LIMIT) {
      throw new RangeError(`maxTokenLen must be greater than 0 and less than ${MAX_TOKEN_LENGTH_LIMIT} passed: ${maxTokenLength}`);
    }
  }

  protected abstract isTokenChar(cp: number): boolean;

  /** Maps each token character; identity unless overridden. */
  protected normalize(cp: number): number {
    return cp;
  }

  setText(text: string): void {
    this.text = text;
    this.position = 0;
  }

  reset(): void {
    this.position = 0;
    this.token.clear();
  }

  incrementToken(): boolean {
    const text = this.text;
    const length = text.length;
    let i = this.position;
    let start = -1;
    let end = -1;
    let termLength = 0;
    let normalized: number[] | undefined; // code points, only when normalize() changed something
    while (i < length) {
      const cp = text.codePointAt(i)!;
      const charCount = cp > 0xffff ? 2 : 1;
      if (this.isTokenChar(cp)) {
        if (start < 0) start = i;
        const mapped = this.normalize(cp);
        if (mapped !== cp && normalized === undefined) normalized = codePoints(text, start, i);
        if (normalized !== undefined) normalized.push(mapped);
        termLength += mapped > 0xffff ? 2 : 1;
        i += charCount;
        end = i;
        if (termLength >= this.maxTokenLength) break;
      } else {
        if (start >= 0) break;
        i += charCount;
      }
    }
    this.position = i;
    if (start < 0) return false;
    const token = this.token;
    token.term = normalized === undefined ? text.slice(start, end) : fromCodePoints(normalized);
    token.startOffset = start;
    token.endOffset = end;
    token.positionIncrement = 1;
    token.positionLength = 1;
    token.type = 'word';
    token.keyword = false;
    return true;
  }

  end(): void {
    this.token.startOffset = this.token.endOffset = this.text.length;
    this.token.positionIncrement = 0;
  }
}

function codePoints(text: string, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; ) {
    const cp = text.codePointAt(i)!;
    out.push(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  return out;
}

/** Lucene's WhitespaceTokenizer: splits on Character.isWhitespace. */
export class WhitespaceTokenizer extends CharTokenizer {
  protected isTokenChar(cp: number): boolean {
    return !javaIsWhitespace(cp);
  }
}

/** Lucene's LetterTokenizer: runs of Character.isLetter. */
export class LetterTokenizer extends CharTokenizer {
  protected isTokenChar(cp: number): boolean {
    return javaIsLetter(cp);
  }
}

/** Elasticsearch's lowercase tokenizer: LetterTokenizer that lowercases as it goes. */
export class LowerCaseTokenizer extends LetterTokenizer {
  protected override normalize(cp: number): number {
    return javaToLowerCase(cp);
  }
}
