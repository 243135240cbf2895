/**
 * `GET|POST /_count` and `/{index}/_count` (RestCountAction): a search with size 0 and an exact total. The
 * body may only hold `query` (RestActions.getQueryContent: "request does not support [x]"); without a body
 * the `q` parameter (and its companions) is the query. `min_score` and `terminate_after` apply; the answer
 * is `{terminated_early?, count, _shards}`.
 */
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED, indicesOptionsFromParams, type IndicesOptions } from '../../cluster/indices-options.js';
import { errors } from '../../common/errors.js';
import { parseTopLevelQuery, TRACK_TOTAL_HITS_ACCURATE, urlQuery, XContentParser, type QueryAst, type SearchRequest } from '../../search/dsl/index.js';
import { parsingError } from '../../search/dsl/xcontent/xcontent-errors.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { executeSearch, SEARCH_ACTION, slotSourcesOf, type SearchOutcome } from './search-executor.js';
import { DEFAULT_MAX_CONCURRENT_SHARD_REQUESTS } from './search-input.js';
import { indexExpressions } from './search-input.js';
import { shardsHeader } from './search-errors.js';
import { resolveSearchShards } from './search-shards.js';
import { resolveSearchTargets } from '../../cluster/index.js';
import { aliasFiltersOf } from './alias-filter.js';
import { hasWriteBlock, responseStatus } from './search-action.js';

const COUNT_PARAMS = [
  'q',
  'df',
  'analyzer',
  'analyze_wildcard',
  'lenient',
  'default_operator',
  'min_score',
  'terminate_after',
  'routing',
  'preference',
  ...INDICES_OPTIONS_PARAMS,
] as const;

/** RestActions.getQueryContent: `{"query": {...}}` and nothing else. */
export function parseQueryOnlyBody(body: Uint8Array): QueryAst | undefined {
  const parser = new XContentParser(body);
  let token = parser.nextToken();
  if (token !== 'START_OBJECT') throw parsingError(parser.tokenLocation(), `Expected [START_OBJECT] but found [${token ?? 'null'}]`);
  let query: QueryAst | undefined;
  for (token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token !== 'FIELD_NAME') continue;
    const name = parser.currentName();
    if (name !== 'query') throw parsingError(parser.tokenLocation(), `request does not support [${name}]`);
    query = parseTopLevelQuery(parser);
  }
  return query;
}

function floatParam(request: RestRequest, name: string): number | undefined {
  const raw = request.param(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || Number.isNaN(value)) throw errors.illegalArgument(`Failed to parse float parameter [${name}] with value [${raw}]`);
  return Math.fround(value);
}

function intParam(request: RestRequest, name: string): number | undefined {
  const raw = request.param(name);
  if (raw === undefined) return undefined;
  if (!/^[+-]?\d+$/.test(raw)) throw errors.illegalArgument(`Failed to parse int parameter [${name}] with value [${raw}]`);
  return Number(raw);
}

/**
 * A size-0 search that counts every hit across the shards of `indices` (wherever they live), or undefined when
 * no shard is targeted. Shared with `_cat/count`.
 */
export async function countSearch(
  context: ActionContext,
  searchRequest: SearchRequest,
  indices: readonly string[],
  options: IndicesOptions,
  routing: string | undefined,
): Promise<SearchOutcome | undefined> {
  const services = context.services;
  const state = services.clusterService.state();
  const targets = resolveSearchTargets(state, options, [...indices], routing);
  const filters = aliasFiltersOf(targets);
  const slots = resolveSearchShards(services, state, targets.indices, targets.routingOf).map((ref) => ({
    index: ref.index,
    indexUuid: ref.indexUuid,
    shard: ref.shard,
    shardIndex: ref.shardIndex,
    ...slotSourcesOf(ref),
    ...(filters.has(ref.index) && { aliasFilter: filters.get(ref.index)! }),
  }));
  if (slots.length === 0) return undefined;
  return executeSearch(
    {
      request: searchRequest,
      aggregations: undefined,
      dfs: false,
      trackTotalHitsUpTo: TRACK_TOTAL_HITS_ACCURATE,
      allowPartialResults: true,
      nowMillis: Date.now(),
      slots,
      mode: { kind: 'search' },
      // _count is a size-0 search in ES: the can-match pre-filter applies to it too.
      preFilter: { preFilterShardSize: undefined, readOnlyIndices: hasWriteBlock(slots, context) },
      maxConcurrentShardRequests: DEFAULT_MAX_CONCURRENT_SHARD_REQUESTS,
    },
    context,
  );
}

async function handleCount(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const param = (name: string): string | undefined => request.param(name);
  const query = request.hasBody && request.body().length > 0 ? parseQueryOnlyBody(request.body()) : urlQuery({ param });
  const minScore = floatParam(request, 'min_score');
  const terminateAfter = intParam(request, 'terminate_after');
  if (terminateAfter !== undefined && terminateAfter < 0) throw errors.illegalArgument('terminateAfter must be > 0');
  const searchRequest: SearchRequest = {
    ...(query !== undefined && { query }),
    size: 0,
    trackTotalHitsUpTo: TRACK_TOTAL_HITS_ACCURATE,
    ...(minScore !== undefined && minScore !== -1 && { minScore }),
    ...(terminateAfter !== undefined && terminateAfter > 0 && { terminateAfter }),
  };
  const options = indicesOptionsFromParams(param, STRICT_EXPAND_OPEN_FORBID_CLOSED);
  const terminated = searchRequest.terminateAfter !== undefined;
  const outcome = await countSearch(context, searchRequest, indexExpressions(request.pathParams['index']), options, request.param('routing'));
  if (outcome === undefined) {
    return json({ ...(terminated && { terminated_early: false }), count: 0, _shards: shardsHeader(0, 0, 0, []) });
  }
  const body = {
    ...(terminated && { terminated_early: outcome.reduced.terminatedEarly ?? false }),
    count: outcome.reduced.totalHits?.value ?? 0,
    _shards: shardsHeader(outcome.totalShards, outcome.successfulShards, outcome.skippedShards, outcome.failures),
  };
  return json(body, responseStatus(outcome.successfulShards, outcome.totalShards, outcome.failures));
}

const countRoute = (path: string): Route => ({
  method: ['GET', 'POST'],
  path,
  action: SEARCH_ACTION,
  cancellable: true,
  body: 'optional',
  params: COUNT_PARAMS,
  handler: handleCount,
});

export const countRoutes: Route[] = [countRoute('/_count'), countRoute('/{index}/_count')];
