/**
 * ES's unified highlighter (DefaultHighlighter + CustomUnifiedHighlighter + CustomFieldHighlighter) for a
 * field highlighted from `_source` with the ANALYSIS offset source: the values are joined with U+0000,
 * each re-analyzed with the field's index analyzer (offsets shifted, positions apart by the field's
 * position_increment_gap), the query's matches found (weight-matches mode unless require_field_match is
 * false or index.highlight.weight_matches_mode.enabled is false), passages cut by the boundary scanner
 * (`sentence` bounded by fragment_size, `word`, or whole values with number_of_fragments 0 or a keyword
 * field), the best number_of_fragments kept in text order (or by score with `order: score`), and, when
 * nothing matched, the first value up to the word boundary after no_match_size.
 */
import type { Analyzer } from '../../../analysis/index.js';
import { illegalArgument } from '../../dsl/xcontent/xcontent-errors.js';
import { analyzeForHighlight } from '../field-analysis.js';
import type { HighlightFieldOptions } from '../highlight-options.js';
import type { HighlightQuery } from '../highlight-query.js';
import { htmlEncode } from '../plain-highlighter.js';
import { BoundedBreakIteratorScanner, SplittingBreakIterator } from './bounded-scanner.js';
import { DONE, sentenceInstance, wholeValueInstance, wordInstance, type BreakIterator } from './break-iterators.js';
import { compareMatches, formatPassages, highlightMatches, type Passage, type Snippet } from './passages.js';
import { ContentIndex, termModeMatches, WeightMatcher, type ContentToken } from './query-matches.js';

/** CustomUnifiedHighlighter.MULTIVAL_SEP_CHAR. */
export const MULTIVAL_SEPARATOR = '\u0000';
/** Integer.MAX_VALUE - 1: DefaultHighlighter's passage count for number_of_fragments 0. */
const ALL_PASSAGES = 2147483646;

export interface UnifiedFieldInput {
  readonly fieldName: string;
  readonly values: readonly string[];
  readonly analyzer: Analyzer;
  readonly query: HighlightQuery;
  readonly options: HighlightFieldOptions;
  /** Text fields are tokenized; keyword (and other) fields are highlighted value by value. */
  readonly tokenized: boolean;
  readonly positionIncrementGap: number;
  readonly indexMaxAnalyzedOffset: number;
  /**
   * The field is indexed with offsets (index_options: offsets, or term vectors with offsets): Lucene reads its
   * offsets from the index (OffsetSource POSTINGS / TERM_VECTORS), not by analysing the text again.
   */
  readonly offsetsIndexed: boolean;
  /** index.highlight.weight_matches_mode.enabled */
  readonly weightMatchesEnabled: boolean;
  readonly hitId: string;
  readonly index: string;
}

/** DefaultHighlighter.getBreakIterator, inside Lucene's SplittingBreakIterator. */
function breakIteratorFor(input: UnifiedFieldInput): BreakIterator {
  const options = input.options;
  let base: BreakIterator;
  if (options.numberOfFragments === 0 || !input.tokenized) base = wholeValueInstance();
  else {
    const scanner = options.boundaryScanner ?? 'sentence';
    if (scanner === 'sentence') base = options.fragmentSize > 0 ? BoundedBreakIteratorScanner.sentence(options.fragmentSize) : sentenceInstance();
    else if (scanner === 'word') base = wordInstance();
    else throw illegalArgument(`Invalid boundary scanner type: ${scanner}`);
  }
  return new SplittingBreakIterator(base, MULTIVAL_SEPARATOR);
}

/** MultiValueTokenStream over the joined values, each cut by max_analyzed_offset. */
function analyzeContent(input: UnifiedFieldInput, maxStartOffset: number | undefined): ContentToken[] {
  const tokens: ContentToken[] = [];
  let valueStart = 0;
  let position = -1;
  input.values.forEach((value, valueIndex) => {
    let first = true;
    for (const token of analyzeForHighlight(input.analyzer, value, maxStartOffset)) {
      position += token.positionIncrement + (first && valueIndex > 0 ? input.positionIncrementGap : 0);
      first = false;
      tokens.push({ term: token.term, position, start: valueStart + token.startOffset, end: valueStart + token.endOffset });
    }
    valueStart += value.length + 1;
  });
  return tokens;
}

/** CustomFieldHighlighter.getSummaryPassagesNoHighlight. */
function noMatchPassage(content: string, noMatchSize: number): Passage[] {
  if (noMatchSize <= 0) return [];
  let pos = 0;
  while (pos < content.length && content[pos] === MULTIVAL_SEPARATOR) pos++;
  if (pos >= content.length) return [];
  let end = content.indexOf(MULTIVAL_SEPARATOR, pos);
  if (end === -1) end = content.length;
  if (noMatchSize + pos < end) {
    const words = wordInstance();
    words.setText(content);
    const following = words.following(noMatchSize + pos);
    end = following === DONE ? content.length : following;
  }
  return [{ start: pos, end, score: Number.NaN, matches: [] }];
}

/** The field's fragments, or undefined when ES leaves the field out of `highlight`. */
export function unifiedHighlight(input: UnifiedFieldInput): string[] | undefined {
  if (input.values.length === 0) return undefined;
  const options = input.options;
  const content = input.values.join(MULTIVAL_SEPARATOR);
  const indexMax = input.indexMaxAnalyzedOffset;
  // QueryMaxAnalyzedOffset.create: -1 means the index setting.
  const queryMax = options.maxAnalyzedOffset === undefined ? undefined : options.maxAnalyzedOffset < 0 ? indexMax : options.maxAnalyzedOffset;
  // CustomUnifiedHighlighter checks the length only when it must analyse the text (OffsetSource.ANALYSIS).
  if (!input.offsetsIndexed && (queryMax === undefined || queryMax > indexMax) && content.length > indexMax) {
    throw illegalArgument(
      `The length [${content.length}] of field [${input.fieldName}] in doc[${input.hitId}]/index[${input.index}] exceeds the ` +
        `[index.highlight.max_analyzed_offset] limit [${indexMax}]. To avoid this error, set the query parameter ` +
        `[max_analyzed_offset] to a value less than index setting [${indexMax}] and this will tolerate long field values by truncating them.`,
    );
  }
  if (content.length === 0) return undefined;
  const breakIterator = breakIteratorFor(input);
  breakIterator.setText(content);
  // Offsets from the index are not cut by an analyzer (LimitTokenOffsetAnalyzer wraps analysis only); the query's
  // max_analyzed_offset still ends the match enumeration below (LimitedOffsetsEnum, whatever the offset source).
  const index = new ContentIndex(analyzeContent(input, input.offsetsIndexed ? undefined : queryMax));
  const weightMatches = input.weightMatchesEnabled && options.requireFieldMatch;
  let matches = weightMatches
    ? new WeightMatcher(input.fieldName, index).matches(input.query)
    : termModeMatches(input.query, options.requireFieldMatch ? input.fieldName : null, index);
  // LimitedOffsetsEnum: matches starting past max_analyzed_offset end the enumeration.
  if (queryMax !== undefined) matches = matches.filter((match) => match.start <= queryMax);
  matches = [...matches].sort(compareMatches);
  const maxPassages = options.numberOfFragments === 0 ? ALL_PASSAGES : options.numberOfFragments;
  let passages = highlightMatches(matches, breakIterator, content.length, maxPassages);
  if (passages.length === 0) passages = noMatchPassage(content, options.noMatchSize);
  if (passages.length === 0) return undefined;
  const snippets: Snippet[] = formatPassages(passages, content, {
    preTag: options.preTags[0]!,
    postTag: options.postTags[0]!,
    encode: options.encoder === 'html' ? htmlEncode : (text) => text,
    numberOfFragments: options.numberOfFragments,
  }).filter((snippet) => snippet.text.trim().length > 0);
  if (snippets.length === 0) return undefined;
  // A stable sort, as Lucene's introSort is for the few snippets a field has.
  if (options.scoreOrdered) snippets.sort((a, b) => b.score - a.score);
  return snippets.map((snippet) => snippet.text);
}
