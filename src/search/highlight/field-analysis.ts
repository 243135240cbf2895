/**
 * Which analyzer meets which text when highlighting, as ES chooses: a value is re-analyzed with the field's
 * index analyzer (text: its `analyzer`; keyword: its normalizer or the keyword analyzer; any other type:
 * the keyword analyzer), while query text is analyzed with the field's search (or search-quote) analyzer.
 * `max_analyzed_offset` cuts the value's token stream (Lucene's LimitTokenOffsetFilter: tokens starting
 * after the limit end the stream).
 */
import { AnalysisRegistry, keywordAnalyzer, type Analyzer } from '../../analysis/index.js';
import type { MappedField } from '../fetch/field-catalog.js';
import type { HighlightToken } from './lucene-highlighter.js';

let globalRegistry: AnalysisRegistry | undefined;
let keyword: Analyzer | undefined;

export function registryOrGlobal(analysis: AnalysisRegistry | undefined): AnalysisRegistry {
  if (analysis !== undefined) return analysis;
  globalRegistry ??= AnalysisRegistry.global();
  return globalRegistry;
}

export function keywordTokenizerAnalyzer(): Analyzer {
  keyword ??= keywordAnalyzer();
  return keyword;
}

/** MappingLookup.indexAnalyzer(field, f -> KEYWORD_ANALYZER). */
export function indexAnalyzer(field: MappedField | undefined, analysis: AnalysisRegistry | undefined): Analyzer {
  const options = field?.options;
  if (options?.type === 'text') return registryOrGlobal(analysis).analyzer(options.analyzer);
  if (options?.type === 'keyword' && options.normalizer !== null) {
    return registryOrGlobal(analysis).findNormalizer(options.normalizer) ?? keywordTokenizerAnalyzer();
  }
  return keywordTokenizerAnalyzer();
}

/** The analyzer a match-family query analyzes its text with; undefined means "the text is one term". */
export function searchAnalyzer(field: MappedField, analysis: AnalysisRegistry | undefined, quoted: boolean, named: string | undefined): Analyzer | undefined {
  const registry = registryOrGlobal(analysis);
  if (named !== undefined) return registry.analyzer(named);
  const options = field.options;
  if (options.type === 'text') {
    const name = quoted ? options.searchQuoteAnalyzer : options.searchAnalyzer;
    if (name === 'default') return quoted ? registry.defaultSearchQuotedAnalyzer : registry.defaultSearchAnalyzer;
    return registry.analyzer(name);
  }
  if (options.type === 'keyword' && options.normalizer !== null) return registry.findNormalizer(options.normalizer);
  return undefined;
}

/** The value's tokens with offsets and position increments, cut at `maxStartOffset` when given. */
export function analyzeForHighlight(analyzer: Analyzer, text: string, maxStartOffset?: number): HighlightToken[] {
  const stream = analyzer.tokenStream(text);
  const token = stream.token;
  const tokens: HighlightToken[] = [];
  while (stream.incrementToken()) {
    if (maxStartOffset !== undefined && token.startOffset > maxStartOffset) {
      // Drain the stream so the reused analyzer is left in a clean state.
      while (stream.incrementToken());
      break;
    }
    tokens.push({ term: token.term, startOffset: token.startOffset, endOffset: token.endOffset, positionIncrement: token.positionIncrement });
  }
  stream.end();
  return tokens;
}
