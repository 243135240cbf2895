/**
 * Lucene's StandardTokenizer: UAX#29 word boundaries by the JFlex grammar of standard-grammar.ts.
 *
 * Lucene's generated scanner reads its input through a buffer of `maxTokenLength` chars that never grows,
 * and that buffer shapes the output in ways a plain "scan the string" loop would not reproduce, so this
 * class replays the scanner's buffer bookkeeping (zzRefill) with indices into the text:
 * - one match sees at most `maxTokenLength` chars from its start, so a longer word is cut there and the
 *   rest is scanned as the next token ("toolong" with max 5 -> "toolo", "ng");
 * - a high surrogate that lands in the buffer's last slot is held back for the next read;
 * - when a read reaches the end of the text on a lone high surrogate, the scanner takes it as the end of
 *   input: the match in progress ends there, and if none was in progress no further token comes out.
 * Token offsets are UTF-16 code unit positions, as Java's.
 */
import { Token, type Tokenizer } from '../token-stream.js';
import { STANDARD_DFA } from './standard-dfa.js';
import { decodeClassRuns, RULE_TOKEN_TYPES, type StandardScanner } from './standard-grammar.js';
import { CLASS_RUNS } from './word-break-classes.js';

export const DEFAULT_MAX_TOKEN_LENGTH = 255;
/** Lucene's StandardTokenizer.MAX_TOKEN_LENGTH_LIMIT. */
export const MAX_TOKEN_LENGTH_LIMIT = 1024 * 1024;

let defaultScanner: StandardScanner | undefined;

/**
 * The Lucene 9 scanner, shared by every tokenizer of the thread: the class of each code point, decoded on first
 * use, and the DFA precompiled in standard-dfa.ts (compiling it cost ~100 ms of CPU in every thread that tokenizes:
 * the event loop and each indexing worker, on every node start).
 */
export function standardScanner(): StandardScanner {
  defaultScanner ??= { classOf: decodeClassRuns(CLASS_RUNS), dfa: STANDARD_DFA };
  return defaultScanner;
}

export class StandardTokenizer implements Tokenizer {
  readonly token = new Token();
  private readonly classOf: Uint8Array;
  private readonly transitions: Int32Array;
  private readonly accept: Int32Array;
  private readonly terminal: Uint8Array;
  private readonly numClasses: number;

  private text = '';
  // JFlex scanner state, as absolute indices into `text` (zzBuffer[0] is text[bufferStart]).
  private bufferStart = 0;
  private readPosition = 0;
  private endRead = 0;
  private finalHighSurrogate = 0;
  private startRead = 0;
  private markedPosition = 0;
  private atEof = false;

  constructor(
    private readonly maxTokenLength: number = DEFAULT_MAX_TOKEN_LENGTH,
    scanner: StandardScanner = standardScanner(),
  ) {
    if (!Number.isInteger(maxTokenLength) || maxTokenLength < 1) {
      throw new RangeError('maxTokenLength must be greater than zero');
    }
    if (maxTokenLength > MAX_TOKEN_LENGTH_LIMIT) throw new RangeError('maxTokenLength may not exceed ' + MAX_TOKEN_LENGTH_LIMIT);
    this.classOf = scanner.classOf;
    this.transitions = scanner.dfa.transitions;
    this.accept = scanner.dfa.accept;
    this.terminal = scanner.dfa.terminal;
    this.numClasses = scanner.dfa.numClasses;
  }

  setText(text: string): void {
    this.text = text;
    this.reset();
  }

  reset(): void {
    this.bufferStart = this.readPosition = this.endRead = this.finalHighSurrogate = 0;
    this.startRead = this.markedPosition = 0;
    this.atEof = false;
    this.token.clear();
  }

  incrementToken(): boolean {
    const text = this.text;
    const { classOf, transitions, accept, terminal, numClasses } = this;
    while (true) {
      const start = (this.startRead = this.markedPosition);
      let rule = -1;
      let state = 0;
      let current = start;
      let endRead = this.endRead;
      let hitEof = false;
      let refillPosition = start; // zzCurrentPos: where the scan stood at the last refill
      while (true) {
        if (current >= endRead) {
          if (this.atEof) {
            hitEof = true;
            break;
          }
          refillPosition = current;
          const eof = this.refill();
          endRead = this.endRead;
          if (eof) {
            hitEof = true;
            break;
          }
        }
        let cp = text.charCodeAt(current++);
        if (cp >= 0xd800 && cp <= 0xdbff && current < endRead) {
          const low = text.charCodeAt(current);
          if (low >= 0xdc00 && low <= 0xdfff) {
            cp = ((cp - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
            current++;
          }
        }
        state = transitions[state * numClasses + classOf[cp]!]!;
        if (state < 0) break;
        const acceptedRule = accept[state]!;
        if (acceptedRule >= 0) {
          rule = acceptedRule;
          this.markedPosition = current;
          if (terminal[state] === 1) break;
        }
      }
      if (hitEof && refillPosition === start) {
        this.atEof = true;
        return false;
      }
      const type = RULE_TOKEN_TYPES[rule];
      if (type == null) continue; // the catch-all rule: skip the character

      const end = this.markedPosition;
      const token = this.token;
      token.term = text.slice(start, end);
      token.startOffset = start;
      token.endOffset = end;
      token.positionIncrement = 1;
      token.positionLength = 1;
      token.type = type;
      token.keyword = false;
      return true;
    }
  }

  end(): void {
    // Lucene: yychar() + yylength() of the scanner at end of input.
    this.token.startOffset = this.token.endOffset = this.startRead + (this.markedPosition - this.startRead);
    this.token.positionIncrement = 0;
  }

  /** JFlex's zzRefill with Lucene's fixed-size buffer; true means "end of input" for the current match. */
  private refill(): boolean {
    if (this.startRead > this.bufferStart) {
      this.endRead += this.finalHighSurrogate;
      this.finalHighSurrogate = 0;
      this.bufferStart = this.startRead;
    }
    const requested = this.maxTokenLength - (this.endRead - this.bufferStart) - this.finalHighSurrogate;
    if (requested === 0) return true;
    const available = this.text.length - this.readPosition;
    if (available <= 0) return true;
    const numRead = Math.min(requested, available);
    this.readPosition += numRead;
    this.endRead += numRead;
    if (isHighSurrogate(this.text.charCodeAt(this.endRead - 1))) {
      if (numRead === requested) {
        // The low half may follow in the next read: keep the high half out of this one.
        this.endRead--;
        this.finalHighSurrogate = 1;
        if (numRead === 1) return true;
      } else {
        // Room for one more char: read it, expecting the low half. Lucene takes none as end of input.
        if (this.readPosition >= this.text.length) return true;
        this.readPosition++;
        this.endRead++;
      }
    }
    return false;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
