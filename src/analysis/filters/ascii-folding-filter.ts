/**
 * Lucene's ASCIIFoldingFilter: folds letters, digits and symbols outside Basic Latin to their ASCII
 * equivalents ("açaí" -> "acai"), char by char with Lucene's own table. With `preserveOriginal`, a token
 * that changed is followed by its original form at the same position.
 */
import { Token, TokenFilter, type TokenStream } from '../token-stream.js';
import { ASCII_FOLDINGS } from './ascii-folding-table.js';

let foldings: Map<number, string> | undefined;

function foldingTable(): Map<number, string> {
  if (foldings === undefined) {
    foldings = new Map();
    for (const [replacement, chars] of ASCII_FOLDINGS) {
      for (let i = 0; i < chars.length; i++) foldings.set(chars.charCodeAt(i), replacement);
    }
  }
  return foldings;
}

/** ASCIIFoldingFilter.foldToASCII over a whole term. */
export function foldToAscii(term: string): string {
  let i = 0;
  while (i < term.length && term.charCodeAt(i) < 0x80) i++;
  if (i === term.length) return term;
  const table = foldingTable();
  let out = term.slice(0, i);
  for (; i < term.length; i++) {
    const c = term.charCodeAt(i);
    out += c < 0x80 ? term[i] : (table.get(c) ?? term[i]);
  }
  return out;
}

export class AsciiFoldingFilter extends TokenFilter {
  private pendingOriginal: Token | undefined;

  constructor(
    input: TokenStream,
    private readonly preserveOriginal = false,
  ) {
    super(input);
  }

  override reset(): void {
    super.reset();
    this.pendingOriginal = undefined;
  }

  incrementToken(): boolean {
    if (this.pendingOriginal !== undefined) {
      this.token.copyFrom(this.pendingOriginal);
      this.token.positionIncrement = 0;
      this.pendingOriginal = undefined;
      return true;
    }
    if (!this.input.incrementToken()) return false;
    const original = this.token.term;
    const folded = foldToAscii(original);
    if (folded !== original) {
      if (this.preserveOriginal) {
        this.pendingOriginal = new Token();
        this.pendingOriginal.copyFrom(this.token);
      }
      this.token.term = folded;
    }
    return true;
  }
}
