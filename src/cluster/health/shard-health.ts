/**
 * Health of one shard's copy group, as ES's ClusterShardHealth computes it from an IndexShardRoutingTable.
 *
 * ES's shard routing table lists the relocation *sources* only (the INITIALIZING target of a relocation lives
 * beside it and is never counted), so a copy that is a relocation target (INITIALIZING with a
 * relocatingNodeId) is skipped here whether or not the routing table lists it.
 */
import type { ShardRouting } from '../cluster-state.js';
import type { HealthStatus } from './health-status.js';

export interface ShardHealth {
  shardId: number;
  status: HealthStatus;
  primaryActive: boolean;
  activeShards: number;
  relocatingShards: number;
  initializingShards: number;
  unassignedShards: number;
  unassignedPrimaryShards: number;
}

/** ES's ShardRouting.active(): a started copy, including one that is relocating away. */
export function isActive(copy: ShardRouting): boolean {
  return copy.state === 'STARTED' || copy.state === 'RELOCATING';
}

/** ES's ShardRouting.isRelocationTarget(): the initializing copy a relocation is building. */
export function isRelocationTarget(copy: ShardRouting): boolean {
  return copy.state === 'INITIALIZING' && copy.relocatingNodeId !== undefined;
}

export function computeShardHealth(shardId: number, copies: ReadonlyArray<ShardRouting>): ShardHealth {
  const counted = copies.filter((copy) => !isRelocationTarget(copy));
  let activeShards = 0;
  let relocatingShards = 0;
  let initializingShards = 0;
  let unassignedShards = 0;
  let unassignedPrimaryShards = 0;
  for (const copy of counted) {
    if (isActive(copy)) {
      activeShards++;
      if (copy.state === 'RELOCATING') relocatingShards++;
    } else if (copy.state === 'INITIALIZING') {
      initializingShards++;
    } else {
      unassignedShards++;
      if (copy.primary) unassignedPrimaryShards++;
    }
  }
  const primary = counted.find((copy) => copy.primary);
  const primaryActive = primary !== undefined && isActive(primary);
  let status: HealthStatus;
  if (primaryActive) status = activeShards === counted.length ? 'green' : 'yellow';
  else status = primary === undefined ? 'red' : inactivePrimaryHealth(primary);
  return { shardId, status, primaryActive, activeShards, relocatingShards, initializingShards, unassignedShards, unassignedPrimaryShards };
}

/**
 * ES's ClusterShardHealth.getInactivePrimaryHealth: an inactive primary is only yellow while a new index, a
 * shrink/split/clone target or a snapshot restore is still being allocated for the first time (and the
 * allocator has not said no, and no allocation has failed). Everything else means data is unavailable: red.
 * A copy without unassigned info counts as never tried (ES asserts it always has some).
 */
export function inactivePrimaryHealth(primary: ShardRouting): HealthStatus {
  const info = primary.unassignedInfo;
  const lastAllocationStatus = info?.lastAllocationStatus ?? 'NO_ATTEMPT';
  const failedAllocations = info?.failedAllocations ?? 0;
  const source = primary.recoverySource;
  const newlyCreated = source === 'EMPTY_STORE' || source === 'LOCAL_SHARDS' || source === 'SNAPSHOT';
  return lastAllocationStatus !== 'DECIDERS_NO' && failedAllocations === 0 && newlyCreated ? 'yellow' : 'red';
}
