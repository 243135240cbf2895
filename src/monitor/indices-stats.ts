/**
 * A node's index-level statistics, the figures ES's NodeIndicesStats and ScriptStats carry in nodes stats
 * (and `_cat/nodes` prints). They live down here, with the other per-node figures, so that the shard engine
 * (which sits below the cat and action layers) can fill them; until it does, a node with no indices truly
 * has all of them at zero, which is what `zeroIndicesStats()` reports. Times are milliseconds.
 */

export interface NodeIndicesStats {
  /** Bytes of shard data on the node (ES's `indices.store.size`). */
  storeSizeBytes: number;
  /** Shard copies the node holds (ES's `shard_stats.total_count`). */
  shardCount: number;
  completionSizeBytes: number;
  fielddata: { memorySizeBytes: number; evictions: number };
  queryCache: { memorySizeBytes: number; evictions: number; hitCount: number; missCount: number };
  requestCache: { memorySizeBytes: number; evictions: number; hitCount: number; missCount: number };
  flush: { total: number; totalTimeMillis: number };
  get: {
    current: number;
    timeMillis: number;
    total: number;
    existsTimeMillis: number;
    existsTotal: number;
    missingTimeMillis: number;
    missingTotal: number;
  };
  indexing: {
    deleteCurrent: number;
    deleteTimeMillis: number;
    deleteTotal: number;
    indexCurrent: number;
    indexTimeMillis: number;
    indexTotal: number;
    indexFailed: number;
    indexFailedDueToVersionConflict: number;
  };
  merges: {
    current: number;
    currentDocs: number;
    currentSizeBytes: number;
    total: number;
    totalDocs: number;
    totalSizeBytes: number;
    totalTimeMillis: number;
  };
  refresh: { total: number; totalTimeMillis: number; externalTotal: number; externalTotalTimeMillis: number; listeners: number };
  search: {
    fetchCurrent: number;
    fetchTimeMillis: number;
    fetchTotal: number;
    openContexts: number;
    queryCurrent: number;
    queryTimeMillis: number;
    queryTotal: number;
    scrollCurrent: number;
    scrollTimeMillis: number;
    scrollTotal: number;
    suggestCurrent: number;
    suggestTimeMillis: number;
    suggestTotal: number;
  };
  segments: { count: number; indexWriterMemoryBytes: number; versionMapMemoryBytes: number; fixedBitSetMemoryBytes: number };
  bulk: { totalOperations: number; totalTimeMillis: number; totalSizeInBytes: number; avgTimeMillis: number; avgSizeInBytes: number };
  mappings: { totalCount: number; totalEstimatedOverheadBytes: number };
}

export interface ScriptStats {
  compilations: number;
  cacheEvictions: number;
  compilationLimitTriggered: number;
}

export function zeroIndicesStats(): NodeIndicesStats {
  return {
    storeSizeBytes: 0,
    shardCount: 0,
    completionSizeBytes: 0,
    fielddata: { memorySizeBytes: 0, evictions: 0 },
    queryCache: { memorySizeBytes: 0, evictions: 0, hitCount: 0, missCount: 0 },
    requestCache: { memorySizeBytes: 0, evictions: 0, hitCount: 0, missCount: 0 },
    flush: { total: 0, totalTimeMillis: 0 },
    get: { current: 0, timeMillis: 0, total: 0, existsTimeMillis: 0, existsTotal: 0, missingTimeMillis: 0, missingTotal: 0 },
    indexing: {
      deleteCurrent: 0,
      deleteTimeMillis: 0,
      deleteTotal: 0,
      indexCurrent: 0,
      indexTimeMillis: 0,
      indexTotal: 0,
      indexFailed: 0,
      indexFailedDueToVersionConflict: 0,
    },
    merges: { current: 0, currentDocs: 0, currentSizeBytes: 0, total: 0, totalDocs: 0, totalSizeBytes: 0, totalTimeMillis: 0 },
    refresh: { total: 0, totalTimeMillis: 0, externalTotal: 0, externalTotalTimeMillis: 0, listeners: 0 },
    search: {
      fetchCurrent: 0,
      fetchTimeMillis: 0,
      fetchTotal: 0,
      openContexts: 0,
      queryCurrent: 0,
      queryTimeMillis: 0,
      queryTotal: 0,
      scrollCurrent: 0,
      scrollTimeMillis: 0,
      scrollTotal: 0,
      suggestCurrent: 0,
      suggestTimeMillis: 0,
      suggestTotal: 0,
    },
    segments: { count: 0, indexWriterMemoryBytes: 0, versionMapMemoryBytes: 0, fixedBitSetMemoryBytes: 0 },
    bulk: { totalOperations: 0, totalTimeMillis: 0, totalSizeInBytes: 0, avgTimeMillis: 0, avgSizeInBytes: 0 },
    mappings: { totalCount: 0, totalEstimatedOverheadBytes: 0 },
  };
}

export function zeroScriptStats(): ScriptStats {
  return { compilations: 0, cacheEvictions: 0, compilationLimitTriggered: 0 };
}
