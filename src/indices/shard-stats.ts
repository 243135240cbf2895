/**
 * Counters a shard keeps beside its engine's own figures: gets (kept by the indices layer, which serves them),
 * searches (incremented by the search layer through `IndexShard.searchStats`), bulk shard requests, and
 * version-conflict failures. Times are milliseconds; `current` figures go up and down around an operation.
 */
import type { RetentionLeasesView } from './replication/retention-leases.js';
import type { EngineStats } from '../engine/engine.js';

export class GetStats {
  total = 0;
  timeMillis = 0;
  existsTotal = 0;
  existsTimeMillis = 0;
  missingTotal = 0;
  missingTimeMillis = 0;
  current = 0;

  record(found: boolean, millis: number): void {
    this.total++;
    this.timeMillis += millis;
    if (found) {
      this.existsTotal++;
      this.existsTimeMillis += millis;
    } else {
      this.missingTotal++;
      this.missingTimeMillis += millis;
    }
  }
}

/** The search layer's counters for one shard (ES's SearchStats.Stats). */
export class SearchStats {
  openContexts = 0;
  queryTotal = 0;
  queryTimeMillis = 0;
  queryCurrent = 0;
  queryFailure = 0;
  fetchTotal = 0;
  fetchTimeMillis = 0;
  fetchCurrent = 0;
  fetchFailure = 0;
  scrollTotal = 0;
  scrollTimeMillis = 0;
  scrollCurrent = 0;
  suggestTotal = 0;
  suggestTimeMillis = 0;
  suggestCurrent = 0;
}

export class BulkStats {
  totalOperations = 0;
  totalTimeMillis = 0;
  totalSizeInBytes = 0;
  /** Shard bulk requests counted, for the averages. */
  requests = 0;

  record(operations: number, millis: number, sizeInBytes: number): void {
    this.totalOperations += operations;
    this.totalTimeMillis += millis;
    this.totalSizeInBytes += sizeInBytes;
    this.requests++;
  }
}

/** One shard copy's statistics at a moment: the engine's figures plus the counters above. */
export interface ShardStatsSnapshot {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly primary: boolean;
  readonly path: string;
  readonly engine: EngineStats;
  readonly get: Readonly<GetStats>;
  readonly search: Readonly<SearchStats>;
  readonly bulk: Readonly<BulkStats>;
  readonly indexFailedDueToVersionConflict: number;
  readonly noopUpdates: number;
  /** The primary's own leases; on a replica, those the primary last synced to it. */
  readonly retentionLeases: RetentionLeasesView;
  /** ES's ShardStats `search_idle`: no searcher acquired for `index.search.idle.after` (decision 0025). */
  readonly searchIdle: boolean;
  /** Milliseconds since a searcher was last acquired (`search_idle_time`). */
  readonly searchIdleTimeMillis: number;
}
