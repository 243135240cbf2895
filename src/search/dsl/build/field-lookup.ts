/**
 * The fields an index's mapping defines, by full path (objects flattened, multi-fields included: `title`,
 * `title.keyword`, `user.name`), with their effective options, plus the metadata fields queries may name
 * (`_id`, `_index`, `_routing`, `_ignored`). This is what ES's SearchExecutionContext.getFieldType and
 * getMatchingFieldNames answer.
 */
import { simpleMatch } from '../../../common/wildcards.js';
import { fieldOptions, type FieldOptions } from '../../../mapping/field-options.js';
import { DEFAULT_MAPPING_SETTINGS, type FieldMapping, type MappingSettings, type ObjectMapping, type RootMapping } from '../../../mapping/mapping-model.js';

/** Metadata fields a query can target. `_id`, `_routing` and `_ignored` are indexed as plain terms. */
export type MetadataField = { readonly kind: 'metadata'; readonly name: '_id' | '_routing' | '_ignored' | '_index' };

export type MappedField = { readonly kind: 'mapped'; readonly name: string; readonly options: FieldOptions } | MetadataField;

const METADATA_FIELDS: readonly MetadataField[] = [
  { kind: 'metadata', name: '_id' },
  { kind: 'metadata', name: '_routing' },
  { kind: 'metadata', name: '_ignored' },
  { kind: 'metadata', name: '_index' },
];

/** The ES type name of a field, as error messages print it. */
export function typeName(field: MappedField): string {
  if (field.kind === 'metadata') return field.name;
  return field.options.type;
}

export class FieldLookup {
  private readonly fields = new Map<string, MappedField>();
  private readonly objects = new Set<string>();

  constructor(root: RootMapping | ObjectMapping, settings: MappingSettings = DEFAULT_MAPPING_SETTINGS) {
    for (const field of METADATA_FIELDS) this.fields.set(field.name, field);
    this.addObject('', root, settings);
  }

  static empty(): FieldLookup {
    return new FieldLookup({ kind: 'object', properties: {} });
  }

  private addObject(prefix: string, object: ObjectMapping, settings: MappingSettings): void {
    for (const [name, node] of Object.entries(object.properties)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      if (node.kind === 'object') {
        this.objects.add(path);
        this.addObject(path, node, settings);
      } else {
        this.addField(path, node, settings);
      }
    }
  }

  private addField(path: string, field: FieldMapping, settings: MappingSettings): void {
    this.fields.set(path, { kind: 'mapped', name: path, options: fieldOptions(field, settings) });
    for (const [name, sub] of Object.entries(field.fields)) this.addField(`${path}.${name}`, sub, settings);
  }

  /** getFieldType: the field at this exact path, if mapped. */
  get(name: string): MappedField | undefined {
    return this.fields.get(name);
  }

  isObject(path: string): boolean {
    return this.objects.has(path);
  }

  /**
   * getMatchingFieldNames: for a pattern with `*`, every field whose path matches it (metadata included);
   * for a plain name, that field if it is mapped.
   */
  matchingFieldNames(pattern: string): string[] {
    if (!pattern.includes('*')) return this.fields.has(pattern) ? [pattern] : [];
    const names: string[] = [];
    for (const name of this.fields.keys()) if (simpleMatch(pattern, name)) names.push(name);
    return names;
  }

  /** Leaf fields under an object path (for exists on an object). */
  fieldsUnder(objectPath: string): string[] {
    const prefix = `${objectPath}.`;
    return [...this.fields.keys()].filter((name) => name.startsWith(prefix));
  }
}

/** Whether a field takes part in `*` expansion (ES skips metadata fields and fields that are not indexed). */
export function isSearchableForAllFields(field: MappedField): boolean {
  if (field.kind === 'metadata') return false;
  return field.options.index;
}
