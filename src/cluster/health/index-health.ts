/** Health of one index, as ES's ClusterIndexHealth: the worst shard, with counters summed over its shards. */
import type { IndexMetadata, ShardRouting } from '../cluster-state.js';
import { worseStatus, type HealthStatus } from './health-status.js';
import { computeShardHealth, type ShardHealth } from './shard-health.js';

export interface IndexHealth {
  index: string;
  status: HealthStatus;
  numberOfShards: number;
  numberOfReplicas: number;
  activePrimaryShards: number;
  activeShards: number;
  relocatingShards: number;
  initializingShards: number;
  unassignedShards: number;
  unassignedPrimaryShards: number;
  /** By shard number, ascending (the order ES's HashMap<Integer, ...> iterates in). */
  shards: ShardHealth[];
}

export function computeIndexHealth(metadata: IndexMetadata, routing: ReadonlyArray<ReadonlyArray<ShardRouting>>): IndexHealth {
  const shards = routing.map((copies, position) => computeShardHealth(copies[0]?.shard ?? position, copies)).sort((a, b) => a.shardId - b.shardId);
  // An index with no shard routing yet (the first phase of index creation) is red, as in ES.
  let status: HealthStatus = shards.length === 0 ? 'red' : 'green';
  const health: IndexHealth = {
    index: metadata.name,
    status,
    numberOfShards: metadata.numberOfShards,
    numberOfReplicas: metadata.numberOfReplicas,
    activePrimaryShards: 0,
    activeShards: 0,
    relocatingShards: 0,
    initializingShards: 0,
    unassignedShards: 0,
    unassignedPrimaryShards: 0,
    shards,
  };
  for (const shard of shards) {
    if (shard.primaryActive) health.activePrimaryShards++;
    health.activeShards += shard.activeShards;
    health.relocatingShards += shard.relocatingShards;
    health.initializingShards += shard.initializingShards;
    health.unassignedShards += shard.unassignedShards;
    health.unassignedPrimaryShards += shard.unassignedPrimaryShards;
    status = worseStatus(status, shard.status);
  }
  health.status = status;
  return health;
}

/** ES's IndexMetadata.getTotalNumberOfShards: every copy the index should have. */
export function totalNumberOfShards(metadata: IndexMetadata): number {
  return metadata.numberOfShards * (1 + metadata.numberOfReplicas);
}
