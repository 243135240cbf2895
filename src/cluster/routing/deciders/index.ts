/**
 * Gannet's allocation deciders, in ES's order, and the three questions asked of all of them at once. Allocation
 * (allocation.ts, rebalance.ts), `_cluster/allocation/explain` and `_cluster/reroute` all ask through here, so the
 * rules exist once.
 */
import type { ShardRouting } from '../../cluster-state.js';
import type { DiscoveryNode } from '../../discovery-node.js';
import type { RoutingAllocation } from '../routing-allocation.js';
import { combine, decision, type Decision, type Decisions } from './decision.js';
import type { AllocationDecider } from './decider.js';
import { enableDecider, maxRetryDecider, replicaAfterPrimaryActiveDecider, sameShardDecider } from './shard-deciders.js';
import { clusterRebalanceDecider, concurrentRebalanceDecider, rebalanceOnlyWhenActiveDecider } from './rebalance-deciders.js';
import { dataTierDecider, filterDecider } from './filter-deciders.js';
import { diskThresholdDecider } from './disk-threshold-decider.js';
import { throttlingDecider } from './throttling-decider.js';

export const ALLOCATION_DECIDERS: readonly AllocationDecider[] = [
  maxRetryDecider,
  replicaAfterPrimaryActiveDecider,
  rebalanceOnlyWhenActiveDecider,
  clusterRebalanceDecider,
  concurrentRebalanceDecider,
  enableDecider,
  filterDecider,
  sameShardDecider,
  diskThresholdDecider,
  throttlingDecider,
  dataTierDecider,
];

export function canAllocate(copy: ShardRouting, node: DiscoveryNode, allocation: RoutingAllocation): Decisions {
  return combine(ALLOCATION_DECIDERS.flatMap((decider) => (decider.canAllocate === undefined ? [] : [decider.canAllocate(copy, node, allocation)])));
}

export function canRemain(copy: ShardRouting, node: DiscoveryNode, allocation: RoutingAllocation): Decisions {
  return combine(ALLOCATION_DECIDERS.flatMap((decider) => (decider.canRemain === undefined ? [] : [decider.canRemain(copy, node, allocation)])));
}

export function canRebalance(copy: ShardRouting, allocation: RoutingAllocation): Decisions {
  return combine(ALLOCATION_DECIDERS.flatMap((decider) => (decider.canRebalance === undefined ? [] : [decider.canRebalance(copy, allocation)])));
}

/** Whether anything may move for balance now (ES's canRebalance(allocation)): checked once per round. */
export function canRebalanceCluster(allocation: RoutingAllocation): Decisions {
  return combine(ALLOCATION_DECIDERS.flatMap((decider) => (decider.canRebalanceCluster === undefined ? [] : [decider.canRebalanceCluster(allocation)])));
}

/** Deciders whose NO holds even for a primary going back to the data it already has on a node. */
const NO_FORCE = new Set(['max_retry', 'same_shard', 'enable']);

/**
 * A known primary back to the node holding its data (ES's canForceAllocatePrimary): a NO of the placement rules
 * (filters, tiers, disk) turns into YES, since its data is there and nowhere else; max_retry, same_shard and
 * enable still say NO, throttling still throttles.
 */
export function canForceAllocatePrimary(copy: ShardRouting, node: DiscoveryNode, allocation: RoutingAllocation): Decisions {
  const decisions = canAllocate(copy, node, allocation).decisions.map((d): Decision =>
    d.type === 'NO' && !NO_FORCE.has(d.decider) ? decision(d.decider, 'YES', `primary shard [[${copy.index}][${copy.shard}]] allowed to force allocate on node [${node.id}]`) : d,
  );
  return combine(decisions);
}

export { combine, decision, decisionsToString, type Decision, type Decisions, type DecisionType } from './decision.js';
export { masterDiskThresholds, aboveHighWatermark } from './disk-threshold-decider.js';
export { concurrentRebalanceLimit } from './rebalance-deciders.js';
