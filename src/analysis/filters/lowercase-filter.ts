/** Lucene's LowerCaseFilter: Character.toLowerCase on every code point of the term. */
import { lowerCaseTerm } from '../java-character.js';
import { TokenFilter } from '../token-stream.js';

export class LowerCaseFilter extends TokenFilter {
  incrementToken(): boolean {
    if (!this.input.incrementToken()) return false;
    this.token.term = lowerCaseTerm(this.token.term);
    return true;
  }
}
