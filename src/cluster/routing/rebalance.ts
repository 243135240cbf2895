/**
 * Rebalancing (ES's BalancedShardsAllocator.balance, simplified): after unassigned copies are placed and copies
 * that may not stay are moved, started copies move from the heaviest node of an index to a lighter one while the
 * move makes the balance better (move-decision.ts decideRebalance) and the rebalance deciders allow it
 * (`cluster.routing.rebalance.enable`, `allow_rebalance`, at most `cluster_concurrent_rebalance` relocations at
 * once). A node that joins thus fills up, a few copies at a time, by relocation: the source keeps serving until
 * its target has recovered and taken its place, so health stays green throughout.
 */
import type { ShardRouting } from '../cluster-state.js';
import { canRebalanceCluster, concurrentRebalanceLimit } from './deciders/index.js';
import { decideRebalance } from './move-decision.js';
import { startRelocation } from './relocation.js';
import type { RoutingAllocation } from './routing-allocation.js';
import { aboveThreshold, nodeWeight, weightFunction } from './weights.js';

const MAX_MOVES_PER_ROUND = 100;

export function rebalance(allocation: RoutingAllocation): void {
  if (allocation.dataNodes.length < 2) return;
  // Nothing moves while the cluster as a whole may not rebalance (copies inactive, disabled, enough moves under way).
  if (canRebalanceCluster(allocation).type !== 'YES') return;
  const limit = concurrentRebalanceLimit(allocation);
  for (let moves = 0; moves < MAX_MOVES_PER_ROUND; moves++) {
    if ((limit !== -1 && allocation.loads.relocations >= limit) || canRebalanceCluster(allocation).type !== 'YES') return;
    if (!moveOneCopy(allocation)) return;
  }
}

/** Moves one copy of the least balanced index that can improve; false when none can. */
function moveOneCopy(allocation: RoutingAllocation): boolean {
  const weights = weightFunction(allocation);
  const candidates: { index: string; spread: number }[] = [];
  for (const index of [...allocation.state.routing.keys()].sort()) {
    const metadata = allocation.state.indices.get(index);
    if (metadata === undefined || metadata.state === 'close') continue;
    const nodeWeights = allocation.dataNodes.map((node) => nodeWeight(allocation, weights, index, node.id, true));
    const spread = Math.max(...nodeWeights) - Math.min(...nodeWeights);
    if (aboveThreshold(spread, weights)) candidates.push({ index, spread });
  }
  candidates.sort((a, b) => b.spread - a.spread || a.index.localeCompare(b.index));
  for (const { index } of candidates) {
    // The heaviest nodes give first; on a node, replicas before primaries (moving a primary hands writes over).
    const byWeight = [...allocation.dataNodes].sort((a, b) => nodeWeight(allocation, weights, index, b.id, true) - nodeWeight(allocation, weights, index, a.id, true) || a.id.localeCompare(b.id));
    for (const source of byWeight) {
      const copies = startedCopiesOn(allocation, index, source.id);
      for (const copy of copies) {
        const decision = decideRebalance(copy, allocation);
        if (decision.cluster.type !== 'YES' || decision.outcome !== 'yes' || decision.targetNode === undefined) continue;
        startRelocation(allocation, copy, decision.targetNode.id);
        return true;
      }
    }
  }
  return false;
}

function startedCopiesOn(allocation: RoutingAllocation, index: string, nodeId: string): ShardRouting[] {
  const copies = (allocation.state.routing.get(index) ?? []).flatMap((shardCopies) => shardCopies.filter((copy) => copy.state === 'STARTED' && copy.nodeId === nodeId));
  return copies.sort((a, b) => Number(a.primary) - Number(b.primary) || a.shard - b.shard);
}
