/**
 * Lucene's PorterStemFilter: Porter-stems every term not marked as keyword. Expects lowercase input.
 * Stems of recent terms are memoized: word frequencies are Zipfian, so most lookups hit.
 */
import { TokenFilter, type TokenStream } from '../token-stream.js';
import { PorterStemmer } from './porter-stemmer.js';

const MEMO_SIZE = 4096;

export class PorterStemFilter extends TokenFilter {
  private readonly stemmer = new PorterStemmer();
  private readonly memo = new Map<string, string>();

  constructor(input: TokenStream) {
    super(input);
  }

  incrementToken(): boolean {
    if (!this.input.incrementToken()) return false;
    if (this.token.keyword) return true;
    const term = this.token.term;
    let stem = this.memo.get(term);
    if (stem === undefined) {
      stem = this.stemmer.stem(term);
      if (this.memo.size >= MEMO_SIZE) this.memo.clear();
      this.memo.set(term, stem);
    }
    this.token.term = stem;
    return true;
  }
}
