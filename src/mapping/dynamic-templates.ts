/**
 * `dynamic_templates` as ES's DynamicTemplate parses and matches them: match/unmatch on the leaf name,
 * path_match/path_unmatch on the full path (simple `*` wildcards, or regex with match_pattern), and
 * match_mapping_type/unmatch_mapping_type on the JSON value's type. `{name}` and `{dynamic_type}` are
 * substituted into the template's mapping when it is applied.
 */
import { simpleMatch } from '../common/wildcards.js';
import { EsError } from '../common/errors.js';
import { setOwnValue } from '../common/own-keys.js';
import { javaToString, mappingErrors } from './mapping-errors.js';
import {
  TEMPLATE_FIELD_TYPES,
  type DynamicTemplateDef,
  type TemplateFieldType,
} from './mapping-model.js';

const DEFAULT_MAPPING_TYPE: Record<TemplateFieldType, string> = {
  object: 'object',
  string: 'text',
  long: 'long',
  double: 'float',
  boolean: 'boolean',
  date: 'date',
  binary: 'binary',
};

export function defaultMappingType(type: TemplateFieldType): string {
  return DEFAULT_MAPPING_TYPE[type];
}

function patternList(propName: string, value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.map((item) => {
      if (typeof item !== 'string') {
        throw mappingErrors.mapperParsing(`[${propName}] values must either be a string or list of strings, but was [${javaToString(value)}]`);
      }
      return item;
    });
  }
  return [javaToString(value)];
}

function fieldTypeFromString(value: string): TemplateFieldType {
  if ((TEMPLATE_FIELD_TYPES as readonly string[]).includes(value)) return value as TemplateFieldType;
  throw mappingErrors.illegalArgument(`No field type matched on [${value}], possible values are [${TEMPLATE_FIELD_TYPES.join(', ')}]`);
}

/** DynamicTemplate.parse. */
export function parseDynamicTemplate(name: string, conf: unknown): DynamicTemplateDef {
  if (conf === null || typeof conf !== 'object' || Array.isArray(conf)) {
    throw mappingErrors.mapperParsing(`template [${name}] must have either mapping or runtime set`);
  }
  const match: string[] = [];
  const unmatch: string[] = [];
  const pathMatch: string[] = [];
  const pathUnmatch: string[] = [];
  const matchMappingType: string[] = [];
  const unmatchMappingType: string[] = [];
  let matchPattern = 'default';
  let mapping: Record<string, unknown> | undefined;
  for (const [prop, value] of Object.entries(conf as Record<string, unknown>)) {
    switch (prop) {
      case 'match':
        match.push(...patternList(prop, value));
        break;
      case 'path_match':
        pathMatch.push(...patternList(prop, value));
        break;
      case 'unmatch':
        unmatch.push(...patternList(prop, value));
        break;
      case 'path_unmatch':
        pathUnmatch.push(...patternList(prop, value));
        break;
      case 'match_mapping_type':
        matchMappingType.push(...patternList(prop, value));
        break;
      case 'unmatch_mapping_type':
        unmatchMappingType.push(...patternList(prop, value));
        break;
      case 'match_pattern':
        matchPattern = javaToString(value);
        break;
      case 'mapping':
        if (mapping !== undefined) throw mappingErrors.mapperParsing(`mapping and runtime cannot be both specified in the same dynamic template [${name}]`);
        mapping = (value ?? {}) as Record<string, unknown>;
        break;
      case 'runtime':
        throw mappingErrors.mapperParsing(`dynamic template [${name}] defines runtime fields, which gannet does not support; use [mapping]`);
      default:
        throw mappingErrors.illegalArgument(`Illegal dynamic template parameter: [${prop}]`);
    }
  }
  if (mapping === undefined) throw mappingErrors.mapperParsing(`template [${name}] must have either mapping or runtime set`);
  const wildcardTypes =
    (matchMappingType.length === 0 && (match.length > 0 || pathMatch.length > 0 || unmatchMappingType.length > 0)) ||
    (matchMappingType.length === 1 && matchMappingType[0] === '*');
  const matched = wildcardTypes ? [...TEMPLATE_FIELD_TYPES] : matchMappingType.map(fieldTypeFromString);
  const excluded = new Set(unmatchMappingType.map(fieldTypeFromString));
  if (matchPattern !== 'default' && matchPattern !== 'simple' && matchPattern !== 'regex') {
    throw mappingErrors.illegalArgument(`No matching pattern matched on [${matchPattern}]`);
  }
  if (matchPattern === 'regex') {
    for (const pattern of [...match, ...unmatch, ...pathMatch, ...pathUnmatch]) {
      try {
        new RegExp(pattern);
      } catch {
        throw mappingErrors.mapperParsing(`Pattern [${pattern}] of type [regex] is invalid. Cannot create dynamic template [${name}].`);
      }
    }
  }
  return {
    name,
    match,
    unmatch,
    pathMatch,
    pathUnmatch,
    matchMappingType,
    unmatchMappingType,
    matchPattern,
    fieldTypes: matched.filter((t) => !excluded.has(t)),
    mapping,
  };
}

/** `dynamic_templates`: an array of single-key objects. */
export function parseDynamicTemplates(raw: unknown): DynamicTemplateDef[] {
  if (!Array.isArray(raw)) throw mappingErrors.mapperParsing('Dynamic template syntax error. An array of named objects is expected.');
  return raw.map((item) => {
    const entries = item !== null && typeof item === 'object' && !Array.isArray(item) ? Object.entries(item) : [];
    if (entries.length !== 1) throw mappingErrors.mapperParsing('A dynamic template must be defined with a name');
    const [name, conf] = entries[0]!;
    return parseDynamicTemplate(name, conf);
  });
}

function patternMatches(template: DynamicTemplateDef, pattern: string, value: string): boolean {
  if (template.matchPattern === 'regex') return new RegExp(`^(?:${pattern})$`, 'u').test(value);
  return simpleMatch(pattern, value);
}

/** DynamicTemplate.match. */
export function templateMatches(template: DynamicTemplateDef, path: string, fieldName: string, type: TemplateFieldType): boolean {
  if (template.pathMatch.length > 0 && !template.pathMatch.some((p) => patternMatches(template, p, path))) return false;
  if (template.match.length > 0 && !template.match.some((p) => patternMatches(template, p, fieldName))) return false;
  if (template.pathUnmatch.some((p) => patternMatches(template, p, path))) return false;
  if (template.unmatch.some((p) => patternMatches(template, p, fieldName))) return false;
  return template.fieldTypes.includes(type);
}

export function findTemplate(
  templates: readonly DynamicTemplateDef[] | undefined,
  path: string,
  fieldName: string,
  type: TemplateFieldType,
): DynamicTemplateDef | undefined {
  return templates?.find((t) => templateMatches(t, path, fieldName, type));
}

/** The mapping type a template gives a field (DynamicTemplate.mappingType). */
export function templateMappingType(template: DynamicTemplateDef, dynamicType: string): string {
  const declared = template.mapping['type'];
  if (declared === undefined) return dynamicType;
  const type = javaToString(declared).replaceAll('{dynamic_type}', dynamicType).replaceAll('{dynamicType}', dynamicType);
  if (type !== declared && type === 'text') {
    const index = template.mapping['index'];
    if (index === 'not_analyzed' || index === 'no') return 'keyword';
  }
  return type;
}

/** The template's mapping with {name} and {dynamic_type} substituted (DynamicTemplate.mappingForName). */
export function templateMappingForName(template: DynamicTemplateDef, name: string, dynamicType: string): Record<string, unknown> {
  const substitute = (text: string): string =>
    text.replaceAll('{name}', name).replaceAll('{dynamic_type}', dynamicType).replaceAll('{dynamicType}', dynamicType);
  const process = (value: unknown, depth: number): unknown => {
    if (depth > 100) return value;
    if (typeof value === 'string') return substitute(value);
    if (Array.isArray(value)) return value.map((v) => process(v, depth + 1));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) setOwnValue(out, substitute(k), process(v, depth + 1));
      return out;
    }
    return value;
  };
  return process(template.mapping, 0) as Record<string, unknown>;
}

/** The template as GET _mapping prints it (DynamicTemplate.toXContent). */
export function serializeDynamicTemplate(template: DynamicTemplateDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (key: string, list: readonly string[]): void => {
    if (list.length === 1) out[key] = list[0];
    else if (list.length > 1) out[key] = [...list];
  };
  put('match', template.match);
  put('path_match', template.pathMatch);
  put('unmatch', template.unmatch);
  put('path_unmatch', template.pathUnmatch);
  put('match_mapping_type', template.matchMappingType);
  put('unmatch_mapping_type', template.unmatchMappingType);
  if (template.matchPattern !== 'default') out['match_pattern'] = template.matchPattern;
  // ES copies the mapping into a TreeMap: top-level keys sorted.
  const mapping: Record<string, unknown> = {};
  for (const key of Object.keys(template.mapping).sort()) setOwnValue(mapping, key, template.mapping[key]);
  out['mapping'] = mapping;
  return out;
}

export function invalidTemplateError(template: DynamicTemplateDef, cause: EsError): EsError {
  const content = JSON.stringify(serializeDynamicTemplate(template));
  const types = template.fieldTypes.join(', ');
  return mappingErrors.illegalArgument(
    `dynamic template [${template.name}] has invalid content [${content}], attempted to validate it with the following match_mapping_type: [${types}]`,
    cause,
  );
}
