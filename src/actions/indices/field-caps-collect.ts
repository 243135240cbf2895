/**
 * One index's field capabilities from its mapping (ES's FieldCapabilitiesFetcher over the mapped field types): every
 * leaf field, multi-field, object and nested field by its full dotted name, with ES's family type name and whether
 * it can be searched and aggregated, plus the metadata fields every ES 8 index has.
 */
export interface IndexFieldCap {
  readonly name: string;
  readonly type: string;
  readonly metadataField: boolean;
  readonly searchable: boolean;
  readonly aggregatable: boolean;
  /** Kind of field, for the `filters` parameter. */
  readonly isMultiField: boolean;
  readonly underNested: boolean;
  /** The field mapping's `meta` (string values), merged per type across indices into `meta`. */
  readonly meta?: Readonly<Record<string, string>>;
}

function metaOf(node: MappingNode): Record<string, string> | undefined {
  const meta = node['meta'];
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  const entries = Object.entries(meta as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** ES 8's metadata mappers and what their field types answer to isSearchable/isAggregatable. */
const METADATA_FIELDS: ReadonlyArray<readonly [string, boolean, boolean]> = [
  ['_data_stream_timestamp', false, false],
  ['_doc_count', false, false],
  ['_field_names', true, false],
  ['_id', true, false],
  ['_ignored', true, true],
  ['_index', true, true],
  ['_nested_path', true, false],
  ['_routing', true, false],
  ['_seq_no', true, true],
  ['_source', false, false],
  ['_tier', true, true],
  ['_version', false, true],
];

const POINT_TYPES = new Set([
  'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long',
  'date', 'date_nanos', 'boolean', 'ip', 'geo_point', 'keyword', 'version',
]);
/** familyTypeName: types that report the family they belong to. */
const FAMILY: Record<string, string> = { constant_keyword: 'keyword', wildcard: 'keyword', match_only_text: 'text' };

type MappingNode = Record<string, unknown>;

function leafCapabilities(type: string, node: MappingNode): { searchable: boolean; aggregatable: boolean } {
  const indexed = node['index'] !== false;
  const docValues = node['doc_values'] !== false;
  if (type === 'text' || type === 'match_only_text' || type === 'annotated_text') {
    return { searchable: indexed, aggregatable: node['fielddata'] === true };
  }
  // Since 8.1 a field with doc values but no index can still be searched (doc-values queries).
  if (POINT_TYPES.has(type)) return { searchable: indexed || docValues, aggregatable: docValues };
  if (type === 'constant_keyword') return { searchable: true, aggregatable: true };
  // BinaryFieldType: never indexed; aggregatable when it has doc values (off by default).
  if (type === 'binary') return { searchable: false, aggregatable: node['doc_values'] === true };
  return { searchable: indexed, aggregatable: false };
}

function walk(properties: unknown, prefix: string, underNested: boolean, out: IndexFieldCap[]): void {
  if (properties === null || typeof properties !== 'object') return;
  for (const [key, value] of Object.entries(properties as Record<string, MappingNode>)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    const node = value ?? {};
    const declared = typeof node['type'] === 'string' ? (node['type'] as string) : undefined;
    const type = declared ?? 'object';
    if (type === 'object' || type === 'nested') {
      out.push({ name, type, metadataField: false, searchable: false, aggregatable: false, isMultiField: false, underNested });
      walk(node['properties'], name, underNested || type === 'nested', out);
      continue;
    }
    if (type === 'alias') continue;
    const meta = metaOf(node);
    out.push({ name, type: FAMILY[type] ?? type, metadataField: false, ...leafCapabilities(type, node), isMultiField: false, underNested, ...(meta && { meta }) });
    const multiFields = node['fields'];
    if (multiFields !== null && typeof multiFields === 'object') {
      for (const [subName, sub] of Object.entries(multiFields as Record<string, MappingNode>)) {
        const subType = typeof sub?.['type'] === 'string' ? (sub['type'] as string) : 'object';
        const subMeta = metaOf(sub ?? {});
        out.push({
          name: `${name}.${subName}`,
          type: FAMILY[subType] ?? subType,
          metadataField: false,
          ...leafCapabilities(subType, sub ?? {}),
          isMultiField: true,
          underNested,
          ...(subMeta && { meta: subMeta }),
        });
      }
    }
  }
}

export function indexFieldCaps(mappings: Record<string, unknown>): IndexFieldCap[] {
  const out: IndexFieldCap[] = METADATA_FIELDS.map(([name, searchable, aggregatable]) => ({
    name,
    type: name,
    metadataField: true,
    searchable,
    aggregatable,
    isMultiField: false,
    underNested: false,
  }));
  walk(mappings['properties'], '', false, out);
  return out;
}
