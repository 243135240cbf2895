/** Lucene's KeywordTokenizer: the whole text is one token, even when empty. */
import { Token, type Tokenizer } from '../token-stream.js';

export class KeywordTokenizer implements Tokenizer {
  readonly token = new Token();
  private text = '';
  private done = false;

  setText(text: string): void {
    this.text = text;
    this.done = false;
  }

  reset(): void {
    this.done = false;
    this.token.clear();
  }

  incrementToken(): boolean {
    if (this.done) return false;
    this.done = true;
    const token = this.token;
    token.clear();
    token.term = this.text;
    token.startOffset = 0;
    token.endOffset = this.text.length;
    return true;
  }

  end(): void {
    this.token.startOffset = this.token.endOffset = this.text.length;
    this.token.positionIncrement = 0;
  }
}
