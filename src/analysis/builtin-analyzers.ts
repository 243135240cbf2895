/**
 * The analyzers Elasticsearch ships under fixed names, built as Lucene 9 builds them:
 * - standard: StandardTokenizer -> LowerCaseFilter -> StopFilter (no stop words unless configured)
 * - simple:   LetterTokenizer -> LowerCaseFilter
 * - whitespace: WhitespaceTokenizer
 * - keyword:  KeywordTokenizer
 * - stop:     LetterTokenizer -> LowerCaseFilter -> StopFilter(_english_)
 * - english:  StandardTokenizer -> EnglishPossessiveFilter -> LowerCaseFilter -> StopFilter(_english_)
 *             -> [SetKeywordMarkerFilter(stem_exclusion)] -> PorterStemFilter
 */
import { Analyzer, DEFAULT_POSITION_INCREMENT_GAP, keywordAware, type TokenFilterFactory } from './analyzer.js';
import { EnglishPossessiveFilter } from './filters/english-possessive-filter.js';
import { KeywordMarkerFilter } from './filters/keyword-marker-filter.js';
import { LowerCaseFilter } from './filters/lowercase-filter.js';
import { PorterStemFilter } from './filters/porter-stem-filter.js';
import { StopFilter } from './filters/stop-filter.js';
import { ENGLISH_STOP_WORDS, EMPTY_WORD_SET, WordSet } from './filters/stop-words.js';
import { DEFAULT_MAX_TOKEN_LENGTH, StandardTokenizer } from './standard/standard-tokenizer.js';
import { KeywordTokenizer } from './tokenizers/keyword-tokenizer.js';
import { LetterTokenizer, WhitespaceTokenizer } from './tokenizers/char-tokenizer.js';

const NAMED = { positionIncrementGap: DEFAULT_POSITION_INCREMENT_GAP };
const lowercase: TokenFilterFactory = (input) => new LowerCaseFilter(input);
/** An empty stop set removes nothing, so the filter is left out of the chain (same tokens, less work). */
const stop = (words: WordSet): TokenFilterFactory[] => (words.size === 0 ? [] : [(input) => new StopFilter(input, words)]);

export const ENGLISH_STOP_SET = new WordSet(ENGLISH_STOP_WORDS);

export function standardAnalyzer(name = 'standard', stopWords: WordSet = EMPTY_WORD_SET, maxTokenLength = DEFAULT_MAX_TOKEN_LENGTH): Analyzer {
  new StandardTokenizer(maxTokenLength); // validates the length now, not at first use
  return new Analyzer(name, () => new StandardTokenizer(maxTokenLength), [lowercase, ...stop(stopWords)], NAMED);
}

export function simpleAnalyzer(name = 'simple'): Analyzer {
  return new Analyzer(name, () => new LetterTokenizer(), [lowercase], NAMED);
}

export function whitespaceAnalyzer(name = 'whitespace'): Analyzer {
  return new Analyzer(name, () => new WhitespaceTokenizer(), [], NAMED);
}

export function keywordAnalyzer(name = 'keyword'): Analyzer {
  return new Analyzer(name, () => new KeywordTokenizer(), [], NAMED);
}

export function stopAnalyzer(name = 'stop', stopWords: WordSet = ENGLISH_STOP_SET): Analyzer {
  return new Analyzer(name, () => new LetterTokenizer(), [lowercase, ...stop(stopWords)], NAMED);
}

export function englishAnalyzer(name = 'english', stopWords: WordSet = ENGLISH_STOP_SET, stemExclusion: WordSet = EMPTY_WORD_SET): Analyzer {
  const filters: TokenFilterFactory[] = [(input) => new EnglishPossessiveFilter(input), lowercase, ...stop(stopWords)];
  if (stemExclusion.size > 0) filters.push(keywordAware((input) => new KeywordMarkerFilter(input, stemExclusion)));
  filters.push(keywordAware((input) => new PorterStemFilter(input)));
  return new Analyzer(name, () => new StandardTokenizer(), filters, NAMED);
}

/** Analyzers available by name everywhere, without configuration. */
export const BUILTIN_ANALYZERS: ReadonlyMap<string, () => Analyzer> = new Map([
  ['standard', () => standardAnalyzer()],
  ['default', () => standardAnalyzer('default')],
  ['simple', () => simpleAnalyzer()],
  ['whitespace', () => whitespaceAnalyzer()],
  ['keyword', () => keywordAnalyzer()],
  ['stop', () => stopAnalyzer()],
  ['english', () => englishAnalyzer()],
]);
