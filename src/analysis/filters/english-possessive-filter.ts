/** Lucene's EnglishPossessiveFilter: strips a trailing 's (with ', ’ or ＇) from each term. */
import { TokenFilter } from '../token-stream.js';

export class EnglishPossessiveFilter extends TokenFilter {
  incrementToken(): boolean {
    if (!this.input.incrementToken()) return false;
    const term = this.token.term;
    const length = term.length;
    if (length >= 2) {
      const last = term.charCodeAt(length - 1);
      const apostrophe = term.charCodeAt(length - 2);
      if ((last === 0x73 || last === 0x53) && (apostrophe === 0x27 || apostrophe === 0x2019 || apostrophe === 0xff07)) {
        this.token.term = term.slice(0, length - 2);
      }
    }
    return true;
  }
}
