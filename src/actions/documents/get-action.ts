/**
 * The get API (RestGetAction, RestGetSourceAction): `GET|HEAD /{index}/_doc/{id}` answers the document with its
 * metadata (404 with `found: false` when missing) and the `stored_fields` asked for under `fields`,
 * `GET|HEAD /{index}/_source/{id}` only its source.
 */
import { EsError } from '../../common/errors.js';
import { empty, json, type ActionContext, type RestRequest, type Route } from '../rest.js';
import { readDocument, getResultBody, type ReadOptions } from './document-reader.js';
import { FETCH_ALL, FETCH_NONE, fetchSourceFromRequest, SOURCE_PARAMS, type FetchSource } from './fetch-source.js';
import { parseVersionType } from './write-params.js';
import { splitCommaLikeJava } from '../../cluster/indices-options.js';

const GET_PARAMS = ['routing', 'preference', 'realtime', 'refresh', 'version', 'version_type', 'force_synthetic_source', ...SOURCE_PARAMS] as const;

/** `stored_fields` as a list, or undefined when not given (Strings.splitStringByCommaToArray). */
function storedFieldsParam(request: RestRequest): string[] | undefined {
  const value = request.param('stored_fields');
  return value === undefined ? undefined : splitCommaLikeJava(value);
}

export function readOptions(request: RestRequest, fetchSource: FetchSource): ReadOptions {
  const storedFields = storedFieldsParam(request);
  const version = request.param('version');
  if (version !== undefined && !/^-?\d+$/.test(version)) {
    throw new EsError('illegal_argument_exception', `Failed to parse long parameter [version] with value [${version}]`);
  }
  return {
    routing: request.param('routing'),
    preference: request.param('preference'),
    realtime: request.paramBool('realtime', true),
    refresh: request.paramBool('refresh', false),
    version: version === undefined ? undefined : Number(version),
    versionType: parseVersionType(request.param('version_type')),
    fetchSource,
    ...(storedFields !== undefined && { storedFields }),
  };
}

/**
 * ShardGetService.normalizeFetchSourceContent: without `_source` parameters the source is fetched, unless
 * stored_fields were asked for without `_source` among them.
 */
export function storedFieldsFetchSource(fromParams: FetchSource | undefined, storedFields: readonly string[] | undefined): FetchSource {
  if (fromParams !== undefined) return fromParams;
  return storedFields === undefined || storedFields.includes('_source') ? FETCH_ALL : FETCH_NONE;
}

function fetchSourceFor(request: RestRequest): FetchSource {
  return storedFieldsFetchSource(fetchSourceFromRequest(request), storedFieldsParam(request));
}

async function getDocument(request: RestRequest, context: ActionContext) {
  const fetchSource = fetchSourceFor(request);
  const read = await readDocument(context, request.pathParams['index']!, request.pathParams['id']!, readOptions(request, fetchSource));
  if (request.method === 'HEAD') return empty(read.result.found ? 200 : 404);
  return json(getResultBody(read, fetchSource), read.result.found ? 200 : 404);
}

async function getSource(request: RestRequest, context: ActionContext) {
  const fetchSource = fetchSourceFromRequest(request) ?? FETCH_ALL;
  const read = await readDocument(context, request.pathParams['index']!, request.pathParams['id']!, readOptions(request, fetchSource));
  if (!read.result.found || read.result.source === undefined) {
    if (request.method === 'HEAD') return empty(404);
    const reason = read.result.found ? `Source not found [${read.index}]/[${read.id}]` : `Document not found [${read.index}]/[${read.id}]`;
    throw new EsError('resource_not_found_exception', reason);
  }
  if (request.method === 'HEAD') return empty(200);
  const body = getResultBody(read, fetchSource)['_source'];
  return json(body ?? {});
}

export const getRoutes: Route[] = [
  {
    method: ['GET', 'HEAD'],
    path: '/{index}/_doc/{id}',
    action: 'indices:data/read/get',
    params: [...GET_PARAMS, 'stored_fields'],
    describe: (request) => `get [${request.pathParams['index']}][${request.pathParams['id']}]`,
    handler: getDocument,
  },
  {
    method: ['GET', 'HEAD'],
    path: '/{index}/_source/{id}',
    action: 'indices:data/read/get',
    params: GET_PARAMS,
    handler: getSource,
  },
];
