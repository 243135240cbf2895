/**
 * Running an analyzer over one or more values, with Lucene's position and offset bookkeeping across the
 * values of a multi-valued field: after each value, the position advances by the stream's trailing
 * increment plus the analyzer's position_increment_gap, and offsets by the value's final offset plus the
 * offset gap. `_analyze` (TransportAnalyzeAction.simpleAnalyze) and the indexer (Lucene's invert loop)
 * both count this way, so both use `invertValues`.
 */
import { errors } from '../common/errors.js';
import { isKeywordAware, type Analyzer } from './analyzer.js';
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
  /**
   * `explain` output only: Lucene's extended attributes, as Elasticsearch reflects them (sorted by name;
   * `keyword` only where the chain has a KeywordAttribute; all limited by the request's `attributes`).
   */
  bytes?: string;
  keyword?: boolean;
  termFrequency?: number;
}

export interface AnalyzeOptions {
  /** index.analyze.max_token_count (Elasticsearch default 10000). */
  readonly maxTokenCount?: number;
  /** `explain` only: the request's `attributes` filter (names compared lowercased); all when absent or empty. */
  readonly attributes?: readonly string[];
}

/** Elasticsearch's detail (`explain: true`) response body, minus char filters, which Gannet lacks. */
export type AnalyzeDetail =
  | {
      custom_analyzer: true;
      charfilters: [];
      tokenizer: { name: string; tokens: AnalyzeToken[] };
      tokenfilters: { name: string; tokens: AnalyzeToken[] }[];
    }
  | { custom_analyzer: false; analyzer: { name: string; tokens: AnalyzeToken[] } };

export const DEFAULT_MAX_TOKEN_COUNT = 10000;

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
export function analyzeTexts(analyzer: Analyzer, texts: string | readonly string[], options: AnalyzeOptions = {}): AnalyzeToken[] {
  return collectTokens(analyzer, texts, options, false);
}

/**
 * The `_analyze` API with `explain: true`: for an analyzer assembled from components, the tokens after the
 * tokenizer and after each filter; for a built-in analyzer, its final tokens only, as Elasticsearch does.
 */
export function explainTexts(analyzer: Analyzer, texts: string | readonly string[], options: AnalyzeOptions = {}): AnalyzeDetail {
  const names = analyzer.componentNames;
  if (names === undefined) {
    return { custom_analyzer: false, analyzer: { name: analyzer.name, tokens: collectTokens(analyzer, texts, options, true) } };
  }
  return {
    custom_analyzer: true,
    charfilters: [],
    tokenizer: { name: names.tokenizer, tokens: collectTokens(analyzer.truncated(0), texts, options, true) },
    tokenfilters: names.filters.map((name, i) => ({ name, tokens: collectTokens(analyzer.truncated(i + 1), texts, options, true) })),
  };
}

/** Lucene's BytesRef.toString: UTF-8 bytes in hex without leading zeros, e.g. "[66 6f 78]". */
function bytesRefString(term: string): string {
  return '[' + Array.from(Buffer.from(term, 'utf8'), (b) => b.toString(16)).join(' ') + ']';
}

function collectTokens(analyzer: Analyzer, texts: string | readonly string[], options: AnalyzeOptions, explain: boolean): AnalyzeToken[] {
  const wanted = new Set((options.attributes ?? []).map((name) => name.toLowerCase()));
  const include = (name: string): boolean => wanted.size === 0 || wanted.has(name.toLowerCase());
  const hasKeyword = analyzer.filterFactories.some(isKeywordAware);
  const maxTokenCount = options.maxTokenCount ?? DEFAULT_MAX_TOKEN_COUNT;
  const tokens: AnalyzeToken[] = [];
  invertValues(analyzer, typeof texts === 'string' ? [texts] : texts, (token, position, startOffset, endOffset) => {
    if (tokens.length >= maxTokenCount) {
      throw errors.illegalArgument(
        `The number of tokens produced by calling _analyze has exceeded the allowed maximum of [${maxTokenCount}]. ` +
          'This limit can be set by changing the [index.analyze.max_token_count] index level setting.',
      );
    }
    const out: AnalyzeToken = { token: token.term, start_offset: startOffset, end_offset: endOffset, type: token.type, position };
    if (token.positionLength > 1 || (explain && include('positionLength'))) out.positionLength = token.positionLength;
    if (explain) {
      // Insert in Elasticsearch's order: the attribute map is sorted by name.
      if (include('bytes')) out.bytes = bytesRefString(token.term);
      if (hasKeyword && include('keyword')) out.keyword = token.keyword;
      if (include('positionLength')) {
        delete out.positionLength;
        out.positionLength = token.positionLength;
      }
      if (include('termFrequency')) out.termFrequency = 1;
    }
    tokens.push(out);
  });
  return tokens;
}
