/**
 * search/phase: one distributed search's shard-level phases and the coordinating node's merge, free of HTTP,
 * tasks and cluster state. The caller (actions/search) picks the shards, hands each a ShardSearchTarget and a
 * PhaseControl (cancellation, timeout, yielding), runs the phases and renders the result:
 *
 *   [can-match pre-filter] -> dfs (dfs_query_then_fetch only) -> aggregateDfs -> query (per shard) -> reduceQueryPhase
 *   (in batches) -> fetch (per shard, page only)
 */
export type { ShardSearchSettings, ShardSearchTarget } from './shard-target.js';
export { PhaseControl, TimeExceeded } from './phase-control.js';
export { buildShardQuery, fieldLookupFor, shardBuildContext } from './shard-query.js';
export { resolveSort, sortNeedsScores, RELEVANCE, type ResolvedSort, type ResolvedSortField, type SortFieldKind } from './sort.js';
export { compareSortValues, formatSortValue, parseRelevanceSearchAfter, parseSearchAfter, shardDocValue } from './sort-values.js';
export { EXCLUDE_TIES, type AfterDoc } from './after-filter.js';
export { executeQueryPhase, shardSearcher, type QueryPhaseRequest, type QueryPhaseResult, type ShardHit } from './query-phase.js';
export { executeDfsPhase, aggregateDfs, type DfsResult, type DfsTermStatistics } from './dfs-phase.js';
export { executeFetchPhase, type FetchDocRef, type FetchedSearchHit, type FetchPhaseRequest } from './fetch-phase.js';
export { compareMergedHits, mergeShardHits, mergeTotalHits, reduceQueryPhase, type MergedHit, type ReduceOptions, type ReducedQueryPhase, type ShardQueryOutcome } from './reduce.js';
export { canMatchShard, shouldPreFilterSearchShards, DEFAULT_PRE_FILTER_SHARD_SIZE, type PreFilterDecision } from './can-match.js';
export { sliceFilter, sliceForShard, withSliceFilter, DEFAULT_MAX_SLICES_PER_SCROLL } from './slice-filter.js';
