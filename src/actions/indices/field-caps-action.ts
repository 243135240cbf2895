/**
 * `GET|POST /_field_caps` and `/{index}/_field_caps` (ES's RestFieldCapabilitiesAction and the merge of
 * TransportFieldCapabilitiesAction) over the mappings of the resolved indices. Per field name and type: searchable
 * and aggregatable only when true in every index of that type; `indices` listed when a field has more than one type
 * (including `unmapped` with `include_unmapped`); `non_searchable_indices` / `non_aggregatable_indices` when the
 * indices disagree. `fields` takes wildcards; `filters` (+metadata, -metadata, -nested, -multifield, -parent) and
 * `types` narrow the fields. `index_filter` is accepted and checked to be an object, but does not exclude indices
 * (ES drops indices whose shards rewrite the filter to match_none; Gannet keeps every resolved index).
 */
import { setOwnValue } from '../../common/own-keys.js';
import { errors } from '../../common/errors.js';
import { simpleMatchAny } from '../../common/wildcards.js';
import { STRICT_EXPAND_OPEN, INDICES_OPTIONS_PARAMS, splitCommaLikeJava } from '../../cluster/indices-options.js';
import { json, type RestRequest, type Route } from '../rest.js';
import { resolveIndices } from './resolve-indices.js';
import { indexFieldCaps, type IndexFieldCap } from './field-caps-collect.js';

interface FieldCapsRequest {
  readonly fields: string[];
  readonly includeUnmapped: boolean;
  readonly filters: string[];
  readonly types: string[];
}

const KNOWN_FILTERS = new Set(['+metadata', '-metadata', '-nested', '-multifield', '-parent']);

function parseRequest(request: RestRequest): FieldCapsRequest {
  let bodyFields: string[] | undefined;
  if (request.hasBody) {
    const body = request.json();
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
        if (key === 'fields') bodyFields = Array.isArray(value) ? value.map(String) : splitCommaLikeJava(String(value));
        else if (key === 'index_filter') {
          if (value === null || typeof value !== 'object' || Array.isArray(value)) throw errors.illegalArgument('[index_filter] must be a query object');
        } else if (key !== 'runtime_mappings') throw errors.illegalArgument(`[field_caps_request] unknown field [${key}]`);
      }
    }
  }
  const fields = request.hasParam('fields') ? request.paramList('fields') : (bodyFields ?? []);
  if (fields.length === 0) throw errors.requestValidation(['specified fields can\'t be null or empty']);
  const filters = request.paramList('filters');
  for (const filter of filters) {
    if (!KNOWN_FILTERS.has(filter)) throw errors.illegalArgument(`Invalid filter [${filter}]`);
  }
  return { fields, includeUnmapped: request.paramBool('include_unmapped', false), filters, types: request.paramList('types') };
}

function keep(field: IndexFieldCap, request: FieldCapsRequest): boolean {
  if (!simpleMatchAny(request.fields, field.name)) return false;
  if (request.filters.includes('+metadata') && !field.metadataField) return false;
  if (request.filters.includes('-metadata') && field.metadataField) return false;
  if (request.filters.includes('-nested') && field.underNested) return false;
  if (request.filters.includes('-multifield') && field.isMultiField) return false;
  if (request.filters.includes('-parent') && (field.type === 'object' || field.type === 'nested')) return false;
  if (request.types.length > 0 && !request.types.includes(field.type)) return false;
  return true;
}

interface TypeEntry {
  metadataField: boolean;
  indices: string[];
  searchableIn: string[];
  aggregatableIn: string[];
  /** FieldCapabilities.Builder's meta: every value each key has in the indices of this type. */
  meta: Map<string, Set<string>>;
}

function render(type: string, entry: TypeEntry, withIndices: boolean): Record<string, unknown> {
  const searchable = entry.searchableIn.length === entry.indices.length;
  const aggregatable = entry.aggregatableIn.length === entry.indices.length;
  const out: Record<string, unknown> = { type, metadata_field: entry.metadataField, searchable, aggregatable };
  if (withIndices) out.indices = [...entry.indices];
  if (!searchable && entry.searchableIn.length > 0) out.non_searchable_indices = entry.indices.filter((index) => !entry.searchableIn.includes(index));
  if (!aggregatable && entry.aggregatableIn.length > 0) out.non_aggregatable_indices = entry.indices.filter((index) => !entry.aggregatableIn.includes(index));
  // FieldCapabilities.toXContent: keys and their values sorted, for a predictable order.
  if (entry.meta.size > 0) {
    const meta: Record<string, string[]> = {};
    for (const key of [...entry.meta.keys()].sort()) setOwnValue(meta, key, [...entry.meta.get(key)!].sort());
    out.meta = meta;
  }
  return out;
}

const handler: Route['handler'] = async (request, { services }) => {
  const parsed = parseRequest(request);
  const state = services.clusterService.state();
  const names = resolveIndices(request, state, STRICT_EXPAND_OPEN).sort();
  const byField = new Map<string, Map<string, TypeEntry>>();
  const mappedIn = new Map<string, Set<string>>();
  for (const index of names) {
    const metadata = state.indices.get(index);
    if (metadata === undefined) continue;
    for (const field of indexFieldCaps(metadata.mappings)) {
      if (!keep(field, parsed)) continue;
      const types = byField.get(field.name) ?? new Map<string, TypeEntry>();
      byField.set(field.name, types);
      const entry: TypeEntry = types.get(field.type) ?? { metadataField: field.metadataField, indices: [], searchableIn: [], aggregatableIn: [], meta: new Map() };
      types.set(field.type, entry);
      entry.indices.push(index);
      for (const [key, value] of Object.entries(field.meta ?? {})) {
        const values = entry.meta.get(key) ?? new Set<string>();
        values.add(value);
        entry.meta.set(key, values);
      }
      if (field.searchable) entry.searchableIn.push(index);
      if (field.aggregatable) entry.aggregatableIn.push(index);
      const seen = mappedIn.get(field.name) ?? new Set<string>();
      seen.add(index);
      mappedIn.set(field.name, seen);
    }
  }
  const fields: Record<string, unknown> = {};
  for (const name of [...byField.keys()].sort()) {
    const types = byField.get(name)!;
    if (parsed.includeUnmapped) {
      const unmapped = names.filter((index) => !mappedIn.get(name)!.has(index));
      if (unmapped.length > 0) types.set('unmapped', { metadataField: false, indices: unmapped, searchableIn: [], aggregatableIn: [], meta: new Map() });
    }
    const perType: Record<string, unknown> = {};
    for (const [type, entry] of types) perType[type] = render(type, entry, types.size > 1);
    setOwnValue(fields, name, perType);
  }
  return json({ indices: names, fields });
};

const PARAMS = ['fields', 'include_unmapped', 'filters', 'types', ...INDICES_OPTIONS_PARAMS];

export const fieldCapsRoutes: Route[] = ['/_field_caps', '/{index}/_field_caps'].map((path) => ({
  method: ['GET', 'POST'],
  path,
  params: PARAMS,
  body: 'optional',
  action: 'indices:data/read/field_caps',
  cancellable: true,
  handler,
}));
