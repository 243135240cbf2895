/**
 * Scroll (RestSearchScrollAction, RestClearScrollAction): `GET|POST /_search/scroll[/{scroll_id}]` returns the
 * next page of every shard's scroll context (each shard continues after its last hit that made it into a
 * page; the total and max_score stay those of the first page), renewing the keep-alive with `scroll`.
 * `DELETE /_search/scroll[/{scroll_id}]` frees contexts (`_all` frees every scroll) and answers
 * `{succeeded, num_freed}`, 404 when nothing was freed. Body values override the URL's. A context that has
 * expired or was cleared is ES's search_context_missing_exception (404 when no shard is left); a context on a node
 * that left the cluster fails its shard with ES's "node [..] is not available".
 */
import { errors } from '../../common/errors.js';
import { parseTimeValueMillis } from '../../common/time-value.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { parseScrollId } from './context-ids.js';
import { clearAllScrollContexts, freeContexts } from './free-contexts.js';
import { responseStatus, type SearchAnswer } from './search-action.js';
import { executeSearch, type ShardSlot } from './search-executor.js';
import { booleanParam } from './search-input.js';
import { searchResponseXContent } from './search-response.js';
import { TRACK_TOTAL_HITS_ACCURATE } from '../../search/dsl/index.js';

export const SCROLL_ACTION = 'indices:data/read/scroll';
export const CLEAR_SCROLL_ACTION = 'indices:data/read/scroll/clear';

/** The JSON body's keys, as SearchScrollRequest.fromXContent / ClearScrollRequest.fromXContent read them. */
function bodyObject(request: RestRequest): Record<string, unknown> | undefined {
  if (!request.hasBody || request.body().length === 0) return undefined;
  const value = request.json();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw errors.illegalArgument('Malformed content, must start with an object');
  return value as Record<string, unknown>;
}

function unknownParameter(key: string, value: unknown): never {
  const token = typeof value === 'string' ? 'VALUE_STRING' : typeof value === 'number' ? 'VALUE_NUMBER' : Array.isArray(value) ? 'START_ARRAY' : typeof value === 'object' ? 'START_OBJECT' : 'VALUE_BOOLEAN';
  throw errors.illegalArgument(`Unknown parameter [${key}] in request body or parameter is of the wrong type[${token}] `);
}

async function handleScroll(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  let scrollId = request.pathParams['scroll_id'] ?? request.param('scroll_id');
  let scroll = request.param('scroll');
  const body = bodyObject(request);
  if (body !== undefined) {
    for (const [key, value] of Object.entries(body)) {
      if (key === 'scroll_id' && typeof value === 'string') scrollId = value;
      else if (key === 'scroll' && typeof value === 'string') scroll = value;
      else unknownParameter(key, value);
    }
  }
  if (scrollId === undefined || scrollId.length === 0) throw errors.requestValidation(['scrollId is missing']);
  const keepAliveMillis = scroll === undefined ? undefined : parseTimeValueMillis(scroll, 'scroll');
  const totalHitsAsInt = booleanParam((name) => request.param(name), 'rest_total_hits_as_int', false);
  const answer = await runScroll(scrollId, keepAliveMillis, totalHitsAsInt, context);
  return json(answer.body, answer.status);
}

/** The next page of a scroll (shared with the bulk-by-scroll APIs, which read their source this way). */
export async function runScroll(scrollId: string, keepAliveMillis: number | undefined, totalHitsAsInt: boolean, context: ActionContext): Promise<SearchAnswer> {
  const started = performance.now();
  const refs = parseScrollId(scrollId);
  const state = context.services.clusterService.state();
  const slots: ShardSlot[] = refs.map((ref, shardIndex) => {
    // Each context is on its node (this one's too, through the transport's local shortcut); its index and shard
    // are learnt from there (search-executor.ts). A node that left the cluster took its contexts along: that shard
    // fails as ES's scroll fails it, the node "not available" (not a missing context: the node may come back).
    const node = state.nodes.get(ref.nodeId);
    if (node === undefined) return { index: '', indexUuid: '', shard: -1, shardIndex, nodeId: undefined, source: { kind: 'failed', error: errors.scrollNodeNotAvailable(ref.nodeId) } };
    return { index: '', indexUuid: '', shard: -1, shardIndex, nodeId: node.id, source: { kind: 'context', node, context: { sessionId: ref.sessionId, contextId: ref.contextId } } };
  });
  const outcome = await executeSearch(
    {
      // The request, its size, sort and clock are each context's own (its first page's), kept on its node.
      request: {},
      aggregations: undefined,
      dfs: false,
      trackTotalHitsUpTo: TRACK_TOTAL_HITS_ACCURATE,
      allowPartialResults: true,
      nowMillis: Date.now(),
      slots,
      mode: { kind: 'scroll-next', keepAliveMillis, size: 10 },
    },
    context,
  );
  const responseBody = searchResponseXContent(outcome, Math.floor(performance.now() - started), { totalHitsAsInt, typedKeys: false, scrollId });
  return { status: responseStatus(outcome.successfulShards, outcome.totalShards, outcome.failures), body: responseBody };
}

/** ClearScrollRequest: ids from the body (a string or an array), else the path or `scroll_id` parameter. */
function scrollIdsToClear(request: RestRequest): string[] {
  const body = bodyObject(request);
  if (body !== undefined) {
    const ids: string[] = [];
    for (const [key, value] of Object.entries(body)) {
      if (key !== 'scroll_id') unknownParameter(key, value);
      if (typeof value === 'string') ids.push(value);
      else if (Array.isArray(value)) {
        for (const item of value) {
          if (typeof item !== 'string') throw errors.illegalArgument('scroll_id array element should only contain scroll_id');
          ids.push(item);
        }
      } else unknownParameter(key, value);
    }
    if (ids.length > 0) return ids;
  }
  const raw = request.pathParams['scroll_id'] ?? request.param('scroll_id');
  return raw === undefined ? [] : raw.split(',').filter((id) => id.length > 0);
}

async function handleClearScroll(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const ids = scrollIdsToClear(request);
  if (ids.length === 0) throw errors.requestValidation(['no scroll ids specified']);
  const services = context.services;
  let freed = 0;
  if (ids.includes('_all')) {
    freed = await clearAllScrollContexts(services, context.task);
  } else {
    // Every id is parsed before anything is freed: one bad id fails the request. Each context is freed on its node.
    const parsed = ids.map(parseScrollId);
    freed = await freeContexts(services, parsed.flat(), 'scroll', context.task);
  }
  return json({ succeeded: true, num_freed: freed }, freed === 0 ? 404 : 200);
}

export const scrollRoutes: Route[] = [
  ...['/_search/scroll', '/_search/scroll/{scroll_id}'].map(
    (path): Route => ({
      method: ['GET', 'POST'],
      path,
      action: SCROLL_ACTION,
      cancellable: true,
      body: 'optional',
      params: ['scroll', 'scroll_id', 'rest_total_hits_as_int'],
      handler: handleScroll,
    }),
  ),
  ...['/_search/scroll', '/_search/scroll/{scroll_id}'].map(
    (path): Route => ({
      method: 'DELETE',
      path,
      action: CLEAR_SCROLL_ACTION,
      body: 'optional',
      params: ['scroll_id'],
      handler: handleClearScroll,
    }),
  ),
];
