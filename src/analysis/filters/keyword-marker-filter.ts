/** Lucene's SetKeywordMarkerFilter: marks listed terms as keywords so stemmers leave them alone. */
import { TokenFilter, type TokenStream } from '../token-stream.js';
import type { WordSet } from './stop-words.js';

export class KeywordMarkerFilter extends TokenFilter {
  constructor(
    input: TokenStream,
    private readonly keywords: WordSet,
  ) {
    super(input);
  }

  incrementToken(): boolean {
    if (!this.input.incrementToken()) return false;
    if (this.keywords.has(this.token.term)) this.token.keyword = true;
    return true;
  }
}
