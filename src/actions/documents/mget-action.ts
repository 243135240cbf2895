/**
 * The multi-get API (RestMultiGetAction): `GET|POST /_mget` and `/{index}/_mget` with `docs` (each with its own
 * `_index`, `_id`, `routing`, `_source`, `stored_fields`, `version`) or `ids` against the default index. Each
 * entry answers like a GET, or carries its error (an unknown index, say) with the index and id it asked for.
 */
import { EsError, errors, toEsError } from '../../common/errors.js';
import type { VersionType } from '../../engine/engine.js';
import { json, type RestRequest, type Route } from '../rest.js';
import { splitCommaLikeJava } from '../../cluster/indices-options.js';
import { warningHeaders } from '../deprecation-warnings.js';
import { storedFieldsFetchSource } from './get-action.js';
import { getResultBody, readDocument } from './document-reader.js';
import { fetchSourceFromJson, fetchSourceFromRequest, SOURCE_PARAMS, type FetchSource } from './fetch-source.js';
import { errorWithRootCause } from './write-response.js';
import { parseVersionType } from './write-params.js';

interface MultiGetItem {
  index: string | undefined;
  id: string | undefined;
  routing: string | undefined;
  fetchSource: FetchSource | undefined;
  /** The doc's own `stored_fields`; undefined takes the request's. */
  storedFields: string[] | undefined;
  version: number | undefined;
  versionType: VersionType;
}

/**
 * MultiGetRequest.parseDocuments' fields. `_routing` and `_version` (removed in 7.0) are unknown fields, as in ES;
 * `_type` only for `compatible-with=7` requests.
 */
const DOC_FIELDS = new Set(['_index', '_id', 'routing', '_source', 'stored_fields', 'version', 'version_type']);

/** RestMultiGetAction.TYPES_DEPRECATION_MESSAGE. */
const MGET_TYPES_DEPRECATION = '[types removal] Specifying types in multi get requests is deprecated.';

function parseFailure(message: string): EsError {
  return new EsError('parse_exception', message);
}

/** A doc's `stored_fields`: a string (comma list) or an array of strings. */
function storedFieldsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((item) => String(item));
  return splitCommaLikeJava(String(value));
}

function parseItems(body: unknown, defaults: { index?: string; routing?: string }, request: RestRequest, warnings: string[]): MultiGetItem[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw parseFailure('failed to parse multi get request. expected an object');
  const object = body as Record<string, unknown>;
  const items: MultiGetItem[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (key === 'docs') {
      if (!Array.isArray(value)) throw parseFailure('docs array element should include an object');
      for (const doc of value) {
        if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw parseFailure('docs array element should include an object');
        const entry = doc as Record<string, unknown>;
        for (const field of Object.keys(entry)) {
          if (field === 'fields') throw new EsError('parsing_exception', 'Unsupported field [fields] used, expected [stored_fields] instead');
          if (field === '_type' && request.compatibleWith === 7) {
            if (!warnings.includes(MGET_TYPES_DEPRECATION)) warnings.push(MGET_TYPES_DEPRECATION);
            continue;
          }
          if (!DOC_FIELDS.has(field)) throw parseFailure(`failed to parse multi get request. unknown field [${field}]`);
        }
        items.push({
          index: entry['_index'] === undefined ? defaults.index : String(entry['_index']),
          id: entry['_id'] === undefined || entry['_id'] === null ? undefined : String(entry['_id']),
          routing: entry['routing'] !== undefined ? String(entry['routing']) : defaults.routing,
          fetchSource: entry['_source'] === undefined ? undefined : fetchSourceFromJson(entry['_source']),
          storedFields: entry['stored_fields'] === undefined ? undefined : storedFieldsOf(entry['stored_fields']),
          version: entry['version'] === undefined ? undefined : Number(entry['version']),
          versionType: parseVersionType(entry['version_type'] === undefined ? undefined : String(entry['version_type'])),
        });
      }
    } else if (key === 'ids') {
      if (!Array.isArray(value)) throw parseFailure('ids array element should only contain ids');
      for (const id of value) {
        if (typeof id !== 'string' && typeof id !== 'number') throw parseFailure('ids array element should only contain ids');
        items.push({ index: defaults.index, id: String(id), routing: defaults.routing, fetchSource: undefined, storedFields: undefined, version: undefined, versionType: 'internal' });
      }
    } else {
      throw parseFailure(`unknown key [${key}] for a ${Array.isArray(value) ? 'START_ARRAY' : typeof value === 'object' ? 'START_OBJECT' : 'VALUE'}, expected [docs] or [ids]`);
    }
  }
  return items;
}

const mgetHandler: Route['handler'] = async (request, context) => {
  if (!request.hasBody) throw errors.bodyRequired();
  const warnings: string[] = [];
  const items = parseItems(request.json(), { index: request.pathParams['index'], routing: request.param('routing') }, request, warnings);
  const problems: string[] = [];
  if (items.length === 0) problems.push('no documents to get');
  items.forEach((item, position) => {
    if (item.index === undefined) problems.push(`index is missing for doc ${position}`);
    if (item.id === undefined) problems.push(`id is missing for doc ${position}`);
  });
  if (problems.length > 0) throw errors.requestValidation(problems);
  const requestSource = fetchSourceFromRequest(request);
  const realtime = request.paramBool('realtime', true);
  const preference = request.param('preference');
  const refresh = request.paramBool('refresh', false);
  const storedFieldsParam = request.param('stored_fields');
  const requestStoredFields = storedFieldsParam === undefined ? undefined : splitCommaLikeJava(storedFieldsParam);
  const docs = await Promise.all(
    items.map(async (item) => {
      // A doc's own stored_fields and _source replace the request's (MultiGetRequest's defaults).
      const storedFields = item.storedFields ?? requestStoredFields;
      const fetchSource = storedFieldsFetchSource(item.fetchSource ?? requestSource, storedFields);
      try {
        const read = await readDocument(context, item.index!, item.id!, {
          routing: item.routing,
          preference,
          realtime,
          refresh,
          version: item.version,
          versionType: item.versionType,
          fetchSource,
          ...(storedFields !== undefined && { storedFields }),
        });
        return getResultBody(read, fetchSource);
      } catch (err) {
        const error = toEsError(err);
        return { _index: item.index, _id: item.id, error: errorWithRootCause(error) };
      }
    }),
  );
  return json({ docs }, 200, warningHeaders(context.services, warnings));
};

const MGET_PARAMS = ['routing', 'preference', 'realtime', 'refresh', 'stored_fields', 'force_synthetic_source', ...SOURCE_PARAMS] as const;

export const mgetRoutes: Route[] = [
  { method: ['GET', 'POST'], path: '/_mget', action: 'indices:data/read/mget', params: MGET_PARAMS, body: 'required', handler: mgetHandler },
  { method: ['GET', 'POST'], path: '/{index}/_mget', action: 'indices:data/read/mget', params: MGET_PARAMS, body: 'required', handler: mgetHandler },
];
