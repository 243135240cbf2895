/**
 * Request bodies of the template APIs into the cluster metadata's template model, with ES's field rules:
 * ComposableIndexTemplate.PARSER (`index_template`), ComponentTemplate.PARSER (`component_template`), the
 * shared Template.PARSER (`template`: settings, mappings, aliases) and PutIndexTemplateRequest.source for legacy
 * templates. Settings are normalised to flat `index.`-prefixed keys, mappings lose a `_doc` wrapper, aliases are
 * reduced to what AliasMetadata keeps.
 */
import { setOwnValue } from '../../common/own-keys.js';
import { templateErrors } from '../../common/errors.js';
import { normalizeSettings } from '../../indices/index.js';
import { unwrapDocType, type ComponentTemplate, type ComposableTemplate, type LegacyTemplate, type TemplateBody } from '../../cluster/metadata/templates/index.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function objectField(parser: string, field: string, value: unknown): Json {
  if (!isObject(value)) throw templateErrors.fieldType(parser, field, 'an object');
  return value;
}

/** ObjectParser string arrays also take a single string. */
function stringArray(parser: string, field: string, value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item): item is string => typeof item === 'string')) return value;
  throw templateErrors.fieldType(parser, field, 'a string or an array of strings');
}

function longField(parser: string, field: string, value: unknown): number {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) throw templateErrors.fieldType(parser, field, 'an integer');
  return number;
}

function booleanField(parser: string, field: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw templateErrors.fieldType(parser, field, 'a boolean');
}

/** Flat settings with the `index.` prefix; a null value (a reset) is not kept in a template. */
function flatSettings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, setting] of Object.entries(normalizeSettings(value))) if (setting !== null) setOwnValue(out, key, setting);
  return out;
}

/** Alias.fromXContent's reading of one definition, kept in AliasMetadata's printed form. */
export function normalizeAlias(definition: unknown): Json {
  const out: Json = {};
  if (!isObject(definition)) return out;
  let indexRouting: string | undefined;
  let searchRouting: string | undefined;
  for (const [key, value] of Object.entries(definition)) {
    if (key === 'filter' && isObject(value) && Object.keys(value).length > 0) out['filter'] = value;
    else if (key === 'routing' && typeof value === 'string') indexRouting = searchRouting = value;
    else if ((key === 'index_routing' || key === 'indexRouting' || key === 'index-routing') && typeof value === 'string') indexRouting = value;
    else if ((key === 'search_routing' || key === 'searchRouting' || key === 'search-routing') && typeof value === 'string') searchRouting = value;
  }
  if (indexRouting !== undefined) out['index_routing'] = indexRouting;
  if (searchRouting !== undefined) out['search_routing'] = searchRouting;
  if (typeof definition['is_write_index'] === 'boolean') out['is_write_index'] = definition['is_write_index'];
  if (typeof definition['is_hidden'] === 'boolean') out['is_hidden'] = definition['is_hidden'];
  return out;
}

function aliases(parser: string, value: unknown): Json {
  const out: Json = {};
  for (const [name, definition] of Object.entries(objectField(parser, 'aliases', value))) setOwnValue(out, name, normalizeAlias(definition));
  return out;
}

const UNSUPPORTED_TEMPLATE_FIELDS = new Set(['lifecycle', 'data_stream_options']);

/** The fields ES 8.19's parsers declare: the candidates of their "did you mean". */
const TEMPLATE_FIELDS = ['settings', 'mappings', 'aliases', 'lifecycle', 'data_stream_options'];
const COMPOSABLE_TEMPLATE_FIELDS = [
  'index_patterns', 'template', 'priority', 'composed_of', 'version', '_meta', 'data_stream', 'allow_auto_create',
  'ignore_missing_component_templates', 'deprecated',
];
const COMPONENT_TEMPLATE_FIELDS = ['template', 'version', '_meta', 'deprecated'];

/** Template.PARSER. */
export function parseTemplateBody(value: unknown): TemplateBody {
  const body = objectField('template', 'template', value);
  const out: { settings?: Record<string, string>; mappings?: Json; aliases?: Json } = {};
  for (const [key, field] of Object.entries(body)) {
    if (key === 'settings') out.settings = flatSettings(objectField('template', key, field));
    else if (key === 'mappings') out.mappings = unwrapDocType(objectField('template', key, field));
    else if (key === 'aliases') out.aliases = aliases('template', field);
    else if (UNSUPPORTED_TEMPLATE_FIELDS.has(key)) throw templateErrors.unsupportedField('template', key);
    else throw templateErrors.unknownField('template', key, TEMPLATE_FIELDS);
  }
  return out;
}

/** ComposableIndexTemplate.PARSER; `name` is for the data stream refusal. */
export function parseComposableTemplate(name: string, value: unknown): ComposableTemplate {
  const parser = 'index_template';
  const body = objectField(parser, parser, value);
  let indexPatterns: string[] | undefined;
  const out: { -readonly [K in keyof ComposableTemplate]?: ComposableTemplate[K] } = {};
  for (const [key, field] of Object.entries(body)) {
    switch (key) {
      case 'index_patterns':
        indexPatterns = stringArray(parser, key, field);
        break;
      case 'template':
        out.template = parseTemplateBody(field);
        break;
      case 'composed_of':
        out.composedOf = stringArray(parser, key, field);
        break;
      case 'priority':
        out.priority = longField(parser, key, field);
        break;
      case 'version':
        out.version = longField(parser, key, field);
        break;
      case '_meta':
        out.meta = objectField(parser, key, field);
        break;
      case 'allow_auto_create':
        out.allowAutoCreate = booleanField(parser, key, field);
        break;
      case 'ignore_missing_component_templates':
        out.ignoreMissingComponentTemplates = stringArray(parser, key, field);
        break;
      case 'data_stream':
        throw templateErrors.dataStreamUnsupported(name);
      default:
        throw templateErrors.unknownField(parser, key, COMPOSABLE_TEMPLATE_FIELDS);
    }
  }
  if (indexPatterns === undefined) throw templateErrors.requiredField('index_patterns');
  // PutComposableIndexTemplateAction.Request.validate.
  if (out.priority !== undefined && out.priority < 0) throw templateErrors.requestValidation(['index template priority must be >= 0']);
  return { indexPatterns, composedOf: [], ...out };
}

/** ComponentTemplate.PARSER. */
export function parseComponentTemplate(value: unknown): ComponentTemplate {
  const parser = 'component_template';
  const body = objectField(parser, parser, value);
  let template: TemplateBody | undefined;
  const out: { version?: number; meta?: Json } = {};
  for (const [key, field] of Object.entries(body)) {
    if (key === 'template') template = parseTemplateBody(field);
    else if (key === 'version') out.version = longField(parser, key, field);
    else if (key === '_meta') out.meta = objectField(parser, key, field);
    else throw templateErrors.unknownField(parser, key, COMPONENT_TEMPLATE_FIELDS);
  }
  if (template === undefined) throw templateErrors.requiredField('template');
  return { template, ...out };
}

/** PutIndexTemplateRequest.source, then its validate(). `order` from the URL is the default a body `order` overrides. */
export function parseLegacyTemplate(value: unknown, orderParam: number): LegacyTemplate {
  const body = isObject(value) ? value : {};
  let indexPatterns: string[] | undefined;
  let order = orderParam;
  let version: number | undefined;
  let settings: Record<string, string> = {};
  let mappings: Json = {};
  let templateAliases: Json = {};
  for (const [key, field] of Object.entries(body)) {
    switch (key) {
      case 'index_patterns':
        if (typeof field === 'string') indexPatterns = [field];
        else if (Array.isArray(field) && field.every((item): item is string => typeof item === 'string')) indexPatterns = field;
        else throw templateErrors.legacyMalformedPatterns();
        break;
      case 'order':
        order = longField('template', key, field);
        break;
      case 'version':
        version = field === null ? undefined : longField('template', key, field);
        break;
      case 'settings':
        settings = flatSettings(objectField('template', key, field));
        break;
      case 'mappings':
        mappings = unwrapDocType(objectField('template', key, field));
        break;
      case 'aliases':
        templateAliases = aliases('template', field);
        break;
      default:
        throw templateErrors.legacyUnknownKey(key);
    }
  }
  if (indexPatterns === undefined || indexPatterns.length === 0) throw templateErrors.requestValidation(['index patterns are missing']);
  return { order, ...(version === undefined ? {} : { version }), indexPatterns, settings, mappings, aliases: templateAliases };
}
