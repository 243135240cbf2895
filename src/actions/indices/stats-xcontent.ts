/**
 * ES's CommonStats as JSON, summed over shard copies: the sections in CommonStats.toXContent order (docs,
 * shard_stats, store, indexing, get, search, merges, refresh, flush, warmer, query_cache, fielddata, completion,
 * segments, translog, request_cache, recovery, bulk, dense_vector, sparse_vector), each only when its metric was
 * asked for. Figures Gannet has no machinery for (caches, warmers, completion) are truly zero.
 */
import { jsonFloat } from '../../common/json-float.js';
import type { ShardStatsSnapshot } from '../../indices/index.js';

export const STATS_METRICS = [
  'store', 'indexing', 'get', 'search', 'merge', 'flush', 'refresh', 'query_cache', 'fielddata', 'docs', 'warmer', 'completion',
  'segments', 'translog', 'request_cache', 'recovery', 'bulk', 'shard_stats', 'mappings', 'dense_vector', 'sparse_vector',
] as const;
export type StatsMetric = (typeof STATS_METRICS)[number];

function sum(shards: readonly ShardStatsSnapshot[], pick: (shard: ShardStatsSnapshot) => number): number {
  let total = 0;
  for (const shard of shards) total += pick(shard);
  return total;
}

/** CommonStats of a group of shard copies. */
export function commonStats(shards: readonly ShardStatsSnapshot[], metrics: ReadonlySet<StatsMetric>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const s = (pick: (shard: ShardStatsSnapshot) => number) => sum(shards, pick);
  if (metrics.has('docs')) {
    out['docs'] = { count: s((x) => x.engine.docs.count), deleted: s((x) => x.engine.docs.deleted), total_size_in_bytes: s((x) => x.engine.store.sizeInBytes) };
  }
  if (metrics.has('shard_stats')) out['shard_stats'] = { total_count: shards.length };
  if (metrics.has('store')) {
    const size = s((x) => x.engine.store.sizeInBytes);
    out['store'] = { size_in_bytes: size, total_data_set_size_in_bytes: size, reserved_in_bytes: 0 };
  }
  if (metrics.has('indexing')) {
    out['indexing'] = {
      index_total: s((x) => x.engine.indexing.indexTotal),
      index_time_in_millis: s((x) => x.engine.indexing.indexTimeMillis),
      index_current: s((x) => x.engine.indexing.indexCurrent),
      index_failed: s((x) => x.engine.indexing.indexFailed),
      index_failed_due_to_version_conflict: s((x) => x.indexFailedDueToVersionConflict),
      delete_total: s((x) => x.engine.indexing.deleteTotal),
      delete_time_in_millis: s((x) => x.engine.indexing.deleteTimeMillis),
      delete_current: s((x) => x.engine.indexing.deleteCurrent),
      noop_update_total: s((x) => x.engine.indexing.noopUpdateTotal + x.noopUpdates),
      is_throttled: false,
      throttle_time_in_millis: 0,
      write_load: jsonFloat(0),
    };
  }
  if (metrics.has('get')) {
    out['get'] = {
      total: s((x) => x.get.total),
      time_in_millis: s((x) => x.get.timeMillis),
      exists_total: s((x) => x.get.existsTotal),
      exists_time_in_millis: s((x) => x.get.existsTimeMillis),
      missing_total: s((x) => x.get.missingTotal),
      missing_time_in_millis: s((x) => x.get.missingTimeMillis),
      current: s((x) => x.get.current),
    };
  }
  if (metrics.has('search')) {
    out['search'] = {
      open_contexts: s((x) => x.search.openContexts),
      query_total: s((x) => x.search.queryTotal),
      query_time_in_millis: s((x) => x.search.queryTimeMillis),
      query_current: s((x) => x.search.queryCurrent),
      query_failure: s((x) => x.search.queryFailure),
      fetch_total: s((x) => x.search.fetchTotal),
      fetch_time_in_millis: s((x) => x.search.fetchTimeMillis),
      fetch_current: s((x) => x.search.fetchCurrent),
      fetch_failure: s((x) => x.search.fetchFailure),
      scroll_total: s((x) => x.search.scrollTotal),
      scroll_time_in_millis: s((x) => x.search.scrollTimeMillis),
      scroll_current: s((x) => x.search.scrollCurrent),
      suggest_total: s((x) => x.search.suggestTotal),
      suggest_time_in_millis: s((x) => x.search.suggestTimeMillis),
      suggest_current: s((x) => x.search.suggestCurrent),
    };
  }
  if (metrics.has('merge')) {
    out['merges'] = {
      current: s((x) => x.engine.merges.current),
      current_docs: s((x) => x.engine.merges.currentDocs),
      current_size_in_bytes: s((x) => x.engine.merges.currentSizeInBytes),
      total: s((x) => x.engine.merges.total),
      total_time_in_millis: s((x) => x.engine.merges.totalTimeMillis),
      total_docs: s((x) => x.engine.merges.totalDocs),
      total_size_in_bytes: s((x) => x.engine.merges.totalSizeInBytes),
      total_stopped_time_in_millis: 0,
      total_throttled_time_in_millis: 0,
      total_auto_throttle_in_bytes: 0,
    };
  }
  if (metrics.has('refresh')) {
    out['refresh'] = {
      total: s((x) => x.engine.refresh.total),
      total_time_in_millis: s((x) => x.engine.refresh.totalTimeMillis),
      external_total: s((x) => x.engine.refresh.externalTotal),
      external_total_time_in_millis: s((x) => x.engine.refresh.externalTotalTimeMillis),
      listeners: s((x) => x.engine.refresh.listeners),
    };
  }
  if (metrics.has('flush')) {
    const time = s((x) => x.engine.flush.totalTimeMillis);
    out['flush'] = {
      total: s((x) => x.engine.flush.total),
      periodic: s((x) => x.engine.flush.periodic),
      total_time_in_millis: time,
      total_time_excluding_waiting_on_lock_in_millis: time,
    };
  }
  if (metrics.has('warmer')) out['warmer'] = { current: 0, total: 0, total_time_in_millis: 0 };
  if (metrics.has('query_cache')) {
    out['query_cache'] = { memory_size_in_bytes: 0, total_count: 0, hit_count: 0, miss_count: 0, cache_size: 0, cache_count: 0, evictions: 0 };
  }
  if (metrics.has('fielddata')) out['fielddata'] = { memory_size_in_bytes: 0, evictions: 0, global_ordinals: { build_time_in_millis: 0 } };
  if (metrics.has('completion')) out['completion'] = { size_in_bytes: 0 };
  if (metrics.has('segments')) {
    out['segments'] = {
      count: s((x) => x.engine.segments.length),
      memory_in_bytes: 0,
      terms_memory_in_bytes: 0,
      stored_fields_memory_in_bytes: 0,
      term_vectors_memory_in_bytes: 0,
      norms_memory_in_bytes: 0,
      points_memory_in_bytes: 0,
      doc_values_memory_in_bytes: 0,
      index_writer_memory_in_bytes: 0,
      version_map_memory_in_bytes: 0,
      fixed_bit_set_memory_in_bytes: 0,
      max_unsafe_auto_id_timestamp: -1,
      file_sizes: {},
    };
  }
  if (metrics.has('translog')) {
    const ages = shards.map((x) => x.engine.translog.earliestLastModifiedAgeMillis);
    out['translog'] = {
      operations: s((x) => x.engine.translog.operations),
      size_in_bytes: s((x) => x.engine.translog.sizeInBytes),
      uncommitted_operations: s((x) => x.engine.translog.uncommittedOperations),
      uncommitted_size_in_bytes: s((x) => x.engine.translog.uncommittedSizeInBytes),
      earliest_last_modified_age: ages.length === 0 ? 0 : Math.min(...ages),
    };
  }
  if (metrics.has('request_cache')) out['request_cache'] = { memory_size_in_bytes: 0, evictions: 0, hit_count: 0, miss_count: 0 };
  if (metrics.has('recovery')) out['recovery'] = { current_as_source: 0, current_as_target: 0, throttle_time_in_millis: 0 };
  if (metrics.has('bulk')) {
    const operations = s((x) => x.bulk.totalOperations);
    const time = s((x) => x.bulk.totalTimeMillis);
    const size = s((x) => x.bulk.totalSizeInBytes);
    const requests = s((x) => x.bulk.requests);
    out['bulk'] = {
      total_operations: operations,
      total_time_in_millis: time,
      total_size_in_bytes: size,
      avg_time_in_millis: requests === 0 ? 0 : Math.trunc(time / requests),
      avg_size_in_bytes: requests === 0 ? 0 : Math.trunc(size / requests),
    };
  }
  if (metrics.has('dense_vector')) out['dense_vector'] = { value_count: 0 };
  if (metrics.has('sparse_vector')) out['sparse_vector'] = { value_count: 0 };
  return out;
}
