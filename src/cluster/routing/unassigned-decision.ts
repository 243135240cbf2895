/**
 * Where an unassigned copy goes, decided by the deciders (ES's GatewayAllocator + BalancedShardsAllocator
 * decideAllocateUnassigned). The allocation round (allocation.ts) acts on the answer and
 * `_cluster/allocation/explain` prints it, so both tell the same story:
 * - a known primary (its data is on the node that had it, EXISTING_STORE) may only go back to that node, through
 *   canForceAllocatePrimary; no such node in the cluster means no valid shard copy;
 * - a replica whose shard has data (not a new index) first asks what the data nodes hold on disk (ES's
 *   ReplicaShardAllocator, with the master's store fetch): while they answer it waits (`awaiting_info`); a node
 *   whose store it can reuse (an operations-based or no-op recovery, else the most matching bytes) gets it at once,
 *   whatever the delay of `index.unassigned.node_left.delayed_timeout`; the delay holds only while no node the
 *   deciders allow has any data for it (replica-store-match.ts);
 * - otherwise a new primary or a replica goes to the node of lowest weight whose deciders all say YES; a replica
 *   prefers the node that held it (its files there let it recover by operations);
 * - no YES: THROTTLE if some node only throttles, else NO.
 */
import type { ShardRouting } from '../cluster-state.js';
import type { DiscoveryNode } from '../discovery-node.js';
import { canAllocate, canForceAllocatePrimary, combine, type Decisions } from './deciders/index.js';
import type { RoutingAllocation } from './routing-allocation.js';
import { nodeWeight, weightFunction } from './weights.js';
import { nodeLeftDelayMillis, stillDelayed } from './delayed-allocation.js';
import { matchStores, primaryStoreOf, type StoreMatch } from './replica-store-match.js';
import { wantsStoreListing } from './shard-store-fetch.js';
import { activePrimary } from './routing-allocation.js';

export type UnassignedOutcome = 'yes' | 'throttled' | 'no' | 'no_valid_shard_copy' | 'allocation_delayed' | 'awaiting_info';

export interface NodeAllocationResult {
  readonly node: DiscoveryNode;
  readonly decisions: Decisions;
  /** The node's outcome when it is not just the deciders' (a move that would not improve the balance). */
  readonly outcome?: 'worse_balance';
  /** 1 for the best-weighted node; 0 when weights played no part (a known primary). */
  readonly weightRanking: number;
  /**
   * ES's shard store info: for a known primary whether this node holds its data; for a replica the bytes its store
   * shares with the primary's (`matchingBytes`).
   */
  readonly store?: { readonly found: boolean; readonly inSync?: boolean; readonly allocationId?: string; readonly matchingBytes?: number };
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
  const fromStores = decideByStores(copy, allocation, decided);
  if (fromStores.decision !== undefined) return fromStores.decision;
  // A replica whose node left waits for it (delayed-allocation.ts) unless its delay ran out, the node is back, or
  // another node the deciders allow holds data for it (ES delays only while no node has any).
  if (!copy.primary && !fromStores.anyData && metadata !== undefined && stillDelayed(allocation.state, metadata, copy, allocation.now)) {
    const configuredMillis = nodeLeftDelayMillis(metadata);
    const remainingMillis = Math.max(0, copy.unassignedInfo!.atMillis + configuredMillis - allocation.now);
    return { outcome: 'allocation_delayed', reuseStore: false, nodeDecisions: decided.nodeDecisions, delay: { configuredMillis, remainingMillis } };
  }
  return decided;
}

/**
 * ES's ReplicaShardAllocator.makeAllocationDecision: a decision when the stores settle it (still fetching, or a
 * node whose store the replica can reuse), else nothing, and whether any allowed node holds data (no delay then).
 */
function decideByStores(copy: ShardRouting, allocation: RoutingAllocation, byWeight: UnassignedDecision): { decision?: UnassignedDecision; anyData: boolean } {
  // Only when some node may take it at all: a replica no node accepts is not worth a fetch (ES's pre-check).
  if (allocation.shardStores === undefined || !wantsStoreListing(copy) || !byWeight.nodeDecisions.some((result) => result.decisions.type === 'YES')) return { anyData: false };
  const copies = allocation.state.routing.get(copy.index)?.[copy.shard] ?? [];
  const primaryNodeId = activePrimary(copies)?.nodeId;
  if (primaryNodeId === undefined) return { anyData: false };
  const unranked = byWeight.nodeDecisions.map((result) => ({ ...result, weightRanking: 0 }));
  const listings = allocation.shardStores.fetch(copy, allocation.state);
  if (listings === undefined) return { decision: { outcome: 'awaiting_info', reuseStore: false, nodeDecisions: unranked }, anyData: false };
  const primaryStore = primaryStoreOf(listings, primaryNodeId);
  // No word from the primary's store (its node failed to answer): the weights decide, as ES lets its allocator do.
  if (primaryStore === undefined) return { anyData: false };
  const matches = matchStores(copy, allocation, listings, primaryStore);
  const withStore = (match: StoreMatch | undefined, result: NodeAllocationResult): NodeAllocationResult =>
    match === undefined ? result : { ...result, decisions: match.decisions, store: { found: true, matchingBytes: match.matchingBytes } };
  const nodeDecisions = unranked.map((result) => withStore(matches.withData.find((match) => match.node.id === result.node.id), result));
  const best = matches.best;
  if (best === undefined) return { anyData: matches.anyData };
  if (best.decisions.type === 'THROTTLE') return { decision: { outcome: 'throttled', reuseStore: true, nodeDecisions }, anyData: true };
  return { decision: { outcome: 'yes', targetNode: best.node, reuseStore: true, nodeDecisions }, anyData: true };
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
