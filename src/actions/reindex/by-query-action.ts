/**
 * `POST /{index}/_update_by_query` and `POST /{index}/_delete_by_query` (RestUpdateByQueryAction,
 * RestDeleteByQueryAction): the body's `conflicts`, `max_docs` and, for update_by_query, `script` are taken out
 * (a body `size` is refused as ES 8 refuses it: "use [max_docs] instead"), the rest is the source search with the URL's search parameters
 * (q, df, sort, _source, routing, ...); `scroll_size` is the batch size. Each runs as the cancellable task
 * `indices:data/write/update/byquery` / `indices:data/write/delete/byquery`, described
 * `update-by-query [idx]` / `delete-by-query [idx]`. Responses leave out `created` (and `updated` for
 * delete_by_query), as ES's handlers ask.
 */
import { setOwnValue } from '../../common/own-keys.js';
import { errors, reindexErrors } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS } from '../../cluster/indices-options.js';
import { DEFAULT_SCROLL_SIZE, type HitConversion, type StatusRenderOptions } from '../../reindex/index.js';
import type { ActionContext, RestRequest, RestResponse, Route } from '../rest.js';
import { rejectPipeline } from '../documents/bulk-request-parser.js';
import { indexExpressions } from '../search/search-input.js';
import { abortOnConflicts, bodyObject, checkMaxDocs, COMMON_PARAMS, mergeMaxDocs, readCommonOptions, tokenName } from './common-params.js';
import { compileRequestScript } from './request-script.js';
import { runBulkByScroll } from './run-bulk-by-scroll.js';

export const UPDATE_BY_QUERY_ACTION = 'indices:data/write/update/byquery';
export const DELETE_BY_QUERY_ACTION = 'indices:data/write/delete/byquery';

/** The URL parameters that shape the source search (RestSearchAction.parseSearchRequest reads them). */
const SEARCH_PARAMS = [
  'q',
  'df',
  'analyzer',
  'analyze_wildcard',
  'default_operator',
  'lenient',
  'sort',
  '_source',
  '_source_includes',
  '_source_excludes',
  'terminate_after',
  'stats',
  'routing',
  'preference',
  'search_type',
  'request_cache',
  ...INDICES_OPTIONS_PARAMS,
] as const;

/** update_by_query.json / delete_by_query.json parameters beyond the common ones and the search ones. */
const BY_QUERY_PARAMS = ['conflicts', 'scroll_size', 'search_timeout', 'from', 'version', 'version_type', 'pipeline'] as const;

type Api = 'update_by_query' | 'delete_by_query';

function sourceParams(request: RestRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SEARCH_PARAMS) {
    const value = request.param(name);
    if (value !== undefined) out[name] = value;
  }
  const searchTimeout = request.param('search_timeout');
  if (searchTimeout !== undefined) out['timeout'] = searchTimeout;
  return out;
}

function describeFor(api: Api): (request: RestRequest) => string {
  const prefix = api === 'update_by_query' ? 'update-by-query' : 'delete-by-query';
  return (request) => {
    const indices = indexExpressions(request.pathParams['index']);
    return `${prefix} ${indices.length === 0 ? '[all indices]' : `[${indices.join(', ')}]`}`;
  };
}

function handlerFor(api: Api): Route['handler'] {
  return async (request: RestRequest, context: ActionContext): Promise<RestResponse> => {
    if (request.hasParam('size')) throw reindexErrors.sizeParameter();
    const common = readCommonOptions(request);
    if (api === 'update_by_query') rejectPipeline(request.param('pipeline'));
    const raw = bodyObject(request, api);
    const searchBody: Record<string, unknown> = {};
    let bodyMaxDocs: number | undefined;
    let conflicts = request.param('conflicts');
    let script: unknown;
    for (const [key, value] of Object.entries(raw)) {
      if (key === 'conflicts') {
        if (typeof value !== 'string') throw reindexErrors.fieldType(api, key, tokenName(value));
        conflicts = value;
      } else if (key === 'size') {
        // AbstractBulkByQueryRestHandler: the search parser's size consumer fails for the REST API version 8.
        throw reindexErrors.sizeParameter();
      } else if (key === 'max_docs') {
        if (typeof value !== 'number' || !Number.isInteger(value)) throw reindexErrors.fieldType(api, key, tokenName(value));
        bodyMaxDocs = checkMaxDocs(value);
      } else if (key === 'script' && api === 'update_by_query') script = value;
      else setOwnValue(searchBody, key, value);
    }
    const abort = abortOnConflicts(conflicts ?? 'abort');
    const maxDocs = mergeMaxDocs(bodyMaxDocs, common.maxDocsParam);
    const params = sourceParams(request);
    const problems: string[] = [];
    const from = searchBody['from'] ?? request.param('from');
    if (from !== undefined && Number(from) > 0) problems.push('using [from] is not allowed in a scroll context');
    if (from !== undefined) problems.push('from is not supported in this context');
    if (searchBody['stored_fields'] !== undefined) problems.push('stored_fields is not supported in this context');
    if (api === 'delete_by_query' && searchBody['query'] === undefined && params['q'] === undefined) problems.push('query is missing');
    if (problems.length > 0) throw errors.requestValidation(problems);
    // ES fetches versions only when the search asks (`version: true`); otherwise ctx._version is -1.
    const versionsFetched = searchBody['version'] === true || request.param('version') === 'true';
    const hitScript = script === undefined ? undefined : compileRequestScript(script, 'update_by_query', versionsFetched);
    const scrollSize = request.paramInt('scroll_size', DEFAULT_SCROLL_SIZE);
    const conversion: HitConversion = { kind: api };
    const render: StatusRenderOptions = { includeCreated: false, includeUpdated: api === 'update_by_query' };
    return runBulkByScroll(
      {
        source: { indices: indexExpressions(request.pathParams['index']), body: searchBody, params },
        batchSize: scrollSize,
        maxDocs,
        abortOnVersionConflict: abort,
        requestsPerSecond: common.requestsPerSecond,
        refresh: common.refresh,
        timeoutMillis: common.timeoutMillis,
        waitForActiveShards: common.waitForActiveShards,
        scrollKeepAliveMillis: common.scrollKeepAliveMillis,
        conversion,
        script: hitScript,
        slice: undefined,
      },
      common.waitForCompletion,
      render,
      context,
      common.slices,
    );
  };
}

function route(api: Api): Route {
  return {
    method: 'POST',
    path: `/{index}/_${api}`,
    action: api === 'update_by_query' ? UPDATE_BY_QUERY_ACTION : DELETE_BY_QUERY_ACTION,
    cancellable: true,
    body: 'optional',
    params: [...COMMON_PARAMS, ...SEARCH_PARAMS, ...BY_QUERY_PARAMS, 'search_timeout'],
    describe: describeFor(api),
    handler: handlerFor(api),
  };
}

export const byQueryRoutes: Route[] = [route('update_by_query'), route('delete_by_query')];
