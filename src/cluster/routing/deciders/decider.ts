/**
 * One allocation rule (ES's AllocationDecider). Each answers only the questions it has a rule for:
 * - `canAllocate`: may this copy (unassigned, or started and about to move) be built on `node`?
 * - `canRemain`: may this started copy stay where it is (filters, disk)?
 * - `canRebalance`: may this shard move for balance at all right now?
 * Every answer carries the explanation that `_cluster/allocation/explain` prints.
 */
import type { ShardRouting } from '../../cluster-state.js';
import type { DiscoveryNode } from '../../discovery-node.js';
import type { RoutingAllocation } from '../routing-allocation.js';
import type { Decision } from './decision.js';

export interface AllocationDecider {
  readonly name: string;
  canAllocate?(copy: ShardRouting, node: DiscoveryNode, allocation: RoutingAllocation): Decision;
  canRemain?(copy: ShardRouting, node: DiscoveryNode, allocation: RoutingAllocation): Decision;
  canRebalance?(copy: ShardRouting, allocation: RoutingAllocation): Decision;
  /** May anything move for balance right now (the part of canRebalance that does not depend on the shard)? */
  canRebalanceCluster?(allocation: RoutingAllocation): Decision;
}

/** The copies of the shard `copy` belongs to, as the state being decided on has them. */
export function shardCopiesOf(copy: ShardRouting, allocation: RoutingAllocation): readonly ShardRouting[] {
  return allocation.state.routing.get(copy.index)?.[copy.shard] ?? [];
}
