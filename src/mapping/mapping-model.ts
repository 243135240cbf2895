/**
 * Gannet's own model of an index mapping: immutable plain objects, parsed once from ES mapping JSON and
 * printed back in ES's GET _mapping shape. A field keeps only the parameters whose value differs from the
 * default (exactly what ES prints); everything else is read through mapping-params.ts.
 */

export type LeafFieldType =
  | 'text'
  | 'keyword'
  | 'long'
  | 'integer'
  | 'short'
  | 'byte'
  | 'double'
  | 'float'
  | 'half_float'
  | 'scaled_float'
  | 'boolean'
  | 'date'
  | 'date_nanos'
  | 'ip'
  | 'binary';

export const LEAF_FIELD_TYPES: readonly LeafFieldType[] = [
  'text', 'keyword', 'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'boolean', 'date',
  'date_nanos', 'ip', 'binary',
];

export type NumericFieldType = 'long' | 'integer' | 'short' | 'byte' | 'double' | 'float' | 'half_float' | 'scaled_float';

const NUMERIC_TYPES: ReadonlySet<string> = new Set(['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float']);

export function isNumericType(type: LeafFieldType): type is NumericFieldType {
  return NUMERIC_TYPES.has(type);
}

/** A parameter value as it appears in mapping JSON once normalised (booleans, numbers, strings, lists, maps). */
export type ParamValue = boolean | number | string | null | readonly string[] | { readonly [key: string]: unknown };

export interface FieldMapping {
  readonly kind: 'field';
  readonly type: LeafFieldType;
  /** Parameters whose value differs from the default, by ES parameter name. */
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Multi-fields (`fields`), by leaf name. */
  readonly fields: Readonly<Record<string, FieldMapping>>;
  readonly copyTo: readonly string[];
}

/** `dynamic` on an object; undefined means inherited from the parent (the root defaults to true). */
export type DynamicSetting = 'true' | 'false' | 'strict';

export interface ObjectMapping {
  readonly kind: 'object';
  readonly dynamic?: DynamicSetting;
  /** Only set when explicitly given; `enabled: false` objects keep their content in _source only. */
  readonly enabled?: boolean;
  readonly properties: Readonly<Record<string, MappingNode>>;
}

export type MappingNode = FieldMapping | ObjectMapping;

export interface DynamicTemplateDef {
  readonly name: string;
  readonly match: readonly string[];
  readonly unmatch: readonly string[];
  readonly pathMatch: readonly string[];
  readonly pathUnmatch: readonly string[];
  readonly matchMappingType: readonly string[];
  readonly unmatchMappingType: readonly string[];
  readonly matchPattern: 'default' | 'simple' | 'regex';
  /** The JSON-field types the template applies to (after match/unmatch_mapping_type). */
  readonly fieldTypes: readonly TemplateFieldType[];
  readonly mapping: { readonly [key: string]: unknown };
}

/** What ES calls XContentFieldType: the type of a JSON value as seen by dynamic mapping. */
export type TemplateFieldType = 'object' | 'string' | 'long' | 'double' | 'boolean' | 'date' | 'binary';

export const TEMPLATE_FIELD_TYPES: readonly TemplateFieldType[] = ['object', 'string', 'long', 'double', 'boolean', 'date', 'binary'];

export interface SourceSettings {
  readonly enabled?: boolean;
  readonly includes?: readonly string[];
  readonly excludes?: readonly string[];
  readonly mode?: 'stored' | 'synthetic' | 'disabled';
}

export interface RootMapping extends ObjectMapping {
  readonly dateDetection?: boolean;
  readonly numericDetection?: boolean;
  /** Explicit dynamic_date_formats; undefined means the defaults. */
  readonly dynamicDateFormats?: readonly string[];
  readonly dynamicTemplates?: readonly DynamicTemplateDef[];
  readonly source?: SourceSettings;
  readonly routingRequired?: boolean;
  readonly meta?: { readonly [key: string]: unknown };
}

export const EMPTY_ROOT: RootMapping = { kind: 'object', properties: {} };

/** ES's defaults for dynamic date detection (RootObjectMapper.Defaults). */
export const DEFAULT_DYNAMIC_DATE_FORMATS: readonly string[] = [
  'strict_date_optional_time||epoch_millis',
  'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis',
];

/** Index settings the mapping layer obeys (index.mapping.*). */
export interface MappingSettings {
  readonly totalFieldsLimit: number;
  readonly depthLimit: number;
  readonly fieldNameLengthLimit: number;
  readonly ignoreDynamicBeyondLimit: boolean;
  /** index.mapping.ignore_malformed: the default of every field's ignore_malformed. */
  readonly ignoreMalformed: boolean;
  /** index.mapping.coerce: the default of every numeric field's coerce. */
  readonly coerce: boolean;
}

export const DEFAULT_MAPPING_SETTINGS: MappingSettings = {
  totalFieldsLimit: 1000,
  depthLimit: 20,
  fieldNameLengthLimit: Number.MAX_SAFE_INTEGER,
  ignoreDynamicBeyondLimit: false,
  ignoreMalformed: false,
  coerce: true,
};

/** The name ES gives the root object in messages ("within [_doc]"). */
export const ROOT_NAME = '_doc';
