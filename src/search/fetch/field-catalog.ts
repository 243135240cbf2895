/**
 * The mapped fields of an index as ES's MappingLookup sees them for fetching and highlighting: every leaf
 * field and multi-field by full name, wildcard resolution (getMatchingFieldNames), and where a field's
 * values live in `_source` (sourcePaths: a multi-field reads its parent, and a copy_to target also reads
 * every field copied into it). Built once per mapping and cached.
 */
import { simpleMatch } from '../../common/wildcards.js';
import {
  DEFAULT_MAPPING_SETTINGS,
  fieldOptions,
  type FieldMapping,
  type FieldOptions,
  type MappingSettings,
  type ObjectMapping,
  type RootMapping,
} from '../../mapping/index.js';
import { javaHashMapOrder } from '../../mapping/value-preview.js';

export interface MappedField {
  /** Full dotted name ("title", "title.keyword", "user.name"). */
  readonly name: string;
  readonly mapping: FieldMapping;
  readonly options: FieldOptions;
  /** The parent field's full name when this is a multi-field. */
  readonly multiFieldParent: string | undefined;
}

/** Metadata fields ES resolves by exact name in `fields` (never through a wildcard). */
export const METADATA_FIELDS: ReadonlySet<string> = new Set(['_id', '_index', '_routing', '_ignored']);

/** Metadata fields that exist in every mapping but whose values cannot be fetched (`fields: ["_seq_no"]` is a 400). */
export const INTERNAL_METADATA_FIELDS: ReadonlySet<string> = new Set([
  '_seq_no',
  '_primary_term',
  '_version',
  '_source',
  '_field_names',
  '_doc_count',
  '_tier',
  '_nested_path',
  '_feature',
  '_data_stream_timestamp',
]);

export class FieldCatalog {
  private readonly fields = new Map<string, MappedField>();
  /** copy_to target -> the target itself plus every field copied into it (ES's fieldToCopiedFields). */
  private readonly copiedInto = new Map<string, string[]>();

  private constructor(root: ObjectMapping, settings: MappingSettings) {
    this.collect(root, '', settings);
    for (const field of this.fields.values()) {
      for (const target of field.mapping.copyTo) {
        let sources = this.copiedInto.get(target);
        if (sources === undefined) {
          sources = [target];
          this.copiedInto.set(target, sources);
        }
        if (!sources.includes(field.name)) sources.push(field.name);
      }
    }
  }

  static of(root: RootMapping, settings: MappingSettings = DEFAULT_MAPPING_SETTINGS): FieldCatalog {
    const cached = CACHE.get(root);
    if (cached !== undefined && cached.settings === settings) return cached.catalog;
    const catalog = new FieldCatalog(root, settings);
    CACHE.set(root, { settings, catalog });
    return catalog;
  }

  private collect(object: ObjectMapping, prefix: string, settings: MappingSettings): void {
    for (const [name, node] of Object.entries(object.properties)) {
      const fullName = prefix + name;
      if (node.kind === 'object') {
        this.collect(node, fullName + '.', settings);
        continue;
      }
      this.addField(fullName, node, undefined, settings);
    }
  }

  private addField(fullName: string, mapping: FieldMapping, parent: string | undefined, settings: MappingSettings): void {
    this.fields.set(fullName, { name: fullName, mapping, options: fieldOptions(mapping, settings), multiFieldParent: parent });
    for (const [subName, sub] of Object.entries(mapping.fields)) this.addField(`${fullName}.${subName}`, sub, fullName, settings);
  }

  get(name: string): MappedField | undefined {
    return this.fields.get(name);
  }

  /** All mapped field names, in mapping order (multi-fields after their parent). */
  names(): string[] {
    return [...this.fields.keys()];
  }

  isMetadataField(name: string): boolean {
    return METADATA_FIELDS.has(name) || INTERNAL_METADATA_FIELDS.has(name);
  }

  /**
   * getMatchingFieldNames: a concrete name resolves to itself when mapped (metadata fields included); a
   * pattern with `*` to every mapped field it matches (metadata fields are left to the caller to skip).
   */
  matchingFieldNames(pattern: string): string[] {
    if (!pattern.includes('*')) return this.fields.has(pattern) || this.isMetadataField(pattern) ? [pattern] : [];
    const names = this.names().filter((name) => simpleMatch(pattern, name));
    for (const name of [...METADATA_FIELDS, ...INTERNAL_METADATA_FIELDS]) if (simpleMatch(pattern, name)) names.push(name);
    return names;
  }

  /**
   * sourcePaths: the `_source` paths holding a field's values, in the iteration order of ES's HashSet (which
   * decides the order values from several copy_to sources come out in).
   */
  sourcePaths(name: string): string[] {
    let resolved = name;
    const lastDot = name.lastIndexOf('.');
    if (lastDot > 0 && this.fields.has(name.slice(0, lastDot))) resolved = name.slice(0, lastDot);
    const copied = this.copiedInto.get(resolved);
    if (copied === undefined) return [resolved];
    return javaHashMapOrder(copied).map((index) => copied[index]!);
  }
}

const CACHE = new WeakMap<RootMapping, { settings: MappingSettings; catalog: FieldCatalog }>();
