/** The mutable counters behind EngineStats (engine.ts), grouped as ES groups them in index stats. */

export interface IndexingCounters {
  indexTotal: number;
  indexTimeMillis: number;
  indexCurrent: number;
  indexFailed: number;
  deleteTotal: number;
  deleteTimeMillis: number;
  deleteCurrent: number;
  noopUpdateTotal: number;
}

export interface RefreshCounters {
  total: number;
  totalTimeMillis: number;
  externalTotal: number;
  externalTotalTimeMillis: number;
}

export interface FlushCounters {
  total: number;
  periodic: number;
  totalTimeMillis: number;
}

export interface MergeStatsCounters {
  current: number;
  currentDocs: number;
  currentSizeInBytes: number;
  total: number;
  totalTimeMillis: number;
  totalDocs: number;
  totalSizeInBytes: number;
}

export function newIndexingCounters(): IndexingCounters {
  return { indexTotal: 0, indexTimeMillis: 0, indexCurrent: 0, indexFailed: 0, deleteTotal: 0, deleteTimeMillis: 0, deleteCurrent: 0, noopUpdateTotal: 0 };
}

export function newRefreshCounters(): RefreshCounters {
  return { total: 0, totalTimeMillis: 0, externalTotal: 0, externalTotalTimeMillis: 0 };
}

export function newFlushCounters(): FlushCounters {
  return { total: 0, periodic: 0, totalTimeMillis: 0 };
}

export function newMergeCounters(): MergeStatsCounters {
  return { current: 0, currentDocs: 0, currentSizeInBytes: 0, total: 0, totalTimeMillis: 0, totalDocs: 0, totalSizeInBytes: 0 };
}
