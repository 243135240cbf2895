/**
 * engine/: one shard's storage — turns parsed documents into segments and segments back into hits. What
 * the layers above may use: the Engine and Searcher contracts, `openEngine`, and the codec's reader types
 * (through the Searcher's segment views).
 */
export type {
  DeleteOperation,
  Engine,
  EngineConfig,
  EngineStats,
  GetOptions,
  GetResult,
  IndexOperation,
  OperationOrigin,
  ReplicatedEngineOperation,
  SegmentStats,
  VersionType,
  WriteResult,
} from './engine.js';
export {
  ID_FIELD,
  IGNORED_FIELD,
  PRIMARY_TERM_FIELD,
  ROUTING_FIELD,
  SEQ_NO_FIELD,
  SOURCE_FIELD,
  VERSION_FIELD,
  type Searcher,
  type SegmentView,
} from './searcher.js';
export { openEngine, INDEX_FOLDER, TRANSLOG_FOLDER } from './engine-open.js';
export type { InternalEngine } from './internal-engine.js';
export type { CommitSnapshot } from './segments/shard-segments.js';
export type { TranslogOperation } from './translog/index.js';
export { LARGE_SOURCE_BYTES, crc32, noteSourceChecksum } from './translog/index.js';
export { readCommitStoreInfo, trimToSafeCommit, type CommitStoreInfo } from './store-info.js';
export { DEFAULT_MERGE_POLICY, type TieredMergePolicyOptions } from './merge/tiered-merge-policy.js';
export { CachedAnalyzers, checkLongTextValues, hasLongTextValues, prevalidate } from './indexing/indexing-buffer.js';
export { encodeDocumentFields } from './indexing/document-batch.js';
export { prestartSegmentWorker } from './segments/segment-jobs.js';
