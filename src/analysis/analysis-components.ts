/**
 * The tokenizer, token filter and analyzer types that index settings can configure
 * (`analysis.tokenizer.<name>: {type: standard, max_token_length: 5}`), and the ones usable by bare name
 * without configuration (Elasticsearch's pre-configured components). Parameter names, defaults and limits
 * follow Elasticsearch's factories.
 */
import { errors } from '../common/errors.js';
import { keywordAware, type Analyzer, type TokenFilterFactory, type TokenizerFactory } from './analyzer.js';
import { englishAnalyzer, ENGLISH_STOP_SET, keywordAnalyzer, simpleAnalyzer, standardAnalyzer, stopAnalyzer, whitespaceAnalyzer } from './builtin-analyzers.js';
import type { ComponentSettings } from './component-settings.js';
import { AsciiFoldingFilter } from './filters/ascii-folding-filter.js';
import { EnglishPossessiveFilter } from './filters/english-possessive-filter.js';
import { KeywordMarkerFilter } from './filters/keyword-marker-filter.js';
import { LengthFilter } from './filters/length-filter.js';
import { LowerCaseFilter } from './filters/lowercase-filter.js';
import { PorterStemFilter } from './filters/porter-stem-filter.js';
import { StopFilter, SuggestStopFilter } from './filters/stop-filter.js';
import { ENGLISH_STOP_WORDS, EMPTY_WORD_SET, WordSet } from './filters/stop-words.js';
import { TrimFilter } from './filters/trim-filter.js';
import { DEFAULT_MAX_TOKEN_LENGTH, StandardTokenizer } from './standard/standard-tokenizer.js';
import { DEFAULT_MAX_CHAR_TOKEN_LENGTH, LetterTokenizer, LowerCaseTokenizer, WhitespaceTokenizer } from './tokenizers/char-tokenizer.js';
import { KeywordTokenizer } from './tokenizers/keyword-tokenizer.js';

export type TokenizerProvider = (settings: ComponentSettings, name: string) => TokenizerFactory;
export type TokenFilterProvider = (settings: ComponentSettings, name: string) => TokenFilterFactory;
export type AnalyzerProvider = (settings: ComponentSettings, name: string) => Analyzer;

/** Elasticsearch's named word lists usable inside `stopwords`. */
const NAMED_STOP_WORDS: ReadonlyMap<string, readonly string[]> = new Map([['_english_', ENGLISH_STOP_WORDS]]);

/** Elasticsearch's other named lists: refused rather than silently taken as literal words. */
const UNSUPPORTED_STOP_WORD_LISTS = new Set(
  ('arabic armenian basque bengali brazilian bulgarian catalan cjk czech danish dutch estonian finnish french galician ' +
    'german greek hindi hungarian indonesian irish italian latvian lithuanian norwegian persian portuguese romanian ' +
    'russian serbian sorani spanish swedish thai turkish')
    .split(' ')
    .map((language) => `_${language}_`),
);

/** Analysis.parseStopWords: `_none_`, a list mixing words and named lists, or the default. */
function parseStopWords(settings: ComponentSettings, fallback: WordSet, ignoreCase = false): WordSet {
  if (settings.has('stopwords_path') && !settings.has('stopwords')) {
    throw errors.illegalArgument('stopwords_path is not supported: list the stop words in [stopwords]');
  }
  if (!settings.has('stopwords')) return ignoreCase === fallback.ignoreCase ? fallback : rebuild(fallback, ignoreCase);
  if (settings.getString('stopwords') === '_none_') return EMPTY_WORD_SET;
  const words: string[] = [];
  for (const word of settings.getList('stopwords') ?? []) {
    if (UNSUPPORTED_STOP_WORD_LISTS.has(word)) throw errors.illegalArgument(`stop words list [${word}] is not supported yet: only [_english_] and [_none_] are`);
    words.push(...(NAMED_STOP_WORDS.get(word) ?? [word]));
  }
  return new WordSet(words, ignoreCase);
}

function rebuild(set: WordSet, ignoreCase: boolean): WordSet {
  return set === ENGLISH_STOP_SET ? new WordSet(ENGLISH_STOP_WORDS, ignoreCase) : set;
}

/** Runs a constructor's argument checks now, turning them into Elasticsearch's 400. */
function validated<T>(build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof RangeError) throw errors.illegalArgument(err.message);
    throw err;
  }
}

function checked(factory: TokenizerFactory): TokenizerFactory {
  validated(factory);
  return factory;
}

export const TOKENIZER_TYPES: ReadonlyMap<string, TokenizerProvider> = new Map<string, TokenizerProvider>([
  ['standard', (s) => {
    const max = s.getInt('max_token_length', DEFAULT_MAX_TOKEN_LENGTH);
    return checked(() => new StandardTokenizer(max));
  }],
  ['whitespace', (s) => {
    const max = s.getInt('max_token_length', DEFAULT_MAX_CHAR_TOKEN_LENGTH);
    return checked(() => new WhitespaceTokenizer(max));
  }],
  ['letter', () => () => new LetterTokenizer()],
  ['lowercase', () => () => new LowerCaseTokenizer()],
  ['keyword', (s) => {
    const bufferSize = s.getInt('buffer_size', 256);
    if (bufferSize <= 0 || bufferSize > 1024 * 1024) {
      throw errors.illegalArgument(`maxTokenLen must be greater than 0 and less than 1048576 passed: ${bufferSize}`);
    }
    return () => new KeywordTokenizer();
  }],
]);

export const PREBUILT_TOKENIZERS: ReadonlyMap<string, TokenizerFactory> = new Map<string, TokenizerFactory>([
  ['standard', () => new StandardTokenizer()],
  ['whitespace', () => new WhitespaceTokenizer()],
  ['letter', () => new LetterTokenizer()],
  ['lowercase', () => new LowerCaseTokenizer()],
  ['keyword', () => new KeywordTokenizer()],
]);

/**
 * Filters that work char by char without splitting or dropping tokens: the only ones Elasticsearch lets
 * a normalizer (keyword fields, and `_analyze` with filters but no tokenizer) use.
 */
const NORMALIZING = new WeakSet<TokenFilterFactory>();
function normalizing(factory: TokenFilterFactory): TokenFilterFactory {
  NORMALIZING.add(factory);
  return factory;
}
export function isNormalizing(factory: TokenFilterFactory): boolean {
  return NORMALIZING.has(factory);
}

const lowercase: TokenFilterFactory = normalizing((input) => new LowerCaseFilter(input));
const trim: TokenFilterFactory = normalizing((input) => new TrimFilter(input));
const porterStem: TokenFilterFactory = keywordAware((input) => new PorterStemFilter(input));
const possessive: TokenFilterFactory = (input) => new EnglishPossessiveFilter(input);

/** The `stemmer` filter's languages that Gannet implements. */
const STEMMERS: ReadonlyMap<string, TokenFilterFactory> = new Map([
  ['english', porterStem],
  ['porter', porterStem],
  ['possessive_english', possessive],
]);

export const FILTER_TYPES: ReadonlyMap<string, TokenFilterProvider> = new Map<string, TokenFilterProvider>([
  ['lowercase', (s) => {
    const language = s.getString('language');
    if (language !== undefined) {
      throw errors.illegalArgument(`lowercase filter language [${language}] is not supported`);
    }
    return lowercase;
  }],
  ['stop', (s) => {
    const ignoreCase = s.getBool('ignore_case', false);
    const words = parseStopWords(s, ENGLISH_STOP_SET, ignoreCase);
    const removeTrailing = s.getBool('remove_trailing', true);
    return removeTrailing ? (input) => new StopFilter(input, words) : keywordAware((input) => new SuggestStopFilter(input, words));
  }],
  ['porter_stem', () => porterStem],
  ['stemmer', (s, name) => {
    const language = s.getString('language') ?? s.getString('name') ?? 'english';
    const stemmer = STEMMERS.get(language);
    if (stemmer === undefined) throw errors.illegalArgument(`stemmer language [${language}] of filter [${name}] is not supported`);
    return stemmer;
  }],
  ['asciifolding', (s) => {
    const preserveOriginal = s.getBool('preserve_original', false);
    return normalizing((input) => new AsciiFoldingFilter(input, preserveOriginal));
  }],
  ['trim', () => trim],
  ['length', (s) => {
    const min = s.getInt('min', 0);
    const max = s.getInt('max', 2147483647);
    validated(() => new LengthFilter(new KeywordTokenizer(), min, max));
    return (input) => new LengthFilter(input, min, max);
  }],
  ['keyword_marker', (s) => {
    if (s.has('keywords_pattern') || s.has('keywords_path')) {
      throw errors.illegalArgument('keyword_marker: only [keywords] is supported, not [keywords_pattern] or [keywords_path]');
    }
    const keywords = s.getList('keywords');
    if (keywords === undefined) throw errors.illegalArgument('keywords or keywords_path or keywords_pattern must be provided');
    const set = new WordSet(keywords, s.getBool('ignore_case', false));
    return keywordAware((input) => new KeywordMarkerFilter(input, set));
  }],
]);

export const PREBUILT_FILTERS: ReadonlyMap<string, TokenFilterFactory> = new Map<string, TokenFilterFactory>([
  ['lowercase', lowercase],
  ['stop', (input) => new StopFilter(input, ENGLISH_STOP_SET)],
  ['porter_stem', porterStem],
  ['stemmer', porterStem],
  ['asciifolding', normalizing((input) => new AsciiFoldingFilter(input))],
  ['trim', trim],
  ['length', (input) => new LengthFilter(input, 0, 2147483647)],
]);

/** Analyzer types other than `custom`, with their Elasticsearch parameters. */
export const ANALYZER_TYPES: ReadonlyMap<string, AnalyzerProvider> = new Map<string, AnalyzerProvider>([
  ['standard', (s, name) => {
    const stopWords = parseStopWords(s, EMPTY_WORD_SET);
    const max = s.getInt('max_token_length', DEFAULT_MAX_TOKEN_LENGTH);
    return validated(() => standardAnalyzer(name, stopWords, max));
  }],
  ['simple', (_s, name) => simpleAnalyzer(name)],
  ['whitespace', (_s, name) => whitespaceAnalyzer(name)],
  ['keyword', (_s, name) => keywordAnalyzer(name)],
  ['stop', (s, name) => stopAnalyzer(name, parseStopWords(s, ENGLISH_STOP_SET))],
  ['english', (s, name) => {
    const stemExclusion = new WordSet(s.getList('stem_exclusion') ?? []);
    return englishAnalyzer(name, parseStopWords(s, ENGLISH_STOP_SET), stemExclusion);
  }],
]);
