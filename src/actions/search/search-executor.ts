/**
 * Runs one search across its shards, as ES's TransportSearchAction with SearchQueryThenFetchAsyncAction
 * (and SearchDfsQueryThenFetchAsyncAction, SearchScrollQueryThenFetchAsyncAction):
 *
 *   open a searcher per shard (or reuse a scroll/PIT context) -> [can-match pre-filter] -> [dfs per shard ->
 *   aggregate statistics] -> query per shard -> reduce in batches (merge top hits, totals, aggregations) -> fetch
 *   the page's hits per shard
 *
 * A shard on another node answers its query phase with doc ids, scores, sort values and partial aggregations
 * only, holding its searcher in a single-use context there; after the reduce, only the shards holding winners are
 * asked for exactly those documents (`[phase/fetch/id]`, which frees the context) and the others' contexts are
 * freed (docs/decisions/0016). A search of one shard runs query and fetch in one round trip, as ES's does.
 *
 * The can-match pre-filter runs when ES's TransportSearchAction would run it (shouldPreFilterSearchShards): shards
 * whose query rewrites to match_none are skipped (successful, counted in `_shards.skipped`), all but one when
 * none can match, so the response still has a shard's (empty) result.
 *
 * Each shard phase runs as a cancellable child task of the search (`indices:data/read/search[phase/query]`
 * and friends), checking its cancellation every block of documents, and is counted in the shard's search
 * statistics. A shard that fails becomes a shard failure; when every shard failed (or one did and partial
 * results are not allowed) the search fails with ES's search_phase_execution_exception.
 */
import { EsError, toEsError } from '../../common/errors.js';
import { queueTurn } from '../../common/loop-turns.js';
import type { Searcher } from '../../engine/searcher.js';
import { totalHitsText, type IndexService, type IndexShard } from '../../indices/index.js';
import { logSearchPhase, slowLogRequestFor, type SearchPhase, type SearchSlowLogRequest } from './search-slow-log.js';
import type { SearchStats } from '../../indices/shard-stats.js';
import type { AggregationSpec } from '../../search/aggregations/index.js';
import type { QueryAst, SearchRequest } from '../../search/dsl/index.js';
import { TRACK_TOTAL_HITS_ACCURATE } from '../../search/dsl/index.js';
import type { StatisticsOverride } from '../../search/index.js';
import {
  aggregateDfs,
  canMatchShard,
  executeDfsPhase,
  executeFetchPhase,
  executeQueryPhase,
  EXCLUDE_TIES,
  parseRelevanceSearchAfter,
  parseSearchAfter,
  PhaseControl,
  reduceQueryPhase,
  RELEVANCE,
  resolveSort,
  shouldPreFilterSearchShards,
  sliceForShard,
  type AfterDoc,
  type DfsResult,
  type FetchedSearchHit,
  type QueryPhaseResult,
  type ReducedQueryPhase,
  type ResolvedSort,
  type ShardSearchTarget,
} from '../../search/phase/index.js';
import type { Task } from '../../tasks/index.js';
import type { ActionContext } from '../rest.js';
import { readerContextsOf, type ReaderContext } from './reader-contexts.js';
import { searchPhaseExecutionError, searchPhaseFailure, type ShardFailure } from './search-errors.js';
import { withAliasFilter } from './alias-filter.js';
import { targetFor, type SearchShardRef } from './search-shards.js';
import type { DiscoveryNode } from '../../cluster/index.js';
import { sendToNode } from '../remote-node.js';
import { decodeRemoteShardSearch, QUERY_FETCH_ACTION, resolveSortForIndex, type RemoteShardSearchRequest } from './remote-shard-search.js';
import {
  CAN_MATCH_ACTION,
  DFS_ACTION,
  FETCH_CONTEXT_ACTION,
  QUERY_CONTEXT_ACTION,
  type CanMatchRequest,
  type ContextFetchRequest,
  type ContextQueryRequest,
  type ContextQueryResult,
  type DfsShardRequest,
  type RemoteContextRef,
} from './remote-contexts.js';
import { decodeTagged, encodeTagged } from './wire-values.js';
import type { ContextRef } from './context-ids.js';
import { freeContexts } from './free-contexts.js';
import { PerNodeLimiter } from './per-node-limit.js';

export const SEARCH_ACTION = 'indices:data/read/search';

/** Where a shard's searcher comes from. */
export type ShardSource =
  | { readonly kind: 'shard'; readonly service: IndexService; readonly shard: IndexShard }
  | { readonly kind: 'context'; readonly context: ReaderContext }
  /** The shard's copy is on another node: searched there (remote-shard-search.ts, remote-contexts.ts). */
  | { readonly kind: 'remote'; readonly node: DiscoveryNode }
  /** A scroll or point-in-time context on another node (remote-contexts.ts). */
  | { readonly kind: 'remote-context'; readonly node: DiscoveryNode; readonly context: RemoteContextRef }
  | { readonly kind: 'failed'; readonly error: EsError };

export interface ShardSlot {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly shardIndex: number;
  readonly nodeId: string | undefined;
  readonly source: ShardSource;
  /** The filter of the aliases the search reached this index through, applied in the query phase. */
  readonly aliasFilter?: QueryAst;
  /** The shard's other copies, tried in order when the query phase fails on this one (a plain search's only). */
  readonly alternatives?: readonly ShardCopy[];
}

/** A copy of a shard a plain search can be sent to instead. */
export interface ShardCopy {
  readonly nodeId: string;
  readonly source: ShardSource;
}

/** The first copy and the others of a resolved shard (search-shards.ts), as the executor's slot sources. */
export function slotSourcesOf(ref: SearchShardRef): { source: ShardSource; alternatives: ShardCopy[] } {
  const source: ShardSource =
    ref.local !== undefined ? { kind: 'shard', service: ref.local.service, shard: ref.local.shard } : ref.remoteNode !== undefined ? { kind: 'remote', node: ref.remoteNode } : { kind: 'failed', error: ref.unavailable! };
  const alternatives = ref.alternatives.map(
    (copy): ShardCopy => ({ nodeId: copy.nodeId, source: copy.local !== undefined ? { kind: 'shard', service: copy.local.service, shard: copy.local.shard } : { kind: 'remote', node: copy.remoteNode } }),
  );
  return { source, alternatives };
}

export type SearchMode =
  /** A plain search (also a PIT search: its slots are contexts). */
  | { readonly kind: 'search' }
  /** The first page of a scroll: each shard's searcher is kept in a scroll context. */
  | { readonly kind: 'scroll-start'; readonly keepAliveMillis: number }
  /** The next page of a scroll: request, sort and position come from each shard's scroll context. */
  | { readonly kind: 'scroll-next'; readonly keepAliveMillis: number | undefined; readonly size: number };

export interface SearchPlan {
  readonly request: SearchRequest;
  readonly aggregations: readonly AggregationSpec[] | undefined;
  readonly dfs: boolean;
  readonly trackTotalHitsUpTo: number;
  readonly allowPartialResults: boolean;
  readonly nowMillis: number;
  readonly slots: readonly ShardSlot[];
  readonly mode: SearchMode;
  /** PIT keep-alive renewal for context slots. */
  readonly contextKeepAliveMillis?: number;
  /** `batched_reduce_size` (512 when not given). */
  readonly batchedReduceSize?: number;
  /** What decides whether the can-match pre-filter runs; undefined: it never does (scroll pages, count). */
  readonly preFilter?: { readonly preFilterShardSize: number | undefined; readonly readOnlyIndices: boolean };
  /** The request's source for the slow log; a search without it logs `{}`. */
  readonly slowLogSource?: () => string;
  /**
   * `max_concurrent_shard_requests`: query (or dfs) requests of this search in flight per node at once; the
   * others wait for one to end (ES's per-node PendingExecutions). Undefined: no limit.
   */
  readonly maxConcurrentShardRequests?: number;
}

export interface PageHit {
  readonly index: string;
  readonly shard: number;
  readonly nodeId: string | undefined;
  readonly hit: FetchedSearchHit;
}

export interface SearchOutcome {
  readonly reduced: ReducedQueryPhase;
  readonly sort: ResolvedSort;
  readonly hits: readonly PageHit[];
  readonly totalShards: number;
  readonly successfulShards: number;
  /** Shards the can-match phase skipped (they count as successful too). */
  readonly skippedShards: number;
  readonly failures: readonly ShardFailure[];
  /** The scroll contexts of a scroll search, by slot (for the scroll id), each on its own node. */
  readonly scrollContexts: readonly ContextRef[];
}

interface Running {
  /** A scroll page's remote slot learns its index and shard from the context's node. */
  slot: ShardSlot;
  /** The index the shard belongs to (its settings hold the slow log thresholds). */
  service: IndexService | undefined;
  target: ShardSearchTarget | undefined;
  stats: SearchStats | undefined;
  context: ReaderContext | undefined;
  release: () => void;
  failure: ShardFailure | undefined;
  /** Skipped by the can-match phase: successful, but never queried. */
  skipped: boolean;
  sort: ResolvedSort | undefined;
  query: QueryPhaseResult | undefined;
  /** A remote shard's node, and the hits it fetched with its query phase (in query order; one-shard searches). */
  remote: DiscoveryNode | undefined;
  prefetched: FetchedSearchHit[] | undefined;
  /**
   * The remote context this shard's phases run on: a scroll's (its first page opens it), a point in time's, or a
   * plain search's single-use one (`singleUse`), which its fetch or a free request ends.
   */
  remoteContext: RemoteContextRef | undefined;
  singleUse: boolean;
  /** The request the shard ran (a scroll's first request on later pages). */
  request: SearchRequest | undefined;
}

function failureOf(slot: ShardSlot, err: unknown): ShardFailure {
  // A slot with shard -1 is not tied to a known shard (a scroll context that no longer exists).
  return { index: slot.shard < 0 ? undefined : slot.index, shard: slot.shard, nodeId: slot.nodeId, cause: toEsError(err) };
}

/** Opens the shard's searcher (or context); failures are recorded on the slot. */
function open(slot: ShardSlot, plan: SearchPlan, context: ActionContext): Running {
  const running: Running = {
    slot,
    service: undefined,
    target: undefined,
    stats: undefined,
    context: undefined,
    release: () => undefined,
    failure: undefined,
    skipped: false,
    sort: undefined,
    query: undefined,
    remote: undefined,
    prefetched: undefined,
    remoteContext: undefined,
    singleUse: false,
    request: undefined,
  };
  const services = context.services;
  const registry = readerContextsOf(services);
  try {
    const source = slot.source;
    if (source.kind === 'failed') throw source.error;
    if (source.kind === 'remote') {
      running.remote = source.node;
      return running;
    }
    if (source.kind === 'remote-context') {
      running.remote = source.node;
      running.remoteContext = source.context;
      return running;
    }
    let searcher: Searcher;
    let service: IndexService;
    if (source.kind === 'shard') {
      service = source.service;
      running.stats = source.shard.searchStats;
      searcher = source.shard.acquireSearcher();
      if (plan.mode.kind === 'scroll-start') {
        try {
          running.context = registry.open('scroll', service, source.shard, searcher, plan.mode.keepAliveMillis);
        } catch (err) {
          searcher.release();
          throw err;
        }
        registry.acquire(running.context, undefined);
        const owned = running.context;
        running.release = () => registry.release(owned);
      } else {
        // A plain search holds its reader context only for the request (ES counts it as an open context).
        source.shard.searchStats.openContexts++;
        const stats = source.shard.searchStats;
        running.release = () => {
          searcher.release();
          stats.openContexts--;
        };
      }
    } else {
      const readerContext = source.context;
      service = readerContext.service;
      running.stats = readerContext.indexShard.searchStats;
      running.context = readerContext;
      registry.acquire(readerContext, plan.mode.kind === 'scroll-next' ? plan.mode.keepAliveMillis : plan.contextKeepAliveMillis);
      running.release = () => registry.release(readerContext);
      searcher = readerContext.searcher;
    }
    running.service = service;
    running.target = targetFor(slot, service, searcher, services);
  } catch (err) {
    running.failure = failureOf(slot, err);
  }
  return running;
}

/** Runs a shard phase as a child task of the search, with cancellation and the request's timeout wired in. */
async function inChildTask<T>(context: ActionContext, running: Running, phase: string, timeoutMillis: number | undefined, work: (control: PhaseControl) => Promise<T>): Promise<T> {
  const task: Task = context.task;
  // The shard-level phases run on ES's `search` pool: at most its size at once, then a bounded queue, then 429.
  return context.services.threadPools.execute('search', () => context.services.taskManager.run(
    {
      type: 'transport',
      action: `${SEARCH_ACTION}[${phase}]`,
      description: `shardId[[${running.slot.index}][${running.slot.shard}]]`,
      parentTaskId: task.taskId,
      cancellable: true,
      headers: task.headers,
    },
    async (child) => {
      // The phase starts in a turn of the shared budget, not in the I/O callback or the turn that read the request
      // (or ended the previous phase): the operator's commands read in the same poll are answered first.
      await queueTurn();
      const deadline = timeoutMillis === undefined ? undefined : performance.now() + timeoutMillis;
      // A cancelled parent cancels its children; checking the parent too covers a child registered just before.
      const control = new PhaseControl(() => {
        child.ensureNotCancelled();
        task.ensureNotCancelled();
      }, deadline);
      return work(control);
    },
  ));
}

function live(runs: readonly Running[]): Running[] {
  return runs.filter((run) => run.failure === undefined);
}

/** The shards the query phase runs on: not failed, not skipped by can-match. */
function queried(runs: readonly Running[]): Running[] {
  return runs.filter((run) => run.failure === undefined && !run.skipped);
}

/**
 * CanMatchPreFilterSearchPhase: marks the shards whose query (with their alias filter) rewrites to match_none as
 * skipped, keeping the first shard when none can match (ES needs one real result to build the response).
 */
async function preFilter(runs: readonly Running[], plan: SearchPlan, context: ActionContext): Promise<void> {
  if (plan.preFilter === undefined || plan.mode.kind !== 'search') return;
  const request = plan.request;
  const first = request.sort?.[0];
  const decision = {
    dfs: plan.dfs,
    query: request.query,
    aggregations: plan.aggregations,
    primaryFieldSort: first !== undefined && first.kind === 'field' && first.field !== '_score',
    preFilterShardSize: plan.preFilter.preFilterShardSize,
    readOnlyIndices: plan.preFilter.readOnlyIndices,
    numShards: runs.length,
  };
  if (!shouldPreFilterSearchShards(decision)) return;
  const candidates = live(runs);
  await Promise.all(
    candidates.map(async (run) => {
      const query = withAliasFilter(request, run.slot.aliasFilter).query;
      if (run.target !== undefined) {
        run.skipped = !canMatchShard(run.target, query, plan.nowMillis);
        return;
      }
      if (run.remote === undefined) return;
      // A shard on another node answers there (its mapping, its segments' value ranges); a node that does not
      // answer leaves the shard to the query phase, which reports its failure.
      const args: CanMatchRequest = { label: run.slot, ...(run.remoteContext !== undefined && { context: run.remoteContext }), query, nowMillis: plan.nowMillis };
      try {
        const answer = (await sendToNode(context.services, run.remote, CAN_MATCH_ACTION, encodeTagged(args), context.task)) as { canMatch: boolean };
        run.skipped = answer.canMatch === false;
      } catch {
        run.skipped = false;
      }
    }),
  );
  if (candidates.length > 0 && candidates.every((run) => run.skipped)) candidates[0]!.skipped = false;
}

/** The shards' statistics: summed for local shards, and as they are for remote ones (which sum them there). */
interface DfsOutcome {
  readonly statistics: StatisticsOverride;
  readonly results: readonly DfsResult[];
}

type PerNode = <T>(run: Running, work: () => Promise<T>) => Promise<T>;

async function dfsOne(run: Running, plan: SearchPlan, context: ActionContext): Promise<DfsResult> {
  if (run.remote !== undefined) {
    // On its node: the shard's current searcher, or the point in time's context.
    const request: DfsShardRequest = { label: run.slot, ...(run.remoteContext !== undefined && { context: run.remoteContext }), query: plan.request.query, nowMillis: plan.nowMillis };
    return decodeTagged(await sendToNode(context.services, run.remote, DFS_ACTION, encodeTagged(request), context.task)) as DfsResult;
  }
  return inChildTask(context, run, 'phase/dfs', undefined, async (control) => {
    control.check();
    return executeDfsPhase(run.target!, plan.request.query, plan.nowMillis);
  });
}

/** The first phase on a shard: within the per-node limit, and on the next copy when a copy fails. */
async function firstPhaseOn<T>(run: Running, plan: SearchPlan, context: ActionContext, perNode: PerNode, phase: () => Promise<T>): Promise<T | undefined> {
  for (;;) {
    try {
      return await perNode(run, phase);
    } catch (err) {
      const failure = failureOf(run.slot, err);
      if (!moveToNextCopy(run, err, plan, context)) {
        run.failure = failure;
        return undefined;
      }
    }
  }
}

async function dfsPhase(runs: readonly Running[], plan: SearchPlan, context: ActionContext, perNode: PerNode): Promise<DfsOutcome | undefined> {
  if (!plan.dfs) return undefined;
  const results: DfsResult[] = [];
  await Promise.all(
    live(runs).map(async (run) => {
      const result = await firstPhaseOn(run, plan, context, perNode, () => dfsOne(run, plan, context));
      if (result !== undefined) results.push(result);
    }),
  );
  return { statistics: aggregateDfs(results), results };
}

/** search_after as the shard's sort reads it. */
function searchAfterOf(request: SearchRequest, sort: ResolvedSort): AfterDoc | undefined {
  if (request.searchAfter === undefined) return undefined;
  if (sort.relevance) return { kind: 'relevance', score: parseRelevanceSearchAfter(request.searchAfter), doc: EXCLUDE_TIES };
  return { kind: 'fields', values: parseSearchAfter(request.searchAfter, sort.fields), doc: EXCLUDE_TIES };
}

/**
 * A remote shard's query phase on its node. With several shards: doc ids, scores, sort values and partial
 * aggregations come back, the searcher stays in a single-use context for the fetch of the winners. A search of
 * one shard fetches its hits in the same round trip (ES's query-and-fetch for a single shard).
 */
async function queryRemote(run: Running, plan: SearchPlan, dfs: DfsOutcome | undefined, context: ActionContext): Promise<void> {
  const request = withAliasFilter(
    plan.request.slice === undefined ? plan.request : { ...plan.request, slice: sliceForShard(plan.request.slice, run.slot.shardIndex, plan.slots.length, false) },
    run.slot.aliasFilter,
  );
  const sort = resolveSortForIndex(context.services, run.slot.index, request, run.slot);
  run.sort = sort;
  run.request = request;
  const from = request.from ?? 0;
  const size = request.size ?? 10;
  const numHits = size === 0 ? 0 : from + size;
  if (plan.slots.length > 1) {
    const args: ContextQueryRequest = {
      mode: { kind: 'search' },
      label: { index: run.slot.index, indexUuid: run.slot.indexUuid, shard: run.slot.shard, shardIndex: run.slot.shardIndex },
      request,
      ...(plan.aggregations !== undefined && { aggregations: plan.aggregations }),
      numHits,
      trackTotalHitsUpTo: plan.trackTotalHitsUpTo,
      ...(() => {
        const after = searchAfterOf(request, sort);
        return after === undefined ? {} : { after };
      })(),
      nowMillis: plan.nowMillis,
      ...(dfs !== undefined && { dfs: dfs.results }),
      ...remoteSlowLog(run, plan, context),
    };
    const result = decodeTagged(await sendToNode(context.services, run.remote!, QUERY_CONTEXT_ACTION, encodeTagged(args), context.task)) as ContextQueryResult;
    run.query = result.query;
    run.remoteContext = result.context;
    run.singleUse = result.context !== undefined;
    return;
  }
  const remoteRequest: RemoteShardSearchRequest = {
    index: run.slot.index,
    indexUuid: run.slot.indexUuid,
    shard: run.slot.shard,
    shardIndex: run.slot.shardIndex,
    request,
    aggregations: plan.aggregations,
    numHits,
    trackTotalHitsUpTo: plan.trackTotalHitsUpTo,
    after: searchAfterOf(request, sort),
    nowMillis: plan.nowMillis,
    ...(dfs !== undefined && { dfs: dfs.results }),
    ...remoteSlowLog(run, plan, context),
  };
  const result = decodeRemoteShardSearch(await sendToNode(context.services, run.remote!, QUERY_FETCH_ACTION, remoteRequest, context.task));
  run.query = result.query;
  run.prefetched = result.hits;
}

/**
 * A shard whose phases run in a context on another node: a scroll's first page (which opens the context there),
 * its later pages, or a point in time. Only the query runs here; the winners are fetched afterwards
 * (fetchRemoteContext), which also tells a scroll's shard where its next page starts.
 */
async function queryRemoteContext(run: Running, plan: SearchPlan, dfs: DfsOutcome | undefined, context: ActionContext): Promise<void> {
  const mode = plan.mode;
  const from = plan.request.from ?? 0;
  const size = plan.request.size ?? 10;
  let request: SearchRequest | undefined;
  if (mode.kind !== 'scroll-next') {
    const sliced = plan.request.slice === undefined ? plan.request : { ...plan.request, slice: sliceForShard(plan.request.slice, run.slot.shardIndex, plan.slots.length, mode.kind !== 'search') };
    // A point in time's alias filter is kept in its context, on its node; a scroll's comes from the slot.
    request = mode.kind === 'scroll-start' ? withAliasFilter(sliced, run.slot.aliasFilter) : sliced;
  }
  const sortRequest = request;
  const args: ContextQueryRequest = {
    mode:
      mode.kind === 'scroll-start'
        ? { kind: 'scroll-start', keepAliveMillis: mode.keepAliveMillis }
        : mode.kind === 'scroll-next'
          ? { kind: 'scroll-next', keepAliveMillis: mode.keepAliveMillis }
          : { kind: 'pit', keepAliveMillis: plan.contextKeepAliveMillis },
    label: { index: run.slot.index, indexUuid: run.slot.indexUuid, shard: run.slot.shard, shardIndex: run.slot.shardIndex },
    ...(run.remoteContext !== undefined && { context: run.remoteContext }),
    ...(request !== undefined && { request }),
    ...(plan.aggregations !== undefined && { aggregations: plan.aggregations }),
    numHits: size === 0 ? 0 : mode.kind === 'search' ? from + size : size,
    trackTotalHitsUpTo: plan.trackTotalHitsUpTo,
    ...(sortRequest !== undefined && mode.kind === 'search' && { after: searchAfterOf(sortRequest, resolveSortForIndex(context.services, run.slot.index, sortRequest, run.slot)) }),
    nowMillis: plan.nowMillis,
    ...(dfs !== undefined && { dfs: dfs.results }),
    ...remoteSlowLog(run, plan, context),
  };
  const result = decodeTagged(await sendToNode(context.services, run.remote!, QUERY_CONTEXT_ACTION, encodeTagged(args), context.task)) as ContextQueryResult;
  // Scroll and point-in-time shards always keep their context.
  run.remoteContext = result.context!;
  // A later scroll page learns here which shard its context reads.
  run.slot = { ...run.slot, index: result.index, indexUuid: result.indexUuid, shard: result.shard, nodeId: run.remote!.id };
  run.request = result.request;
  run.sort = resolveSortForIndex(context.services, result.index, result.request, run.slot);
  run.query = result.query;
}

/**
 * The winners of a shard whose context is on another node (ES's ShardFetchRequest: just those documents); a
 * scroll's shard records its last emitted hit; a plain search's single-use context is freed by it.
 */
async function fetchRemoteContext(run: Running, docs: ReducedQueryPhase['hits'], plan: SearchPlan, dfs: DfsOutcome | undefined, lastEmitted: AfterDoc | undefined, context: ActionContext): Promise<FetchedSearchHit[]> {
  const singleUse = run.singleUse;
  const contextRef = run.remoteContext!;
  if (singleUse) {
    // Whatever the answer, the data node frees the context once the fetch reached it (or it lapses with its node).
    run.remoteContext = undefined;
    run.singleUse = false;
  }
  // A plain search's context kept its request and statistics; a point in time is sent them.
  const pit = plan.mode.kind === 'search' && !singleUse;
  const args: ContextFetchRequest = {
    kind: singleUse ? 'search' : plan.mode.kind === 'search' ? 'pit' : 'scroll',
    context: contextRef,
    shardIndex: run.slot.shardIndex,
    docs: docs.map((doc) => ({ doc: doc.doc, score: doc.score, ...(doc.sortValues !== undefined && { sortValues: doc.sortValues }) })),
    ...(pit && { request: plan.request }),
    nowMillis: plan.nowMillis,
    ...(pit && dfs !== undefined && { dfs: dfs.results }),
    ...(lastEmitted !== undefined && { lastEmitted }),
    ...remoteSlowLog(run, plan, context),
  };
  return decodeTagged(await sendToNode(context.services, run.remote!, FETCH_CONTEXT_ACTION, encodeTagged(args), context.task)) as FetchedSearchHit[];
}

async function queryOne(run: Running, plan: SearchPlan, dfs: DfsOutcome | undefined, context: ActionContext): Promise<void> {
  if (run.remote !== undefined) {
    return run.remoteContext !== undefined || plan.mode.kind === 'scroll-start' ? queryRemoteContext(run, plan, dfs, context) : queryRemote(run, plan, dfs, context);
  }
  const statistics = dfs?.statistics;
  const target = run.target!;
  const scroll = plan.mode.kind === 'scroll-next' ? run.context?.scroll : undefined;
  if (plan.mode.kind === 'scroll-next' && scroll === undefined) throw new EsError('illegal_argument_exception', 'the search context is not a scroll context');
  // A sliced request tells each shard its place among the request's shards (ShardSearchRequest).
  // A scroll's later pages reuse the first page's request, alias filter included.
  const request =
    scroll?.request ??
    withAliasFilter(
      plan.request.slice === undefined ? plan.request : { ...plan.request, slice: sliceForShard(plan.request.slice, run.slot.shardIndex, plan.slots.length, plan.mode.kind !== 'search') },
      run.slot.aliasFilter,
    );
  run.request = request;
  const stats = run.stats;
  if (stats !== undefined) stats.queryCurrent++;
  const started = performance.now();
  try {
    const result = await inChildTask(context, run, plan.mode.kind === 'scroll-next' ? 'phase/query/scroll' : 'phase/query', request.timeoutMillis, async (control) => {
      const sort = scroll?.sort ?? resolveSort(target, request.sort);
      run.sort = sort;
      const from = request.from ?? 0;
      const size = plan.mode.kind === 'scroll-next' ? plan.mode.size : (request.size ?? 10);
      return executeQueryPhase(
        target,
        {
          request,
          sort,
          ...(plan.mode.kind !== 'scroll-next' && plan.aggregations !== undefined && { aggregations: plan.aggregations }),
          numHits: size === 0 ? 0 : plan.mode.kind === 'search' ? from + size : size,
          trackTotalHitsUpTo: plan.mode.kind === 'search' ? plan.trackTotalHitsUpTo : TRACK_TOTAL_HITS_ACCURATE,
          ...(() => {
            const after = scroll !== undefined ? scroll.lastEmitted : searchAfterOf(request, sort);
            return after === undefined ? {} : { after };
          })(),
          ...((scroll?.statistics ?? statistics) !== undefined && { statistics: scroll?.statistics ?? statistics }),
          nowMillis: scroll?.nowMillis ?? plan.nowMillis,
          windowCheck: plan.mode.kind === 'search' ? 'search' : plan.mode.kind === 'scroll-start' ? 'scroll' : 'none',
        },
        control,
      );
    });
    if (scroll !== undefined) {
      // Later scroll pages report the first page's total and max score (ES's ScrollContext).
      run.query = { ...result, totalHits: scroll.totalHits ?? result.totalHits, maxScore: scroll.maxScore };
    } else {
      run.query = result;
    }
    if (plan.mode.kind === 'scroll-start' && run.context !== undefined) {
      run.context.scroll = {
        request,
        aggregations: plan.aggregations,
        sort: run.sort!,
        nowMillis: plan.nowMillis,
        statistics,
        totalHits: result.totalHits,
        maxScore: result.maxScore,
        lastEmitted: undefined,
      };
    }
    const tookMillis = performance.now() - started;
    if (stats !== undefined) {
      stats.queryTotal++;
      stats.queryTimeMillis += Math.round(tookMillis);
    }
    slowLog(run, 'query', tookMillis, totalHitsText(run.query.totalHits.value, run.query.totalHits.relation), plan, context);
  } catch (err) {
    if (stats !== undefined) stats.queryFailure++;
    throw err;
  } finally {
    if (stats !== undefined) stats.queryCurrent--;
  }
}

async function fetchOne(run: Running, docs: ReducedQueryPhase['hits'], plan: SearchPlan, dfs: DfsOutcome | undefined, lastEmitted: AfterDoc | undefined, context: ActionContext): Promise<FetchedSearchHit[]> {
  if (run.remoteContext !== undefined) return fetchRemoteContext(run, docs, plan, dfs, lastEmitted, context);
  const statistics = dfs?.statistics;
  if (run.prefetched !== undefined) {
    // The remote shard fetched its top hits with its query phase: keep the winners, in the page's order.
    const byDoc = new Map(run.prefetched.map((hit) => [hit.doc, hit]));
    return docs.map((doc) => byDoc.get(doc.doc)!);
  }
  const stats = run.stats;
  if (stats !== undefined) stats.fetchCurrent++;
  const started = performance.now();
  const request = run.context?.scroll?.request ?? plan.request;
  try {
    const hits = await inChildTask(context, run, plan.mode.kind === 'scroll-next' ? 'phase/fetch/id/scroll' : 'phase/fetch/id', undefined, (control) =>
      executeFetchPhase(run.target!, { request, docs, ...((run.context?.scroll?.statistics ?? statistics) !== undefined && { statistics: run.context?.scroll?.statistics ?? statistics }), nowMillis: plan.nowMillis }, control),
    );
    const tookMillis = performance.now() - started;
    if (stats !== undefined) {
      stats.fetchTotal++;
      stats.fetchTimeMillis += Math.round(tookMillis);
    }
    // A fetch phase knows no total (ES's fetch context has no query result: "-1").
    slowLog(run, 'fetch', tookMillis, '-1', plan, context);
    return hits;
  } catch (err) {
    if (stats !== undefined) stats.fetchFailure++;
    throw err;
  } finally {
    if (stats !== undefined) stats.fetchCurrent--;
  }
}

/** A local shard's phase in the search slow log (search-slow-log.ts; remote shards log on their own node). */
function slowLog(run: Running, phase: SearchPhase, tookMillis: number, totalHits: string, plan: SearchPlan, context: ActionContext): void {
  logSearchPhase(context.services, run.service, phase, {
    index: run.slot.index,
    shard: run.slot.shard,
    tookMillis,
    totalHits,
    totalShards: plan.slots.length,
    source: () => plan.slowLogSource?.() ?? '{}',
    opaqueId: opaqueIdOf(context),
  });
}

function opaqueIdOf(context: ActionContext): string | undefined {
  const opaqueId = context.task.headers['X-Opaque-Id'];
  return typeof opaqueId === 'string' ? opaqueId : undefined;
}

/** The slow log details a remote shard's node needs, when the index logs search phases at all. */
function remoteSlowLog(run: Running, plan: SearchPlan, context: ActionContext): { slowLog?: SearchSlowLogRequest } {
  const slowLogRequest = slowLogRequestFor(context.services.clusterService.state(), run.slot.index, { totalShards: plan.slots.length, source: plan.slowLogSource, opaqueId: opaqueIdOf(context) });
  return slowLogRequest === undefined ? {} : { slowLog: slowLogRequest };
}

/** Frees the single-use contexts of these shards on their nodes; a node that does not answer lets them lapse. */
function releaseSingleUseContexts(runs: readonly Running[], context: ActionContext): void {
  const refs: ContextRef[] = [];
  for (const run of runs) {
    if (!run.singleUse || run.remoteContext === undefined || run.remote === undefined) continue;
    refs.push({ ...run.remoteContext, nodeId: run.remote.id });
    run.remoteContext = undefined;
    run.singleUse = false;
  }
  if (refs.length > 0) freeContexts(context.services, refs, 'search', undefined).catch(() => undefined);
}

/** Where each shard's scroll continues: after its last hit that made it into this page, by shard index. */
function lastEmittedByShard(reduced: ReducedQueryPhase, sort: ResolvedSort): Map<number, AfterDoc> {
  const last = new Map<number, AfterDoc>();
  for (const hit of reduced.hits) {
    last.set(hit.shardIndex, sort.relevance ? { kind: 'relevance', score: hit.score, doc: hit.doc } : { kind: 'fields', values: hit.sortValues ?? [], doc: hit.doc });
  }
  return last;
}

/** Local scroll contexts record their position here; remote ones with their fetch (fetchRemoteContext). */
function recordLastEmitted(runs: readonly Running[], last: ReadonlyMap<number, AfterDoc>): void {
  for (const run of runs) {
    const scroll = run.context?.scroll;
    const after = last.get(run.slot.shardIndex);
    if (scroll !== undefined && after !== undefined) scroll.lastEmitted = after;
  }
}

function coordinatorMaxBuckets(context: ActionContext): number {
  const value = Number(context.services.settings.get('search.max_buckets') ?? '65536');
  return Number.isFinite(value) ? value : 65_536;
}

/** A scroll shard's context for the scroll id: this node's, or the one its first page opened on another node. */
function scrollContextOf(run: Running, context: ActionContext): ContextRef[] {
  if (run.context !== undefined) return [{ sessionId: readerContextsOf(context.services).sessionId, contextId: run.context.id, nodeId: context.services.localNode.id }];
  if (run.remoteContext !== undefined && run.remote !== undefined) return [{ ...run.remoteContext, nodeId: run.remote.id }];
  return [];
}

/** Runs `work` within the per-node limit when the search has one and more shards than it (else at once). */
function limitedPerNode(plan: SearchPlan): PerNode {
  const limit = plan.maxConcurrentShardRequests;
  if (limit === undefined || limit >= plan.slots.length) return (_run, work) => work();
  const limiter = new PerNodeLimiter(limit);
  return (run, work) => limiter.run(run.slot.nodeId ?? '', work);
}

/**
 * ES's AbstractSearchAsyncAction.onShardFailure: a plain search whose shard request failed sends it to the
 * shard's next copy before the shard counts as failed; only when no copy is left does the failure stand.
 * Contexts (scroll pages, points in time) live on one node and have no other copy; a cancelled search stops.
 * Returns whether `run` now stands for the next copy, opened and ready for the same phase.
 */
function moveToNextCopy(run: Running, err: unknown, plan: SearchPlan, context: ActionContext): boolean {
  if (plan.mode.kind !== 'search' || context.task.isCancelled || toEsError(err).type === 'task_cancelled_exception') return false;
  let alternatives = run.slot.alternatives ?? [];
  while (alternatives.length > 0) {
    const [next, ...rest] = alternatives;
    run.release();
    Object.assign(run, open({ ...run.slot, nodeId: next!.nodeId, source: next!.source, alternatives: rest }, plan, context));
    if (run.failure === undefined) return true;
    alternatives = rest;
  }
  return false;
}

export async function executeSearch(plan: SearchPlan, context: ActionContext): Promise<SearchOutcome> {
  const runs = plan.slots.map((slot) => open(slot, plan, context));
  const perNode = limitedPerNode(plan);
  let completed = false;
  const failures = (): ShardFailure[] => runs.flatMap((run) => (run.failure === undefined ? [] : [run.failure]));
  try {
    await preFilter(runs, plan, context);
    const dfs = await dfsPhase(runs, plan, context, perNode);
    if (plan.dfs && live(runs).length === 0 && runs.length > 0) throw searchPhaseExecutionError('dfs', 'all shards failed', failures());
    // With dfs, the per-node limit held the dfs phase (ES's first phase); the query phase is not held again.
    const queryLimit: PerNode = plan.dfs ? (_run, work) => work() : perNode;
    await Promise.all(queried(runs).map((run) => firstPhaseOn(run, plan, context, queryLimit, () => queryOne(run, plan, dfs, context))));
    const succeeded = queried(runs);
    if (succeeded.length === 0 && runs.length > 0) throw searchPhaseExecutionError('query', 'all shards failed', failures());
    if (!plan.allowPartialResults && failures().length > 0) throw searchPhaseExecutionError('query', 'Partial shards failure', failures());
    try {
      context.task.ensureNotCancelled();
    } catch (err) {
      // Cancelled once its query phase is over: no shard is asked to fetch, the search fails the phase it was
      // moving to (ES's onPhaseFailure), and `finally` frees the contexts the query phase left on other nodes.
      throw searchPhaseFailure('fetch', toEsError(err), failures());
    }
    const sort = succeeded[0]?.sort ?? RELEVANCE;
    const request = plan.request;
    const from = plan.mode.kind === 'search' ? (request.from ?? 0) : 0;
    // A scroll's later pages have the size of its first request, which a remote context reported.
    const size = plan.mode.kind === 'scroll-next' ? (succeeded[0]?.request?.size ?? plan.mode.size) : (request.size ?? 10);
    const reduced = reduceQueryPhase(
      succeeded.map((run) => ({ shardIndex: run.slot.shardIndex, result: run.query! })),
      {
        from,
        size,
        sort,
        trackTotalHitsUpTo: plan.mode.kind === 'search' ? plan.trackTotalHitsUpTo : TRACK_TOTAL_HITS_ACCURATE,
        hasAggregations: plan.mode.kind !== 'scroll-next' && plan.aggregations !== undefined && plan.aggregations.length > 0,
        // The coordinating node's own search.max_buckets (its shards may all be remote), as ES's reduce reads it.
        maxBuckets: succeeded[0]?.target?.settings.maxBuckets ?? coordinatorMaxBuckets(context),
        checkCancelled: () => context.task.ensureNotCancelled(),
        ...(plan.batchedReduceSize !== undefined && { batchedReduceSize: plan.batchedReduceSize }),
        expectedResults: runs.length,
      },
    );
    const byShard = new Map<number, Running>(succeeded.map((run) => [run.slot.shardIndex, run]));
    const docsByShard = new Map<number, ReducedQueryPhase['hits'][number][]>();
    for (const hit of reduced.hits) {
      const list = docsByShard.get(hit.shardIndex) ?? [];
      list.push(hit);
      docsByShard.set(hit.shardIndex, list);
    }
    // Shards on other nodes that hold no winner: their single-use contexts are freed now (ES's
    // releaseIrrelevantSearchContext), without waiting for the answer.
    releaseSingleUseContexts(succeeded.filter((run) => !docsByShard.has(run.slot.shardIndex)), context);
    const fetched = new Map<number, FetchedSearchHit[]>();
    const lastEmitted = plan.mode.kind === 'search' ? new Map<number, AfterDoc>() : lastEmittedByShard(reduced, sort);
    await Promise.all(
      [...docsByShard].map(async ([shardIndex, docs]) => {
        const run = byShard.get(shardIndex)!;
        try {
          fetched.set(shardIndex, await fetchOne(run, docs, plan, dfs, lastEmitted.get(shardIndex), context));
        } catch (err) {
          run.failure = failureOf(run.slot, err);
        }
      }),
    );
    // Every shard that had hits to fetch failed, and no shard is left: the fetch phase failed as a whole.
    if (queried(runs).length === 0) throw searchPhaseExecutionError('fetch', 'all shards failed', failures());
    const cursors = new Map<number, number>();
    const hits: PageHit[] = [];
    for (const hit of reduced.hits) {
      const list = fetched.get(hit.shardIndex);
      if (list === undefined) continue;
      const position = cursors.get(hit.shardIndex) ?? 0;
      cursors.set(hit.shardIndex, position + 1);
      const run = byShard.get(hit.shardIndex)!;
      hits.push({ index: run.slot.index, shard: run.slot.shard, nodeId: run.slot.nodeId, hit: list[position]! });
    }
    if (plan.mode.kind !== 'search') recordLastEmitted(live(runs), lastEmitted);
    const finalFailures = failures();
    completed = true;
    return {
      reduced,
      sort,
      hits,
      totalShards: runs.length,
      successfulShards: runs.length - finalFailures.length,
      skippedShards: runs.filter((run) => run.skipped && run.failure === undefined).length,
      failures: finalFailures,
      scrollContexts: plan.mode.kind === 'search' ? [] : live(runs).flatMap((run) => scrollContextOf(run, context)),
    };
  } finally {
    for (const run of runs) run.release();
    // A search that failed or was cancelled between its query and fetch phases leaves no context behind.
    releaseSingleUseContexts(runs, context);
    if (plan.mode.kind === 'scroll-start') {
      // A shard that failed keeps no scroll context (it is not part of the scroll id), nor does a failed search.
      const registry = readerContextsOf(context.services);
      for (const run of runs) if ((!completed || run.failure !== undefined) && run.context !== undefined) registry.free(run.context.id);
      const abandoned = runs.filter((run) => (!completed || run.failure !== undefined) && run.remote !== undefined && run.remoteContext !== undefined);
      if (abandoned.length > 0) {
        const refs = abandoned.map((run) => ({ ...run.remoteContext!, nodeId: run.remote!.id }));
        freeContexts(context.services, refs, 'scroll', undefined).catch(() => undefined);
      }
    }
  }
}

