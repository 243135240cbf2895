/**
 * The `highlight` section as ES's HighlightBuilder parses and builds it: global options, per-field options
 * that override them (SearchHighlightContext.FieldOptions.Builder.merge: a field's unset option, or a
 * fragment_size/number_of_fragments/no_match_size of -1, takes the global one), and ES's defaults (`<em>`
 * and `</em>`, fragment_size 100, number_of_fragments 5, require_field_match true, order none, encoder
 * default, no_match_size 0). `fields` is an object, or an array of one-field objects when order matters.
 */
import { didYouMean } from '../../common/did-you-mean.js';
import type { JsonValue, QueryAst } from '../dsl/ast/query-ast.js';
import { parseTopLevelQuery } from '../dsl/parse/inner-query.js';
import { XContentParser } from '../dsl/xcontent/xcontent-parser.js';
import { illegalArgument, parsingError, xContentParseError } from '../dsl/xcontent/xcontent-errors.js';
import { EsError, describeError } from '../../common/errors.js';

export const DEFAULT_PRE_TAGS: readonly string[] = ['<em>'];
export const DEFAULT_POST_TAGS: readonly string[] = ['</em>'];
export const STYLED_PRE_TAGS: readonly string[] = Array.from({ length: 10 }, (_, i) => `<em class="hlt${i + 1}">`);
export const STYLED_POST_TAGS: readonly string[] = ['</em>'];
/** HighlightBuilder's upper bound on number_of_fragments. */
export const MAX_NUMBER_OF_FRAGMENTS = 100000;

/** Options as given at one level (global or field); undefined = not set there. */
interface PartialOptions {
  preTags?: string[];
  postTags?: string[];
  fragmentSize?: number;
  numberOfFragments?: number;
  encoder?: string;
  scoreOrdered?: boolean;
  requireFieldMatch?: boolean;
  type?: string;
  fragmenter?: string;
  noMatchSize?: number;
  maxAnalyzedOffset?: number;
  highlightQuery?: QueryAst;
  boundaryScanner?: string;
  boundaryMaxScan?: number;
  boundaryChars?: string;
  phraseLimit?: number;
  forceSource?: boolean;
  matchedFields?: string[];
  fragmentOffset?: number;
}

/** A field's effective options once merged with the global ones and the defaults. */
export interface HighlightFieldOptions {
  readonly preTags: readonly string[];
  readonly postTags: readonly string[];
  readonly fragmentSize: number;
  readonly numberOfFragments: number;
  /** `html` escapes the text around the tags; anything else leaves it as is. */
  readonly encoder: string;
  readonly scoreOrdered: boolean;
  readonly requireFieldMatch: boolean;
  /** The highlighter type; undefined means ES's default, `unified`. */
  readonly type: string | undefined;
  readonly fragmenter: string | undefined;
  readonly noMatchSize: number;
  readonly maxAnalyzedOffset: number | undefined;
  readonly highlightQuery: QueryAst | undefined;
  readonly boundaryScanner: string | undefined;
  readonly boundaryMaxScan: number;
  readonly boundaryChars: string;
  readonly phraseLimit: number;
  readonly matchedFields: readonly string[] | undefined;
}

export interface HighlightFieldSpec {
  /** The field name or pattern as requested. */
  readonly field: string;
  readonly options: HighlightFieldOptions;
}

export interface HighlightSpec {
  readonly fields: readonly HighlightFieldSpec[];
}

type Setter = (value: JsonValue, target: PartialOptions) => void;

function typeName(value: JsonValue): string {
  if (value === null) return 'VALUE_NULL';
  if (typeof value === 'string') return 'VALUE_STRING';
  if (typeof value === 'boolean') return 'VALUE_BOOLEAN';
  if (typeof value === 'number' || typeof value === 'bigint') return 'VALUE_NUMBER';
  return Array.isArray(value) ? 'START_ARRAY' : 'START_OBJECT';
}

class FieldTypeError extends Error {}

function asString(value: JsonValue): string {
  if (typeof value !== 'string') throw new FieldTypeError(typeName(value));
  return value;
}

/** ObjectParser's int: a number, or a string holding one. */
function asInt(value: JsonValue): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) return Number(value.trim());
  if (typeof value === 'number' || typeof value === 'string') throw illegalArgument(`For input string: "${String(value)}"`);
  throw new FieldTypeError(typeName(value));
}

function asBoolean(value: JsonValue): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value === 'string') throw illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
  throw new FieldTypeError(typeName(value));
}

/** declareStringArray: an array of strings, or a single string. */
function asStringArray(value: JsonValue): string[] {
  if (Array.isArray(value)) return value.map(asString);
  return [asString(value)];
}

function stringifyJson(value: JsonValue): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stringifyJson).join(',')}]`;
  return `{${Object.entries(value)
    .map(([key, child]) => `${JSON.stringify(key)}:${stringifyJson(child)}`)
    .join(',')}}`;
}

const COMMON: Record<string, Setter> = {
  pre_tags: (v, t) => (t.preTags = asStringArray(v)),
  post_tags: (v, t) => (t.postTags = asStringArray(v)),
  order: (v, t) => (t.scoreOrdered = asString(v).toUpperCase() === 'SCORE'),
  highlight_filter: (v) => void asBoolean(v),
  fragment_size: (v, t) => (t.fragmentSize = asInt(v)),
  number_of_fragments: (v, t) => {
    const value = asInt(v);
    if (value < 0 || value > MAX_NUMBER_OF_FRAGMENTS) {
      throw illegalArgument(`[number_of_fragments] must be between [0] and [${MAX_NUMBER_OF_FRAGMENTS}]`);
    }
    t.numberOfFragments = value;
  },
  encoder: (v, t) => (t.encoder = asString(v)),
  tags_schema: (v, t) => {
    const schema = asString(v);
    if (schema === 'default') {
      t.preTags = [...DEFAULT_PRE_TAGS];
      t.postTags = [...DEFAULT_POST_TAGS];
    } else if (schema === 'styled') {
      t.preTags = [...STYLED_PRE_TAGS];
      t.postTags = [...STYLED_POST_TAGS];
    } else throw illegalArgument(`Unknown tag schema [${schema}]`);
  },
  require_field_match: (v, t) => (t.requireFieldMatch = asBoolean(v)),
  boundary_scanner: (v, t) => {
    const scanner = asString(v).toLowerCase();
    if (scanner !== 'chars' && scanner !== 'word' && scanner !== 'sentence') throw illegalArgument(`Invalid boundary scanner type: [${asString(v)}]`);
    t.boundaryScanner = scanner;
  },
  boundary_max_scan: (v, t) => (t.boundaryMaxScan = asInt(v)),
  boundary_chars: (v, t) => (t.boundaryChars = asString(v)),
  boundary_scanner_locale: (v) => void asString(v),
  type: (v, t) => (t.type = asString(v)),
  fragmenter: (v, t) => (t.fragmenter = asString(v)),
  no_match_size: (v, t) => (t.noMatchSize = asInt(v)),
  phrase_limit: (v, t) => (t.phraseLimit = asInt(v)),
  max_analyzed_offset: (v, t) => {
    const value = asInt(v);
    if (value < -1 || value === 0) throw illegalArgument('[max_analyzed_offset] must be a positive integer, or -1');
    t.maxAnalyzedOffset = value;
  },
  force_source: (v, t) => (t.forceSource = asBoolean(v)),
  options: (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new FieldTypeError(typeName(v));
  },
  highlight_query: (v, t) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new FieldTypeError(typeName(v));
    t.highlightQuery = parseTopLevelQuery(XContentParser.fromString(stringifyJson(v)));
  },
};

const FIELD_ONLY: Record<string, Setter> = {
  fragment_offset: (v, t) => (t.fragmentOffset = asInt(v)),
  matched_fields: (v, t) => (t.matchedFields = asStringArray(v)),
};

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** ObjectParser.parse for one level: unknown keys and bad values fail as ES reports them. */
function parseLevel(parserName: string, object: { [key: string]: JsonValue }, setters: Record<string, Setter>, skip: ReadonlySet<string>): PartialOptions {
  const target: PartialOptions = {};
  for (const [key, value] of Object.entries(object)) {
    if (skip.has(key)) continue;
    const setter = Object.hasOwn(setters, key) ? setters[key] : undefined;
    if (setter === undefined) throw xContentParseError(undefined, `[${parserName}] unknown field [${key}]${didYouMean(key, [...Object.keys(setters), ...skip])}`);
    try {
      setter(value, target);
    } catch (err) {
      if (err instanceof FieldTypeError) throw xContentParseError(undefined, `[${parserName}] ${key} doesn't support values of type: ${err.message}`);
      const cause = err instanceof EsError ? err : illegalArgument(describeError(err));
      throw xContentParseError(undefined, `[${parserName}] failed to parse field [${key}]`, cause);
    }
  }
  if (target.preTags !== undefined && target.postTags === undefined) throw parsingError(undefined, 'pre_tags are set but post_tags are not set');
  if (target.preTags !== undefined && target.postTags !== undefined && (target.preTags.length === 0 || target.postTags.length === 0)) {
    throw parsingError(undefined, 'pre_tags or post_tags must not be empty');
  }
  return target;
}

function merge(field: PartialOptions, global: HighlightFieldOptions): HighlightFieldOptions {
  const unsetAsMinusOne = (value: number | undefined, fallback: number): number => (value === undefined || value === -1 ? fallback : value);
  return {
    preTags: field.preTags ?? global.preTags,
    postTags: field.postTags ?? global.postTags,
    fragmentSize: unsetAsMinusOne(field.fragmentSize, global.fragmentSize),
    numberOfFragments: unsetAsMinusOne(field.numberOfFragments, global.numberOfFragments),
    encoder: field.encoder ?? global.encoder,
    scoreOrdered: field.scoreOrdered ?? global.scoreOrdered,
    requireFieldMatch: field.requireFieldMatch ?? global.requireFieldMatch,
    type: field.type ?? global.type,
    fragmenter: field.fragmenter ?? global.fragmenter,
    noMatchSize: unsetAsMinusOne(field.noMatchSize, global.noMatchSize),
    maxAnalyzedOffset: field.maxAnalyzedOffset ?? global.maxAnalyzedOffset,
    highlightQuery: field.highlightQuery ?? global.highlightQuery,
    boundaryScanner: field.boundaryScanner ?? global.boundaryScanner,
    boundaryMaxScan: unsetAsMinusOne(field.boundaryMaxScan, global.boundaryMaxScan),
    boundaryChars: field.boundaryChars ?? global.boundaryChars,
    phraseLimit: unsetAsMinusOne(field.phraseLimit, global.phraseLimit),
    matchedFields: field.matchedFields,
  };
}

const DEFAULTS: HighlightFieldOptions = {
  preTags: DEFAULT_PRE_TAGS,
  postTags: DEFAULT_POST_TAGS,
  fragmentSize: 100,
  numberOfFragments: 5,
  encoder: 'default',
  scoreOrdered: false,
  requireFieldMatch: true,
  type: undefined,
  fragmenter: undefined,
  noMatchSize: 0,
  maxAnalyzedOffset: undefined,
  highlightQuery: undefined,
  boundaryScanner: undefined,
  boundaryMaxScan: 20,
  boundaryChars: '.,!? \t\n',
  phraseLimit: 256,
  matchedFields: undefined,
};

const FIELD_SETTERS: Record<string, Setter> = { ...COMMON, ...FIELD_ONLY };

/** Parses the request's `highlight` object (as the DSL parser kept it) into per-field options. */
export function parseHighlight(highlight: { readonly [key: string]: JsonValue }): HighlightSpec {
  const global = merge(parseLevel('highlight', highlight, COMMON, new Set(['fields'])), DEFAULTS);
  const entries: Array<[string, JsonValue]> = [];
  const fields = highlight['fields'];
  if (isObject(fields)) entries.push(...Object.entries(fields));
  else if (Array.isArray(fields)) {
    for (const entry of fields) {
      if (!isObject(entry) || Object.keys(entry).length !== 1) {
        throw xContentParseError(undefined, '[fields] can be a single object with any number of fields or an array where each entry is an object with a single field');
      }
      entries.push(...Object.entries(entry));
    }
  }
  // SearchHighlightContext keys fields by name: a repeated name keeps its first place and its last options.
  const byName = new Map<string, HighlightFieldOptions>();
  for (const [name, options] of entries) {
    if (!isObject(options)) throw xContentParseError(undefined, `[highlight_field] ${name} doesn't support values of type: ${typeName(options)}`);
    byName.set(name, merge(parseLevel('highlight_field', options, FIELD_SETTERS, new Set()), global));
  }
  return { fields: [...byName].map(([field, options]) => ({ field, options })) };
}
