/**
 * Health of the cluster over a set of concrete indices, as ES's ClusterStateHealth: the worst index status
 * (green when there are none), forced to red by a global block with status 503 (no master, state not
 * recovered), with shard counters summed over the selected indices.
 */
import type { ClusterState } from '../cluster-state.js';
import { isDataNode } from '../discovery-node.js';
import { worseStatus, type HealthStatus } from './health-status.js';
import { computeIndexHealth, totalNumberOfShards, type IndexHealth } from './index-health.js';
import { javaHashMapOrder } from './java-hash-order.js';

export interface ClusterStateHealth {
  status: HealthStatus;
  numberOfNodes: number;
  numberOfDataNodes: number;
  activePrimaryShards: number;
  activeShards: number;
  relocatingShards: number;
  initializingShards: number;
  unassignedShards: number;
  unassignedPrimaryShards: number;
  /** Percentage of the selected indices' shard copies that are active; exactly 100 when green. */
  activeShardsPercent: number;
  /** Per index, in the order ES's HashMap prints them. */
  indices: IndexHealth[];
}

export function computeClusterStateHealth(state: ClusterState, concreteIndices: readonly string[]): ClusterStateHealth {
  const byName = new Map<string, IndexHealth>();
  let status: HealthStatus = 'green';
  let totalShardCount = 0;
  const health: ClusterStateHealth = {
    status,
    numberOfNodes: state.nodes.size,
    numberOfDataNodes: [...state.nodes.values()].filter(isDataNode).length,
    activePrimaryShards: 0,
    activeShards: 0,
    relocatingShards: 0,
    initializingShards: 0,
    unassignedShards: 0,
    unassignedPrimaryShards: 0,
    activeShardsPercent: 100,
    indices: [],
  };
  for (const name of concreteIndices) {
    const metadata = state.indices.get(name);
    const routing = state.routing.get(name);
    // ES skips an index without a routing table (it is not allocated at all) rather than failing.
    if (metadata === undefined || routing === undefined || byName.has(name)) continue;
    const indexHealth = computeIndexHealth(metadata, routing);
    byName.set(name, indexHealth);
    totalShardCount += totalNumberOfShards(metadata);
    health.activePrimaryShards += indexHealth.activePrimaryShards;
    health.activeShards += indexHealth.activeShards;
    health.relocatingShards += indexHealth.relocatingShards;
    health.initializingShards += indexHealth.initializingShards;
    health.unassignedShards += indexHealth.unassignedShards;
    health.unassignedPrimaryShards += indexHealth.unassignedPrimaryShards;
    status = worseStatus(status, indexHealth.status);
  }
  if (state.globalBlocks.some((block) => block.status === 503)) status = 'red';
  health.status = status;
  health.activeShardsPercent = activeShardsPercent(status, health.activeShards, totalShardCount);
  health.indices = javaHashMapOrder([...byName.keys()]).map((name) => byName.get(name)!);
  return health;
}

/**
 * 100 when green; otherwise active / total * 100. ES divides 0 by 0 when the cluster is not green and the
 * selection has no shard copies (a 503 block on an empty cluster, e.g. while the state is not yet recovered)
 * and prints the string "NaN" where clients expect a number. Gannet reports 0.0 there instead: nothing is
 * active and the status already says red (docs/decisions/0002-health-percent-without-shards.md).
 */
export function activeShardsPercent(status: HealthStatus, activeShards: number, totalShards: number): number {
  if (status === 'green') return 100;
  if (totalShards === 0) return 0;
  return (activeShards / totalShards) * 100;
}

/**
 * ES's UnassignedInfo.getNumberOfDelayedUnassigned: unassigned copies whose allocation is delayed (waiting for
 * a departed node to return), over the whole cluster whatever indices the request selected.
 */
export function delayedUnassignedShards(state: ClusterState): number {
  let count = 0;
  for (const shards of state.routing.values()) {
    for (const copies of shards) {
      for (const copy of copies) if (copy.state === 'UNASSIGNED' && copy.unassignedInfo?.delayed === true) count++;
    }
  }
  return count;
}
