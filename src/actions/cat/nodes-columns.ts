/**
 * The columns of `_cat/nodes`, in ES 8.x's order (RestNodesAction.getTableWithHeader), with its aliases and
 * help texts. The order matters: `h=` wildcards expand in it and `?help` prints it.
 */
import { defineColumns, type CatColumn } from '../../cat/index.js';

/** A right-aligned statistics column that is not shown by default. */
function stat<const Name extends string>(name: Name, aliases: string[], description: string): CatColumn<Name> {
  return { name, aliases, description, shownByDefault: false, align: 'right' };
}

export const nodesColumns = defineColumns([
  { name: 'id', aliases: ['id', 'nodeId'], shownByDefault: false, description: 'unique node id' },
  { name: 'pid', aliases: ['p'], shownByDefault: false, description: 'process id' },
  { name: 'ip', aliases: ['i'], description: 'ip address' },
  { name: 'port', aliases: ['po'], shownByDefault: false, description: 'bound transport port' },
  { name: 'http_address', aliases: ['http'], shownByDefault: false, description: 'bound http address' },

  { name: 'version', aliases: ['v'], shownByDefault: false, description: 'es version' },
  { name: 'type', aliases: ['t'], shownByDefault: false, description: 'es distribution type' },
  { name: 'build', aliases: ['b'], shownByDefault: false, description: 'es build hash' },
  { name: 'jdk', aliases: ['j'], shownByDefault: false, description: 'jdk version' },
  stat('disk.total', ['dt', 'diskTotal'], 'total disk space'),
  stat('disk.used', ['du', 'diskUsed'], 'used disk space'),
  stat('disk.avail', ['d', 'da', 'disk', 'diskAvail'], 'available disk space'),
  stat('disk.used_percent', ['dup', 'diskUsedPercent'], 'used disk space percentage'),
  stat('heap.current', ['hc', 'heapCurrent'], 'used heap'),
  { name: 'heap.percent', aliases: ['hp', 'heapPercent'], align: 'right', description: 'used heap ratio' },
  stat('heap.max', ['hm', 'heapMax'], 'max configured heap'),
  stat('ram.current', ['rc', 'ramCurrent'], 'used machine memory'),
  { name: 'ram.percent', aliases: ['rp', 'ramPercent'], align: 'right', description: 'used machine memory ratio' },
  stat('ram.max', ['rm', 'ramMax'], 'total machine memory'),
  stat('file_desc.current', ['fdc', 'fileDescriptorCurrent'], 'used file descriptors'),
  stat('file_desc.percent', ['fdp', 'fileDescriptorPercent'], 'used file descriptor ratio'),
  stat('file_desc.max', ['fdm', 'fileDescriptorMax'], 'max file descriptors'),

  { name: 'cpu', aliases: ['cpu'], align: 'right', description: 'recent cpu usage' },
  { name: 'load_1m', aliases: ['l'], align: 'right', description: '1m load avg' },
  { name: 'load_5m', aliases: ['l'], align: 'right', description: '5m load avg' },
  { name: 'load_15m', aliases: ['l'], align: 'right', description: '15m load avg' },
  stat('uptime', ['u'], 'node uptime'),
  {
    name: 'node.role',
    aliases: ['r', 'role', 'nodeRole'],
    description: 'm:master eligible node, d:data node, i:ingest node, -:coordinating node only',
  },
  { name: 'master', aliases: ['m'], description: '*:current master' },
  { name: 'name', aliases: ['n'], description: 'node name' },

  stat('completion.size', ['cs', 'completionSize'], 'size of completion'),

  stat('fielddata.memory_size', ['fm', 'fielddataMemory'], 'used fielddata cache'),
  stat('fielddata.evictions', ['fe', 'fielddataEvictions'], 'fielddata evictions'),

  stat('query_cache.memory_size', ['qcm', 'queryCacheMemory'], 'used query cache'),
  stat('query_cache.evictions', ['qce', 'queryCacheEvictions'], 'query cache evictions'),
  stat('query_cache.hit_count', ['qchc', 'queryCacheHitCount'], 'query cache hit counts'),
  stat('query_cache.miss_count', ['qcmc', 'queryCacheMissCount'], 'query cache miss counts'),

  stat('request_cache.memory_size', ['rcm', 'requestCacheMemory'], 'used request cache'),
  stat('request_cache.evictions', ['rce', 'requestCacheEvictions'], 'request cache evictions'),
  stat('request_cache.hit_count', ['rchc', 'requestCacheHitCount'], 'request cache hit counts'),
  stat('request_cache.miss_count', ['rcmc', 'requestCacheMissCount'], 'request cache miss counts'),

  stat('flush.total', ['ft', 'flushTotal'], 'number of flushes'),
  stat('flush.total_time', ['ftt', 'flushTotalTime'], 'time spent in flush'),

  stat('get.current', ['gc', 'getCurrent'], 'number of current get ops'),
  stat('get.time', ['gti', 'getTime'], 'time spent in get'),
  stat('get.total', ['gto', 'getTotal'], 'number of get ops'),
  stat('get.exists_time', ['geti', 'getExistsTime'], 'time spent in successful gets'),
  stat('get.exists_total', ['geto', 'getExistsTotal'], 'number of successful gets'),
  stat('get.missing_time', ['gmti', 'getMissingTime'], 'time spent in failed gets'),
  stat('get.missing_total', ['gmto', 'getMissingTotal'], 'number of failed gets'),

  stat('indexing.delete_current', ['idc', 'indexingDeleteCurrent'], 'number of current deletions'),
  stat('indexing.delete_time', ['idti', 'indexingDeleteTime'], 'time spent in deletions'),
  stat('indexing.delete_total', ['idto', 'indexingDeleteTotal'], 'number of delete ops'),
  stat('indexing.index_current', ['iic', 'indexingIndexCurrent'], 'number of current indexing ops'),
  stat('indexing.index_time', ['iiti', 'indexingIndexTime'], 'time spent in indexing'),
  stat('indexing.index_total', ['iito', 'indexingIndexTotal'], 'number of indexing ops'),
  stat('indexing.index_failed', ['iif', 'indexingIndexFailed'], 'number of failed indexing ops'),
  // Added in 8.18 (elastic/elasticsearch#119067); the help text is not confirmed against the source.
  stat(
    'indexing.index_failed_due_to_version_conflict',
    ['iifvc', 'indexingIndexFailedDueToVersionConflict'],
    'number of failed indexing ops due to version conflict',
  ),

  stat('merges.current', ['mc', 'mergesCurrent'], 'number of current merges'),
  stat('merges.current_docs', ['mcd', 'mergesCurrentDocs'], 'number of current merging docs'),
  stat('merges.current_size', ['mcs', 'mergesCurrentSize'], 'size of current merges'),
  stat('merges.total', ['mt', 'mergesTotal'], 'number of completed merge ops'),
  stat('merges.total_docs', ['mtd', 'mergesTotalDocs'], 'docs merged'),
  stat('merges.total_size', ['mts', 'mergesTotalSize'], 'size merged'),
  stat('merges.total_time', ['mtt', 'mergesTotalTime'], 'time spent in merges'),

  stat('refresh.total', ['rto', 'refreshTotal'], 'total refreshes'),
  stat('refresh.time', ['rti', 'refreshTime'], 'time spent in refreshes'),
  stat('refresh.external_total', ['rto', 'refreshTotal'], 'total external refreshes'),
  stat('refresh.external_time', ['rti', 'refreshTime'], 'time spent in external refreshes'),
  stat('refresh.listeners', ['rli', 'refreshListeners'], 'number of pending refresh listeners'),

  stat('script.compilations', ['scrcc', 'scriptCompilations'], 'script compilations'),
  stat('script.cache_evictions', ['scrce', 'scriptCacheEvictions'], 'script cache evictions'),
  stat('script.compilation_limit_triggered', ['scrclt', 'scriptCacheCompilationLimitTriggered'], 'script cache compilation limit triggered'),

  stat('search.fetch_current', ['sfc', 'searchFetchCurrent'], 'current fetch phase ops'),
  stat('search.fetch_time', ['sfti', 'searchFetchTime'], 'time spent in fetch phase'),
  stat('search.fetch_total', ['sfto', 'searchFetchTotal'], 'total fetch ops'),
  stat('search.open_contexts', ['so', 'searchOpenContexts'], 'open search contexts'),
  stat('search.query_current', ['sqc', 'searchQueryCurrent'], 'current query phase ops'),
  stat('search.query_time', ['sqti', 'searchQueryTime'], 'time spent in query phase'),
  stat('search.query_total', ['sqto', 'searchQueryTotal'], 'total query phase ops'),
  stat('search.scroll_current', ['scc', 'searchScrollCurrent'], 'open scroll contexts'),
  stat('search.scroll_time', ['scti', 'searchScrollTime'], 'time scroll contexts held open'),
  stat('search.scroll_total', ['scto', 'searchScrollTotal'], 'completed scroll contexts'),

  stat('segments.count', ['sc', 'segmentsCount'], 'number of segments'),
  stat('segments.memory', ['sm', 'segmentsMemory'], 'memory used by segments'),
  stat('segments.index_writer_memory', ['siwm', 'segmentsIndexWriterMemory'], 'memory used by index writer'),
  stat('segments.version_map_memory', ['svmm', 'segmentsVersionMapMemory'], 'memory used by version map'),
  stat(
    'segments.fixed_bitset_memory',
    ['sfbm', 'fixedBitsetMemory'],
    'memory used by fixed bit sets for nested object field types and type filters for types referred in _parent fields',
  ),

  stat('suggest.current', ['suc', 'suggestCurrent'], 'number of current suggest ops'),
  stat('suggest.time', ['suti', 'suggestTime'], 'time spend in suggest'),
  stat('suggest.total', ['suto', 'suggestTotal'], 'number of suggest ops'),

  stat('bulk.total_operations', ['bto', 'bulkTotalOperations'], 'number of bulk shard ops'),
  stat('bulk.total_time', ['btti', 'bulkTotalTime'], 'time spend in shard bulk'),
  stat('bulk.total_size_in_bytes', ['btsi', 'bulkTotalSizeInBytes'], 'total size in bytes of shard bulk'),
  stat('bulk.avg_time', ['bati', 'bulkAvgTime'], 'average time spend in shard bulk'),
  stat('bulk.avg_size_in_bytes', ['basi', 'bulkAvgSizeInBytes'], 'average size in bytes of shard bulk'),

  stat('shard_stats.total_count', ['sstc', 'shards', 'shardStatsTotalCount'], 'number of shards assigned'),

  stat('mappings.total_count', ['mtc', 'mappingsTotalCount'], 'number of mappings'),
  stat('mappings.total_estimated_overhead_in_bytes', ['mteo', 'mappingsTotalEstimatedOverheadInBytes'], 'estimated overhead in bytes of mappings'),
]);

export type NodesColumn = (typeof nodesColumns)[number]['name'];
