/**
 * The shard-level search phases, on the node that holds the shard copy (ES's SearchService behind
 * SearchTransportService): every search reaches its shards through these, this node's own included (the
 * transport runs those in-process, handing the request and the answer over as they are; decision 0024). A
 * scroll or point-in-time context lives on its data node and its id names that node. These are the handlers:
 *
 *   indices:data/read/open_reader_context        open a point-in-time context on a shard copy
 *   indices:data/read/search[can_match]          whether the shard's query can match there (the pre-filter)
 *   indices:data/read/search[phase/dfs]          a shard's term and field statistics (dfs_query_then_fetch)
 *   indices:data/read/search[phase/query]        the query phase on a context (opening a scroll's context, or a
 *                                                plain search's single-use one, first): doc ids, scores, sort
 *                                                values and partial aggregations, never sources; or, for a
 *                                                search of one shard, query and fetch at once
 *                                                (remote-shard-search.ts; on a context: a scroll's first page,
 *                                                a point in time, queryFetchOnContext)
 *   indices:data/read/search[phase/fetch/id]     the page's winners from a context, recording a scroll's position
 *                                                (a plain search's context is freed by it: ES's ShardFetchRequest)
 *   indices:data/read/search[phase/query/scroll]      a scroll's later page: the query on its context (ES's
 *   indices:data/read/search[phase/fetch/id/scroll]   SearchScrollQueryThenFetchAsyncAction), then the winners
 *   indices:data/read/search[phase/query+fetch/scroll]  a later page of a scroll of one shard: both in one request
 *                                                (ES's SearchScrollQueryAndFetchAsyncAction; its first page
 *                                                fetches within `[phase/query]`)
 *   indices:data/read/search[free_context]       free a plain search's context (or a failed scroll's first page's)
 *   indices:data/read/search[free_context/scroll]  free one scroll or point-in-time context (clear scroll, close
 *                                                point in time: ES's ClearScrollController)
 *   indices:data/read/search[clear_scroll_contexts]  free every scroll context of the node (clear scroll `_all`)
 *
 * A scroll context remembers its request, sort, statistics and first-page totals (ScrollState) exactly as a
 * local one does, so a scroll's later pages are the same whichever node coordinates them. Values that msgpack
 * alone would alter travel tagged (wire-values.ts): the codecs are registered with the actions (node-actions.ts)
 * and the transport applies them only when a message crosses a socket, so the handlers and the coordinating node
 * see plain values. Neither side changes what it handed over or was handed: on this node's shortcut both hold
 * the same objects.
 */
import { errors, toEsError } from '../../common/errors.js';
import { toWireError, type WireError } from '../../transport/index.js';
import type { QueryAst, SearchRequest } from '../../search/dsl/index.js';
import type { AggregationSpec } from '../../search/aggregations/index.js';
import {
  aggregateDfs,
  canMatchShard,
  executeDfsPhase,
  executeFetchPhase,
  executeQueryPhase,
  PhaseControl,
  resolveSort,
  type AfterDoc,
  type DfsResult,
  type FetchDocRef,
  type FetchedSearchHit,
  type QueryPhaseResult,
} from '../../search/phase/index.js';
import { TRACK_TOTAL_HITS_ACCURATE } from '../../search/dsl/index.js';
import type { Task } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { indicesOf } from '../indices-services.js';
import { withAliasFilter } from './alias-filter.js';
import { readerContextsOf, type ReaderContext } from './reader-contexts.js';
import { searchContextMissing } from './search-errors.js';
import { targetFor, type ShardLabel } from './search-shards.js';
import { logRemoteSearchPhase, type SearchSlowLogRequest } from './search-slow-log.js';
import { totalHitsText } from '../../indices/index.js';

export const OPEN_READER_CONTEXT_ACTION = 'indices:data/read/open_reader_context';
/** One request per node for all the search's shards there (ES 8's CanMatchNodeRequest). */
export const CAN_MATCH_ACTION = 'indices:data/read/search[can_match][n]';
export const DFS_ACTION = 'indices:data/read/search[phase/dfs]';
export const QUERY_CONTEXT_ACTION = 'indices:data/read/search[phase/query]';
export const FETCH_CONTEXT_ACTION = 'indices:data/read/search[phase/fetch/id]';
export const QUERY_SCROLL_ACTION = 'indices:data/read/search[phase/query/scroll]';
export const FETCH_SCROLL_ACTION = 'indices:data/read/search[phase/fetch/id/scroll]';
export const QUERY_FETCH_SCROLL_ACTION = 'indices:data/read/search[phase/query+fetch/scroll]';
export const FREE_CONTEXT_ACTION = 'indices:data/read/search[free_context]';
export const FREE_CONTEXT_SCROLL_ACTION = 'indices:data/read/search[free_context/scroll]';
export const CLEAR_SCROLL_CONTEXTS_ACTION = 'indices:data/read/search[clear_scroll_contexts]';

/** A context on its node, as the scroll and point-in-time ids record it. */
export interface RemoteContextRef {
  readonly sessionId: string;
  readonly contextId: number;
}

/**
 * The shard copy on this node, or ES's shard_not_found_exception (the coordinating node reports it as its copy not
 * being available, and tries the next copy).
 */
function localShard(services: NodeServices, label: { index: string; indexUuid: string; shard: number }) {
  const indices = indicesOf(services).service;
  const service = indices.indexService(label.index);
  const shard = indices.shard(label.index, label.shard);
  if (service === undefined || shard === undefined || service.uuid !== label.indexUuid || shard.state === 'closed') throw errors.shardNotFound(label.index, label.indexUuid, label.shard);
  return { service, shard };
}

function liveContext(services: NodeServices, ref: RemoteContextRef, kind: ReaderContext['kind']): ReaderContext {
  const context = readerContextsOf(services).get(ref.sessionId, ref.contextId);
  if (context === undefined || context.kind !== kind) throw searchContextMissing(ref.contextId);
  return context;
}

function labelOf(context: ReaderContext, shardIndex: number): ShardLabel {
  return { index: context.index, indexUuid: context.indexUuid, shard: context.shardId, shardIndex };
}

// ---- open_reader_context -------------------------------------------------------------------------------------

export interface OpenContextRequest {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly keepAliveMillis: number;
  readonly aliasFilter?: QueryAst;
}

export async function openReaderContext(services: NodeServices, request: OpenContextRequest): Promise<RemoteContextRef> {
  const { service, shard } = localShard(services, request);
  // A point in time opened on a search-idle copy sees the writes that copy skipped refreshing (ES's SearchService).
  await shard.ensureSearchActive();
  const registry = readerContextsOf(services);
  const searcher = shard.acquireSearcher();
  try {
    const context = registry.open('pit', service, shard, searcher, request.keepAliveMillis, request.aliasFilter);
    return { sessionId: registry.sessionId, contextId: context.id } satisfies RemoteContextRef;
  } catch (err) {
    searcher.release();
    throw err;
  }
}

// ---- can_match ----------------------------------------------------------------------------------------------

export interface CanMatchRequest {
  readonly label: ShardLabel;
  /** A point in time's context (its searcher, and its alias filter); otherwise the shard's current searcher. */
  readonly context?: RemoteContextRef;
  /** The query with the alias filter the coordinating node knows of applied. */
  readonly query: QueryAst | undefined;
  readonly nowMillis: number;
}

/** A node's can-match request: its shards of the search, each answered alone (ES's CanMatchNodeRequest). */
export interface CanMatchNodeRequest {
  readonly shards: readonly CanMatchRequest[];
}

/** Per shard, in the request's order: whether it can match, or why it could not tell (ES's ResponseOrFailure). */
export type CanMatchNodeResponse = Array<{ readonly canMatch: boolean } | { readonly error: WireError }>;

export function canMatchOnNode(services: NodeServices, request: CanMatchNodeRequest): CanMatchNodeResponse {
  return request.shards.map((shard) => {
    try {
      return canMatchOnShard(services, shard);
    } catch (err) {
      return { error: toWireError(toEsError(err)) };
    }
  });
}

export function canMatchOnShard(services: NodeServices, request: CanMatchRequest): { canMatch: boolean } {
  if (request.context !== undefined) {
    const context = liveContext(services, request.context, 'pit');
    const registry = readerContextsOf(services);
    registry.acquire(context, undefined);
    try {
      const target = targetFor(labelOf(context, request.label.shardIndex), context.service, context.searcher, services);
      return { canMatch: canMatchShard(target, withAliasFilter({ query: request.query } as SearchRequest, context.aliasFilter).query, request.nowMillis) };
    } finally {
      registry.release(context);
    }
  }
  const { service, shard } = localShard(services, request.label);
  // A search-idle copy that skipped a refresh may hold matching documents its searcher does not see yet: it answers
  // "can match", and the query phase refreshes it first (ES's SearchService.canMatch).
  const refreshPending = shard.hasRefreshPending;
  const searcher = shard.acquireSearcher();
  try {
    return { canMatch: canMatchShard(targetFor(request.label, service, searcher, services), request.query, request.nowMillis) || refreshPending };
  } finally {
    searcher.release();
  }
}

// ---- dfs ----------------------------------------------------------------------------------------------------

export interface DfsShardRequest {
  readonly label: ShardLabel;
  /** The point in time's context to read; otherwise the shard's current searcher. */
  readonly context?: RemoteContextRef;
  readonly query: QueryAst | undefined;
  readonly nowMillis: number;
}

export async function dfsOnShard(services: NodeServices, request: DfsShardRequest, task: Task): Promise<DfsResult> {
  task.ensureNotCancelled();
  if (request.context !== undefined) {
    const context = liveContext(services, request.context, 'pit');
    const registry = readerContextsOf(services);
    registry.acquire(context, undefined);
    try {
      // Statistics come from the request's query, without the alias filter (as for a local shard).
      return executeDfsPhase(targetFor(labelOf(context, request.label.shardIndex), context.service, context.searcher, services), request.query, request.nowMillis);
    } finally {
      registry.release(context);
    }
  }
  const { service, shard } = localShard(services, request.label);
  await shard.ensureSearchActive();
  task.ensureNotCancelled();
  const searcher = shard.acquireSearcher();
  try {
    return executeDfsPhase(targetFor(request.label, service, searcher, services), request.query, request.nowMillis);
  } finally {
    searcher.release();
  }
}

// ---- query on a context ---------------------------------------------------------------------------------------

export type ContextQueryMode =
  /** Open a scroll context on the shard and run the first page's query. */
  | { readonly kind: 'scroll-start'; readonly keepAliveMillis: number }
  /** The next page of the context's scroll: request, sort and position come from the context. */
  | { readonly kind: 'scroll-next'; readonly keepAliveMillis: number | undefined }
  /** A search on a point-in-time context. */
  | { readonly kind: 'pit'; readonly keepAliveMillis: number | undefined }
  /**
   * The query phase of a plain search of several shards: a single-use context holds the searcher until the
   * coordinating node fetches the winners (or frees it); none is kept when the shard has no hit to fetch.
   */
  | { readonly kind: 'search' };

export interface ContextQueryRequest {
  readonly mode: ContextQueryMode;
  /** The shard (scroll-start) and its place among the search's shards. */
  readonly label: ShardLabel;
  /** The context (scroll-next, pit). */
  readonly context?: RemoteContextRef;
  /** The request for this shard (slice and alias filter applied); absent on scroll-next. */
  readonly request?: SearchRequest;
  readonly aggregations?: readonly AggregationSpec[];
  readonly numHits?: number;
  readonly trackTotalHitsUpTo: number;
  readonly after?: AfterDoc;
  readonly nowMillis: number;
  readonly dfs?: readonly DfsResult[];
  /** Set when the index logs slow search phases: this node writes the line (search-slow-log.ts). */
  readonly slowLog?: SearchSlowLogRequest;
  /**
   * The request's only shard (a scroll's first page or a point-in-time search of one shard): fetch the page in this
   * request too (queryFetchOnContext), as ES's SearchService does for a search of one shard.
   */
  readonly fetchInQuery?: boolean;
}

export interface ContextQueryResult {
  /** The context the fetch reads; absent when a plain search's shard kept none (no hit to fetch). */
  readonly context: RemoteContextRef | undefined;
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly query: QueryPhaseResult;
  /** The request the shard ran (a scroll's first request): the coordinating node resolves its sort from it. */
  readonly request: SearchRequest;
}

export async function queryOnContext(services: NodeServices, args: ContextQueryRequest, task: Task): Promise<ContextQueryResult> {
  const registry = readerContextsOf(services);
  const mode = args.mode;
  let context: ReaderContext;
  let opened = false;
  if (mode.kind === 'scroll-start' || mode.kind === 'search') {
    const { service, shard } = localShard(services, args.label);
    // ES's rewriteAndFetchShardRequest: a request without a reader context waits until the copy is search active.
    await shard.ensureSearchActive();
    task.ensureNotCancelled();
    const searcher = shard.acquireSearcher();
    try {
      // A plain search's context lapses with the default keep-alive if its coordinating node never comes back.
      context = mode.kind === 'search' ? registry.open('search', service, shard, searcher, registry.defaultKeepAliveMillis) : registry.open('scroll', service, shard, searcher, mode.keepAliveMillis);
    } catch (err) {
      searcher.release();
      throw err;
    }
    opened = true;
  } else {
    if (args.context === undefined) throw errors.illegalArgument('a context query needs a context');
    context = liveContext(services, args.context, mode.kind === 'pit' ? 'pit' : 'scroll');
  }
  registry.acquire(context, mode.kind === 'scroll-start' || mode.kind === 'search' ? undefined : mode.keepAliveMillis);
  let keep = true;
  const stats = context.indexShard.searchStats;
  stats.queryCurrent++;
  const started = performance.now();
  try {
    const target = targetFor(labelOf(context, args.label.shardIndex), context.service, context.searcher, services);
    const scroll = mode.kind === 'scroll-next' ? context.scroll : undefined;
    if (mode.kind === 'scroll-next' && scroll === undefined) throw errors.illegalArgument('the search context is not a scroll context');
    // A point in time applies the alias filter it was opened with (the coordinating node does not know it).
    const request = scroll?.request ?? (mode.kind === 'pit' ? withAliasFilter(args.request!, context.aliasFilter) : args.request!);
    const statistics = scroll?.statistics ?? (args.dfs === undefined ? undefined : aggregateDfs(args.dfs));
    const sort = scroll?.sort ?? resolveSort(target, request.sort);
    const size = request.size ?? 10;
    const deadline = request.timeoutMillis === undefined ? undefined : performance.now() + request.timeoutMillis;
    const control = new PhaseControl(() => task.ensureNotCancelled(), deadline);
    const after = scroll !== undefined ? scroll.lastEmitted : args.after;
    const result = await executeQueryPhase(
      target,
      {
        request,
        sort,
        ...(mode.kind !== 'scroll-next' && args.aggregations !== undefined && { aggregations: args.aggregations }),
        numHits: mode.kind === 'scroll-next' ? (size === 0 ? 0 : size) : (args.numHits ?? size),
        trackTotalHitsUpTo: mode.kind === 'pit' || mode.kind === 'search' ? args.trackTotalHitsUpTo : TRACK_TOTAL_HITS_ACCURATE,
        ...(after !== undefined && { after }),
        ...(statistics !== undefined && { statistics }),
        nowMillis: scroll?.nowMillis ?? args.nowMillis,
        windowCheck: mode.kind === 'pit' || mode.kind === 'search' ? 'search' : mode.kind === 'scroll-start' ? 'scroll' : 'none',
      },
      control,
    );
    // Later scroll pages report the first page's total and max score (ES's ScrollContext).
    const query = scroll !== undefined ? { ...result, totalHits: scroll.totalHits ?? result.totalHits, maxScore: scroll.maxScore } : result;
    if (mode.kind === 'scroll-start') {
      context.scroll = { request, aggregations: args.aggregations, sort, nowMillis: args.nowMillis, statistics, totalHits: result.totalHits, maxScore: result.maxScore, lastEmitted: undefined };
    }
    if (mode.kind === 'search') {
      // Nothing to fetch from this shard: free its context now instead of waiting for the coordinating node
      // (ES's SearchService does the same when the query result has no search context to keep).
      keep = query.hits.length > 0;
      if (keep) context.session = { request, statistics, nowMillis: args.nowMillis };
    }
    const tookMillis = performance.now() - started;
    stats.queryTotal++;
    stats.queryTimeMillis += Math.round(tookMillis);
    logRemoteSearchPhase(services, context.service, 'query', args.slowLog, { index: context.index, shard: context.shardId, tookMillis, totalHits: totalHitsText(query.totalHits.value, query.totalHits.relation) });
    const answer: ContextQueryResult = {
      context: keep ? { sessionId: registry.sessionId, contextId: context.id } : undefined,
      index: context.index,
      indexUuid: context.indexUuid,
      shard: context.shardId,
      query,
      request,
    };
    return answer;
  } catch (err) {
    stats.queryFailure++;
    keep = !opened;
    throw err;
  } finally {
    stats.queryCurrent--;
    registry.release(context);
    if (!keep) registry.free(context.id);
  }
}

// ---- fetch from a context -------------------------------------------------------------------------------------

export interface ContextFetchRequest {
  readonly kind: ReaderContext['kind'];
  readonly context: RemoteContextRef;
  readonly shardIndex: number;
  readonly docs: readonly FetchDocRef[];
  /** A point in time's request (a scroll fetches with its own first request). */
  readonly request?: SearchRequest;
  readonly nowMillis: number;
  readonly dfs?: readonly DfsResult[];
  /** A scroll's last hit of this shard that made it into the page: the next page continues after it. */
  readonly lastEmitted?: AfterDoc;
  /** Set when the index logs slow search phases: this node writes the line (search-slow-log.ts). */
  readonly slowLog?: SearchSlowLogRequest;
}

export async function fetchOnContext(services: NodeServices, args: ContextFetchRequest, task: Task): Promise<FetchedSearchHit[]> {
  const registry = readerContextsOf(services);
  const context = liveContext(services, args.context, args.kind);
  registry.acquire(context, undefined);
  const stats = context.indexShard.searchStats;
  stats.fetchCurrent++;
  const started = performance.now();
  try {
    const target = targetFor(labelOf(context, args.shardIndex), context.service, context.searcher, services);
    // A scroll and a plain search fetch with the request their query phase ran; a point in time with the one sent.
    const kept = context.scroll ?? context.session;
    const request = kept?.request ?? args.request ?? {};
    const statistics = kept?.statistics ?? (args.dfs === undefined ? undefined : aggregateDfs(args.dfs));
    const control = new PhaseControl(() => task.ensureNotCancelled(), undefined);
    const hits = await executeFetchPhase(target, { request, docs: args.docs, ...(statistics !== undefined && { statistics }), nowMillis: kept?.nowMillis ?? args.nowMillis }, control);
    if (args.lastEmitted !== undefined && context.scroll !== undefined) context.scroll.lastEmitted = args.lastEmitted;
    const tookMillis = performance.now() - started;
    stats.fetchTotal++;
    stats.fetchTimeMillis += Math.round(tookMillis);
    // A fetch phase knows no total (ES's fetch context has no query result: "-1").
    logRemoteSearchPhase(services, context.service, 'fetch', args.slowLog, { index: context.index, shard: context.shardId, tookMillis, totalHits: '-1' });
    return hits;
  } catch (err) {
    stats.fetchFailure++;
    throw err;
  } finally {
    stats.fetchCurrent--;
    registry.release(context);
    // A plain search's context served its one fetch (ES frees a single-session context after its fetch phase).
    if (context.kind === 'search') registry.free(context.id);
  }
}

// ---- a search of one shard in a context: query and fetch at once --------------------------------------------

export interface ScrollQueryFetchResult extends ContextQueryResult {
  /** The page's hits, fetched: with one shard every hit of its query from `from` on is on the page. */
  readonly hits: FetchedSearchHit[];
}

/** The query request of a context's only shard that fetches too: a scroll's first page or a point-in-time search. */
export function queryFetchOnContext(services: NodeServices, args: ContextQueryRequest, task: Task): Promise<ScrollQueryFetchResult> {
  return args.mode.kind === 'pit' ? queryFetchOnPit(services, args, task) : queryFetchOnScroll(services, args, task);
}

/**
 * A point-in-time search of one shard, as ES's SearchService runs a search of one shard whatever its reader context:
 * the query, then the fetch of the page (the hits before `from` are the reduce's to skip) in this one request, where
 * a point in time over several shards fetches in a second request (`[phase/fetch/id]`) per shard with winners.
 */
async function queryFetchOnPit(services: NodeServices, args: ContextQueryRequest, task: Task): Promise<ScrollQueryFetchResult> {
  const queried = await queryOnContext(services, args, task);
  const docs = queried.query.hits.slice(queried.request.from ?? 0);
  if (docs.length === 0) return { ...queried, hits: [] };
  const fetched = await fetchOnContext(
    services,
    {
      kind: 'pit',
      context: queried.context!,
      shardIndex: args.label.shardIndex,
      docs: docs.map((hit) => ({ doc: hit.doc, score: hit.score, ...(hit.sortValues !== undefined && { sortValues: hit.sortValues }) })),
      ...(args.request !== undefined && { request: args.request }),
      nowMillis: args.nowMillis,
      ...(args.dfs !== undefined && { dfs: args.dfs }),
      ...(args.slowLog !== undefined && { slowLog: args.slowLog }),
    },
    task,
  );
  return { ...queried, hits: fetched };
}

/**
 * A scroll of one shard, as ES runs it: its first page fetches within the query phase (ES's SearchService does so
 * for a search of one shard) and its later pages (the scroll id's `queryAndFetch` type) query and fetch in one
 * request; every hit of the shard's query is on the page, and the context continues after the last of them.
 */
export async function queryFetchOnScroll(services: NodeServices, args: ContextQueryRequest, task: Task): Promise<ScrollQueryFetchResult> {
  const queried = await queryOnContext(services, args, task);
  const ref = queried.context!;
  const hits = queried.query.hits;
  if (hits.length === 0) return { ...queried, hits: [] };
  const relevance = liveContext(services, ref, 'scroll').scroll!.sort.relevance;
  const last = hits[hits.length - 1]!;
  const lastEmitted: AfterDoc = relevance ? { kind: 'relevance', score: last.score, doc: last.doc } : { kind: 'fields', values: last.sortValues ?? [], doc: last.doc };
  const fetched = await fetchOnContext(
    services,
    {
      kind: 'scroll',
      context: ref,
      shardIndex: args.label.shardIndex,
      docs: hits.map((hit) => ({ doc: hit.doc, score: hit.score, ...(hit.sortValues !== undefined && { sortValues: hit.sortValues }) })),
      nowMillis: args.nowMillis,
      lastEmitted,
      ...(args.slowLog !== undefined && { slowLog: args.slowLog }),
    },
    task,
  );
  return { ...queried, hits: fetched };
}

// ---- freeing ----------------------------------------------------------------------------------------------

export function freeContextOnNode(services: NodeServices, args: RemoteContextRef & { kind: ReaderContext['kind'] }): { freed: boolean } {
  const registry = readerContextsOf(services);
  const context = registry.get(args.sessionId, args.contextId);
  return { freed: context !== undefined && context.kind === args.kind && registry.free(context.id) };
}

export function clearScrollContextsOnNode(services: NodeServices): { freed: number } {
  return { freed: readerContextsOf(services).freeAll('scroll') };
}
