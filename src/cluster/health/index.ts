/** Cluster health: ES's ClusterStateHealth / ClusterIndexHealth / ClusterShardHealth and the wait conditions. */
export { type HealthStatus, isAtLeast, worseStatus, statusValue } from './health-status.js';
export { type ShardHealth, computeShardHealth, inactivePrimaryHealth } from './shard-health.js';
export { type IndexHealth, computeIndexHealth, totalNumberOfShards } from './index-health.js';
export { type ClusterStateHealth, computeClusterStateHealth, activeShardsPercent, delayedUnassignedShards } from './cluster-state-health.js';
export { type NodeCountCondition, type NodeCountComparison, parseWaitForNodes, nodeCountMatches, parseJavaInt } from './wait-for-nodes.js';
export {
  type ClusterHealthRequest,
  type ClusterHealthResult,
  type EventPriority,
  type MasterServiceStats,
  waitConditionCount,
  evaluateHealth,
} from './health-request.js';
export { javaHashMapOrder, javaStringHashCode } from './java-hash-order.js';
