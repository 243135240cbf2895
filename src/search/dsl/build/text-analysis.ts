/**
 * How query text meets a field's analysis (ES's TextSearchInfo): text fields analyze with their search
 * (or search-quote) analyzer; keyword fields normalize with their normalizer; every other type takes the
 * text whole, as Lucene's KeywordAnalyzer would, and lets the field type parse it.
 */
import { foldToAscii, lowerCaseTerm, type Analyzer } from '../../../analysis/index.js';
import type { BuildContext } from './build-context.js';
import type { MappedField } from './field-lookup.js';

export interface AnalyzedToken {
  readonly term: string;
  readonly positionIncrement: number;
  readonly endOffset: number;
}

export interface AnalyzedText {
  readonly tokens: readonly AnalyzedToken[];
  /** The stream's final offset after end(): where the text ends for the analyzer. */
  readonly finalOffset: number;
}

/** Runs an analyzer over text, collecting what the query builders read from the token stream. */
export function analyze(analyzer: Analyzer, text: string): AnalyzedText {
  const stream = analyzer.tokenStream(text);
  const token = stream.token;
  const tokens: AnalyzedToken[] = [];
  while (stream.incrementToken()) tokens.push({ term: token.term, positionIncrement: token.positionIncrement, endOffset: token.endOffset });
  stream.end();
  return { tokens, finalOffset: token.endOffset };
}

/**
 * The analyzer a match-family query uses for a field: the query's own (`analyzer`), else the field's search
 * (quoted: search-quote) analyzer. `undefined` means Lucene's keyword analyzer: the text is one term.
 */
export function searchAnalyzer(context: BuildContext, field: MappedField, quoted: boolean, forced: Analyzer | undefined): Analyzer | undefined {
  if (forced !== undefined) return forced;
  if (field.kind === 'metadata') return undefined;
  const options = field.options;
  if (options.type === 'text') {
    const name = quoted ? options.searchQuoteAnalyzer : options.searchAnalyzer;
    if (name === 'default') return quoted ? context.analysis.defaultSearchQuotedAnalyzer : context.analysis.defaultSearchAnalyzer;
    return context.analysis.analyzer(name);
  }
  if (options.type === 'keyword' && options.normalizer !== null) return context.analysis.findNormalizer(options.normalizer);
  return undefined;
}

/** A stable identity for grouping fields by analyzer (cross_fields). */
export function analyzerKey(analyzer: Analyzer | undefined): string {
  return analyzer === undefined ? '\u0000keyword' : analyzer.name;
}

/** KeywordFieldType.indexedValueForSearch: the value through the field's normalizer, if it has one. */
export function normalizeKeyword(context: BuildContext, field: MappedField, value: string): string {
  if (field.kind !== 'mapped' || field.options.type !== 'keyword' || field.options.normalizer === null) return value;
  const normalizer = context.analysis.findNormalizer(field.options.normalizer);
  if (normalizer === undefined) return value;
  return analyze(normalizer, value).tokens.map((token) => token.term).join('');
}

interface NormalizingTraits {
  readonly lowercases: boolean;
  readonly folds: boolean;
}

const traitsCache = new WeakMap<Analyzer, NormalizingTraits>();

/**
 * What Lucene's Analyzer.normalize would do to a wildcard/prefix/range term: apply the analyzer's
 * normalizing filters (lowercase, ASCII folding) without tokenizing, stemming or removing stop words.
 * Gannet's analyzers do not expose their normalization chain, so it is probed once per analyzer.
 */
export function normalizeWithAnalyzer(analyzer: Analyzer | undefined, text: string): string {
  if (analyzer === undefined) return text;
  let traits = traitsCache.get(analyzer);
  if (traits === undefined) {
    traits = {
      lowercases: analyze(analyzer, 'Qz').tokens[0]?.term === 'qz',
      folds: analyze(analyzer, 'q\u00e9').tokens[0]?.term.endsWith('e') === true,
    };
    traitsCache.set(analyzer, traits);
  }
  let normalized = traits.lowercases ? lowerCaseTerm(text) : text;
  if (traits.folds) normalized = foldToAscii(normalized);
  return normalized;
}
