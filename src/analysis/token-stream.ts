/**
 * The token stream contract, after Lucene's TokenStream: a pull loop over ONE reusable Token object.
 * A consumer calls `incrementToken()` until it returns false, reading the shared `token` after each call,
 * then `end()`, after which `token` holds the final offset and any trailing position increment. Reusing the
 * token keeps the indexer's hot loop free of per-token allocations except the term strings themselves.
 */

/** Lucene's default type attribute value, used by every tokenizer except the standard one. */
export const DEFAULT_TOKEN_TYPE = 'word';

/** The attributes of the current token (Lucene's term, offset, position increment/length, type, keyword). */
export class Token {
  /** The term text. */
  term = '';
  /** Start offset in UTF-16 code units into the original text, as Java reports it. */
  startOffset = 0;
  /** End offset (exclusive) in UTF-16 code units. */
  endOffset = 0;
  /** Positions moved from the previous token: 1 normally, more after removed tokens, 0 for a stacked token. */
  positionIncrement = 1;
  /** How many positions the token spans (1 except in token graphs). */
  positionLength = 1;
  type = DEFAULT_TOKEN_TYPE;
  /** Set by keyword_marker: stemmers leave keyword tokens alone. */
  keyword = false;

  clear(): void {
    this.term = '';
    this.startOffset = 0;
    this.endOffset = 0;
    this.positionIncrement = 1;
    this.positionLength = 1;
    this.type = DEFAULT_TOKEN_TYPE;
    this.keyword = false;
  }

  copyFrom(other: Token): void {
    this.term = other.term;
    this.startOffset = other.startOffset;
    this.endOffset = other.endOffset;
    this.positionIncrement = other.positionIncrement;
    this.positionLength = other.positionLength;
    this.type = other.type;
    this.keyword = other.keyword;
  }
}

export interface TokenStream {
  /** The shared attribute object; the same instance for the whole chain. */
  readonly token: Token;
  /** Prepares the chain for a new text (a tokenizer must have been given the text first). */
  reset(): void;
  /** Advances to the next token; false at the end of the text. */
  incrementToken(): boolean;
  /** Sets the end-of-stream state: final offset, trailing position increment. */
  end(): void;
}

/** The head of a chain: turns text into tokens. */
export interface Tokenizer extends TokenStream {
  setText(text: string): void;
}

/** A link in a chain: reads tokens from `input` and rewrites, drops or adds them. */
export abstract class TokenFilter implements TokenStream {
  readonly token: Token;

  constructor(protected readonly input: TokenStream) {
    this.token = input.token;
  }

  reset(): void {
    this.input.reset();
  }

  abstract incrementToken(): boolean;

  end(): void {
    this.input.end();
  }
}

/**
 * Lucene's FilteringTokenFilter: drops the tokens `accept()` rejects and adds their position increments to
 * the next kept token (and, at the end, to the end state), so phrase positions keep their gaps.
 */
export abstract class FilteringTokenFilter extends TokenFilter {
  private skippedPositions = 0;

  protected abstract accept(): boolean;

  override reset(): void {
    super.reset();
    this.skippedPositions = 0;
  }

  incrementToken(): boolean {
    this.skippedPositions = 0;
    while (this.input.incrementToken()) {
      if (this.accept()) {
        if (this.skippedPositions !== 0) this.token.positionIncrement += this.skippedPositions;
        return true;
      }
      this.skippedPositions += this.token.positionIncrement;
    }
    return false;
  }

  override end(): void {
    super.end();
    this.token.positionIncrement += this.skippedPositions;
  }
}
