/**
 * The statistics columns `_cat/indices` and `_cat/shards` share (ES's RestIndicesAction / RestShardsAction list
 * them one by one, with the same names, aliases and descriptions), read from the CommonStats JSON that
 * `_stats` prints, so both APIs always agree with it.
 */
import { cell, type CatCell } from '../../cat/index.js';

type Kind = 'long' | 'bytes' | 'millis' | 'zeroBytes';

export interface StatColumnSpec {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  readonly kind: Kind;
  /** Path in the CommonStats JSON (`indexing.index_total`). */
  readonly path: string;
}

const spec = (name: string, aliases: string, description: string, kind: Kind, path: string): StatColumnSpec => ({
  name,
  aliases: aliases.split(','),
  description,
  kind,
  path,
});

/**
 * In ES's order, from completion.size to bulk.avg_size_in_bytes (shards adds seq_no, path and idle columns
 * itself; indices puts memory.total and search.throttled before the bulk columns).
 */
export const STAT_COLUMNS: readonly StatColumnSpec[] = [
  spec('completion.size', 'cs,completionSize', 'size of completion', 'bytes', 'completion.size_in_bytes'),
  spec('fielddata.memory_size', 'fm,fielddataMemory', 'used fielddata cache', 'bytes', 'fielddata.memory_size_in_bytes'),
  spec('fielddata.evictions', 'fe,fielddataEvictions', 'fielddata evictions', 'long', 'fielddata.evictions'),
  spec('query_cache.memory_size', 'qcm,queryCacheMemory', 'used query cache', 'bytes', 'query_cache.memory_size_in_bytes'),
  spec('query_cache.evictions', 'qce,queryCacheEvictions', 'query cache evictions', 'long', 'query_cache.evictions'),
  spec('request_cache.memory_size', 'rcm,requestCacheMemory', 'used request cache', 'bytes', 'request_cache.memory_size_in_bytes'),
  spec('request_cache.evictions', 'rce,requestCacheEvictions', 'request cache evictions', 'long', 'request_cache.evictions'),
  spec('request_cache.hit_count', 'rchc,requestCacheHitCount', 'request cache hit count', 'long', 'request_cache.hit_count'),
  spec('request_cache.miss_count', 'rcmc,requestCacheMissCount', 'request cache miss count', 'long', 'request_cache.miss_count'),
  spec('flush.total', 'ft,flushTotal', 'number of flushes', 'long', 'flush.total'),
  spec('flush.total_time', 'ftt,flushTotalTime', 'time spent in flush', 'millis', 'flush.total_time_in_millis'),
  spec('get.current', 'gc,getCurrent', 'number of current get ops', 'long', 'get.current'),
  spec('get.time', 'gti,getTime', 'time spent in get', 'millis', 'get.time_in_millis'),
  spec('get.total', 'gto,getTotal', 'number of get ops', 'long', 'get.total'),
  spec('get.exists_time', 'geti,getExistsTime', 'time spent in successful gets', 'millis', 'get.exists_time_in_millis'),
  spec('get.exists_total', 'geto,getExistsTotal', 'number of successful gets', 'long', 'get.exists_total'),
  spec('get.missing_time', 'gmti,getMissingTime', 'time spent in failed gets', 'millis', 'get.missing_time_in_millis'),
  spec('get.missing_total', 'gmto,getMissingTotal', 'number of failed gets', 'long', 'get.missing_total'),
  spec('indexing.delete_current', 'idc,indexingDeleteCurrent', 'number of current deletions', 'long', 'indexing.delete_current'),
  spec('indexing.delete_time', 'idti,indexingDeleteTime', 'time spent in deletions', 'millis', 'indexing.delete_time_in_millis'),
  spec('indexing.delete_total', 'idto,indexingDeleteTotal', 'number of delete ops', 'long', 'indexing.delete_total'),
  spec('indexing.index_current', 'iic,indexingIndexCurrent', 'number of current indexing ops', 'long', 'indexing.index_current'),
  spec('indexing.index_time', 'iiti,indexingIndexTime', 'time spent in indexing', 'millis', 'indexing.index_time_in_millis'),
  spec('indexing.index_total', 'iito,indexingIndexTotal', 'number of indexing ops', 'long', 'indexing.index_total'),
  spec('indexing.index_failed', 'iif,indexingIndexFailed', 'number of failed indexing ops', 'long', 'indexing.index_failed'),
  // ES 8.18+ (elastic/elasticsearch#119067), right after index_failed in every cat table that has it.
  spec(
    'indexing.index_failed_due_to_version_conflict',
    'iifvc,indexingIndexFailedDueToVersionConflict',
    'number of failed indexing ops due to version conflict',
    'long',
    'indexing.index_failed_due_to_version_conflict',
  ),
  spec('merges.current', 'mc,mergesCurrent', 'number of current merges', 'long', 'merges.current'),
  spec('merges.current_docs', 'mcd,mergesCurrentDocs', 'number of current merging docs', 'long', 'merges.current_docs'),
  spec('merges.current_size', 'mcs,mergesCurrentSize', 'size of current merges', 'bytes', 'merges.current_size_in_bytes'),
  spec('merges.total', 'mt,mergesTotal', 'number of completed merge ops', 'long', 'merges.total'),
  spec('merges.total_docs', 'mtd,mergesTotalDocs', 'docs merged', 'long', 'merges.total_docs'),
  spec('merges.total_size', 'mts,mergesTotalSize', 'size merged', 'bytes', 'merges.total_size_in_bytes'),
  spec('merges.total_time', 'mtt,mergesTotalTime', 'time spent in merges', 'millis', 'merges.total_time_in_millis'),
  spec('refresh.total', 'rto,refreshTotal', 'total refreshes', 'long', 'refresh.total'),
  spec('refresh.time', 'rti,refreshTime', 'time spent in refreshes', 'millis', 'refresh.total_time_in_millis'),
  spec('refresh.external_total', 'rto,refreshTotal', 'total external refreshes', 'long', 'refresh.external_total'),
  spec('refresh.external_time', 'rti,refreshTime', 'time spent in external refreshes', 'millis', 'refresh.external_total_time_in_millis'),
  spec('refresh.listeners', 'rli,refreshListeners', 'number of pending refresh listeners', 'long', 'refresh.listeners'),
  spec('search.fetch_current', 'sfc,searchFetchCurrent', 'current fetch phase ops', 'long', 'search.fetch_current'),
  spec('search.fetch_time', 'sfti,searchFetchTime', 'time spent in fetch phase', 'millis', 'search.fetch_time_in_millis'),
  spec('search.fetch_total', 'sfto,searchFetchTotal', 'total fetch ops', 'long', 'search.fetch_total'),
  spec('search.open_contexts', 'so,searchOpenContexts', 'open search contexts', 'long', 'search.open_contexts'),
  spec('search.query_current', 'sqc,searchQueryCurrent', 'current query phase ops', 'long', 'search.query_current'),
  spec('search.query_time', 'sqti,searchQueryTime', 'time spent in query phase', 'millis', 'search.query_time_in_millis'),
  spec('search.query_total', 'sqto,searchQueryTotal', 'total query phase ops', 'long', 'search.query_total'),
  spec('search.scroll_current', 'scc,searchScrollCurrent', 'open scroll contexts', 'long', 'search.scroll_current'),
  spec('search.scroll_time', 'scti,searchScrollTime', 'time scroll contexts held open', 'millis', 'search.scroll_time_in_millis'),
  spec('search.scroll_total', 'scto,searchScrollTotal', 'completed scroll contexts', 'long', 'search.scroll_total'),
  spec('segments.count', 'sc,segmentsCount', 'number of segments', 'long', 'segments.count'),
  spec('segments.memory', 'sm,segmentsMemory', 'memory used by segments', 'zeroBytes', 'segments.memory_in_bytes'),
  spec('segments.index_writer_memory', 'siwm,segmentsIndexWriterMemory', 'memory used by index writer', 'bytes', 'segments.index_writer_memory_in_bytes'),
  spec('segments.version_map_memory', 'svmm,segmentsVersionMapMemory', 'memory used by version map', 'bytes', 'segments.version_map_memory_in_bytes'),
  spec(
    'segments.fixed_bitset_memory',
    'sfbm,fixedBitsetMemory',
    'memory used by fixed bit sets for nested object field types and type filters for types referred in _parent fields',
    'bytes',
    'segments.fixed_bit_set_memory_in_bytes',
  ),
  spec('warmer.current', 'wc,warmerCurrent', 'current warmer ops', 'long', 'warmer.current'),
  spec('warmer.total', 'wto,warmerTotal', 'total warmer ops', 'long', 'warmer.total'),
  spec('warmer.total_time', 'wtt,warmerTotalTime', 'time spent in warmers', 'millis', 'warmer.total_time_in_millis'),
  spec('suggest.current', 'suc,suggestCurrent', 'number of current suggest ops', 'long', 'search.suggest_current'),
  spec('suggest.time', 'suti,suggestTime', 'time spend in suggest', 'millis', 'search.suggest_time_in_millis'),
  spec('suggest.total', 'suto,suggestTotal', 'number of suggest ops', 'long', 'search.suggest_total'),
  spec('bulk.total_operations', 'bto,bulkTotalOperation', 'number of bulk shard ops', 'long', 'bulk.total_operations'),
  spec('bulk.total_time', 'btti,bulkTotalTime', 'time spend in shard bulk', 'millis', 'bulk.total_time_in_millis'),
  spec('bulk.total_size_in_bytes', 'btsi,bulkTotalSizeInBytes', 'total size in bytes of shard bulk', 'long', 'bulk.total_size_in_bytes'),
  spec('bulk.avg_time', 'bati,bulkAvgTime', 'average time spend in shard bulk', 'millis', 'bulk.avg_time_in_millis'),
  spec('bulk.avg_size_in_bytes', 'basi,bulkAvgSizeInBytes', 'average size in bytes of shard bulk', 'long', 'bulk.avg_size_in_bytes'),
];

function read(stats: Record<string, unknown>, path: string): number | undefined {
  let value: unknown = stats;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'number' ? value : undefined;
}

/** A column's cell from CommonStats JSON; null when there are no stats (a copy that is not started). */
export function statCell(column: StatColumnSpec, stats: Record<string, unknown> | undefined): CatCell {
  if (stats === undefined) return null;
  if (column.kind === 'zeroBytes') return cell.bytes(0);
  const value = read(stats, column.path);
  if (value === undefined) return null;
  switch (column.kind) {
    case 'bytes':
      return cell.bytes(value);
    case 'millis':
      return cell.millis(value);
    default:
      return cell.long(value);
  }
}
