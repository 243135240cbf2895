/**
 * `GET|POST /_search` and `/{index}/_search` (RestSearchAction -> TransportSearchAction): resolves the target
 * indices (or the point in time's shards), runs query-then-fetch (or dfs) over every shard, and answers
 * ES's response. The first page of a scroll opens a scroll context per shard and returns its `_scroll_id`.
 * `runSearch` is shared with `_msearch`.
 */
import { resolveSearchTargets } from '../../cluster/index.js';
import { aliasFiltersOf } from './alias-filter.js';
import { errors } from '../../common/errors.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { buildScrollId, decodePitId } from './context-ids.js';
import { executeSearch, SEARCH_ACTION, slotSourcesOf, type SearchMode, type ShardSlot } from './search-executor.js';
import { indexExpressions, readSearchInput, SEARCH_PARAMS, withPitTiebreaker, type SearchInput } from './search-input.js';
import { emptySearchResponseXContent, searchResponseXContent, type ResponseOptions } from './search-response.js';
import { compareShardIds, resolveSearchShards } from './search-shards.js';

export interface SearchAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** The shards of a point in time: its recorded contexts, each on its node, in ES's shard order. */
function pitSlots(input: SearchInput, context: ActionContext): ShardSlot[] {
  const state = context.services.clusterService.state();
  const refs = decodePitId(input.pit!.id);
  const sorted = [...refs].sort(compareShardIds);
  return sorted.map((ref, shardIndex): ShardSlot => {
    const base = { index: ref.index, indexUuid: ref.indexUuid, shard: ref.shard, shardIndex, nodeId: ref.nodeId };
    // The context lives on its node (which applies the alias filter it was opened with); a node that left the
    // cluster took it along.
    const node = state.nodes.get(ref.nodeId);
    if (node === undefined) return { ...base, source: { kind: 'failed', error: errors.noSuchNode(ref.nodeId) } };
    return { ...base, source: { kind: 'context', node, context: { sessionId: ref.sessionId, contextId: ref.contextId } } };
  });
}

function indexSlots(input: SearchInput, context: ActionContext): ShardSlot[] {
  const services = context.services;
  const state = services.clusterService.state();
  const targets = resolveSearchTargets(state, input.indicesOptions, input.indices, input.routing);
  const filters = aliasFiltersOf(targets);
  return resolveSearchShards(services, state, targets.indices, targets.routingOf, input.preference).map((ref): ShardSlot => ({
    index: ref.index,
    indexUuid: ref.indexUuid,
    shard: ref.shard,
    shardIndex: ref.shardIndex,
    ...slotSourcesOf(ref),
    ...(filters.has(ref.index) && { aliasFilter: filters.get(ref.index)! }),
  }));
}

/** TransportSearchAction.hasReadOnlyIndices: a searched index with a write block (`index.blocks.write`). */
export function hasWriteBlock(slots: readonly ShardSlot[], context: ActionContext): boolean {
  const state = context.services.clusterService.state();
  return slots.some((slot) => state.indices.get(slot.index)?.settings['index.blocks.write'] === 'true');
}

/** RestStatus.status(successful, total, failures) for a response that has results. */
export function responseStatus(successful: number, total: number, failures: readonly { cause: { status: number } }[]): number {
  if (failures.length === 0) return successful === 0 && total > 0 ? 503 : 200;
  if (successful === 0 && total > 0) {
    let status = 200;
    for (const failure of failures) if (failure.cause.status >= status) status = failure.cause.status;
    return status;
  }
  return 200;
}

export async function runSearch(input: SearchInput, context: ActionContext): Promise<SearchAnswer> {
  const started = performance.now();
  const nowMillis = Date.now();
  const slots = input.pit !== undefined ? pitSlots(input, context) : indexSlots(input, context);
  const request = input.pit !== undefined ? withPitTiebreaker(input.request) : input.request;
  const options: ResponseOptions = {
    totalHitsAsInt: input.totalHitsAsInt,
    typedKeys: input.typedKeys,
    ...(input.pit !== undefined && { pitId: input.pit.id }),
  };
  if (slots.length === 0) return { status: 200, body: emptySearchResponseXContent(Math.floor(performance.now() - started), options) };
  const mode: SearchMode = input.scrollKeepAliveMillis !== undefined ? { kind: 'scroll-start', keepAliveMillis: input.scrollKeepAliveMillis } : { kind: 'search' };
  const outcome = await executeSearch(
    {
      request,
      aggregations: input.aggregations,
      dfs: input.searchType === 'dfs_query_then_fetch',
      trackTotalHitsUpTo: input.trackTotalHitsUpTo,
      allowPartialResults: input.allowPartialResults,
      nowMillis,
      slots,
      mode,
      ...(input.pit?.keepAliveMillis !== undefined && { contextKeepAliveMillis: input.pit.keepAliveMillis }),
      batchedReduceSize: input.batchedReduceSize,
      preFilter: { preFilterShardSize: input.preFilterShardSize, readOnlyIndices: hasWriteBlock(slots, context) },
      slowLogSource: input.slowLogSource,
      maxConcurrentShardRequests: input.maxConcurrentShardRequests,
    },
    context,
  );
  const scrollId = mode.kind === 'scroll-start' ? buildScrollId(outcome.scrollContexts) : undefined;
  const body = searchResponseXContent(outcome, Math.floor(performance.now() - started), { ...options, ...(scrollId !== undefined && { scrollId }) });
  return { status: responseStatus(outcome.successfulShards, outcome.totalShards, outcome.failures), body };
}

/** SearchRequest.buildDescription, as `_tasks?detailed` shows it. */
function describeSearch(request: RestRequest): string {
  const indices = indexExpressions(request.pathParams['index']).join(',');
  const searchType = request.param('search_type') === 'dfs_query_then_fetch' ? 'DFS_QUERY_THEN_FETCH' : 'QUERY_THEN_FETCH';
  const scroll = request.param('scroll');
  let source = '{}';
  if (request.hasBody) {
    try {
      source = JSON.stringify(JSON.parse(request.body().toString('utf8')));
    } catch {
      source = request.body().toString('utf8');
    }
  }
  return `indices[${indices}], search_type[${searchType}], ${scroll !== undefined ? `scroll[${scroll}], ` : ''}source[${source}]`;
}

async function handleSearch(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const input = readSearchInput({
    param: (name) => request.param(name),
    body: request.hasBody ? request.body() : undefined,
    indices: indexExpressions(request.pathParams['index']),
  });
  const answer = await runSearch(input, context);
  return json(answer.body, answer.status);
}

const searchRoute = (path: string): Route => ({
  method: ['GET', 'POST'],
  path,
  action: SEARCH_ACTION,
  cancellable: true,
  body: 'optional',
  params: SEARCH_PARAMS,
  describe: describeSearch,
  handler: handleSearch,
});

export const searchRoutes: Route[] = [searchRoute('/_search'), searchRoute('/{index}/_search')];
