/**
 * analysis/: text -> tokens, exactly as Lucene 9 / Elasticsearch 8 produce them. This is the public surface
 * for the layers above (mapping, engine, search, the `_analyze` action); everything else in the folder is
 * internal.
 */
export {
  Analyzer,
  DEFAULT_POSITION_INCREMENT_GAP,
  type AnalyzerComponentNames,
  type AnalyzerOptions,
  type TokenFilterFactory,
  type TokenizerFactory,
} from './analyzer.js';
export { AnalysisRegistry, type NameOrDefinition, type TransientAnalyzerSpec } from './analysis-registry.js';
export {
  analyzeTexts,
  explainTexts,
  invertValues,
  DEFAULT_MAX_TOKEN_COUNT,
  type AnalyzeDetail,
  type AnalyzeOptions,
  type AnalyzeToken,
  type InvertStats,
} from './analyze.js';
export { Token, TokenFilter, FilteringTokenFilter, DEFAULT_TOKEN_TYPE, type TokenStream, type Tokenizer } from './token-stream.js';
export { englishAnalyzer, keywordAnalyzer, simpleAnalyzer, standardAnalyzer, stopAnalyzer, whitespaceAnalyzer } from './builtin-analyzers.js';
export { StandardTokenizer, DEFAULT_MAX_TOKEN_LENGTH } from './standard/standard-tokenizer.js';
export { WhitespaceTokenizer, LetterTokenizer, LowerCaseTokenizer } from './tokenizers/char-tokenizer.js';
export { KeywordTokenizer } from './tokenizers/keyword-tokenizer.js';
export { ENGLISH_STOP_WORDS, WordSet } from './filters/stop-words.js';
export { foldToAscii } from './filters/ascii-folding-filter.js';
export { lowerCaseTerm } from './java-character.js';
