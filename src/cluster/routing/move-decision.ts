/**
 * What happens to a started copy (ES's BalancedShardsAllocator decideMove / decideRebalance), asked by the
 * allocation round (allocation.ts moves, rebalance.ts) and printed by `_cluster/allocation/explain`:
 * - it may not remain (canRemain NO: filters, disk past high): it moves to the YES node of lowest weight;
 * - it may remain: a move is worth it only to a node the deciders allow where the balance gets better, i.e. the
 *   weight difference between the two nodes (copies relocating away counted where they go) is above
 *   `balance.threshold` and shrinks with the move.
 */
import type { ShardRouting } from '../cluster-state.js';
import type { DiscoveryNode } from '../discovery-node.js';
import { canAllocate, canRebalance, canRemain, combine, type Decisions } from './deciders/index.js';
import type { RoutingAllocation } from './routing-allocation.js';
import type { NodeAllocationResult } from './unassigned-decision.js';
import { aboveThreshold, nodeWeight, weightFunction } from './weights.js';

export type MoveOutcome = 'yes' | 'throttled' | 'no';
export type RebalanceOutcome = 'yes' | 'throttled' | 'no' | 'worse_balance';

export interface RebalanceDecision {
  readonly cluster: Decisions;
  readonly outcome: RebalanceOutcome;
  readonly targetNode?: DiscoveryNode;
  /** The current node's place in the weight order (1 = best). */
  readonly currentNodeRanking: number;
  readonly nodeDecisions: readonly NodeAllocationResult[];
}

export interface MoveDecision {
  readonly canRemain: Decisions;
  /** When the copy may not remain: where it goes. */
  readonly move?: { readonly outcome: MoveOutcome; readonly targetNode?: DiscoveryNode; readonly nodeDecisions: readonly NodeAllocationResult[] };
  /** When it may remain: whether balance moves it. */
  readonly rebalance?: RebalanceDecision;
}

/** With `withRebalance` false (the allocation round), a copy that may remain gets no rebalance decision: rebalance.ts makes those. */
export function decideMove(copy: ShardRouting, allocation: RoutingAllocation, withRebalance = true): MoveDecision {
  const current = copy.nodeId === undefined ? undefined : allocation.state.nodes.get(copy.nodeId);
  const remain = current === undefined ? combine([]) : canRemain(copy, current, allocation);
  if (remain.type !== 'NO') return withRebalance ? { canRemain: remain, rebalance: decideRebalance(copy, allocation) } : { canRemain: remain };
  const weights = weightFunction(allocation);
  const scored = allocation.dataNodes
    .filter((node) => node.id !== copy.nodeId)
    .map((node) => ({ node, decisions: canAllocate(copy, node, allocation), weight: nodeWeight(allocation, weights, copy.index, node.id) }));
  const ranked = [...scored].sort((a, b) => a.weight - b.weight || a.node.id.localeCompare(b.node.id));
  const nodeDecisions = scored.map((entry) => ({ node: entry.node, decisions: entry.decisions, weightRanking: ranked.indexOf(entry) + 1 }));
  const best = ranked.find((entry) => entry.decisions.type === 'YES');
  if (best !== undefined) return { canRemain: remain, move: { outcome: 'yes', targetNode: best.node, nodeDecisions } };
  const outcome = scored.some((entry) => entry.decisions.type === 'THROTTLE') ? 'throttled' : 'no';
  return { canRemain: remain, move: { outcome, nodeDecisions } };
}

export function decideRebalance(copy: ShardRouting, allocation: RoutingAllocation): RebalanceDecision {
  const cluster = canRebalance(copy, allocation);
  const weights = weightFunction(allocation);
  const unit = weights.shardBalance + weights.indexBalance;
  const currentWeight = copy.nodeId === undefined ? 0 : nodeWeight(allocation, weights, copy.index, copy.nodeId, true);
  const all = allocation.dataNodes.map((node) => ({ node, weight: nodeWeight(allocation, weights, copy.index, node.id, true) }));
  const ranked = [...all].sort((a, b) => a.weight - b.weight || a.node.id.localeCompare(b.node.id));
  const rankOf = (node: DiscoveryNode): number => ranked.findIndex((entry) => entry.node.id === node.id) + 1;
  const nodeDecisions: NodeAllocationResult[] = [];
  let target: { node: DiscoveryNode; weight: number } | undefined;
  let throttled = false;
  let worse = false;
  for (const entry of all) {
    if (entry.node.id === copy.nodeId) continue;
    const decisions = canAllocate(copy, entry.node, allocation);
    const delta = currentWeight - entry.weight;
    const improves = aboveThreshold(delta, weights) && Math.abs(delta - 2 * unit) < delta;
    if (decisions.type !== 'NO' && !improves) {
      worse = true;
      nodeDecisions.push({ node: entry.node, decisions, weightRanking: rankOf(entry.node), outcome: 'worse_balance' });
      continue;
    }
    nodeDecisions.push({ node: entry.node, decisions, weightRanking: rankOf(entry.node) });
    if (decisions.type === 'THROTTLE') throttled = true;
    if (decisions.type === 'YES' && (target === undefined || entry.weight < target.weight)) target = entry;
  }
  const outcome: RebalanceOutcome = target !== undefined ? 'yes' : throttled ? 'throttled' : worse ? 'worse_balance' : 'no';
  const currentNode = copy.nodeId === undefined ? undefined : allocation.state.nodes.get(copy.nodeId);
  return {
    cluster,
    outcome,
    ...(target !== undefined && { targetNode: target.node }),
    currentNodeRanking: currentNode === undefined ? 0 : rankOf(currentNode),
    nodeDecisions,
  };
}
