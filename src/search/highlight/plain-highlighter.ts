/**
 * ES's PlainHighlighter for one field of one hit: every value is re-analyzed with the field's index analyzer
 * and highlighted on its own (Lucene's Highlighter with the span fragmenter unless `fragmenter: simple`, the
 * whole value when number_of_fragments is 0), fragments that scored are kept, ordered by fragment number
 * (or score with `order: score`), and cut to number_of_fragments. With no fragment, `no_match_size` returns
 * the start of the first value, cut at the end of the last token that fits, and not encoded.
 */
import type { Analyzer } from '../../analysis/index.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import { analyzeForHighlight } from './field-analysis.js';
import type { HighlightFieldOptions } from './highlight-options.js';
import type { HighlightQuery } from './highlight-query.js';
import { bestTextFragments, type FragmenterKind, type HighlightToken, type TextFragment } from './lucene-highlighter.js';
import { ValueIndex, WeightedTermExtractor } from './weighted-terms.js';

/** IndexSettings.MAX_ANALYZED_OFFSET_SETTING default. */
export const DEFAULT_MAX_ANALYZED_OFFSET = 1_000_000;

export interface PlainFieldInput {
  /** The name the response uses. */
  readonly fieldName: string;
  readonly values: readonly string[];
  readonly analyzer: Analyzer;
  readonly query: HighlightQuery;
  readonly options: HighlightFieldOptions;
  /** index.highlight.max_analyzed_offset */
  readonly indexMaxAnalyzedOffset: number;
  readonly hitId: string;
  readonly index: string;
}

/** SimpleHTMLEncoder.htmlEncode. */
export function htmlEncode(text: string): string {
  return text.replace(/["&<>'/]/g, (char) => HTML_ESCAPES[char]!);
}

const HTML_ESCAPES: Record<string, string> = { '"': '&quot;', '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#x27;', '/': '&#x2F;' };

function fragmenterKind(options: HighlightFieldOptions, fieldName: string): FragmenterKind {
  if (options.numberOfFragments === 0) return 'null';
  if (options.fragmenter === undefined || options.fragmenter === 'span') return 'span';
  if (options.fragmenter === 'simple') return 'simple';
  throw illegalArgument(`unknown fragmenter option [${options.fragmenter}] for the field [${fieldName}]`);
}

/** Terms and spans for one value, then Lucene's best fragments of it. */
function valueFragments(tokens: readonly HighlightToken[], text: string, input: PlainFieldInput, fragmenter: FragmenterKind, count: number): TextFragment[] {
  const index = new ValueIndex();
  let position = -1;
  for (const token of tokens) {
    position += token.positionIncrement;
    index.add(token.term, position);
  }
  const terms = new WeightedTermExtractor(input.options.requireFieldMatch ? input.fieldName : null, index).extract(input.query);
  const options = input.options;
  return bestTextFragments(
    tokens,
    text,
    terms,
    {
      fragmenter,
      fragmentSize: options.fragmentSize,
      preTag: options.preTags[0]!,
      postTag: options.postTags[0]!,
      encode: options.encoder === 'html' ? htmlEncode : (value) => value,
    },
    count,
  );
}

/** PlainHighlighter.findGoodEndForNoHighlightExcerpt. */
function noMatchEnd(noMatchSize: number, analyzer: Analyzer, contents: string, maxStartOffset: number | undefined): number {
  if (contents.length <= noMatchSize) return contents.length;
  let end = -1;
  for (const token of analyzeForHighlight(analyzer, contents, maxStartOffset)) {
    if (token.endOffset >= noMatchSize) return token.endOffset === noMatchSize ? noMatchSize : end;
    end = token.endOffset;
  }
  return end;
}

/** The field's fragments, or undefined when ES would leave the field out of `highlight`. */
export function plainHighlight(input: PlainFieldInput): string[] | undefined {
  const options = input.options;
  const fragmenter = fragmenterKind(options, input.fieldName);
  // A number_of_fragments of 0 highlights whole values, one "fragment" each.
  const numberOfFragments = options.numberOfFragments === 0 ? 1 : options.numberOfFragments;
  const maxAnalyzedOffset = input.indexMaxAnalyzedOffset;
  // QueryMaxAnalyzedOffset.create: -1 means the index setting.
  const queryMaxAnalyzedOffset =
    options.maxAnalyzedOffset === undefined ? undefined : options.maxAnalyzedOffset < 0 ? maxAnalyzedOffset : options.maxAnalyzedOffset;
  const fragments: Array<{ fragment: TextFragment; fragNum: number }> = [];
  let fragNumBase = 0;
  for (const text of input.values) {
    if ((queryMaxAnalyzedOffset === undefined || queryMaxAnalyzedOffset > maxAnalyzedOffset) && text.length > maxAnalyzedOffset) {
      throw illegalArgument(
        `The length [${text.length}] of field [${input.fieldName}] in doc[${input.hitId}]/index[${input.index}] exceeds the ` +
          `[index.highlight.max_analyzed_offset] limit [${maxAnalyzedOffset}]. To avoid this error, set the query parameter ` +
          `[max_analyzed_offset] to a value less than index setting [${maxAnalyzedOffset}] and this will tolerate long field values by truncating them.`,
      );
    }
    const tokens = analyzeForHighlight(input.analyzer, text, queryMaxAnalyzedOffset);
    const best = valueFragments(tokens, text, input, fragmenter, numberOfFragments);
    for (const fragment of best) if (fragment.score > 0) fragments.push({ fragment, fragNum: fragment.fragNum + fragNumBase });
    fragNumBase += best.length;
  }
  if (input.values.length > 1 || !options.scoreOrdered) {
    if (options.scoreOrdered) fragments.sort((a, b) => b.fragment.score - a.fragment.score);
    else fragments.sort((a, b) => a.fragNum - b.fragNum);
  }
  const texts = fragments.map((entry) => entry.fragment.text);
  const result = options.numberOfFragments === 0 && input.values.length > 1 && texts.length > 0 ? texts : texts.slice(0, numberOfFragments);
  if (result.length > 0) return result;
  if (options.noMatchSize > 0 && input.values.length > 0) {
    const contents = input.values[0]!;
    const end = noMatchEnd(options.noMatchSize, input.analyzer, contents, queryMaxAnalyzedOffset);
    if (end > 0) return [contents.slice(0, end)];
  }
  return undefined;
}
