/**
 * Parses ES mapping JSON (the body of `mappings` in create index, or of PUT _mapping) into Gannet's model,
 * rejecting what ES rejects with ES's words. Every failure surfaces as ES does: mapper_parsing_exception
 * "Failed to parse mapping: <reason>" caused by the original error.
 */
import { EsError } from '../common/errors.js';
import { JsonFloat } from '../common/json-float.js';
import { DateFormatError } from './date/date-errors.js';
import { dateFormatter } from './date/date-formatter.js';
import { invalidTemplateError, parseDynamicTemplates, templateMappingForName, templateMappingType, defaultMappingType } from './dynamic-templates.js';
import { javaToString, mappingErrors } from './mapping-errors.js';
import { mergeObjectNodes } from './mapping-merge.js';
import { objectDepth } from './mapping-limits.js';
import {
  DEFAULT_MAPPING_SETTINGS,
  LEAF_FIELD_TYPES,
  type DynamicSetting,
  type FieldMapping,
  type LeafFieldType,
  type MappingNode,
  type MappingSettings,
  type ObjectMapping,
  type ParamValue,
  type RootMapping,
  type SourceSettings,
} from './mapping-model.js';
import { nodeBooleanValue, paramContext, paramEquals, paramSpecs, UNSUPPORTED_PARAMS, type ParamContext } from './mapping-params.js';
import { ownValue, setOwnValue } from '../common/own-keys.js';

export interface MappingParseOptions {
  /** Whether an analyzer name exists in the index (built-in or configured in index settings). */
  readonly analyzerExists?: (name: string) => boolean;
  readonly normalizerExists?: (name: string) => boolean;
  readonly settings?: MappingSettings;
}

/** ES's built-in analyzers, used when the caller does not say which analyzers exist. */
export const BUILT_IN_ANALYZERS: ReadonlySet<string> = new Set([
  'default', 'standard', 'simple', 'whitespace', 'stop', 'keyword', 'pattern', 'fingerprint',
  'arabic', 'armenian', 'basque', 'bengali', 'brazilian', 'bulgarian', 'catalan', 'cjk', 'czech', 'danish', 'dutch',
  'english', 'estonian', 'finnish', 'french', 'galician', 'german', 'greek', 'hindi', 'hungarian', 'indonesian', 'irish',
  'italian', 'latvian', 'lithuanian', 'norwegian', 'persian', 'portuguese', 'romanian', 'russian', 'serbian', 'sorani',
  'spanish', 'swedish', 'turkish', 'thai',
]);

export interface ParserContext {
  readonly settings: MappingSettings;
  readonly analyzerExists: (name: string) => boolean;
  readonly normalizerExists: (name: string) => boolean;
  readonly withinMultiField: boolean;
  /** Set while building a field from a dynamic template for a detected date: its default format. */
  readonly dateFormat?: string;
}

export function parserContext(options: MappingParseOptions = {}): ParserContext {
  return {
    settings: options.settings ?? DEFAULT_MAPPING_SETTINGS,
    analyzerExists: options.analyzerExists ?? ((name) => BUILT_IN_ANALYZERS.has(name)),
    normalizerExists: options.normalizerExists ?? ((name) => name === 'lowercase'),
    withinMultiField: false,
  };
}

/** Field types ES has that Gannet does not implement: named in a clear error rather than "No handler". */
const KNOWN_UNSUPPORTED_TYPES = new Set([
  'nested', 'flattened', 'geo_point', 'geo_shape', 'shape', 'point', 'completion', 'search_as_you_type',
  'token_count', 'match_only_text', 'wildcard', 'constant_keyword', 'unsigned_long', 'integer_range',
  'float_range', 'long_range', 'double_range', 'date_range', 'ip_range', 'alias', 'join', 'percolator', 'rank_feature',
  'rank_features', 'dense_vector', 'sparse_vector', 'semantic_text', 'histogram', 'aggregate_metric_double',
  'version', 'annotated_text', 'murmur3', 'counted_keyword', 'passthrough',
]);

const METADATA_NOT_CONFIGURABLE = new Set(['_id', '_index', '_ignored', '_seq_no', '_version', '_nested_path', '_tier', '_doc_count', '_ignored_source', '_data_stream_timestamp', '_field_names', '_feature', '_tsid', '_routing_hash']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Wraps any failure as ES's "Failed to parse mapping: ..." unless it already is one. */
function wrapped<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof EsError) {
      if (err.type === 'mapper_parsing_exception' && err.reason.startsWith('Failed to parse mapping: ')) throw err;
      // The same error ES raises when it checks the merged mapping's limits, not a parse failure.
      if (err.type === 'illegal_argument_exception' && err.reason.startsWith('Limit of mapping depth [')) throw err;
      throw mappingErrors.failedToParseMapping(err);
    }
    throw err;
  }
}

/** Parses a whole mapping (`{"properties": ..., "dynamic": ..., "_source": ...}`, optionally under `_doc`). */
export function parseMapping(json: unknown, options: MappingParseOptions = {}): RootMapping {
  return wrapped(() => parseRoot(json, parserContext(options)));
}

function parseRoot(json: unknown, ctx: ParserContext): RootMapping {
  if (!isPlainObject(json)) throw mappingErrors.mapperParsing('Failed to derive type');
  let source = json;
  const keys = Object.keys(source);
  if (keys.length === 1 && keys[0] === '_doc' && isPlainObject(source['_doc'])) source = source['_doc'];
  const remaining: Record<string, unknown> = {};
  let root: { -readonly [K in keyof RootMapping]: RootMapping[K] } = { kind: 'object', properties: {} };
  // Pass 1, as RootObjectMapper.parse: object settings, properties and the root-only settings.
  for (const [key, value] of Object.entries(source)) {
    if (readObjectSetting(key, value, root, ctx, '')) continue;
    switch (key) {
      case 'date_detection':
        root.dateDetection = namedBoolean(value, 'date_detection');
        break;
      case 'numeric_detection':
        root.numericDetection = namedBoolean(value, 'numeric_detection');
        break;
      case 'date_formats':
      case 'dynamic_date_formats':
        root.dynamicDateFormats = readDynamicDateFormats(value);
        break;
      case 'dynamic_templates': {
        const templates = parseDynamicTemplates(value);
        for (const template of templates) validateTemplate(template, ctx);
        root.dynamicTemplates = templates;
        break;
      }
      case 'runtime':
        throw mappingErrors.mapperParsing('runtime fields are not supported by gannet');
      default:
        setOwnValue(remaining, key, value);
    }
  }
  // Pass 2: metadata fields and _meta, then anything left is an error.
  for (const [key, value] of Object.entries(remaining)) {
    if (key === '_source') {
      root.source = readSource(value);
    } else if (key === '_routing') {
      root.routingRequired = readRouting(value);
    } else if (key === '_meta') {
      if (!isPlainObject(value)) throw mappingErrors.mapperParsing('[_meta] must be an object');
      root.meta = value;
    } else if (METADATA_NOT_CONFIGURABLE.has(key)) {
      if (!isPlainObject(value)) throw mappingErrors.illegalArgument(`[${key}] config must be an object`);
      throw mappingErrors.mapperParsing(`${key} is not configurable`);
    } else continue;
    delete remaining[key];
  }
  checkNoRemainingFields(remaining, 'Root mapping definition has unsupported parameters: ');
  root = { ...root };
  return root;
}

function checkNoRemainingFields(remaining: Record<string, unknown>, message: string): void {
  const entries = Object.entries(remaining);
  if (entries.length === 0) return;
  throw mappingErrors.mapperParsing(message + entries.map(([k, v]) => ` [${k} : ${javaToString(v)}]`).join(''));
}

/** XContentMapValues.nodeBooleanValue(node, name): wraps the strict boolean error. */
function namedBoolean(value: unknown, name: string): boolean {
  try {
    return nodeBooleanValue(value);
  } catch (err) {
    if (err instanceof EsError) throw mappingErrors.illegalArgument(`Could not convert [${name}] to boolean`, err);
    throw err;
  }
}

function readDynamicDateFormats(value: unknown): string[] {
  const formats = Array.isArray(value) ? value.map((f) => javaToString(f)) : javaToString(value) === 'none' ? [] : [javaToString(value)];
  for (const format of formats) {
    if (Array.isArray(value) && format.startsWith('epoch_')) {
      throw mappingErrors.mapperParsing(`Epoch [${format}] is not supported as dynamic date format`);
    }
    try {
      dateFormatter(format);
    } catch (err) {
      if (err instanceof DateFormatError) throw mappingErrors.illegalArgument(err.message);
      throw err;
    }
  }
  return formats;
}

/** The object settings shared by the root and inner objects; returns false for keys it does not own. */
function readObjectSetting(
  key: string,
  value: unknown,
  target: { dynamic?: DynamicSetting; enabled?: boolean; properties: Readonly<Record<string, MappingNode>> },
  ctx: ParserContext,
  path: string,
): boolean {
  switch (key) {
    case 'dynamic': {
      const text = javaToString(value);
      if (text.toLowerCase() === 'strict') target.dynamic = 'strict';
      else if (text.toLowerCase() === 'runtime') {
        throw mappingErrors.mapperParsing('[dynamic: runtime] is not supported by gannet; use true, false or strict');
      } else target.dynamic = namedBoolean(value, 'dynamic.dynamic') ? 'true' : 'false';
      return true;
    }
    case 'enabled':
      target.enabled = namedBoolean(value, 'enabled.enabled');
      return true;
    case 'properties':
      if (Array.isArray(value) && value.length === 0) return true;
      if (!isPlainObject(value)) throw new EsError('parse_exception', 'properties must be a map type');
      target.properties = parseProperties(value, ctx, path);
      return true;
    case 'include_in_all':
      return true;
    case 'subobjects':
      throw mappingErrors.mapperParsing('[subobjects] is not supported by gannet');
    default:
      return false;
  }
}

function parseProperties(props: Record<string, unknown>, ctx: ParserContext, parentPath: string): Record<string, MappingNode> {
  let result: Record<string, MappingNode> = {};
  for (const [fieldName, node] of Object.entries(props)) {
    if (Array.isArray(node) && node.length === 0) continue;
    if (!isPlainObject(node)) {
      throw mappingErrors.mapperParsing(`Expected map for property [fields] on field [${fieldName}] but got a class java.lang.String`);
    }
    if (fieldName.length === 0) throw mappingErrors.illegalArgument('field name cannot be an empty string');
    const parts = fieldName.split('.');
    if (parts.some((p) => p.length === 0)) throw mappingErrors.illegalArgument('name cannot be empty string');
    const leafName = parts[parts.length - 1]!;
    const fullPath = parentPath === '' ? fieldName : `${parentPath}.${fieldName}`;
    // Checked while descending so that a mapping nested thousands of levels deep fails before it recurses.
    if (parentPath !== '' && objectDepth(parentPath) > ctx.settings.depthLimit) throw mappingErrors.depthExceeded(ctx.settings.depthLimit, parentPath);
    let built: MappingNode = parseNode(fieldName, leafName, { ...node }, ctx, fullPath);
    // "a.b.c" in properties declares objects a and b around field c.
    for (let i = parts.length - 2; i >= 0; i--) built = { kind: 'object', properties: { [parts[i + 1]!]: built } };
    const top = parts[0]!;
    const existing = ownValue(result, top);
    const node0 = parts.length > 1 ? built : built;
    result = { ...result, [top]: existing === undefined ? node0 : mergeObjectNodes(existing, node0, parentPath === '' ? top : `${parentPath}.${top}`, ctx.settings) };
  }
  return result;
}

function typeOf(fieldName: string, node: Record<string, unknown>): string {
  const typeNode = node['type'];
  if (typeNode !== undefined && typeNode !== null) return javaToString(typeNode);
  if (node['properties'] !== undefined && node['properties'] !== null) return 'object';
  if (Object.keys(node).length === 1 && node['enabled'] !== undefined && node['enabled'] !== null) return 'object';
  throw mappingErrors.mapperParsing(`No type specified for field [${fieldName}]`);
}

/** One entry of `properties`: an object or a leaf field. */
export function parseNode(
  declaredName: string,
  leafName: string,
  node: Record<string, unknown>,
  ctx: ParserContext,
  fullPath: string,
): MappingNode {
  const type = typeOf(declaredName, node);
  if (type === 'object') return parseObject(declaredName, node, ctx, fullPath);
  if (!(LEAF_FIELD_TYPES as readonly string[]).includes(type)) {
    if (KNOWN_UNSUPPORTED_TYPES.has(type)) {
      throw mappingErrors.mapperParsing(`field type [${type}] declared on field [${declaredName}] is not supported by gannet`);
    }
    throw mappingErrors.mapperParsing(`No handler for type [${type}] declared on field [${declaredName}]`);
  }
  return parseLeaf(leafName, type as LeafFieldType, node, ctx);
}

function parseObject(declaredName: string, node: Record<string, unknown>, ctx: ParserContext, fullPath: string): ObjectMapping {
  const target: { dynamic?: DynamicSetting; enabled?: boolean; properties: Readonly<Record<string, MappingNode>> } = { properties: {} };
  const remaining: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    if (!readObjectSetting(key, value, target, ctx, fullPath)) setOwnValue(remaining, key, value);
  }
  checkNoRemainingFields(remaining, `Mapping definition for [${declaredName}] has unsupported parameters: `);
  const result: { -readonly [K in keyof ObjectMapping]: ObjectMapping[K] } = { kind: 'object', properties: target.properties };
  if (target.dynamic !== undefined) result.dynamic = target.dynamic;
  if (target.enabled !== undefined) result.enabled = target.enabled;
  return result;
}

/** FieldMapper.Builder.parse for one leaf field (name is the leaf name, as ES reports it). */
export function parseLeaf(name: string, type: LeafFieldType, node: Record<string, unknown>, ctx: ParserContext): FieldMapping {
  const specs = paramSpecs(type);
  const read: Record<string, ParamValue> = {};
  let fields: Record<string, FieldMapping> = {};
  let copyTo: string[] = [];
  for (const [prop, value] of Object.entries(node)) {
    if (prop === 'type') continue;
    if (prop === 'fields') {
      fields = parseMultiFields(name, value, ctx);
      continue;
    }
    if (prop === 'copy_to') {
      copyTo = Array.isArray(value) ? value.map((v) => javaToString(v)) : [javaToString(value)];
      continue;
    }
    if (prop === 'boost') throw mappingErrors.mapperParsing(`Unknown parameter [boost] on mapper [${name}]`);
    const spec = specs.find((s) => s.name === prop);
    if (spec === undefined) {
      if (UNSUPPORTED_PARAMS.has(prop)) {
        throw mappingErrors.mapperParsing(`parameter [${prop}] on mapper [${name}] of type [${type}] is not supported by gannet`);
      }
      throw mappingErrors.mapperParsing(`unknown parameter [${prop}] on mapper [${name}] of type [${type}]`);
    }
    if (value === null && spec.acceptsNull !== true) {
      throw mappingErrors.mapperParsing(`[${prop}] on mapper [${name}] of type [${type}] must not have a [null] value`);
    }
    // A mapping Gannet serialized itself (an existing mapping merged with an update) holds doubles as JsonFloat.
    read[prop] = spec.read(value instanceof JsonFloat ? value.value : value, paramContext(name, type, read, ctx));
  }
  if ((type === 'date' || type === 'date_nanos') && read['format'] === undefined && ctx.dateFormat !== undefined) read['format'] = ctx.dateFormat;
  const pctx = paramContext(name, type, read, ctx);
  for (const spec of specs) spec.validate?.(pctx.value(spec.name), pctx);
  validateBuild(name, type, pctx);
  // Keep only what differs from the default: that is what ES prints back.
  const params: Record<string, ParamValue> = {};
  for (const spec of specs) {
    if (!Object.hasOwn(read, spec.name)) continue;
    if (!paramEquals(read[spec.name]!, spec.defaultValue(pctx))) params[spec.name] = read[spec.name]!;
  }
  return { kind: 'field', type, params, fields, copyTo };
}

function validateBuild(name: string, type: LeafFieldType, ctx: ParamContext): void {
  if (type === 'text' && ctx.value('position_increment_gap') !== -1) {
    const options = ctx.value('index_options');
    if (options === 'docs' || options === 'freqs') {
      throw mappingErrors.illegalArgument(`Cannot set position_increment_gap on field [${name}] without positions enabled`);
    }
  }
  if (type === 'text' && ctx.value('index_phrases') === true) {
    if (ctx.value('index') === false) throw mappingErrors.illegalArgument(`Cannot set index_phrases on unindexed field [${name}]`);
    const options = ctx.value('index_options');
    if (options === 'docs' || options === 'freqs') {
      throw mappingErrors.illegalArgument(`Cannot set index_phrases on field [${name}] if positions are not enabled`);
    }
  }
}

function parseMultiFields(parentName: string, value: unknown, ctx: ParserContext): Record<string, FieldMapping> {
  if (ctx.withinMultiField) {
    throw mappingErrors.illegalArgument(
      `Encountered a multi-field [${parentName}] which itself contains a multi-field. Defining chained multi-fields is not supported.`,
    );
  }
  if (Array.isArray(value) && value.length === 0) return {};
  if (!isPlainObject(value)) {
    throw mappingErrors.mapperParsing(`expected map for property [fields] on field [${javaToString(value)}] or [fields] but got a class java.lang.String`);
  }
  const multiCtx: ParserContext = { ...ctx, withinMultiField: true, dateFormat: undefined };
  const result: Record<string, FieldMapping> = {};
  for (const [name, node] of Object.entries(value)) {
    if (name.includes('.')) {
      throw mappingErrors.mapperParsing(`Field name [${name}] which is a multi field of [${parentName}] cannot contain '.'`);
    }
    if (!isPlainObject(node)) throw mappingErrors.mapperParsing(`illegal field [${name}], only fields can be specified inside fields`);
    const typeNode = node['type'];
    if (typeNode === undefined || typeNode === null) throw mappingErrors.mapperParsing(`no type specified for property [${name}]`);
    const type = javaToString(typeNode);
    if (type === 'object' || type === 'nested' || type === 'alias') {
      throw mappingErrors.mapperParsing(`Type [${type}] cannot be used in multi field`);
    }
    if (!(LEAF_FIELD_TYPES as readonly string[]).includes(type)) {
      if (KNOWN_UNSUPPORTED_TYPES.has(type)) {
        throw mappingErrors.mapperParsing(`field type [${type}] declared on field [${name}] is not supported by gannet`);
      }
      throw mappingErrors.mapperParsing(`no handler for type [${type}] declared on field [${name}]`);
    }
    setOwnValue(result, name, parseLeaf(name, type as LeafFieldType, { ...node }, multiCtx));
  }
  return result;
}

function readSource(value: unknown): SourceSettings {
  if (!isPlainObject(value)) throw mappingErrors.illegalArgument('[_source] config must be an object');
  const source: { -readonly [K in keyof SourceSettings]: SourceSettings[K] } = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'enabled') source.enabled = nodeBooleanValue(v);
    else if (key === 'includes' || key === 'excludes') {
      if (!Array.isArray(v)) throw mappingErrors.mapperParsing(`[${key}] must be a list of strings`);
      source[key] = v.map((s) => javaToString(s));
    } else if (key === 'mode') {
      const mode = javaToString(v);
      if (mode !== 'stored' && mode !== 'synthetic' && mode !== 'disabled') {
        throw mappingErrors.mapperParsing(`Unknown value [${mode}] for field [mode] - accepted values are [disabled, stored, synthetic]`);
      }
      if (mode === 'synthetic') throw mappingErrors.mapperParsing('synthetic _source is not supported by gannet');
      source.mode = mode;
    } else throw mappingErrors.mapperParsing(`unknown parameter [${key}] on mapper [_source] of type [null]`);
  }
  return source;
}

function readRouting(value: unknown): boolean {
  if (!isPlainObject(value)) throw mappingErrors.illegalArgument('[_routing] config must be an object');
  let required = false;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'required') required = nodeBooleanValue(v);
    else throw mappingErrors.mapperParsing(`unknown parameter [${key}] on mapper [_routing] of type [null]`);
  }
  return required;
}

/**
 * RootObjectMapper.validateDynamicTemplate: the template's mapping must build for at least one of its types
 * (skipped when it uses {name}, which cannot be resolved up front).
 */
function validateTemplate(template: ReturnType<typeof parseDynamicTemplates>[number], ctx: ParserContext): void {
  if (nestingDepth(template.mapping) > 100) {
    throw mappingErrors.mapperParsing(`dynamic template [${template.name}] has a mapping nested deeper than 100 levels`);
  }
  if (JSON.stringify(template.mapping).includes('{name}')) return;
  let lastError: EsError | undefined;
  for (const fieldType of template.fieldTypes) {
    const dynamicType = defaultMappingType(fieldType);
    const mappingType = templateMappingType(template, dynamicType);
    const name = `__dynamic__${template.name}`;
    try {
      const node = { ...templateMappingForName(template, name, dynamicType), type: mappingType };
      if (mappingType === 'binary' && fieldType === 'binary') return;
      parseNode(name, name, node, ctx, name);
      return;
    } catch (err) {
      if (!(err instanceof EsError)) throw err;
      lastError = err;
    }
  }
  if (lastError !== undefined) throw invalidTemplateError(template, lastError);
}

/** How deeply a JSON value nests (iterative: the value may come from an arbitrarily deep request). */
function nestingDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    max = Math.max(max, depth);
    if (max > 1000) return max;
    for (const child of Object.values(current as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return max;
}
