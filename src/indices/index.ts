/**
 * indices/: the indices and shard copies on a node (services, engines, counters), document routing and ids,
 * index settings and name rules. What other layers may use is listed here.
 */
export { murmur3Routing, murmurhash3X86_32 } from './murmur3.js';
export { defaultRoutingNumShards, shardIdFor, type RoutingTableShape } from './operation-routing.js';
export { timeBasedUuid } from './uuid-generator.js';
export { validateIndexName, validateIndexOrAliasName, MAX_INDEX_NAME_BYTES } from './index-name.js';
export {
  normalizeSettings,
  validateUserSettings,
  readIndexSettings,
  defaultSettings,
  isDynamicSetting,
  nestedGroup,
  toNested,
  flatWithLists,
  PRIVATE_SETTINGS,
  type FlatSettings,
  type IndexSettingsView,
} from './index-settings.js';
export { IndexService, type IndexDescriptor } from './index-service.js';
export { IndexShard, type ShardLifecycle } from './index-shard.js';
export { IndicesService, type EngineFactory, type IndicesServiceOptions, type ShardRecovery } from './indices-service.js';
export { GetStats, SearchStats, BulkStats, type ShardStatsSnapshot } from './shard-stats.js';
export {
  slowLogLevel,
  searchSlowLogFields,
  indexingSlowLogFields,
  totalHitsText,
  SLOW_LOG_LEVELS,
  type SlowLogSink,
  type SlowLogKind,
  type SlowLogLevel,
  type SlowLogSettings,
  type SlowLogThresholds,
} from './slow-log.js';
export { LARGE_DOCUMENT_BYTES } from './document-parse-pool.js';
export { ShardRecoveryState, percentText, type RecoveryStage, type StoreRecoveryType, type RecoveryType, type RecoveryNode } from './recovery-state.js';
export type { ReplicationGroupState, ShardCopyRouting } from './replication/replication-group.js';
export type { ReplicationServices, FailedShardEntry } from './replication/replication-services.js';
export { replicate, type ReplicationShardInfo, type ShardReplicationFailure } from './replication/replication-operation.js';
export { performOnReplica, syncGlobalCheckpointOnReplica } from './replication/replica-apply.js';
export { promoteToPrimary } from './replication/primary-promotion.js';
export { REPLICA_ACTION, GLOBAL_CHECKPOINT_SYNC_ACTION, type ReplicatedOperation, type ReplicaRequest, type GlobalCheckpointSyncRequest } from './replication/replicated-operation.js';
export { PEER_RECOVERY_LEASE_SOURCE, type RetentionLeasesView } from './replication/retention-leases.js';
export { PeerRecoveryTargetService, type PeerRecoveryRequest } from './recovery/recovery-target.js';
export { registerRecoverySource } from './recovery/recovery-source-service.js';
export type { RecoveryRateLimiter } from './recovery/rate-limiter.js';
export { DEFAULT_MAX_BYTES_PER_SEC, DEFAULT_MAX_CONCURRENT_FILE_CHUNKS, type RecoverySettings } from './recovery/recovery-settings.js';
export { listShardStore, LIST_SHARD_STORE_ACTION, type ListShardStoreRequest, type ShardStoreListing, type StoreFile } from './shard-store-listing.js';
