/**
 * index.mapping.* limits on a whole mapping, as MappingLookup.checkLimits applies them after every merge:
 * total fields (every field, multi-field and non-root object counts one), object depth (the root is level 1,
 * so `a.b` is depth 3), and leaf name length.
 */
import { mappingErrors } from './mapping-errors.js';
import type { FieldMapping, MappingNode, MappingSettings, ObjectMapping } from './mapping-model.js';

/** Fields a node contributes to index.mapping.total_fields.limit (ES's Mapper.getTotalFieldsCount). */
export function totalFieldsCount(node: MappingNode): number {
  let count = 0;
  const stack: Array<MappingNode> = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    count++;
    if (current.kind === 'object') stack.push(...Object.values(current.properties));
    else stack.push(...Object.values(current.fields));
  }
  return count;
}

export function countMappedFields(root: ObjectMapping): number {
  let total = 0;
  for (const child of Object.values(root.properties)) total += totalFieldsCount(child);
  return total;
}

/** Depth of an object at this full path (dots + 2: the root counts as level 1). */
export function objectDepth(objectPath: string): number {
  let dots = 0;
  for (let i = 0; i < objectPath.length; i++) if (objectPath.charCodeAt(i) === 46) dots++;
  return dots + 2;
}

export function checkMappingLimits(root: ObjectMapping, settings: MappingSettings): void {
  const total = countMappedFields(root);
  if (total > settings.totalFieldsLimit) throw mappingErrors.totalFieldsExceeded(settings.totalFieldsLimit);
  const stack: Array<{ name: string; node: MappingNode; path: string }> = Object.entries(root.properties)
    .reverse()
    .map(([name, node]) => ({ name, node, path: name }));
  while (stack.length > 0) {
    const { name, node, path } = stack.pop()!;
    if (node.kind === 'object') {
      if (objectDepth(path) > settings.depthLimit) throw mappingErrors.depthExceeded(settings.depthLimit, path);
      if (name.length > settings.fieldNameLengthLimit) throw mappingErrors.fieldNameTooLong(name, settings.fieldNameLengthLimit);
      for (const [child, sub] of Object.entries(node.properties).reverse()) stack.push({ name: child, node: sub, path: `${path}.${child}` });
    } else {
      checkFieldNames(name, node, settings);
    }
  }
}

function checkFieldNames(name: string, field: FieldMapping, settings: MappingSettings): void {
  if (name.length > settings.fieldNameLengthLimit) throw mappingErrors.fieldNameTooLong(name, settings.fieldNameLengthLimit);
  for (const [sub, subField] of Object.entries(field.fields)) checkFieldNames(sub, subField, settings);
}
