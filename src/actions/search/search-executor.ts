/**
 * Runs one search across its shards, as ES's TransportSearchAction with SearchQueryThenFetchAsyncAction
 * (and SearchDfsQueryThenFetchAsyncAction, SearchScrollQueryThenFetchAsyncAction):
 *
 *   [can-match pre-filter] -> [dfs per shard -> aggregate statistics] -> query per shard -> reduce in batches
 *   (merge top hits, totals, aggregations) -> fetch the page's hits per shard
 *
 * Every shard phase is a request to the node holding the shard's copy or context (remote-contexts.ts,
 * remote-shard-search.ts), this node included: the transport runs this node's own in-process and hands the request
 * and the answer over without encoding them, so the executor never asks whether a copy is local (decision 0024).
 * A shard's query phase answers doc ids, scores, sort values and partial aggregations only, holding its searcher
 * in a single-use context on its node; after the reduce, only the shards holding winners are asked for exactly
 * those documents (`[phase/fetch/id]`, which frees the context) and the others' contexts are freed (decision
 * 0016). A search of one shard runs query and fetch in one request, as ES's does.
 *
 * The can-match pre-filter runs when ES's TransportSearchAction would run it (shouldPreFilterSearchShards): shards
 * whose query rewrites to match_none are skipped (successful, counted in `_shards.skipped`), all but one when
 * none can match, so the response still has a shard's (empty) result.
 *
 * Each shard phase runs as a cancellable child task of the search on the shard's node (`indices:data/read/search
 * [phase/query]` and friends), checking its cancellation every block of documents. A shard whose copy fails is
 * sent to its next copy (decision 0020); a shard none of whose copies answers becomes a shard failure reported as
 * ES does (a copy that is not there as no_shard_available_action_exception); when every shard failed (or one did
 * and partial results are not allowed) the search fails with ES's search_phase_execution_exception.
 */
import { EsError, errors, toEsError } from '../../common/errors.js';
import { transportAddress, type DiscoveryNode } from '../../cluster/index.js';
import type { AggregationSpec } from '../../search/aggregations/index.js';
import type { QueryAst, SearchRequest } from '../../search/dsl/index.js';
import { TRACK_TOTAL_HITS_ACCURATE } from '../../search/dsl/index.js';
import {
  aggregateDfs,
  EXCLUDE_TIES,
  parseRelevanceSearchAfter,
  parseSearchAfter,
  reduceQueryPhase,
  RELEVANCE,
  shouldPreFilterSearchShards,
  sliceForShard,
  type AfterDoc,
  type DfsResult,
  type FetchedSearchHit,
  type QueryPhaseResult,
  type ReducedQueryPhase,
  type ResolvedSort,
} from '../../search/phase/index.js';
import type { StatisticsOverride } from '../../search/index.js';
import type { ActionContext } from '../rest.js';
import { isShardNotAvailable } from '../copy-unavailable.js';
import { sendToNode } from '../remote-node.js';
import { searchPhaseExecutionError, searchPhaseFailure, type ShardFailure } from './search-errors.js';
import { withAliasFilter } from './alias-filter.js';
import type { SearchShardRef } from './search-shards.js';
import { slowLogRequestFor, type SearchSlowLogRequest } from './search-slow-log.js';
import { resolveSortForIndex, type RemoteShardSearchRequest, type RemoteShardSearchResult } from './remote-shard-search.js';
import {
  CAN_MATCH_ACTION,
  DFS_ACTION,
  FETCH_CONTEXT_ACTION,
  FREE_CONTEXT_ACTION,
  FETCH_SCROLL_ACTION,
  QUERY_CONTEXT_ACTION,
  QUERY_FETCH_SCROLL_ACTION,
  QUERY_SCROLL_ACTION,
  type CanMatchNodeRequest,
  type CanMatchNodeResponse,
  type CanMatchRequest,
  type ContextFetchRequest,
  type ContextQueryRequest,
  type ContextQueryResult,
  type DfsShardRequest,
  type RemoteContextRef,
  type ScrollQueryFetchResult,
} from './remote-contexts.js';
import { decodeTagged, encodeTagged } from './wire-values.js';
import type { ContextRef } from './context-ids.js';
import { freeContexts } from './free-contexts.js';
import { PerNodeLimiter } from './per-node-limit.js';

export const SEARCH_ACTION = 'indices:data/read/search';

/** Where a shard's phases go. */
export type ShardSource =
  /** A copy of the shard on a node, this one included (a plain search's shard, or a scroll's first page). */
  | { readonly kind: 'copy'; readonly node: DiscoveryNode }
  /** A scroll or point-in-time context on its node. */
  | { readonly kind: 'context'; readonly node: DiscoveryNode; readonly context: RemoteContextRef }
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
  /** The nodes of the shard's other copies, tried in order when the first phase fails on this one (a plain search's only). */
  readonly alternatives?: readonly DiscoveryNode[];
}

/**
 * The first copy and the others of a resolved shard (search-shards.ts), as the executor's slot sources. A shard
 * with no started copy fails as ES reports an unassigned shard (no_shard_available_action_exception, no reason, no node).
 */
export function slotSourcesOf(ref: SearchShardRef): { nodeId: string | undefined; source: ShardSource; alternatives: DiscoveryNode[] } {
  if (ref.copy === undefined) return { nodeId: undefined, source: { kind: 'failed', error: errors.searchShardNotAvailable(undefined) }, alternatives: [] };
  return { nodeId: ref.copy.nodeId, source: { kind: 'copy', node: ref.copy.node }, alternatives: ref.alternatives.map((copy) => copy.node) };
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
  /** A scroll page's slot learns its index and shard from the context's node. */
  slot: ShardSlot;
  /** The node the shard's phases go to (undefined when the slot failed before any was sent). */
  node: DiscoveryNode | undefined;
  /** The last action sent for this shard: a failure of its copy is reported with it, as ES's transport does. */
  action: string | undefined;
  failure: ShardFailure | undefined;
  /** Skipped by the can-match phase: successful, but never queried. */
  skipped: boolean;
  sort: ResolvedSort | undefined;
  query: QueryPhaseResult | undefined;
  /** The hits a one-shard search fetched with its query phase (in query order). */
  prefetched: FetchedSearchHit[] | undefined;
  /**
   * The context this shard's phases run on: a scroll's (its first page opens it), a point in time's, or a plain
   * search's single-use one (`singleUse`), which its fetch or a free request ends.
   */
  context: RemoteContextRef | undefined;
  singleUse: boolean;
  /** The request the shard ran (a scroll's first request on later pages). */
  request: SearchRequest | undefined;
}

/** How the shard phases' requests and answers cross a socket (never applied to this node's own). */
const TAGGED = { encodeRequest: encodeTagged, decodeResponse: decodeTagged } as const;

/** Sends a shard phase to the shard's node (this one through the transport's local shortcut). */
function sendPhase<T>(run: Running, action: string, args: unknown, context: ActionContext): Promise<T> {
  run.action = action;
  return sendToNode(context.services, run.node!, action, args, context.task, undefined, TAGGED) as Promise<T>;
}

/**
 * A shard failure as ES's AbstractSearchAsyncAction.onShardFailure records it: a copy that is not there
 * (isShardNotAvailableException) becomes no_shard_available_action_exception with the message of the transport
 * exception it came back in, `[node name][address][action]`; a shard with no copy at all has no node (`"node": null`).
 */
function failureOf(run: Running, err: unknown): ShardFailure {
  const slot = run.slot;
  // A slot with shard -1 is not tied to a known shard (a scroll context that no longer exists).
  if (slot.shard < 0) return { index: undefined, shard: slot.shard, nodeId: slot.nodeId, cause: copyFailureCause(run.node, run.action, err) };
  return copyFailure(slot, run.node, run.action, err, slot.nodeId ?? null);
}

/** A copy's failure as the shard's failure (see failureOf); also a point in time's open (pit-action.ts). */
export function copyFailure(
  shard: { readonly index: string; readonly shard: number },
  node: DiscoveryNode | undefined,
  action: string | undefined,
  err: unknown,
  nodeIdWithoutNode: string | null = null,
): ShardFailure {
  return { index: shard.index, shard: shard.shard, nodeId: node?.id ?? nodeIdWithoutNode, cause: copyFailureCause(node, action, err) };
}

function copyFailureCause(node: DiscoveryNode | undefined, action: string | undefined, err: unknown): EsError {
  const cause = toEsError(err);
  if (isShardNotAvailable(cause) && node !== undefined && action !== undefined) return errors.searchShardNotAvailable(`[${node.name}][${transportAddress(node)}][${action}]`);
  return cause;
}

/**
 * Which failure a shard reports when several of its copies failed (AbstractSearchAsyncAction.onShardFailure): the
 * first stands, unless a later one says more than "not available" (TransportActions.isReadOverrideException) and is
 * not a missing search context.
 */
export function keptFailure(previous: ShardFailure | undefined, next: ShardFailure): ShardFailure {
  if (previous === undefined) return next;
  return !isShardNotAvailable(next.cause) && next.cause.type !== 'search_context_missing_exception' ? next : previous;
}

function open(slot: ShardSlot): Running {
  const running: Running = {
    slot,
    node: undefined,
    action: undefined,
    failure: undefined,
    skipped: false,
    sort: undefined,
    query: undefined,
    prefetched: undefined,
    context: undefined,
    singleUse: false,
    request: undefined,
  };
  const source = slot.source;
  if (source.kind === 'failed') running.failure = failureOf(running, source.error);
  else running.node = source.node;
  if (source.kind === 'context') running.context = source.context;
  return running;
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
  // One request per node for all its shards (ES 8's CanMatchPreFilterSearchPhase, `[can_match][n]`).
  const byNode = new Map<string, { node: DiscoveryNode; runs: Running[] }>();
  for (const run of candidates) {
    const node = run.node!;
    const entry = byNode.get(node.id) ?? { node, runs: [] };
    entry.runs.push(run);
    byNode.set(node.id, entry);
  }
  await Promise.all(
    [...byNode.values()].map(async ({ node, runs: nodeRuns }) => {
      // The shard's node answers (its mapping, its segments' value ranges); a shard (or a node) that does not answer
      // is left to the query phase, which reports its failure or tries the next copy.
      const shards: CanMatchRequest[] = nodeRuns.map((run) => ({
        label: run.slot,
        ...(run.context !== undefined && { context: run.context }),
        query: withAliasFilter(request, run.slot.aliasFilter).query,
        nowMillis: plan.nowMillis,
      }));
      try {
        const answers = (await sendToNode(context.services, node, CAN_MATCH_ACTION, { shards } satisfies CanMatchNodeRequest, context.task, undefined, TAGGED)) as CanMatchNodeResponse;
        nodeRuns.forEach((run, i) => {
          const answer = answers[i];
          run.skipped = answer !== undefined && 'canMatch' in answer && answer.canMatch === false;
        });
      } catch {
        for (const run of nodeRuns) run.skipped = false;
      }
    }),
  );
  if (candidates.length > 0 && candidates.every((run) => run.skipped)) candidates[0]!.skipped = false;
}

/** The shards' statistics: each shard's as it answered, summed for the scoring of every shard. */
interface DfsOutcome {
  readonly statistics: StatisticsOverride;
  readonly results: readonly DfsResult[];
}

type PerNode = <T>(run: Running, work: () => Promise<T>) => Promise<T>;

function dfsOne(run: Running, plan: SearchPlan, context: ActionContext): Promise<DfsResult> {
  // On its node: the shard's current searcher, or the point in time's context.
  const request: DfsShardRequest = { label: run.slot, ...(run.context !== undefined && { context: run.context }), query: plan.request.query, nowMillis: plan.nowMillis };
  return sendPhase<DfsResult>(run, DFS_ACTION, request, context);
}

/** The first phase on a shard: within the per-node limit, and on the next copy when a copy fails. */
async function firstPhaseOn<T>(run: Running, plan: SearchPlan, context: ActionContext, perNode: PerNode, phase: () => Promise<T>): Promise<T | undefined> {
  let failure: ShardFailure | undefined;
  for (;;) {
    try {
      // A later copy that answers drops the earlier copies' failures (`_shards.failed: 0`).
      return await perNode(run, phase);
    } catch (err) {
      failure = keptFailure(failure, failureOf(run, err));
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

function opaqueIdOf(context: ActionContext): string | undefined {
  const opaqueId = context.task.headers['X-Opaque-Id'];
  return typeof opaqueId === 'string' ? opaqueId : undefined;
}

/** The slow log details the shard's node needs, when the index logs search phases at all. */
function slowLogOf(run: Running, plan: SearchPlan, context: ActionContext): { slowLog?: SearchSlowLogRequest } {
  const slowLogRequest = slowLogRequestFor(context.services.clusterService.state(), run.slot.index, { totalShards: plan.slots.length, source: plan.slowLogSource, opaqueId: opaqueIdOf(context) });
  return slowLogRequest === undefined ? {} : { slowLog: slowLogRequest };
}

/**
 * A plain search's query phase on the shard's node. With several shards: doc ids, scores, sort values and partial
 * aggregations come back, the searcher stays in a single-use context for the fetch of the winners. A search of
 * one shard fetches its hits in the same request (ES's query-and-fetch for a single shard).
 */
async function queryShard(run: Running, plan: SearchPlan, dfs: DfsOutcome | undefined, context: ActionContext): Promise<void> {
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
  const label = { index: run.slot.index, indexUuid: run.slot.indexUuid, shard: run.slot.shard, shardIndex: run.slot.shardIndex };
  if (plan.slots.length > 1) {
    const args: ContextQueryRequest = {
      mode: { kind: 'search' },
      label,
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
      ...slowLogOf(run, plan, context),
    };
    const result = await sendPhase<ContextQueryResult>(run, QUERY_CONTEXT_ACTION, args, context);
    run.query = result.query;
    run.context = result.context;
    run.singleUse = result.context !== undefined;
    return;
  }
  const args: RemoteShardSearchRequest = {
    mode: { kind: 'query-and-fetch' },
    ...label,
    request,
    aggregations: plan.aggregations,
    numHits,
    trackTotalHitsUpTo: plan.trackTotalHitsUpTo,
    after: searchAfterOf(request, sort),
    nowMillis: plan.nowMillis,
    ...(dfs !== undefined && { dfs: dfs.results }),
    ...slowLogOf(run, plan, context),
  };
  const result = await sendPhase<RemoteShardSearchResult>(run, QUERY_CONTEXT_ACTION, args, context);
  run.query = result.query;
  run.prefetched = result.hits;
}

/**
 * A shard whose phases run in a context on its node: a scroll's first page (which opens the context there), its
 * later pages, or a point in time. Only the query runs here; the winners are fetched afterwards (fetchFromContext),
 * which also tells a scroll's shard where its next page starts, except for a search of one shard, whose page comes
 * back with its query (ES's SearchService fetches within the query phase when the request has one shard).
 */
async function queryContext(run: Running, plan: SearchPlan, dfs: DfsOutcome | undefined, context: ActionContext): Promise<void> {
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
    ...(run.context !== undefined && { context: run.context }),
    ...(request !== undefined && { request }),
    ...(plan.aggregations !== undefined && { aggregations: plan.aggregations }),
    numHits: size === 0 ? 0 : mode.kind === 'search' ? from + size : size,
    trackTotalHitsUpTo: plan.trackTotalHitsUpTo,
    ...(sortRequest !== undefined && mode.kind === 'search' && { after: searchAfterOf(sortRequest, resolveSortForIndex(context.services, run.slot.index, sortRequest, run.slot)) }),
    nowMillis: plan.nowMillis,
    ...(dfs !== undefined && { dfs: dfs.results }),
    ...slowLogOf(run, plan, context),
    // A search of one shard fetches its page with its query (ES's SearchService: a scroll's first page, a point in time).
    ...(mode.kind !== 'scroll-next' && plan.slots.length === 1 && { fetchInQuery: true }),
  };
  // A scroll's later page has ES's scroll actions; a scroll of one shard fetches its page in the same request.
  const action = mode.kind !== 'scroll-next' ? QUERY_CONTEXT_ACTION : plan.slots.length === 1 ? QUERY_FETCH_SCROLL_ACTION : QUERY_SCROLL_ACTION;
  const result = await sendPhase<ContextQueryResult | ScrollQueryFetchResult>(run, action, args, context);
  if ('hits' in result) run.prefetched = result.hits;
  // Scroll and point-in-time shards always keep their context.
  run.context = result.context!;
  // A later scroll page learns here which shard its context reads.
  run.slot = { ...run.slot, index: result.index, indexUuid: result.indexUuid, shard: result.shard, nodeId: run.node!.id };
  run.request = result.request;
  run.sort = resolveSortForIndex(context.services, result.index, result.request, run.slot);
  run.query = result.query;
}

/**
 * The winners of a shard whose query phase left a context on its node (ES's ShardFetchRequest: just those
 * documents); a scroll's shard records its last emitted hit; a plain search's single-use context is freed by it.
 */
function fetchFromContext(run: Running, docs: ReducedQueryPhase['hits'], plan: SearchPlan, dfs: DfsOutcome | undefined, lastEmitted: AfterDoc | undefined, context: ActionContext): Promise<FetchedSearchHit[]> {
  const singleUse = run.singleUse;
  const contextRef = run.context!;
  if (singleUse) {
    // Whatever the answer, the data node frees the context once the fetch reached it (or it lapses with its node).
    run.context = undefined;
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
    ...slowLogOf(run, plan, context),
  };
  return sendPhase<FetchedSearchHit[]>(run, plan.mode.kind === 'scroll-next' ? FETCH_SCROLL_ACTION : FETCH_CONTEXT_ACTION, args, context);
}

function queryOne(run: Running, plan: SearchPlan, dfs: DfsOutcome | undefined, context: ActionContext): Promise<void> {
  if (plan.mode.kind === 'scroll-next' && run.context === undefined) throw new EsError('illegal_argument_exception', 'the search context is not a scroll context');
  return run.context !== undefined || plan.mode.kind === 'scroll-start' ? queryContext(run, plan, dfs, context) : queryShard(run, plan, dfs, context);
}

async function fetchOne(run: Running, docs: ReducedQueryPhase['hits'], plan: SearchPlan, dfs: DfsOutcome | undefined, lastEmitted: AfterDoc | undefined, context: ActionContext): Promise<FetchedSearchHit[]> {
  if (run.prefetched !== undefined) {
    // The shard fetched its top hits with its query phase: keep the winners, in the page's order.
    const byDoc = new Map(run.prefetched.map((hit) => [hit.doc, hit]));
    return docs.map((doc) => byDoc.get(doc.doc)!);
  }
  return fetchFromContext(run, docs, plan, dfs, lastEmitted, context);
}

/** Frees the single-use contexts of these shards on their nodes; a node that does not answer lets them lapse. */
function releaseSingleUseContexts(runs: readonly Running[], context: ActionContext): void {
  const refs: ContextRef[] = [];
  for (const run of runs) {
    if (!run.singleUse || run.context === undefined || run.node === undefined) continue;
    refs.push({ ...run.context, nodeId: run.node.id });
    run.context = undefined;
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

function coordinatorMaxBuckets(context: ActionContext): number {
  const value = Number(context.services.settings.get('search.max_buckets') ?? '65536');
  return Number.isFinite(value) ? value : 65_536;
}

/** A scroll shard's context for the scroll id, on the node its first page opened it on. */
function scrollContextOf(run: Running): ContextRef[] {
  return run.context !== undefined && run.node !== undefined ? [{ ...run.context, nodeId: run.node.id }] : [];
}

/** Runs `work` within the per-node limit when the search has one and more shards than it (else at once). */
function limitedPerNode(plan: SearchPlan): PerNode {
  const limit = plan.maxConcurrentShardRequests;
  if (limit === undefined || limit >= plan.slots.length) return (_run, work) => work();
  const limiter = new PerNodeLimiter(limit);
  return (run, work) => limiter.run(run.node?.id ?? '', work);
}

/**
 * ES's AbstractSearchAsyncAction.onShardFailure: a plain search whose shard request failed sends it to the
 * shard's next copy before the shard counts as failed; only when no copy is left does the failure stand.
 * Contexts (scroll pages, points in time) live on one node and have no other copy; a cancelled search stops.
 * Returns whether `run` now stands for the next copy, ready for the same phase.
 */
function moveToNextCopy(run: Running, err: unknown, plan: SearchPlan, context: ActionContext): boolean {
  if (plan.mode.kind !== 'search' || context.task.isCancelled || toEsError(err).type === 'task_cancelled_exception') return false;
  const [next, ...rest] = run.slot.alternatives ?? [];
  if (next === undefined) return false;
  // A single-use context the failed copy may have kept is its node's to free (the query phase failed there).
  Object.assign(run, open({ ...run.slot, nodeId: next.id, source: { kind: 'copy', node: next }, alternatives: rest }));
  return true;
}

export async function executeSearch(plan: SearchPlan, context: ActionContext): Promise<SearchOutcome> {
  const runs = plan.slots.map((slot) => open(slot));
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
      // moving to (ES's onPhaseFailure), and `finally` frees the contexts the query phase left on their nodes.
      throw searchPhaseFailure('fetch', toEsError(err), failures());
    }
    const sort = succeeded[0]?.sort ?? RELEVANCE;
    const request = plan.request;
    const from = plan.mode.kind === 'search' ? (request.from ?? 0) : 0;
    // A scroll's later pages have the size of its first request, which its contexts reported.
    const size = plan.mode.kind === 'scroll-next' ? (succeeded[0]?.request?.size ?? plan.mode.size) : (request.size ?? 10);
    const reduced = reduceQueryPhase(
      succeeded.map((run) => ({ shardIndex: run.slot.shardIndex, result: run.query! })),
      {
        from,
        size,
        sort,
        trackTotalHitsUpTo: plan.mode.kind === 'search' ? plan.trackTotalHitsUpTo : TRACK_TOTAL_HITS_ACCURATE,
        hasAggregations: plan.mode.kind !== 'scroll-next' && plan.aggregations !== undefined && plan.aggregations.length > 0,
        // The coordinating node's own search.max_buckets, as ES's reduce reads it.
        maxBuckets: coordinatorMaxBuckets(context),
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
    // Shards that hold no winner: their single-use contexts are freed now (ES's releaseIrrelevantSearchContext),
    // without waiting for the answer.
    releaseSingleUseContexts(succeeded.filter((run) => !docsByShard.has(run.slot.shardIndex)), context);
    const fetched = new Map<number, FetchedSearchHit[]>();
    const lastEmitted = plan.mode.kind === 'search' ? new Map<number, AfterDoc>() : lastEmittedByShard(reduced, sort);
    await Promise.all(
      [...docsByShard].map(async ([shardIndex, docs]) => {
        const run = byShard.get(shardIndex)!;
        try {
          fetched.set(shardIndex, await fetchOne(run, docs, plan, dfs, lastEmitted.get(shardIndex), context));
        } catch (err) {
          run.failure = failureOf(run, err);
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
      scrollContexts: plan.mode.kind === 'search' ? [] : live(runs).flatMap(scrollContextOf),
    };
  } finally {
    // A search that failed or was cancelled between its query and fetch phases leaves no context behind.
    releaseSingleUseContexts(runs, context);
    if (plan.mode.kind === 'scroll-start') {
      // A shard that failed keeps no scroll context (it is not part of the scroll id), nor does a failed search.
      const abandoned = runs.filter((run) => (!completed || run.failure !== undefined) && run.node !== undefined && run.context !== undefined);
      if (abandoned.length > 0) {
        const refs = abandoned.map((run) => ({ ...run.context!, nodeId: run.node!.id }));
        // ES releases a failed search's contexts with the plain free_context (AbstractSearchAsyncAction), not the scroll one.
        freeContexts(context.services, refs, 'scroll', undefined, FREE_CONTEXT_ACTION).catch(() => undefined);
      }
    }
  }
}
