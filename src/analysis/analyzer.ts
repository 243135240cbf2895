/**
 * An analyzer: a named recipe that builds a tokenizer and its filter chain, plus the gaps Lucene puts
 * between the values of a multi-valued field. The chain is built once and reused for every text, as Lucene
 * does per thread: consume one token stream fully before asking for the next.
 */
import type { TokenStream, Tokenizer } from './token-stream.js';

export type TokenizerFactory = () => Tokenizer;
export type TokenFilterFactory = (input: TokenStream) => TokenStream;

/** Elasticsearch's position_increment_gap for named analyzers and text fields (TextFieldMapper default). */
export const DEFAULT_POSITION_INCREMENT_GAP = 100;

export interface AnalyzerOptions {
  /** Positions added between two values of one field. */
  readonly positionIncrementGap?: number;
  /** Offsets added between two values of one field (Lucene's default 1). */
  readonly offsetGap?: number;
}

export class Analyzer {
  readonly positionIncrementGap: number;
  readonly offsetGap: number;
  private components: { tokenizer: Tokenizer; stream: TokenStream } | undefined;

  constructor(
    readonly name: string,
    private readonly tokenizerFactory: TokenizerFactory,
    private readonly filterFactories: readonly TokenFilterFactory[] = [],
    options: AnalyzerOptions = {},
  ) {
    this.positionIncrementGap = options.positionIncrementGap ?? 0;
    this.offsetGap = options.offsetGap ?? 1;
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
    });
  }
}
