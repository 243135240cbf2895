/**
 * Merging a mapping update (PUT _mapping, or the new fields a document introduced) into an index's mapping,
 * with ES's rules: new fields and objects are added; a field keeps its type; each parameter either may be
 * updated or must stay equal (all conflicts reported at once); objects keep `enabled`; root settings given by
 * the update replace the old ones. The result is then validated (copy_to targets) and held to the limits.
 */
import { mappingErrors } from './mapping-errors.js';
import { checkMappingLimits } from './mapping-limits.js';
import type { FieldMapping, MappingNode, MappingSettings, ObjectMapping, RootMapping } from './mapping-model.js';
import { floatingParamKind, paramEquals, paramSpecs, paramToString } from './mapping-params.js';
import { fieldParamContext } from './field-options.js';
import { ownValue, setOwnValue } from '../common/own-keys.js';

export interface MergeResult {
  readonly mapping: RootMapping;
}

/** Merges and validates; throws illegal_argument_exception (or mapper_exception) as ES would. */
export function mergeMappings(existing: RootMapping, update: RootMapping, settings: MappingSettings): RootMapping {
  const merged = mergeRoot(existing, update, settings);
  validateMapping(merged);
  checkMappingLimits(merged, settings);
  return merged;
}

function mergeRoot(existing: RootMapping, update: RootMapping, settings: MappingSettings): RootMapping {
  const base = mergeObject(existing, update, '', settings);
  const result: { -readonly [K in keyof RootMapping]: RootMapping[K] } = { ...existing, ...base };
  if (update.dateDetection !== undefined) result.dateDetection = update.dateDetection;
  if (update.numericDetection !== undefined) result.numericDetection = update.numericDetection;
  if (update.dynamicDateFormats !== undefined) result.dynamicDateFormats = update.dynamicDateFormats;
  if (update.dynamicTemplates !== undefined) result.dynamicTemplates = update.dynamicTemplates;
  if (update.meta !== undefined) result.meta = update.meta;
  if (update.routingRequired !== undefined && update.routingRequired !== (existing.routingRequired ?? false)) {
    throw mappingErrors.parameterConflicts('_routing', [
      `Cannot update parameter [required] from [${existing.routingRequired ?? false}] to [${update.routingRequired}]`,
    ]);
  }
  if (update.routingRequired !== undefined) result.routingRequired = update.routingRequired;
  if (update.source !== undefined) {
    const before = existing.source ?? {};
    const conflicts: string[] = [];
    const pairs: Array<[string, unknown, unknown, string]> = [
      ['enabled', before.enabled ?? true, update.source.enabled ?? true, 'bool'],
      ['includes', before.includes ?? [], update.source.includes ?? [], 'list'],
      ['excludes', before.excludes ?? [], update.source.excludes ?? [], 'list'],
    ];
    for (const [name, from, to] of pairs) {
      if (JSON.stringify(from) !== JSON.stringify(to)) {
        const show = (v: unknown): string => (Array.isArray(v) ? `[${v.join(', ')}]` : String(v));
        conflicts.push(`Cannot update parameter [${name}] from [${show(from)}] to [${show(to)}]`);
      }
    }
    if (conflicts.length > 0) throw mappingErrors.parameterConflicts('_source', conflicts);
    result.source = update.source;
  }
  return result;
}

function mergeObject(existing: ObjectMapping, update: ObjectMapping, path: string, settings: MappingSettings): ObjectMapping {
  if (update.enabled !== undefined && (existing.enabled ?? true) !== update.enabled) {
    throw mappingErrors.enabledChange(path === '' ? '_doc' : path);
  }
  const properties: Record<string, MappingNode> = { ...existing.properties };
  for (const [name, incoming] of Object.entries(update.properties)) {
    const childPath = path === '' ? name : `${path}.${name}`;
    const current = ownValue(properties, name);
    setOwnValue(properties, name, current === undefined ? incoming : mergeObjectNodes(current, incoming, childPath, settings));
  }
  const result: { -readonly [K in keyof ObjectMapping]: ObjectMapping[K] } = { kind: 'object', properties };
  const dynamic = update.dynamic ?? existing.dynamic;
  if (dynamic !== undefined) result.dynamic = dynamic;
  const enabled = update.enabled ?? existing.enabled;
  if (enabled !== undefined) result.enabled = enabled;
  return result;
}

/** Merges two nodes at the same path (also used when one mapping names a field twice, "a.b" and "a"). */
export function mergeObjectNodes(existing: MappingNode, incoming: MappingNode, fullPath: string, settings: MappingSettings): MappingNode {
  if (existing.kind === 'object' && incoming.kind === 'object') return mergeObject(existing, incoming, fullPath, settings);
  if (existing.kind === 'object' || incoming.kind === 'object') throw mappingErrors.objectConflict(fullPath);
  return mergeField(existing, incoming, fullPath, settings);
}

export function mergeField(existing: FieldMapping, incoming: FieldMapping, fullPath: string, settings: MappingSettings): FieldMapping {
  if (existing.type !== incoming.type) throw mappingErrors.typeChange(fullPath, existing.type, incoming.type);
  const leaf = fullPath.slice(fullPath.lastIndexOf('.') + 1);
  const before = fieldParamContext(leaf, existing, settings);
  const after = fieldParamContext(leaf, incoming, settings);
  const conflicts: string[] = [];
  const params: Record<string, FieldMapping['params'][string]> = {};
  for (const spec of paramSpecs(existing.type)) {
    const current = before.value(spec.name);
    const next = after.value(spec.name);
    let value = current;
    if (!paramEquals(current, next)) {
      const allowed = typeof spec.updateable === 'function' ? spec.updateable(current, next) : spec.updateable;
      if (allowed) value = next;
      else conflicts.push(`Cannot update parameter [${spec.name}] from [${paramToString(current, floatingParamKind(existing.type, spec.name))}] to [${paramToString(next, floatingParamKind(existing.type, spec.name))}]`);
    }
    if (!paramEquals(value, spec.defaultValue(after))) params[spec.name] = value;
  }
  if (conflicts.length > 0) throw mappingErrors.parameterConflicts(fullPath, conflicts);
  const fields: Record<string, FieldMapping> = { ...existing.fields };
  for (const [name, sub] of Object.entries(incoming.fields)) {
    const current = ownValue(fields, name);
    setOwnValue(fields, name, current === undefined ? sub : mergeField(current, sub, `${fullPath}.${name}`, settings));
  }
  return { kind: 'field', type: existing.type, params, fields, copyTo: incoming.copyTo };
}

/** Looks up a node by full dotted path, descending objects. */
export function lookupPath(root: ObjectMapping, path: string): MappingNode | undefined {
  let node: MappingNode | undefined = root;
  for (const part of path.split('.')) {
    if (node === undefined || node.kind !== 'object') return undefined;
    node = ownValue(node.properties, part);
  }
  return node;
}

/** FieldMapper.validate: copy_to may not start at or point to a multi-field, nor point to an object. */
export function validateMapping(root: RootMapping): void {
  const multiFieldPaths = new Set<string>();
  const objectPaths = new Set<string>();
  const copies: Array<{ from: string; to: string; fromMulti: boolean }> = [];
  const stack: Array<{ node: MappingNode; path: string }> = Object.entries(root.properties).map(([k, n]) => ({ node: n, path: k }));
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node.kind === 'object') {
      objectPaths.add(path);
      for (const [k, child] of Object.entries(node.properties)) stack.push({ node: child, path: `${path}.${k}` });
      continue;
    }
    for (const target of node.copyTo) copies.push({ from: path, to: target, fromMulti: false });
    for (const [k, sub] of Object.entries(node.fields)) {
      multiFieldPaths.add(`${path}.${k}`);
      for (const target of sub.copyTo) copies.push({ from: `${path}.${k}`, to: target, fromMulti: true });
    }
  }
  for (const copy of copies) {
    if (copy.fromMulti) throw mappingErrors.illegalArgument(`[copy_to] may not be used to copy from a multi-field: [${copy.from}]`);
    if (multiFieldPaths.has(copy.to)) throw mappingErrors.illegalArgument(`[copy_to] may not be used to copy to a multi-field: [${copy.to}]`);
    if (objectPaths.has(copy.to)) throw mappingErrors.illegalArgument(`Cannot copy to field [${copy.to}] since it is mapped as an object`);
  }
}
