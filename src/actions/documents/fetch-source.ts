/**
 * ES's FetchSourceContext: whether and which part of `_source` a read returns (`_source=false`, `_source=a,b`,
 * `_source_includes`, `_source_excludes`, or the same in a request body), and the filtering itself, which keeps
 * the document's bytes (and so its number literals) for whatever is kept.
 */
import { errors } from '../../common/errors.js';
import { RawJson } from '../../common/raw-json.js';
import { filterSource } from '../../mapping/source-filter.js';
import type { RestRequest } from '../rest.js';

export interface FetchSource {
  readonly fetch: boolean;
  readonly includes: readonly string[];
  readonly excludes: readonly string[];
}

export const FETCH_ALL: FetchSource = { fetch: true, includes: [], excludes: [] };
export const FETCH_NONE: FetchSource = { fetch: false, includes: [], excludes: [] };

export const SOURCE_PARAMS = ['_source', '_source_includes', '_source_excludes'] as const;

function splitList(value: string): string[] {
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}

/** FetchSourceContext.parseFromRestRequest; undefined when the request says nothing about `_source`. */
export function fetchSourceFromRequest(request: RestRequest): FetchSource | undefined {
  const source = request.param('_source');
  const includesParam = request.param('_source_includes');
  const excludesParam = request.param('_source_excludes');
  let fetch: boolean | undefined;
  let includes: string[] = [];
  if (source !== undefined) {
    if (source === 'true' || source === '') fetch = true;
    else if (source === 'false') fetch = false;
    else includes = splitList(source);
  }
  if (includesParam !== undefined) includes = splitList(includesParam);
  const excludes = excludesParam !== undefined ? splitList(excludesParam) : [];
  if (fetch === undefined && includes.length === 0 && excludes.length === 0) return undefined;
  return { fetch: fetch ?? true, includes, excludes };
}

/** FetchSourceContext.fromXContent: `true`/`false`, a string or list of includes, or {includes, excludes}. */
export function fetchSourceFromJson(value: unknown): FetchSource {
  if (typeof value === 'boolean') return value ? FETCH_ALL : FETCH_NONE;
  if (typeof value === 'string') return { fetch: true, includes: [value], excludes: [] };
  if (Array.isArray(value)) return { fetch: true, includes: value.map(String), excludes: [] };
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const list = (raw: unknown, name: string): string[] => {
      if (raw === undefined || raw === null) return [];
      if (typeof raw === 'string') return [raw];
      if (Array.isArray(raw)) return raw.map(String);
      throw errors.illegalArgument(`Unknown key for a ${typeof raw === 'object' ? 'START_OBJECT' : 'VALUE'} in [${name}].`);
    };
    for (const key of Object.keys(object)) {
      // exclude_vectors (ES 9) keeps vector fields out of _source: accepted, with nothing to exclude in Gannet.
      if (key === 'exclude_vectors' && (typeof object[key] === 'boolean' || object[key] === 'true' || object[key] === 'false')) continue;
      if (!['includes', 'include', 'excludes', 'exclude'].includes(key)) throw errors.illegalArgument(`Unknown key for a VALUE_STRING in [${key}].`);
    }
    return {
      fetch: true,
      includes: list(object['includes'] ?? object['include'], 'includes'),
      excludes: list(object['excludes'] ?? object['exclude'], 'excludes'),
    };
  }
  throw errors.illegalArgument(`Expected one of [VALUE_BOOLEAN, VALUE_STRING, START_ARRAY, START_OBJECT] but found [${value === null ? 'VALUE_NULL' : 'VALUE_NUMBER'}]`);
}

/** The `_source` to print: the stored bytes, filtered, as raw JSON; undefined when not fetched. */
export function sourceForResponse(source: Uint8Array | undefined, fetchSource: FetchSource): RawJson | undefined {
  if (!fetchSource.fetch || source === undefined) return undefined;
  const filtered = fetchSource.includes.length === 0 && fetchSource.excludes.length === 0 ? source : filterSource(source, fetchSource.includes, fetchSource.excludes);
  return new RawJson(Buffer.from(filtered.buffer, filtered.byteOffset, filtered.byteLength).toString('utf8'));
}
