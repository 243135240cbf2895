/**
 * The parameters each field type accepts, in the order ES declares them (which is the order GET _mapping prints
 * them), with their defaults, whether a mapping update may change them, and how their JSON is read. Readers
 * reproduce XContentMapValues (nodeBooleanValue, nodeIntegerValue, nodeStringValue) and its error messages.
 */
import { EsError } from '../common/errors.js';
import { dateFormatter, DEFAULT_DATE_FORMAT, DEFAULT_DATE_NANOS_FORMAT } from './date/date-formatter.js';
import { dateLocale } from './date/date-locale.js';
import { DateFormatError, DateParseError, DateTimeError } from './date/date-errors.js';
import { checkNanosRange, DateNanosRangeError } from './date/date-nanos.js';
import { IpFormatError, parseIp } from './ip-address.js';
import { JavaNumberError, javaFloatString, javaStringToLong, parseJavaDouble, parseJavaFloat } from './java-numbers.js';
import { javaDoubleString } from '../common/json-float.js';
import { javaToString, mappingErrors } from './mapping-errors.js';
import type { LeafFieldType, MappingSettings, ParamValue } from './mapping-model.js';
import { halfFloatRound } from './numeric-values.js';

export interface ParamContext {
  /** The field's leaf name, as ES names it in parameter errors. */
  readonly fieldName: string;
  readonly type: LeafFieldType;
  readonly settings: MappingSettings;
  readonly analyzerExists: (name: string) => boolean;
  readonly normalizerExists: (name: string) => boolean;
  /** Effective value of another parameter of the same field (for dependent defaults and validation). */
  readonly value: (name: string) => ParamValue;
}

export interface ParamSpec {
  readonly name: string;
  /** May a mapping update change it (or, given both values, may it change this way)? */
  readonly updateable: boolean | ((previous: ParamValue, next: ParamValue) => boolean);
  readonly defaultValue: (ctx: ParamContext) => ParamValue;
  readonly read: (raw: unknown, ctx: ParamContext) => ParamValue;
  readonly acceptsNull?: boolean;
  /** Checked once all parameters are read (ES's Parameter validators). */
  readonly validate?: (value: ParamValue, ctx: ParamContext) => void;
}

// ---- XContentMapValues readers ----

export function nodeBooleanValue(raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw;
  const text = typeof raw === 'string' ? raw : javaToString(raw);
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw mappingErrors.illegalArgument(`Failed to parse value [${text}] as only [true] or [false] are allowed.`);
}

export function nodeIntegerValue(raw: unknown): number {
  if (typeof raw === 'number') return Math.trunc(raw) | 0;
  const text = typeof raw === 'string' ? raw : javaToString(raw);
  if (/^[+-]?\d+$/.test(text)) {
    const value = Number(text);
    if (value >= -2147483648 && value <= 2147483647) return value;
  }
  throw new EsError('number_format_exception', `For input string: "${text}"`);
}

export function nodeStringValue(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number') return javaToString(raw);
  return javaToString(raw);
}

const bool = (name: string, defaultValue: boolean | ((ctx: ParamContext) => boolean), updateable = false): ParamSpec => ({
  name,
  updateable,
  defaultValue: typeof defaultValue === 'boolean' ? () => defaultValue : defaultValue,
  read: (raw) => nodeBooleanValue(raw),
});

/** Norms may be switched off by an update, never back on (ES's normsParam merge validator). */
const norms = (defaultValue: boolean): ParamSpec => ({
  name: 'norms',
  updateable: (previous, next) => previous === next || (previous === true && next === false),
  defaultValue: () => defaultValue,
  read: (raw) => nodeBooleanValue(raw),
});

const restricted = (name: string, values: readonly string[], updateable = false): ParamSpec => ({
  name,
  updateable,
  defaultValue: () => values[0]!,
  read: (raw) => nodeStringValue(raw),
  validate: (value) => {
    if (!values.includes(value as string)) {
      throw mappingErrors.mapperParsing(`Unknown value [${String(value)}] for field [${name}] - accepted values are [${values.join(', ')}]`);
    }
  },
});

const meta: ParamSpec = {
  name: 'meta',
  updateable: true,
  defaultValue: () => ({}),
  read: (raw, ctx) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw mappingErrors.mapperParsing(`[meta] must be an object, got ${javaToString(raw)}[${javaToString(raw)}] for field [${ctx.fieldName}]`);
    }
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value !== 'string') {
        throw mappingErrors.mapperParsing(`[meta] values can only be strings, but got ${typeof value === 'number' ? 'Integer' : 'Object'}[${javaToString(value)}] for field [${ctx.fieldName}]`);
      }
      if (key.length > 20) throw mappingErrors.mapperParsing(`[meta] keys can't be longer than 20 chars, but got [${key}] for field [${ctx.fieldName}]`);
    }
    return raw as Record<string, string>;
  },
};

const analyzer = (name: string, defaultValue: (ctx: ParamContext) => ParamValue, updateable: boolean): ParamSpec => ({
  name,
  updateable,
  defaultValue,
  read: (raw, ctx) => {
    const analyzerName = nodeStringValue(raw);
    if (!ctx.analyzerExists(analyzerName)) {
      throw mappingErrors.illegalArgument(`analyzer [${analyzerName}] has not been configured in mappings`);
    }
    return analyzerName;
  },
});

const similarity: ParamSpec = {
  name: 'similarity',
  updateable: false,
  acceptsNull: true,
  defaultValue: () => null,
  read: (raw, ctx) => {
    if (raw === null) return null;
    const value = nodeStringValue(raw);
    if (value !== 'BM25' && value !== 'boolean') {
      throw mappingErrors.illegalArgument(`Unknown Similarity type [${value}] for field [${ctx.fieldName}]`);
    }
    return value;
  },
};

/** A small object parameter of integer settings (index_prefixes, fielddata_frequency_filter). */
const numericObject = (name: string, updateable: boolean, keys: readonly string[], defaultValue: ParamValue): ParamSpec => ({
  name,
  updateable,
  acceptsNull: defaultValue === null,
  defaultValue: () => defaultValue,
  read: (raw) => {
    if (raw === null) return null;
    if (typeof raw !== 'object' || Array.isArray(raw)) throw mappingErrors.mapperParsing(`[${name}] must be an object`);
    const out: Record<string, number> = {};
    const unknown: string[] = [];
    for (const [key, value] of Object.entries(raw)) {
      if (!keys.includes(key)) unknown.push(` [${key} : ${javaToString(value)}]`);
      else out[key] = typeof value === 'number' ? value : nodeIntegerValue(value);
    }
    if (unknown.length > 0) throw mappingErrors.mapperParsing(`Mapping definition for [${name}] has unsupported parameters: ${unknown.join('')}`);
    return out;
  },
});

const ignoreMalformed: ParamSpec = bool('ignore_malformed', (ctx) => ctx.settings.ignoreMalformed, true);

// ---- numbers: NumberType.parse(Object, coerce=false) for null_value ----

function numberFromObject(type: LeafFieldType, raw: unknown): number | string {
  const text = typeof raw === 'string' ? raw : javaToString(raw);
  const asDouble = (): number => (typeof raw === 'number' ? raw : parseJavaDouble(text));
  const integral = (min: number, max: number, label: string): number => {
    const d = asDouble();
    if (d < min || d > max) throw mappingErrors.illegalArgument(`Value [${text}] is out of range for ${label}`);
    if (d % 1 !== 0) throw mappingErrors.illegalArgument(`Value [${text}] has a decimal part`);
    return Math.trunc(d);
  };
  switch (type) {
    case 'long': {
      if (typeof raw === 'number' && Number.isSafeInteger(raw)) return raw;
      const d = asDouble();
      if (d < -9.223372036854776e18 || d > 9.223372036854776e18) throw mappingErrors.illegalArgument(`Value [${text}] is out of range for a long`);
      if (d % 1 !== 0) throw mappingErrors.illegalArgument(`Value [${text}] has a decimal part`);
      const exact = javaStringToLong(typeof raw === 'number' ? BigInt(Math.trunc(raw)).toString() : text, false);
      // Beyond 2^53 a JS number would change the value; keep the digits (printed back as a string).
      return Number.isSafeInteger(Number(exact)) ? Number(exact) : exact.toString();
    }
    case 'integer':
      return integral(-2147483648, 2147483647, 'an integer');
    case 'short':
      return integral(-32768, 32767, 'a short');
    case 'byte':
      return integral(-128, 127, 'a byte');
    case 'double':
    case 'scaled_float': {
      const d = asDouble();
      if (!Number.isFinite(d)) throw mappingErrors.illegalArgument(`[double] supports only finite values, but got [${javaDoubleString(d)}]`);
      return d;
    }
    case 'float': {
      const f = typeof raw === 'number' ? Math.fround(raw) : parseJavaFloat(text);
      if (!Number.isFinite(f)) throw mappingErrors.illegalArgument(`[float] supports only finite values, but got [${javaFloatString(f)}]`);
      return f;
    }
    case 'half_float': {
      const f = typeof raw === 'number' ? Math.fround(raw) : parseJavaFloat(text);
      if (!Number.isFinite(halfFloatRound(f))) throw mappingErrors.illegalArgument(`[half_float] supports only finite values, but got [${javaFloatString(f)}]`);
      return halfFloatRound(f);
    }
    default:
      return text;
  }
}

function withJavaErrors<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof JavaNumberError) throw new EsError(err.type, err.message);
    throw err;
  }
}

const numberNullValue = (type: LeafFieldType): ParamSpec => ({
  name: 'null_value',
  updateable: false,
  acceptsNull: true,
  defaultValue: () => null,
  read: (raw) => (raw === null ? null : withJavaErrors(() => numberFromObject(type, raw))),
});

const numberParams = (type: LeafFieldType): ParamSpec[] => [
  bool('index', true),
  bool('doc_values', true),
  bool('store', false),
  ignoreMalformed,
  bool('coerce', (ctx) => ctx.settings.coerce, true),
  numberNullValue(type),
  meta,
];

const scaledFloatParams: ParamSpec[] = [
  bool('index', true),
  bool('doc_values', true),
  bool('store', false),
  ignoreMalformed,
  meta,
  {
    name: 'scaling_factor',
    updateable: false,
    defaultValue: () => null,
    read: (raw) => {
      const d = typeof raw === 'number' ? raw : withJavaErrors(() => parseJavaDouble(nodeStringValue(raw)));
      return d;
    },
    validate: (value) => {
      if (value === null) throw mappingErrors.illegalArgument('Field [scaling_factor] is required');
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
        // The parsed double, as Java prints it (`-1` is `-1.0`).
        throw mappingErrors.illegalArgument(`[scaling_factor] must be a positive number, got [${typeof value === 'number' ? javaDoubleString(value) : javaToString(value)}]`);
      }
    },
  },
  bool('coerce', (ctx) => ctx.settings.coerce, true),
  numberNullValue('scaled_float'),
];

const textParams: ParamSpec[] = [
  bool('index', true),
  bool('store', false),
  restricted('index_options', ['positions', 'docs', 'freqs', 'offsets']),
  norms(true),
  restricted('term_vector', ['no', 'yes', 'with_positions', 'with_offsets', 'with_positions_offsets', 'with_positions_payloads', 'with_positions_offsets_payloads']),
  analyzer('analyzer', () => 'default', false),
  analyzer('search_analyzer', (ctx) => ctx.value('analyzer'), true),
  analyzer('search_quote_analyzer', (ctx) => ctx.value('search_analyzer'), true),
  similarity,
  {
    name: 'position_increment_gap',
    updateable: false,
    defaultValue: () => -1,
    read: (raw) => nodeIntegerValue(raw),
    validate: (value, ctx) => {
      if (value !== -1 && (value as number) < 0) {
        throw mappingErrors.mapperParsing(`[position_increment_gap] on field [${ctx.fieldName}] must be >= 0`);
      }
    },
  },
  bool('fielddata', false, true),
  numericObject('fielddata_frequency_filter', true, ['min', 'max', 'min_segment_size'], { min: 0, max: 2147483647, min_segment_size: 0 }),
  bool('eager_global_ordinals', false, true),
  bool('index_phrases', false),
  numericObject('index_prefixes', false, ['min_chars', 'max_chars'], null),
  meta,
];

const keywordParams: ParamSpec[] = [
  bool('index', true),
  bool('doc_values', true),
  bool('store', false),
  {
    name: 'null_value',
    updateable: false,
    acceptsNull: true,
    defaultValue: () => null,
    read: (raw) => (raw === null ? null : nodeStringValue(raw)),
  },
  bool('eager_global_ordinals', false, true),
  {
    name: 'ignore_above',
    updateable: true,
    defaultValue: () => 2147483647,
    read: (raw) => nodeIntegerValue(raw),
    validate: (value) => {
      if ((value as number) < 0) throw mappingErrors.illegalArgument(`[ignore_above] must be positive, got [${String(value)}]`);
    },
  },
  restricted('index_options', ['docs', 'freqs']),
  norms(false),
  similarity,
  {
    name: 'normalizer',
    updateable: false,
    acceptsNull: true,
    defaultValue: () => null,
    read: (raw, ctx) => {
      if (raw === null) return null;
      const name = nodeStringValue(raw);
      if (!ctx.normalizerExists(name)) throw mappingErrors.mapperParsing(`normalizer [${name}] not found for field [${ctx.fieldName}]`);
      return name;
    },
  },
  bool('split_queries_on_whitespace', false, true),
  meta,
];

const booleanParams: ParamSpec[] = [
  meta,
  bool('doc_values', true),
  bool('index', true),
  {
    name: 'null_value',
    updateable: false,
    acceptsNull: true,
    defaultValue: () => null,
    read: (raw) => (raw === null ? null : nodeBooleanValue(raw)),
  },
  bool('store', false),
  ignoreMalformed,
];

/** date and date_nanos: the same parameters; the format's default and null_value's range follow the resolution. */
const dateParams: ParamSpec[] = [
  bool('index', true),
  bool('doc_values', true),
  bool('store', false),
  {
    name: 'format',
    updateable: false,
    defaultValue: (ctx) => (ctx.type === 'date_nanos' ? DEFAULT_DATE_NANOS_FORMAT : DEFAULT_DATE_FORMAT),
    read: (raw) => nodeStringValue(raw),
    validate: (value, ctx) => {
      try {
        dateFormatter(value as string);
      } catch (err) {
        if (err instanceof DateFormatError) {
          throw mappingErrors.illegalArgument(`Error parsing [format] on field [${ctx.fieldName}]: ${err.message}`);
        }
        throw err;
      }
    },
  },
  {
    name: 'locale',
    updateable: false,
    defaultValue: () => '',
    read: (raw) => nodeStringValue(raw),
    // LocaleUtils.parse: at most language, country and variant.
    validate: (value) => {
      try {
        dateLocale(value as string);
      } catch (err) {
        if (err instanceof DateFormatError) throw mappingErrors.illegalArgument(err.message);
        throw err;
      }
    },
  },
  {
    name: 'null_value',
    updateable: false,
    acceptsNull: true,
    defaultValue: () => null,
    read: (raw) => (raw === null ? null : nodeStringValue(raw)),
    validate: (value, ctx) => {
      if (value === null) return;
      try {
        const formatter = dateFormatter(ctx.value('format') as string, ctx.value('locale') as string);
        if (ctx.type === 'date_nanos') checkNanosRange(formatter.parseNanos(value as string));
        else formatter.parseMillis(value as string);
      } catch (err) {
        if (err instanceof DateParseError || err instanceof DateTimeError || err instanceof DateFormatError || err instanceof DateNanosRangeError) {
          throw mappingErrors.mapperParsing(`Error parsing [null_value] on field [${ctx.fieldName}]: ${err.message}`);
        }
        throw err;
      }
    },
  },
  ignoreMalformed,
  meta,
];

/** IpFieldMapper's parameters (script, on_script_error and time_series_dimension are refused as unsupported). */
const ipParams: ParamSpec[] = [
  bool('index', true),
  bool('doc_values', true),
  bool('store', false),
  ignoreMalformed,
  {
    name: 'null_value',
    updateable: false,
    acceptsNull: true,
    defaultValue: () => null,
    read: (raw) => (raw === null ? null : nodeStringValue(raw)),
    validate: (value, ctx) => {
      if (value === null) return;
      try {
        parseIp(value as string);
      } catch (err) {
        if (err instanceof IpFormatError) throw mappingErrors.mapperParsing(`Error parsing [null_value] on field [${ctx.fieldName}]: ${err.message}`);
        throw err;
      }
    },
  },
  meta,
];

/** BinaryFieldMapper: never indexed; doc values are off unless asked for. */
const binaryParams: ParamSpec[] = [meta, bool('store', false), bool('doc_values', false)];

const PARAMS: Record<LeafFieldType, readonly ParamSpec[]> = {
  text: textParams,
  keyword: keywordParams,
  long: numberParams('long'),
  integer: numberParams('integer'),
  short: numberParams('short'),
  byte: numberParams('byte'),
  double: numberParams('double'),
  float: numberParams('float'),
  half_float: numberParams('half_float'),
  scaled_float: scaledFloatParams,
  boolean: booleanParams,
  date: dateParams,
  date_nanos: dateParams,
  ip: ipParams,
  binary: binaryParams,
};

export function paramSpecs(type: LeafFieldType): readonly ParamSpec[] {
  return PARAMS[type];
}

/** Parameters ES has for these types that Gannet does not implement: refused with a clear message, not ignored. */
export const UNSUPPORTED_PARAMS = new Set(['script', 'on_script_error', 'time_series_dimension', 'time_series_metric']);

/** Parameter values compare like Java's Objects.equals on the parsed values. */
export function paramEquals(a: ParamValue, b: ParamValue): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Parameters ES holds as a Java double or float (printed `10.0`, not `10`): scaling_factor, and null_value of the
 * floating-point types.
 */
export function floatingParamKind(type: string, name: string): 'double' | 'float' | undefined {
  if (name === 'scaling_factor' || (name === 'null_value' && (type === 'double' || type === 'scaled_float'))) return 'double';
  if (name === 'null_value' && (type === 'float' || type === 'half_float')) return 'float';
  return undefined;
}

/** How ES prints a parameter value in a conflict message (Objects.toString: Java's forms for doubles and floats). */
export function paramToString(value: ParamValue, floating?: 'double' | 'float'): string {
  if (typeof value === 'number') {
    if (floating === 'float') return javaFloatString(value);
    return Number.isInteger(value) && floating === undefined ? String(value) : javaDoubleString(value);
  }
  return javaToString(value);
}

/** A ParamContext reading `read` values with spec defaults behind them. */
export function paramContext(
  fieldName: string,
  type: LeafFieldType,
  values: Readonly<Record<string, ParamValue>>,
  ctx: { readonly settings: MappingSettings; readonly analyzerExists: (name: string) => boolean; readonly normalizerExists: (name: string) => boolean },
): ParamContext {
  const specs = paramSpecs(type);
  const context: ParamContext = {
    fieldName,
    type,
    settings: ctx.settings,
    analyzerExists: ctx.analyzerExists,
    normalizerExists: ctx.normalizerExists,
    value: (name) => {
      if (Object.hasOwn(values, name)) return values[name]!;
      const spec = specs.find((s) => s.name === name);
      return spec === undefined ? null : spec.defaultValue(context);
    },
  };
  return context;
}
