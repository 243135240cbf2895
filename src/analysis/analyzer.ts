/**
 * An analyzer: a named recipe that builds a tokenizer and its filter chain, plus the gaps Lucene puts
 * between the values of a multi-valued field. The chain is built once and reused for every text, as Lucene
 * does per thread: consume one token stream fully before asking for the next.
 */
import type { TokenStream, Tokenizer } from './token-stream.js';

export type TokenizerFactory = () => Tokenizer;
export type TokenFilterFactory = (input: TokenStream) => TokenStream;

/**
 * Filters that carry Lucene's KeywordAttribute (stemmers, keyword_marker, ...). `_analyze` with `explain`
 * prints a `keyword` attribute exactly for the stages whose chain has one.
 */
const KEYWORD_AWARE = new WeakSet<TokenFilterFactory>();
export function keywordAware(factory: TokenFilterFactory): TokenFilterFactory {
  KEYWORD_AWARE.add(factory);
  return factory;
}
export function isKeywordAware(factory: TokenFilterFactory): boolean {
  return KEYWORD_AWARE.has(factory);
}

/** Elasticsearch's position_increment_gap for named analyzers and text fields (TextFieldMapper default). */
export const DEFAULT_POSITION_INCREMENT_GAP = 100;

export interface AnalyzerOptions {
  /** Positions added between two values of one field. */
  readonly positionIncrementGap?: number;
  /** Offsets added between two values of one field (Lucene's default 1). */
  readonly offsetGap?: number;
  /**
   * The configured names of the tokenizer and each filter, for analyzers assembled from components
   * (custom and `_analyze` ones): `_analyze` with `explain` shows the tokens after each of them.
   */
  readonly components?: AnalyzerComponentNames;
}

export interface AnalyzerComponentNames {
  readonly tokenizer: string;
  readonly filters: readonly string[];
}

export class Analyzer {
  readonly positionIncrementGap: number;
  readonly offsetGap: number;
  readonly componentNames: AnalyzerComponentNames | undefined;
  private components: { tokenizer: Tokenizer; stream: TokenStream } | undefined;

  constructor(
    readonly name: string,
    private readonly tokenizerFactory: TokenizerFactory,
    readonly filterFactories: readonly TokenFilterFactory[] = [],
    options: AnalyzerOptions = {},
  ) {
    this.positionIncrementGap = options.positionIncrementGap ?? 0;
    this.offsetGap = options.offsetGap ?? 1;
    this.componentNames = options.components;
  }

  /** The (reused) token stream over `text`, reset and ready for incrementToken(). */
  tokenStream(text: string): TokenStream {
    if (this.components === undefined) {
      const tokenizer = this.tokenizerFactory();
      let stream: TokenStream = tokenizer;
      for (const factory of this.filterFactories) stream = factory(stream);
      this.components = { tokenizer, stream };
    }
    this.components.tokenizer.setText(text);
    this.components.stream.reset();
    return this.components.stream;
  }

  /** The same recipe under another name or with other gaps (Elasticsearch's NamedAnalyzer wrapper). */
  with(name: string, options: AnalyzerOptions): Analyzer {
    return new Analyzer(name, this.tokenizerFactory, this.filterFactories, {
      positionIncrementGap: options.positionIncrementGap ?? this.positionIncrementGap,
      offsetGap: options.offsetGap ?? this.offsetGap,
      components: options.components ?? this.componentNames,
    });
  }

  /** The tokenizer and only the first `filterCount` filters, with the same gaps (for `explain`). */
  truncated(filterCount: number): Analyzer {
    return new Analyzer(this.name, this.tokenizerFactory, this.filterFactories.slice(0, filterCount), {
      positionIncrementGap: this.positionIncrementGap,
      offsetGap: this.offsetGap,
    });
  }
}
