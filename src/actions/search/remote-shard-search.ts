/**
 * The shard search of a plain `_search` (or `_count`) of a single shard, on the node holding the chosen copy
 * (this one included: the transport runs it in-process there): the coordinating node sends
 * `indices:data/read/search[phase/query]` in `query-and-fetch` mode, and the node runs the query phase on its copy
 * and fetches the page (its hits from `from` on) in the same round trip, as ES does when a search has one shard,
 * returning the unreduced query result (hits, totals, partial aggregations) and those hits. With one shard the page
 * is exactly the winners, so nothing is fetched in vain. A search of several shards runs the query phase in a
 * single-use context instead and fetches only the winners (remote-contexts.ts, docs/decisions/0016). A dfs search
 * sends every shard's statistics along.
 */
import { errors } from '../../common/errors.js';
import type { AggregationSpec } from '../../search/aggregations/index.js';
import type { SearchRequest } from '../../search/dsl/index.js';
import {
  aggregateDfs,
  executeFetchPhase,
  executeQueryPhase,
  PhaseControl,
  resolveSort,
  RELEVANCE,
  type AfterDoc,
  type DfsResult,
  type FetchedSearchHit,
  type QueryPhaseResult,
  type ResolvedSort,
} from '../../search/phase/index.js';
import type { Task } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { indicesOf } from '../indices-services.js';
import { targetFor } from './search-shards.js';
import { logRemoteSearchPhase, type SearchSlowLogRequest } from './search-slow-log.js';
import { totalHitsText } from '../../indices/index.js';

export interface RemoteShardSearchRequest {
  /** Sent as a query phase request (remote-contexts.ts QUERY_CONTEXT_ACTION), told apart by this mode. */
  readonly mode: { readonly kind: 'query-and-fetch' };
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly shardIndex: number;
  /** The request for this shard: alias filter and slice already applied. */
  readonly request: SearchRequest;
  readonly aggregations: readonly AggregationSpec[] | undefined;
  readonly numHits: number;
  readonly trackTotalHitsUpTo: number;
  readonly after: AfterDoc | undefined;
  readonly nowMillis: number;
  /** dfs_query_then_fetch: every shard's statistics, summed here for scoring. */
  readonly dfs?: readonly DfsResult[];
  /** Set when the index logs slow search phases: this node writes the lines (search-slow-log.ts). */
  readonly slowLog?: SearchSlowLogRequest;
}

export interface RemoteShardSearchResult {
  readonly query: QueryPhaseResult;
  /** Fetched hits of the page (`query.hits` from `from` on), in that order. */
  readonly hits: FetchedSearchHit[];
}

/** Runs on the node holding the shard copy, as a child task of the coordinating node's search. */
export async function executeRemoteShardSearch(services: NodeServices, request: RemoteShardSearchRequest, task: Task): Promise<RemoteShardSearchResult> {
  const indices = indicesOf(services).service;
  const service = indices.indexService(request.index);
  const shard = indices.shard(request.index, request.shard);
  if (service === undefined || shard === undefined || service.uuid !== request.indexUuid || shard.state === 'closed') throw errors.shardNotFound(request.index, request.indexUuid, request.shard);
  // A search-idle copy that skipped refreshes refreshes first, so the search sees every acknowledged write (decision 0025).
  await shard.ensureSearchActive();
  task.ensureNotCancelled();
  const searcher = shard.acquireSearcher();
  shard.searchStats.openContexts++;
  shard.searchStats.queryCurrent++;
  const started = performance.now();
  try {
    const target = targetFor(request, service, searcher, services);
    const deadline = request.request.timeoutMillis === undefined ? undefined : performance.now() + request.request.timeoutMillis;
    const control = new PhaseControl(() => task.ensureNotCancelled(), deadline);
    const sort = resolveSort(target, request.request.sort);
    const statistics = request.dfs === undefined ? undefined : aggregateDfs(request.dfs);
    const query = await executeQueryPhase(
      target,
      {
        request: request.request,
        sort,
        ...(request.aggregations !== undefined && { aggregations: request.aggregations }),
        numHits: request.numHits,
        trackTotalHitsUpTo: request.trackTotalHitsUpTo,
        ...(request.after !== undefined && { after: request.after }),
        ...(statistics !== undefined && { statistics }),
        nowMillis: request.nowMillis,
        windowCheck: 'search',
      },
      control,
    );
    const queryMillis = performance.now() - started;
    shard.searchStats.queryTotal++;
    shard.searchStats.queryTimeMillis += Math.round(queryMillis);
    const label = { index: request.index, shard: request.shard };
    logRemoteSearchPhase(services, service, 'query', request.slowLog, { ...label, tookMillis: queryMillis, totalHits: totalHitsText(query.totalHits.value, query.totalHits.relation) });
    // The hits before `from` are the reduce's to skip; only the page is fetched.
    const docs = query.hits.slice(request.request.from ?? 0).map((hit) => ({ shardIndex: request.shardIndex, doc: hit.doc, score: hit.score, ...(hit.sortValues !== undefined && { sortValues: hit.sortValues }) }));
    const fetchStarted = performance.now();
    // The fetch is not held to the request's timeout (a query phase that timed out still returns its hits).
    const fetchControl = new PhaseControl(() => task.ensureNotCancelled(), undefined);
    const hits = docs.length === 0 ? [] : await executeFetchPhase(target, { request: request.request, docs, ...(statistics !== undefined && { statistics }), nowMillis: request.nowMillis }, fetchControl);
    if (docs.length > 0) {
      const fetchMillis = performance.now() - fetchStarted;
      shard.searchStats.fetchTotal++;
      shard.searchStats.fetchTimeMillis += Math.round(fetchMillis);
      logRemoteSearchPhase(services, service, 'fetch', request.slowLog, { ...label, tookMillis: fetchMillis, totalHits: '-1' });
    }
    return { query, hits };
  } catch (err) {
    shard.searchStats.queryFailure++;
    throw err;
  } finally {
    shard.searchStats.queryCurrent--;
    shard.searchStats.openContexts--;
    searcher.release();
  }
}

/** The sort a shard of this index resolves, for the coordinating node's reduce (mappings are on every node). */
export function resolveSortForIndex(services: NodeServices, index: string, request: SearchRequest, label: { index: string; indexUuid: string; shard: number; shardIndex: number }): ResolvedSort {
  // Relevance needs no mapping (the common case, asked for every shard of every search).
  if (request.sort === undefined || request.sort.length === 0) return RELEVANCE;
  const service = indicesOf(services).service.indexService(index);
  if (service === undefined) throw errors.indexNotFound(index);
  return resolveSort(targetFor(label, service, undefined as never, services), request.sort);
}
