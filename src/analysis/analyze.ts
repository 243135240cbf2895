/**
 * Running an analyzer over one or more values, with Lucene's position and offset bookkeeping across the
 * values of a multi-valued field: after each value, the position advances by the stream's trailing
 * increment plus the analyzer's position_increment_gap, and offsets by the value's final offset plus the
 * offset gap. `_analyze` (TransportAnalyzeAction.simpleAnalyze) and the indexer (Lucene's invert loop)
 * both count this way, so both use `invertValues`.
 */
import type { Analyzer } from './analyzer.js';
import type { Token } from './token-stream.js';

/** One token as Elasticsearch's `_analyze` API prints it. */
export interface AnalyzeToken {
  token: string;
  start_offset: number;
  end_offset: number;
  type: string;
  position: number;
  /** Present only when greater than 1, as Elasticsearch prints it. */
  positionLength?: number;
}

/** What a field's values amounted to, for norms: Lucene's FieldInvertState length and overlap counts. */
export interface InvertStats {
  /** Number of tokens. */
  length: number;
  /** Tokens stacked on the previous position (position increment 0). */
  numOverlap: number;
  /** Position of the last token, or -1 when there was none. */
  lastPosition: number;
}

/**
 * Calls `visit` for each token of each value with its absolute position and offsets shifted by the earlier
 * values. The Token object is shared and overwritten by the next token: copy what you keep.
 */
export function invertValues(
  analyzer: Analyzer,
  values: readonly string[],
  visit: (token: Token, position: number, startOffset: number, endOffset: number) => void,
): InvertStats {
  let position = -1;
  let offsetBase = 0;
  let length = 0;
  let numOverlap = 0;
  values.forEach((value, index) => {
    if (index > 0) {
      position += analyzer.positionIncrementGap;
      offsetBase += analyzer.offsetGap;
    }
    const stream = analyzer.tokenStream(value);
    const token = stream.token;
    while (stream.incrementToken()) {
      position += token.positionIncrement;
      length++;
      if (token.positionIncrement === 0) numOverlap++;
      visit(token, position, offsetBase + token.startOffset, offsetBase + token.endOffset);
    }
    stream.end();
    position += token.positionIncrement;
    offsetBase += token.endOffset;
  });
  return { length, numOverlap, lastPosition: position };
}

/** The `_analyze` API's token list for `texts` (several texts are analyzed as one multi-valued field). */
export function analyzeTexts(analyzer: Analyzer, texts: string | readonly string[]): AnalyzeToken[] {
  const tokens: AnalyzeToken[] = [];
  invertValues(analyzer, typeof texts === 'string' ? [texts] : texts, (token, position, startOffset, endOffset) => {
    const out: AnalyzeToken = { token: token.term, start_offset: startOffset, end_offset: endOffset, type: token.type, position };
    if (token.positionLength > 1) out.positionLength = token.positionLength;
    tokens.push(out);
  });
  return tokens;
}
