/**
 * Where an unassigned copy goes, decided by the deciders (ES's GatewayAllocator + BalancedShardsAllocator
 * decideAllocateUnassigned). The allocation round (allocation.ts) acts on the answer and
 * `_cluster/allocation/explain` prints it, so both tell the same story:
 * - a known primary (its data is on the node that had it, EXISTING_STORE) may only go back to that node, through
 *   canForceAllocatePrimary; no such node in the cluster means no valid shard copy;
 * - a new primary or a replica goes to the node of lowest weight whose deciders all say YES; a replica prefers
 *   the node that held it (its files there let it recover by operations, as ES's ReplicaShardAllocator prefers the
 *   store that matches);
 * - no YES: THROTTLE if some node only throttles, else NO.
 */
import type { ShardRouting } from '../cluster-state.js';
import type { DiscoveryNode } from '../discovery-node.js';
import { canAllocate, canForceAllocatePrimary, combine, type Decisions } from './deciders/index.js';
import type { RoutingAllocation } from './routing-allocation.js';
import { nodeWeight, weightFunction } from './weights.js';
import { nodeLeftDelayMillis, stillDelayed } from './delayed-allocation.js';

export type UnassignedOutcome = 'yes' | 'throttled' | 'no' | 'no_valid_shard_copy' | 'allocation_delayed';

export interface NodeAllocationResult {
  readonly node: DiscoveryNode;
  readonly decisions: Decisions;
  /** The node's outcome when it is not just the deciders' (a move that would not improve the balance). */
  readonly outcome?: 'worse_balance';
  /** 1 for the best-weighted node; 0 when weights played no part (a known primary). */
  readonly weightRanking: number;
  /** For a known primary: whether this node holds its data (ES's shard store info). */
  readonly store?: { readonly found: boolean; readonly inSync?: boolean; readonly allocationId?: string };
}

export interface UnassignedDecision {
  readonly outcome: UnassignedOutcome;
  readonly targetNode?: DiscoveryNode;
  /** A known primary: the decision was about the node holding its data. */
  readonly reuseStore: boolean;
  readonly nodeDecisions: readonly NodeAllocationResult[];
  /** A replica waiting for its node (`index.unassigned.node_left.delayed_timeout`): the delay and what is left of it. */
  readonly delay?: { readonly configuredMillis: number; readonly remainingMillis: number };
}

export function decideUnassigned(copy: ShardRouting, allocation: RoutingAllocation): UnassignedDecision {
  if (copy.primary && copy.recoverySource === 'EXISTING_STORE') return decideKnownPrimary(copy, allocation);
  const decided = decideByWeight(copy, allocation);
  const metadata = allocation.state.indices.get(copy.index);
  // A replica whose node left waits for it (delayed-allocation.ts) unless its delay ran out or the node is back.
  if (!copy.primary && metadata !== undefined && stillDelayed(allocation.state, metadata, copy, allocation.now)) {
    const configuredMillis = nodeLeftDelayMillis(metadata);
    const remainingMillis = Math.max(0, copy.unassignedInfo!.atMillis + configuredMillis - allocation.now);
    return { outcome: 'allocation_delayed', reuseStore: false, nodeDecisions: decided.nodeDecisions, delay: { configuredMillis, remainingMillis } };
  }
  return decided;
}

function decideKnownPrimary(copy: ShardRouting, allocation: RoutingAllocation): UnassignedDecision {
  const lastNode = copy.unassignedInfo?.lastNodeId;
  const inSync = allocation.state.indices.get(copy.index)?.inSyncAllocationIds[copy.shard] ?? [];
  const nodeDecisions: NodeAllocationResult[] = [];
  let holderDecision: Decisions | undefined;
  let holder: DiscoveryNode | undefined;
  for (const node of allocation.dataNodes) {
    if (node.id !== lastNode) {
      nodeDecisions.push({ node, decisions: combine([]), weightRanking: 0, store: { found: false } });
      continue;
    }
    holder = node;
    holderDecision = canForceAllocatePrimary(copy, node, allocation);
    nodeDecisions.push({ node, decisions: holderDecision, weightRanking: 0, store: { found: true, inSync: true, ...(inSync[0] !== undefined && { allocationId: inSync[0] }) } });
  }
  if (holder === undefined || holderDecision === undefined) return { outcome: 'no_valid_shard_copy', reuseStore: true, nodeDecisions };
  const outcome = holderDecision.type === 'YES' ? 'yes' : holderDecision.type === 'THROTTLE' ? 'throttled' : 'no';
  return { outcome, reuseStore: true, nodeDecisions, ...(outcome === 'yes' && { targetNode: holder }) };
}

/** Other shards of the index that still wait for a replica and hold a copy on the node (it cannot take theirs). */
function futureExclusions(copy: ShardRouting, nodeId: string, allocation: RoutingAllocation): number {
  let count = 0;
  (allocation.state.routing.get(copy.index) ?? []).forEach((copies, shard) => {
    if (shard === copy.shard) return;
    if (copies.some((other) => !other.primary && other.state === 'UNASSIGNED') && copies.some((other) => other.nodeId === nodeId)) count++;
  });
  return count;
}

function decideByWeight(copy: ShardRouting, allocation: RoutingAllocation): UnassignedDecision {
  const weights = weightFunction(allocation);
  const scored = allocation.dataNodes.map((node) => ({
    node,
    decisions: canAllocate(copy, node, allocation),
    // Ties go to the node that other shards' unassigned replicas cannot use anyway (it holds their copy):
    // otherwise the last replica of an index may find only the fullest node left.
    weight: nodeWeight(allocation, weights, copy.index, node.id) - 1e-6 * futureExclusions(copy, node.id, allocation),
  }));
  const ranked = [...scored].sort((a, b) => a.weight - b.weight || a.node.id.localeCompare(b.node.id));
  const nodeDecisions = scored.map((entry) => ({ node: entry.node, decisions: entry.decisions, weightRanking: ranked.indexOf(entry) + 1 }));
  const lastNode = copy.primary ? undefined : copy.unassignedInfo?.lastNodeId;
  const previousHome = scored.find((entry) => entry.node.id === lastNode && entry.decisions.type === 'YES');
  const best = previousHome ?? ranked.find((entry) => entry.decisions.type === 'YES');
  if (best !== undefined) return { outcome: 'yes', targetNode: best.node, reuseStore: false, nodeDecisions };
  const outcome = scored.some((entry) => entry.decisions.type === 'THROTTLE') ? 'throttled' : 'no';
  return { outcome, reuseStore: false, nodeDecisions };
}
