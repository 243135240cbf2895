/**
 * How the mappings of several templates become one, at the JSON level, before the mapping layer parses the
 * result:
 * - composable templates (ES's MapperService.merge with MergeReason.INDEX_TEMPLATE): component templates in
 *   `composed_of` order, then the index template, then the create request, each one over the previous. Objects
 *   merge recursively; a field (anything with a `type` other than object/nested) is replaced whole by a later
 *   definition, multi-fields included; dynamic templates merge by name; `_meta` merges deeply; any other root
 *   option is taken from the later mapping.
 * - legacy templates (XContentHelper.mergeDefaults): the request's mapping wins and each template, highest
 *   `order` first, only fills in what is missing.
 */
import { ownValue, setOwnValue } from '../../../common/own-keys.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isObjectMapping(node: Json): boolean {
  return node['type'] === undefined || node['type'] === 'object' || node['type'] === 'nested';
}

/**
 * `a.b: {...}` as `a: {properties: {b: {...}}}`, as the mapper reads a dotted name, so that the dotted and the
 * object form of one field merge with each other.
 */
function expandDots(properties: Json): Json {
  const out: Json = {};
  for (const [name, node] of Object.entries(properties)) {
    const dot = name.indexOf('.');
    if (dot <= 0 || dot === name.length - 1) {
      setOwnValue(out, name, mergeNamed(out, name, node));
      continue;
    }
    const head = name.slice(0, dot);
    const wrapped: Json = { properties: expandDots({ [name.slice(dot + 1)]: node }) };
    setOwnValue(out, head, mergeNamed(out, head, wrapped));
  }
  return out;
}

function mergeNamed(out: Json, name: string, node: unknown): unknown {
  const current = ownValue(out, name);
  return current === undefined ? node : mergeProperties({ [name]: current }, { [name]: node })[name];
}

function mergeProperties(existingProperties: Json, incomingProperties: Json): Json {
  const existing = expandDots(existingProperties);
  const incoming = expandDots(incomingProperties);
  const out: Json = { ...existing };
  for (const [name, node] of Object.entries(incoming)) {
    const current = ownValue(out, name);
    const sameObjectKind = isObject(current) && isObject(node) && isObjectMapping(current) && isObjectMapping(node) && (current['type'] ?? 'object') === (node['type'] ?? 'object');
    setOwnValue(out, name, sameObjectKind ? mergeObjectMapping(current as Json, node as Json) : node);
  }
  return out;
}

function mergeObjectMapping(existing: Json, incoming: Json): Json {
  const out: Json = { ...existing };
  for (const [key, value] of Object.entries(incoming)) {
    if (key === 'properties' && isObject(value) && isObject(out['properties'])) out['properties'] = mergeProperties(out['properties'], value);
    else setOwnValue(out, key, value);
  }
  return out;
}

function deepUpdate(existing: Json, incoming: Json): Json {
  const out: Json = { ...existing };
  for (const [key, value] of Object.entries(incoming)) {
    const current = ownValue(out, key);
    setOwnValue(out, key, isObject(current) && isObject(value) ? deepUpdate(current, value) : value);
  }
  return out;
}

function dynamicTemplateName(entry: unknown): string | undefined {
  if (!isObject(entry)) return undefined;
  const keys = Object.keys(entry);
  return keys.length === 1 ? keys[0] : undefined;
}

function mergeDynamicTemplates(existing: unknown, incoming: unknown): unknown {
  if (!Array.isArray(existing) || !Array.isArray(incoming)) return incoming;
  const byName = new Map<string, unknown>();
  for (const entry of [...existing, ...incoming]) {
    const name = dynamicTemplateName(entry);
    if (name === undefined) return incoming;
    byName.set(name, entry);
  }
  return [...byName.values()];
}

/** One composable-template mapping over another (MergeReason.INDEX_TEMPLATE). */
export function mergeTemplateMapping(existing: Json, incoming: Json): Json {
  const out: Json = { ...existing };
  for (const [key, value] of Object.entries(incoming)) {
    const current = ownValue(out, key);
    if (key === 'properties' && isObject(current) && isObject(value)) setOwnValue(out, key, mergeProperties(current, value));
    else if (key === 'dynamic_templates') setOwnValue(out, key, mergeDynamicTemplates(current, value));
    else if (isObject(current) && isObject(value)) setOwnValue(out, key, deepUpdate(current, value));
    else setOwnValue(out, key, value);
  }
  return out;
}

/** The composable-template mappings in precedence order (lowest first) as one mapping, or undefined if none. */
export function composeTemplateMappings(mappings: ReadonlyArray<Readonly<Json> | undefined>): Json | undefined {
  let result: Json | undefined;
  for (const mapping of mappings) {
    if (mapping === undefined) continue;
    result = result === undefined ? { ...mapping } : mergeTemplateMapping(result, mapping);
  }
  return result;
}

/** XContentHelper.mergeDefaults: `content` keeps its values; `defaults` fills in what is missing, recursively. */
export function mergeDefaults(content: Json, defaults: Readonly<Json>): Json {
  const out: Json = { ...content };
  for (const [key, defaultValue] of Object.entries(defaults)) {
    if (!Object.hasOwn(out, key)) {
      setOwnValue(out, key, defaultValue);
      continue;
    }
    const contentValue = ownValue(out, key);
    if (isObject(contentValue) && isObject(defaultValue)) {
      setOwnValue(out, key, mergeDefaults(contentValue, defaultValue));
    } else if (Array.isArray(contentValue) && Array.isArray(defaultValue)) {
      setOwnValue(out, key, mergeDefaultLists(contentValue, defaultValue));
    }
  }
  return out;
}

function mergeDefaultLists(content: readonly unknown[], defaults: readonly unknown[]): unknown[] {
  const singleKeyed = (list: readonly unknown[]) => list.every((entry) => dynamicTemplateName(entry) !== undefined);
  if (singleKeyed(content) && singleKeyed(defaults)) {
    // [{name: {...}}, ...] lists (dynamic templates) merge by name; the defaults' own entries come after.
    const byName = new Map<string, Json>();
    for (const entry of content) byName.set(dynamicTemplateName(entry)!, entry as Json);
    for (const entry of defaults) {
      const name = dynamicTemplateName(entry)!;
      const existing = byName.get(name);
      byName.set(name, existing === undefined ? (entry as Json) : mergeDefaults(existing, entry as Json));
    }
    return [...byName.values()];
  }
  const merged = [...defaults];
  for (const entry of content) if (!merged.some((candidate) => JSON.stringify(candidate) === JSON.stringify(entry))) merged.push(entry);
  return merged;
}

/** Mappings in templates may be wrapped in `_doc` (ES accepts both); stored and merged without it. */
export function unwrapDocType(mappings: Json): Json {
  const keys = Object.keys(mappings);
  if (keys.length === 1 && keys[0] === '_doc' && isObject(mappings['_doc'])) return mappings['_doc'];
  return mappings;
}
