/** Lucene's PorterStemFilter: Porter-stems every term not marked as keyword. Expects lowercase input. */
import { TokenFilter, type TokenStream } from '../token-stream.js';
import { PorterStemmer } from './porter-stemmer.js';

export class PorterStemFilter extends TokenFilter {
  private readonly stemmer = new PorterStemmer();

  constructor(input: TokenStream) {
    super(input);
  }

  incrementToken(): boolean {
    if (!this.input.incrementToken()) return false;
    if (!this.token.keyword) this.token.term = this.stemmer.stem(this.token.term);
    return true;
  }
}
