/** Lucene's TrimFilter: removes leading and trailing Character.isWhitespace chars; offsets are unchanged. */
import { javaIsWhitespace } from '../java-character.js';
import { TokenFilter } from '../token-stream.js';

export class TrimFilter extends TokenFilter {
  incrementToken(): boolean {
    if (!this.input.incrementToken()) return false;
    const term = this.token.term;
    let start = 0;
    let end = term.length;
    while (start < end && javaIsWhitespace(term.charCodeAt(start))) start++;
    while (end > start && javaIsWhitespace(term.charCodeAt(end - 1))) end--;
    if (start > 0 || end < term.length) this.token.term = term.slice(start, end);
    return true;
  }
}
