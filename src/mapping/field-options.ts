/**
 * A field mapping's effective options (defaults filled in, formats compiled), typed per field type, for the
 * document parser and the layers above (indexer, query parsing). Computed once per field and cached.
 */
import { dateFormatter, type DateFormatter } from './date/date-formatter.js';
import { checkNanosRange } from './date/date-nanos.js';
import { parseIp, type IpBytes } from './ip-address.js';
import type { FieldMapping, MappingSettings, NumericFieldType, ParamValue } from './mapping-model.js';
import { paramContext, type ParamContext } from './mapping-params.js';
import type { NumericValue } from './numeric-values.js';

interface CommonOptions {
  readonly index: boolean;
  readonly docValues: boolean;
  readonly store: boolean;
}

export interface TextOptions {
  readonly type: 'text';
  readonly index: boolean;
  readonly store: boolean;
  readonly norms: boolean;
  readonly indexOptions: 'docs' | 'freqs' | 'positions' | 'offsets';
  readonly termVector: string;
  readonly analyzer: string;
  readonly searchAnalyzer: string;
  readonly searchQuoteAnalyzer: string;
  /** The gap between values of an array; ES's analyzers default it to 100. */
  readonly positionIncrementGap: number;
  readonly indexPhrases: boolean;
  readonly fielddata: boolean;
  readonly similarity: string | null;
}

export interface KeywordOptions extends CommonOptions {
  readonly type: 'keyword';
  readonly nullValue: string | null;
  readonly ignoreAbove: number;
  readonly indexOptions: 'docs' | 'freqs';
  readonly norms: boolean;
  readonly normalizer: string | null;
  readonly splitQueriesOnWhitespace: boolean;
  readonly similarity: string | null;
}

export interface NumberOptions extends CommonOptions {
  readonly type: NumericFieldType;
  readonly ignoreMalformed: boolean;
  readonly coerce: boolean;
  readonly nullValue: NumericValue | undefined;
  /** scaled_float only. */
  readonly scalingFactor: number | undefined;
}

export interface BooleanOptions extends CommonOptions {
  readonly type: 'boolean';
  readonly nullValue: boolean | null;
  readonly ignoreMalformed: boolean;
}

export interface DateOptions extends CommonOptions {
  readonly type: 'date';
  readonly format: string;
  readonly formatter: DateFormatter;
  readonly locale: string;
  readonly nullValueMillis: number | undefined;
  readonly ignoreMalformed: boolean;
}

/** date_nanos: a date field at nanosecond resolution (values are epoch nanoseconds, bigints). */
export interface DateNanosOptions extends CommonOptions {
  readonly type: 'date_nanos';
  readonly format: string;
  readonly formatter: DateFormatter;
  readonly locale: string;
  readonly nullValueNanos: bigint | undefined;
  readonly ignoreMalformed: boolean;
}

export interface IpOptions extends CommonOptions {
  readonly type: 'ip';
  /** The encoded null_value (16 bytes), or null. */
  readonly nullValue: IpBytes | null;
  readonly ignoreMalformed: boolean;
}

/** binary: never indexed (`index` is always false). */
export interface BinaryOptions extends CommonOptions {
  readonly type: 'binary';
}

export type FieldOptions = TextOptions | KeywordOptions | NumberOptions | BooleanOptions | DateOptions | DateNanosOptions | IpOptions | BinaryOptions;

const ALWAYS = (): boolean => true;

/** A ParamContext over a parsed field's stored (non-default) parameters. */
export function fieldParamContext(leafName: string, field: FieldMapping, settings: MappingSettings): ParamContext {
  return paramContext(leafName, field.type, field.params, { settings, analyzerExists: ALWAYS, normalizerExists: ALWAYS });
}

const cache = new WeakMap<FieldMapping, { settings: MappingSettings; options: FieldOptions }>();

export function fieldOptions(field: FieldMapping, settings: MappingSettings): FieldOptions {
  const cached = cache.get(field);
  if (cached !== undefined && cached.settings === settings) return cached.options;
  const options = computeOptions(field, settings);
  cache.set(field, { settings, options });
  return options;
}

function numericNullValue(type: NumericFieldType, value: ParamValue): NumericValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (type === 'long' || type === 'integer' || type === 'short' || type === 'byte') {
    return { kind: 'long', value: BigInt(typeof value === 'number' ? Math.trunc(value) : String(value)) };
  }
  return { kind: 'double', value: Number(value) };
}

function computeOptions(field: FieldMapping, settings: MappingSettings): FieldOptions {
  const ctx = fieldParamContext('', field, settings);
  const bool = (name: string): boolean => ctx.value(name) === true;
  const str = (name: string): string => String(ctx.value(name));
  const strOrNull = (name: string): string | null => {
    const v = ctx.value(name);
    return v === null ? null : String(v);
  };
  switch (field.type) {
    case 'text': {
      const gap = ctx.value('position_increment_gap') as number;
      return {
        type: 'text',
        index: bool('index'),
        store: bool('store'),
        norms: bool('norms'),
        indexOptions: str('index_options') as TextOptions['indexOptions'],
        termVector: str('term_vector'),
        analyzer: str('analyzer'),
        searchAnalyzer: str('search_analyzer'),
        searchQuoteAnalyzer: str('search_quote_analyzer'),
        positionIncrementGap: gap === -1 ? 100 : gap,
        indexPhrases: bool('index_phrases'),
        fielddata: bool('fielddata'),
        similarity: strOrNull('similarity'),
      };
    }
    case 'keyword':
      return {
        type: 'keyword',
        index: bool('index'),
        docValues: bool('doc_values'),
        store: bool('store'),
        nullValue: strOrNull('null_value'),
        ignoreAbove: ctx.value('ignore_above') as number,
        indexOptions: str('index_options') as KeywordOptions['indexOptions'],
        norms: bool('norms'),
        normalizer: strOrNull('normalizer'),
        splitQueriesOnWhitespace: bool('split_queries_on_whitespace'),
        similarity: strOrNull('similarity'),
      };
    case 'boolean':
      return {
        type: 'boolean',
        index: bool('index'),
        docValues: bool('doc_values'),
        store: bool('store'),
        nullValue: ctx.value('null_value') as boolean | null,
        ignoreMalformed: bool('ignore_malformed'),
      };
    case 'date': {
      const format = str('format');
      const formatter = dateFormatter(format, str('locale'));
      const nullValue = ctx.value('null_value');
      return {
        type: 'date',
        index: bool('index'),
        docValues: bool('doc_values'),
        store: bool('store'),
        format,
        formatter,
        locale: str('locale'),
        nullValueMillis: nullValue === null ? undefined : formatter.parseMillis(String(nullValue)),
        ignoreMalformed: bool('ignore_malformed'),
      };
    }
    case 'date_nanos': {
      const format = str('format');
      const formatter = dateFormatter(format, str('locale'));
      const nullValue = ctx.value('null_value');
      return {
        type: 'date_nanos',
        index: bool('index'),
        docValues: bool('doc_values'),
        store: bool('store'),
        format,
        formatter,
        locale: str('locale'),
        nullValueNanos: nullValue === null ? undefined : checkNanosRange(formatter.parseNanos(String(nullValue))),
        ignoreMalformed: bool('ignore_malformed'),
      };
    }
    case 'ip': {
      const nullValue = ctx.value('null_value');
      return {
        type: 'ip',
        index: bool('index'),
        docValues: bool('doc_values'),
        store: bool('store'),
        nullValue: nullValue === null ? null : parseIp(String(nullValue)),
        ignoreMalformed: bool('ignore_malformed'),
      };
    }
    case 'binary':
      return { type: 'binary', index: false, docValues: bool('doc_values'), store: bool('store') };
    default: {
      const type = field.type;
      return {
        type,
        index: bool('index'),
        docValues: bool('doc_values'),
        store: bool('store'),
        ignoreMalformed: bool('ignore_malformed'),
        coerce: bool('coerce'),
        nullValue: numericNullValue(type, ctx.value('null_value')),
        scalingFactor: type === 'scaled_float' ? (ctx.value('scaling_factor') as number) : undefined,
      };
    }
  }
}
