/**
 * Gannet's analyzer registry: what the engine and search layers use to turn a field's analyzer name into
 * an Analyzer. One registry per index, built from the `analysis` part of its settings; one global registry
 * for the `_analyze` API without an index. Error wording follows Elasticsearch's AnalysisRegistry and
 * AnalyzerComponents, since users see it when index creation or `_analyze` fails.
 */
import { errors } from '../common/errors.js';
import { Analyzer, DEFAULT_POSITION_INCREMENT_GAP, type TokenFilterFactory, type TokenizerFactory } from './analyzer.js';
import {
  ANALYZER_TYPES,
  FILTER_TYPES,
  PREBUILT_FILTERS,
  PREBUILT_TOKENIZERS,
  TOKENIZER_TYPES,
  isNormalizing,
  type AnalyzerProvider,
  type TokenFilterProvider,
  type TokenizerProvider,
} from './analysis-components.js';
import { BUILTIN_ANALYZERS } from './builtin-analyzers.js';
import { ComponentSettings, expandDottedKeys, type SettingsObject } from './component-settings.js';
import { KeywordTokenizer } from './tokenizers/keyword-tokenizer.js';

/** A component given by name, or defined inline as `{type: ..., ...params}` (the `_analyze` API allows both). */
export type NameOrDefinition = string | SettingsObject;

/** What `_analyze` may ask for instead of a named analyzer. */
export interface TransientAnalyzerSpec {
  readonly tokenizer?: NameOrDefinition;
  readonly filter?: readonly NameOrDefinition[];
  readonly char_filter?: readonly NameOrDefinition[];
}

export class AnalysisRegistry {
  private constructor(
    /** The index name, or undefined for the node-wide registry used by `_analyze` without an index. */
    readonly index: string | undefined,
    private readonly analyzers: ReadonlyMap<string, Analyzer>,
    private readonly tokenizers: ReadonlyMap<string, TokenizerFactory>,
    private readonly filters: ReadonlyMap<string, TokenFilterFactory>,
    private readonly normalizers: ReadonlyMap<string, Analyzer>,
  ) {}

  /** The node-wide registry: built-in analyzers, tokenizers and filters only. */
  static global(): AnalysisRegistry {
    const analyzers = new Map<string, Analyzer>();
    for (const [name, build] of BUILTIN_ANALYZERS) analyzers.set(name, build());
    return new AnalysisRegistry(undefined, analyzers, PREBUILT_TOKENIZERS, PREBUILT_FILTERS, builtinNormalizers());
  }

  /**
   * Builds an index's registry from its `analysis` settings (`{analyzer: {...}, tokenizer: {...}, filter:
   * {...}}`, nested or with dotted keys). Throws Elasticsearch's illegal_argument_exception for anything that
   * would make index creation fail.
   */
  static forIndex(analysisSettings: unknown, indexName?: string): AnalysisRegistry {
    const analysis = expandDottedKeys(analysisSettings);
    const charFilters = groups(analysis['char_filter']);
    for (const [name, settings] of charFilters) {
      const type = settings.getString('type');
      if (type === undefined) throw mustSpecifyType('char_filter', name);
      throw errors.illegalArgument(`Unknown char_filter type [${type}] for [${name}]`);
    }
    const tokenizers = new Map(PREBUILT_TOKENIZERS);
    for (const [name, settings] of groups(analysis['tokenizer'])) {
      tokenizers.set(name, configured('tokenizer', TOKENIZER_TYPES, name, settings));
    }
    const filters = new Map(PREBUILT_FILTERS);
    for (const [name, settings] of groups(analysis['filter'])) {
      filters.set(name, configured('filter', FILTER_TYPES, name, settings));
    }

    const analyzers = new Map<string, Analyzer>();
    for (const [name, build] of BUILTIN_ANALYZERS) analyzers.set(name, build());
    for (const [name, settings] of groups(analysis['analyzer'])) {
      analyzers.set(name, buildAnalyzer(name, settings, tokenizers, filters));
    }
    if (analyzers.has('default_index')) {
      throw errors.illegalArgument(
        `setting [index.analysis.analyzer.default_index] is not supported anymore, use [index.analysis.analyzer.default] instead for index [${indexName ?? ''}]`,
      );
    }
    for (const name of analyzers.keys()) {
      if (name.startsWith('_')) throw errors.illegalArgument(`analyzer name must not start with '_'. got "${name}"`);
    }
    const normalizers = builtinNormalizers();
    for (const [name, settings] of groups(analysis['normalizer'])) {
      normalizers.set(name, buildNormalizer(name, settings, filters));
    }
    return new AnalysisRegistry(indexName ?? '', analyzers, tokenizers, filters, normalizers);
  }

  /** The analyzer registered under `name`, if any. */
  findAnalyzer(name: string): Analyzer | undefined {
    return this.analyzers.get(name);
  }

  /** The analyzer registered under `name`; Elasticsearch's 400 when there is none. */
  analyzer(name: string): Analyzer {
    const analyzer = this.analyzers.get(name);
    if (analyzer !== undefined) return analyzer;
    throw errors.illegalArgument(this.index === undefined ? `failed to find global analyzer [${name}]` : `failed to find analyzer [${name}]`);
  }

  /** The normalizer (for keyword fields) registered under `name`, if any: `lowercase` or one from settings. */
  findNormalizer(name: string): Analyzer | undefined {
    return this.normalizers.get(name);
  }

  /** The index's `default` analyzer (standard unless configured). */
  get defaultAnalyzer(): Analyzer {
    return this.analyzers.get('default')!;
  }

  /** `default_search`, else the default analyzer. */
  get defaultSearchAnalyzer(): Analyzer {
    return this.analyzers.get('default_search') ?? this.defaultAnalyzer;
  }

  /** `default_search_quoted`, else the default search analyzer. */
  get defaultSearchQuotedAnalyzer(): Analyzer {
    return this.analyzers.get('default_search_quoted') ?? this.defaultSearchAnalyzer;
  }

  /**
   * An analyzer assembled for one `_analyze` request from a tokenizer and filters (names or inline
   * definitions). Filters without a tokenizer run over the keyword tokenizer, as Elasticsearch does. Such an
   * analyzer has no position gap between values, like Elasticsearch's transient CustomAnalyzer.
   */
  transientAnalyzer(spec: TransientAnalyzerSpec): Analyzer {
    for (const charFilter of spec.char_filter ?? []) this.resolve('char_filter', charFilter, new Map(), new Map());
    const tokenizer =
      spec.tokenizer === undefined ? () => new KeywordTokenizer() : this.resolve('tokenizer', spec.tokenizer, this.tokenizers, TOKENIZER_TYPES);
    const filters = (spec.filter ?? []).map((filter) => {
      const factory = this.resolve('filter', filter, this.filters, FILTER_TYPES);
      if (spec.tokenizer === undefined && !isNormalizing(factory)) {
        throw errors.illegalArgument(`Custom normalizer may not use filter [${componentName(filter)}]`);
      }
      return factory;
    });
    const name = spec.tokenizer === undefined ? 'keyword_for_normalizer' : '__transient__';
    const components = {
      tokenizer: spec.tokenizer === undefined ? 'keyword' : componentName(spec.tokenizer),
      filters: (spec.filter ?? []).map(componentName),
    };
    return new Analyzer(name, tokenizer, filters, { positionIncrementGap: 0, components });
  }

  private resolve<T>(
    component: 'tokenizer' | 'filter' | 'char_filter',
    nameOrDefinition: NameOrDefinition,
    named: ReadonlyMap<string, T>,
    types: ReadonlyMap<string, (settings: ComponentSettings, name: string) => T>,
  ): T {
    if (typeof nameOrDefinition !== 'string') {
      const settings = new ComponentSettings(expandDottedKeys(nameOrDefinition));
      const type = settings.getString('type');
      if (type === undefined) {
        throw errors.illegalArgument(`Missing [type] setting for anonymous ${component}: ${JSON.stringify(nameOrDefinition)}`);
      }
      const provider = types.get(type);
      if (provider === undefined) throw errors.illegalArgument(`failed to find global ${component} under [${type}]`);
      return provider(settings, '__anonymous__' + type);
    }
    const found = named.get(nameOrDefinition);
    if (found !== undefined) return found;
    if (this.index === undefined) throw errors.illegalArgument(`failed to find global ${component} under [${nameOrDefinition}]`);
    throw errors.illegalArgument(`failed to find ${component} under [${nameOrDefinition}]`);
  }
}

/** How Elasticsearch names a component in `explain` output: its name, or `__anonymous__<type>` inline. */
function componentName(nameOrDefinition: NameOrDefinition): string {
  return typeof nameOrDefinition === 'string' ? nameOrDefinition : '__anonymous__' + String(nameOrDefinition['type']);
}

function groups(section: unknown): Map<string, ComponentSettings> {
  const out = new Map<string, ComponentSettings>();
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return out;
  for (const [name, value] of Object.entries(section as Record<string, unknown>)) {
    const settings = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as SettingsObject) : {};
    out.set(name, new ComponentSettings(settings));
  }
  return out;
}

function mustSpecifyType(component: string, name: string): Error {
  return errors.illegalArgument(`${component} [${name}] must specify either an analyzer type, or a tokenizer`);
}

function configured<T>(
  component: 'tokenizer' | 'filter',
  types: ReadonlyMap<string, TokenizerProvider | TokenFilterProvider>,
  name: string,
  settings: ComponentSettings,
): T {
  const type = settings.getString('type');
  if (type === undefined) throw mustSpecifyType(component, name);
  const provider = types.get(type);
  if (provider === undefined) throw errors.illegalArgument(`Unknown ${component} type [${type}] for [${name}]`);
  return provider(settings, name) as T;
}

function buildAnalyzer(
  name: string,
  settings: ComponentSettings,
  tokenizers: ReadonlyMap<string, TokenizerFactory>,
  filters: ReadonlyMap<string, TokenFilterFactory>,
): Analyzer {
  const type = settings.getString('type');
  if (type === undefined && !settings.has('tokenizer')) throw mustSpecifyType('analyzer', name);
  if (type === undefined || type === 'custom') return customAnalyzer(name, settings, tokenizers, filters);
  const provider: AnalyzerProvider | undefined = ANALYZER_TYPES.get(type);
  if (provider === undefined) throw errors.illegalArgument(`Unknown analyzer type [${type}] for [${name}]`);
  return provider(settings, name);
}

function builtinNormalizers(): Map<string, Analyzer> {
  return new Map([['lowercase', new Analyzer('lowercase', () => new KeywordTokenizer(), [PREBUILT_FILTERS.get('lowercase')!])]]);
}

/** CustomNormalizerProvider: a keyword tokenizer and normalizing filters only (wording as Elasticsearch's). */
function buildNormalizer(name: string, settings: ComponentSettings, filters: ReadonlyMap<string, TokenFilterFactory>): Analyzer {
  const type = settings.getString('type');
  if (type !== undefined && type !== 'custom') throw errors.illegalArgument(`Unknown normalizer type [${type}] for [${name}]`);
  if (settings.has('tokenizer')) throw errors.illegalArgument(`Custom normalizer [${name}] cannot configure a tokenizer`);
  for (const charFilterName of settings.getList('char_filter') ?? []) {
    throw errors.illegalArgument(`Custom normalizer [${name}] failed to find char_filter under name [${charFilterName}]`);
  }
  const chain: TokenFilterFactory[] = [];
  for (const filterName of settings.getList('filter') ?? []) {
    const filter = filters.get(filterName);
    // Elasticsearch really says "Custom Analyzer" here.
    if (filter === undefined) throw errors.illegalArgument(`Custom Analyzer [${name}] failed to find filter under name [${filterName}]`);
    if (!isNormalizing(filter)) throw errors.illegalArgument(`Custom normalizer [${name}] may not use filter [${filterName}]`);
    chain.push(filter);
  }
  return new Analyzer(name, () => new KeywordTokenizer(), chain);
}

/** AnalyzerComponents.createComponents: every name must resolve, in Elasticsearch's order and wording. */
function customAnalyzer(
  name: string,
  settings: ComponentSettings,
  tokenizers: ReadonlyMap<string, TokenizerFactory>,
  filters: ReadonlyMap<string, TokenFilterFactory>,
): Analyzer {
  const tokenizerName = settings.getString('tokenizer');
  if (tokenizerName === undefined) throw errors.illegalArgument(`Custom Analyzer [${name}] must be configured with a tokenizer`);
  const tokenizer = tokenizers.get(tokenizerName);
  if (tokenizer === undefined) {
    throw errors.illegalArgument(`Custom Analyzer [${name}] failed to find tokenizer under name [${tokenizerName}]`);
  }
  for (const charFilterName of settings.getList('char_filter') ?? []) {
    throw errors.illegalArgument(`Custom Analyzer [${name}] failed to find char_filter under name [${charFilterName}]`);
  }
  const chain: TokenFilterFactory[] = [];
  const filterNames = settings.getList('filter') ?? [];
  for (const filterName of filterNames) {
    const filter = filters.get(filterName);
    if (filter === undefined) throw errors.illegalArgument(`Custom Analyzer [${name}] failed to find filter under name [${filterName}]`);
    chain.push(filter);
  }
  const offsetGap = settings.getInt('offset_gap', -1);
  return new Analyzer(name, tokenizer, chain, {
    positionIncrementGap: settings.getInt('position_increment_gap', DEFAULT_POSITION_INCREMENT_GAP),
    offsetGap: offsetGap < 0 ? 1 : offsetGap,
    components: { tokenizer: tokenizerName, filters: filterNames },
  });
}
