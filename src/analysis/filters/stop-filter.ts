/**
 * Lucene's StopFilter (stop words removed, their positions kept as gaps) and SuggestStopFilter
 * (Elasticsearch's stop filter with `remove_trailing: false`: a stop word at the very end of the text is
 * kept, marked as keyword, because the user may still be typing it).
 */
import { FilteringTokenFilter, Token, TokenFilter, type TokenStream } from '../token-stream.js';
import type { WordSet } from './stop-words.js';

export class StopFilter extends FilteringTokenFilter {
  constructor(
    input: TokenStream,
    private readonly stopWords: WordSet,
  ) {
    super(input);
  }

  protected accept(): boolean {
    return !this.stopWords.has(this.token.term);
  }
}

export class SuggestStopFilter extends TokenFilter {
  private endState: Token | undefined;

  constructor(
    input: TokenStream,
    private readonly stopWords: WordSet,
  ) {
    super(input);
  }

  override reset(): void {
    super.reset();
    this.endState = undefined;
  }

  override end(): void {
    if (this.endState === undefined) super.end();
    else this.token.copyFrom(this.endState);
  }

  incrementToken(): boolean {
    if (this.endState !== undefined) return false;
    if (!this.input.incrementToken()) return false;
    const token = this.token;
    let skippedPositions = 0;
    while (true) {
      if (!this.stopWords.has(token.term)) {
        token.positionIncrement += skippedPositions;
        return true;
      }
      const positionIncrement = token.positionIncrement;
      const endOffset = token.endOffset;
      const saved = new Token();
      saved.copyFrom(token);
      if (this.input.incrementToken()) {
        skippedPositions += positionIncrement;
        continue;
      }
      token.clear();
      this.input.end();
      this.endState = new Token();
      this.endState.copyFrom(token);
      // A separator after the last stop word means the user finished typing it: drop it.
      if (token.endOffset > endOffset) return false;
      token.copyFrom(saved);
      token.positionIncrement = skippedPositions + token.positionIncrement;
      token.keyword = true;
      return true;
    }
  }
}
