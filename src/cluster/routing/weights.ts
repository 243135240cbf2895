/**
 * ES's BalancedShardsAllocator weight of a node for an index: 0.45 x (copies on the node - mean copies per data
 * node) + 0.55 x (the index's copies on the node - the index's mean per data node). Lower is a better home;
 * `cluster.routing.allocation.balance.shard|index|threshold` tune it as in ES.
 */
import { clusterSetting, type RoutingAllocation } from './routing-allocation.js';

export interface WeightFunction {
  readonly shardBalance: number;
  readonly indexBalance: number;
  /** The minimal weight difference between two nodes worth a relocation (`balance.threshold`, 1.0). */
  readonly threshold: number;
}

/**
 * Whether a weight difference is above the threshold. Differences within 0.001 above it count as the threshold
 * itself, as ES's BalancedShardsAllocator.lessThan rounds them: a difference of exactly 1.0 computes as
 * 1.0000000000000002 for many shapes, and the move it justified made the mirror image that justified moving back.
 */
export function aboveThreshold(delta: number, weights: WeightFunction): boolean {
  return delta > weights.threshold + 0.001;
}

export function weightFunction(allocation: RoutingAllocation): WeightFunction {
  const read = (key: string, fallback: number): number => {
    const value = Number(clusterSetting(allocation, key) ?? String(fallback));
    return Number.isFinite(value) && value >= 0 ? value : fallback;
  };
  const shard = read('cluster.routing.allocation.balance.shard', 0.45);
  const index = read('cluster.routing.allocation.balance.index', 0.55);
  const sum = shard + index > 0 ? shard + index : 1;
  return { shardBalance: shard / sum, indexBalance: index / sum, threshold: Math.max(1, read('cluster.routing.allocation.balance.threshold', 1)) };
}

/**
 * With `settled`, copies that are relocating away count on their target only: where they will be, which is what
 * rebalancing compares (else a node that just gave a copy away looks as heavy as before and gives another).
 */
export function nodeWeight(allocation: RoutingAllocation, weights: WeightFunction, index: string, nodeId: string, settled = false): number {
  const nodeCount = allocation.dataNodes.length;
  if (nodeCount === 0) return 0;
  const loads = allocation.loads;
  let total = 0;
  for (const id of allocation.dataNodes) total += loads.perNode.get(id.id) ?? 0;
  let indexTotal = 0;
  const perIndex = loads.perIndexNode.get(index);
  for (const id of allocation.dataNodes) indexTotal += perIndex?.get(id.id) ?? 0;
  const metadata = allocation.state.indices.get(index);
  // The index's mean counts every copy it will have, placed or not (so the first copies spread out).
  const indexCopies = metadata === undefined ? indexTotal : Math.max(indexTotal, metadata.numberOfShards * (metadata.numberOfReplicas + 1));
  let onNode = loads.perNode.get(nodeId) ?? 0;
  let indexOnNode = perIndex?.get(nodeId) ?? 0;
  if (settled) {
    for (const [leavingIndex, byNode] of loads.leaving) {
      const count = byNode.get(nodeId) ?? 0;
      onNode -= count;
      if (leavingIndex === index) indexOnNode -= count;
    }
  }
  return weights.shardBalance * (onNode - total / nodeCount) + weights.indexBalance * (indexOnNode - indexCopies / nodeCount);
}
