/**
 * The contract of one shard's engine (ES's Engine/InternalEngine): the only way the indices layer writes,
 * reads by id and opens searchers. Implementations own the translog, the indexing buffer, the segments and
 * the commit points of one shard directory.
 *
 * Guarantees:
 * - `index`/`delete` resolve only when the operation is in the translog and, with `request` durability, the
 *   translog is fsynced up to it (group commit shares fsyncs between concurrent operations). A crash at any
 *   instant after resolution loses nothing: reopening replays the translog above the last commit.
 * - Operations on the same id are applied in the order they are called; each gets the next sequence
 *   number on the primary. Versions follow ES (internal: +1 per change; external/external_gte: as given).
 * - Real-time `get` sees every resolved operation, refreshed or not (`realtime: true`, the default).
 * - A Searcher sees exactly the documents of the last refresh.
 * Errors are EsErrors from common/errors.ts: version conflicts are `version_conflict_engine_exception`
 * (409) with ES's reasons; a corrupt shard is `corrupt_index_exception`; a closed engine
 * `already_closed_exception`.
 */
import type { ParsedDocument } from '../mapping/index.js';
import type { Searcher } from './searcher.js';
import type { AnalysisRegistry } from '../analysis/index.js';

export type VersionType = 'internal' | 'external' | 'external_gte';

/** Where an operation comes from: primaries assign seq numbers; replicas and recovery replay given ones. */
export type OperationOrigin = 'primary' | 'replica' | 'local_translog_recovery' | 'peer_recovery';

export interface IndexOperation {
  readonly id: string;
  readonly document: ParsedDocument;
  readonly opType: 'index' | 'create';
  readonly versionType: VersionType;
  /** Required for external versioning; ignored for internal. */
  readonly version?: number;
  readonly ifSeqNo?: number;
  readonly ifPrimaryTerm?: number;
  readonly origin: OperationOrigin;
  /** Given for non-primary origins. */
  readonly seqNo?: number;
  readonly primaryTerm: number;
}

export interface DeleteOperation {
  readonly id: string;
  readonly routing?: string;
  readonly versionType: VersionType;
  readonly version?: number;
  readonly ifSeqNo?: number;
  readonly ifPrimaryTerm?: number;
  readonly origin: OperationOrigin;
  readonly seqNo?: number;
  readonly primaryTerm: number;
}

export interface WriteResult {
  /** `created` / `updated` for index; `deleted` / `not_found` for delete. */
  readonly result: 'created' | 'updated' | 'deleted' | 'not_found';
  readonly version: number;
  readonly seqNo: number;
  readonly primaryTerm: number;
}

export interface GetOptions {
  /** true (default): see unrefreshed operations. */
  readonly realtime?: boolean;
}

export interface GetResult {
  readonly found: boolean;
  readonly version?: number;
  readonly seqNo?: number;
  readonly primaryTerm?: number;
  readonly source?: Uint8Array;
  readonly routing?: string;
  readonly ignored?: readonly string[];
}

export interface SegmentStats {
  readonly name: string;
  readonly generation: number;
  readonly numDocs: number;
  readonly deletedDocs: number;
  readonly sizeInBytes: number;
  /** Written by a commit (flush), not only by a refresh. */
  readonly committed: boolean;
  readonly searchable: boolean;
  readonly version: string;
  readonly compound: boolean;
}

export interface EngineStats {
  readonly docs: { count: number; deleted: number };
  readonly store: { sizeInBytes: number };
  readonly indexing: { indexTotal: number; indexTimeMillis: number; indexCurrent: number; indexFailed: number; deleteTotal: number; deleteTimeMillis: number; deleteCurrent: number; noopUpdateTotal: number };
  readonly refresh: { total: number; totalTimeMillis: number; externalTotal: number; externalTotalTimeMillis: number; listeners: number };
  readonly flush: { total: number; periodic: number; totalTimeMillis: number };
  readonly merges: { current: number; currentDocs: number; currentSizeInBytes: number; total: number; totalTimeMillis: number; totalDocs: number; totalSizeInBytes: number };
  readonly translog: { operations: number; sizeInBytes: number; uncommittedOperations: number; uncommittedSizeInBytes: number; earliestLastModifiedAgeMillis: number };
  readonly segments: readonly SegmentStats[];
  readonly seqNo: { maxSeqNo: number; localCheckpoint: number; globalCheckpoint: number };
}

export interface Engine {
  index(operation: IndexOperation): Promise<WriteResult>;
  delete(operation: DeleteOperation): Promise<WriteResult>;
  get(id: string, options?: GetOptions): Promise<GetResult>;
  /** Makes every resolved operation visible to new searchers (writes a segment, no fsync). */
  refresh(source: string): Promise<void>;
  /** Resolves once a refresh has made `seqNo` visible (for `refresh=wait_for`). */
  waitForRefresh(seqNo: number): Promise<void>;
  /** Commits: fsyncs segments, writes a commit point, trims the translog. */
  flush(options?: { force?: boolean }): Promise<void>;
  forceMerge(options: { maxNumSegments?: number; onlyExpungeDeletes?: boolean; flush?: boolean }): Promise<void>;
  acquireSearcher(): Searcher;
  stats(): EngineStats;
  close(): Promise<void>;
}

export interface EngineConfig {
  /** The shard's directory (holds `index/` segments and `translog/`). */
  readonly path: string;
  readonly shardLabel: { index: string; indexUuid: string; shard: number };
  readonly primaryTerm: number;
  /** `index.translog.durability`. */
  readonly durability: 'request' | 'async';
  readonly translogSyncIntervalMillis: number;
  /** Analyzer lookup for text fields (from the index's analysis registry). */
  readonly analyzers: AnalysisRegistry;
  /** Indexing buffer size after which a segment is written even without a refresh. */
  readonly indexingBufferBytes: number;
}
