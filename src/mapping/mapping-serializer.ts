/**
 * Prints a mapping in ES's GET _mapping shape: only parameters that differ from their defaults, in ES's
 * declaration order, properties sorted by name, `type: object` only for objects without properties. Doubles
 * are JsonFloat so the HTTP writer prints them as Java does (1.0, not 1).
 */
import { jsonFloat } from '../common/json-float.js';
import { serializeDynamicTemplate } from './dynamic-templates.js';
import type { FieldMapping, MappingNode, ObjectMapping, ParamValue, RootMapping } from './mapping-model.js';
import { paramSpecs } from './mapping-params.js';
import { setOwnValue } from '../common/own-keys.js';

type Json = Record<string, unknown>;

const DOUBLE_PARAMS = new Set(['scaling_factor']);

function printParam(field: FieldMapping, name: string, value: ParamValue): unknown {
  const isFloating = field.type === 'double' || field.type === 'float' || field.type === 'half_float' || field.type === 'scaled_float';
  if (typeof value === 'number' && (DOUBLE_PARAMS.has(name) || (name === 'null_value' && isFloating))) return jsonFloat(value);
  return value;
}

export function serializeField(field: FieldMapping): Json {
  const out: Json = { type: field.type };
  for (const spec of paramSpecs(field.type)) {
    if (Object.hasOwn(field.params, spec.name)) out[spec.name] = printParam(field, spec.name, field.params[spec.name]!);
  }
  const subNames = Object.keys(field.fields).sort();
  if (subNames.length > 0) {
    const fields: Json = {};
    for (const name of subNames) setOwnValue(fields, name, serializeField(field.fields[name]!));
    out['fields'] = fields;
  }
  if (field.copyTo.length > 0) out['copy_to'] = [...field.copyTo];
  return out;
}

function serializeProperties(object: ObjectMapping): Json | undefined {
  const names = Object.keys(object.properties).sort();
  if (names.length === 0) return undefined;
  const props: Json = {};
  for (const name of names) setOwnValue(props, name, serializeNode(object.properties[name]!));
  return props;
}

export function serializeNode(node: MappingNode): Json {
  if (node.kind === 'field') return serializeField(node);
  const out: Json = {};
  const properties = serializeProperties(node);
  if (properties === undefined) out['type'] = 'object';
  if (node.dynamic !== undefined) out['dynamic'] = node.dynamic === 'strict' ? 'strict' : node.dynamic === 'true';
  if (node.enabled === false) out['enabled'] = false;
  if (properties !== undefined) out['properties'] = properties;
  return out;
}

/** The body of `mappings` in GET _mapping (without the index name around it); `{}` for an empty mapping. */
export function serializeMapping(root: RootMapping): Json {
  const out: Json = {};
  if (root.dynamic !== undefined) out['dynamic'] = root.dynamic === 'strict' ? 'strict' : root.dynamic === 'true';
  if (root.enabled === false) out['enabled'] = false;
  if (root.meta !== undefined) out['_meta'] = root.meta;
  if (root.routingRequired === true) out['_routing'] = { required: true };
  if (root.source !== undefined) {
    const source: Json = {};
    if (root.source.mode !== undefined && root.source.mode !== 'stored') source['mode'] = root.source.mode;
    if (root.source.enabled === false) source['enabled'] = false;
    if (root.source.includes !== undefined && root.source.includes.length > 0) source['includes'] = [...root.source.includes];
    if (root.source.excludes !== undefined && root.source.excludes.length > 0) source['excludes'] = [...root.source.excludes];
    if (Object.keys(source).length > 0) out['_source'] = source;
  }
  if (root.dynamicDateFormats !== undefined) out['dynamic_date_formats'] = [...root.dynamicDateFormats];
  if (root.dynamicTemplates !== undefined) {
    out['dynamic_templates'] = root.dynamicTemplates.map((t) => ({ [t.name]: serializeDynamicTemplate(t) }));
  }
  if (root.dateDetection !== undefined) out['date_detection'] = root.dateDetection;
  if (root.numericDetection !== undefined) out['numeric_detection'] = root.numericDetection;
  const properties = serializeProperties(root);
  if (properties !== undefined) out['properties'] = properties;
  return out;
}
