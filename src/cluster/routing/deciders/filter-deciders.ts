/**
 * Where the index's settings allow its copies (allocation-filters.ts): filter (`index.routing.allocation.require|
 * include|exclude.*`, for allocating and for staying) and data_tier (`index.routing.allocation.include.
 * _tier_preference`), with ES's explanations.
 */
import { filterMismatch, nodeTier, tierMismatch, tierPreference } from '../allocation-filters.js';
import type { DiscoveryNode } from '../../discovery-node.js';
import type { ShardRouting } from '../../cluster-state.js';
import type { RoutingAllocation } from '../routing-allocation.js';
import { decision, type Decision } from './decision.js';
import type { AllocationDecider } from './decider.js';

function filterDecision(copy: ShardRouting, node: DiscoveryNode, allocation: RoutingAllocation): Decision {
  const metadata = allocation.state.indices.get(copy.index);
  const mismatch = metadata === undefined ? undefined : filterMismatch(metadata, node);
  if (mismatch === undefined) return decision('filter', 'YES', 'node passes include/exclude/require filters');
  const setting = `index.routing.allocation.${mismatch.kind}`;
  return mismatch.kind === 'exclude'
    ? decision('filter', 'NO', `node matches index setting [${setting}] filters [${mismatch.filters}]`)
    : decision('filter', 'NO', `node does not match index setting [${setting}] filters [${mismatch.filters}]`);
}

export const filterDecider: AllocationDecider = { name: 'filter', canAllocate: filterDecision, canRemain: filterDecision };

function tierDecision(copy: ShardRouting, node: DiscoveryNode, allocation: RoutingAllocation): Decision {
  const metadata = allocation.state.indices.get(copy.index);
  const tiers = metadata === undefined ? undefined : tierPreference(metadata);
  if (metadata === undefined || tiers === undefined) return decision('data_tier', 'YES', 'index has no tier preference');
  const preference = tiers.join(',');
  const mismatch = tierMismatch(allocation.state, metadata, node);
  if (mismatch === undefined) return decision('data_tier', 'YES', `index has a preference for tiers [${preference}] and node has tier [${nodeTier(allocation.state, metadata)}]`);
  if (mismatch.tier === undefined) return decision('data_tier', 'NO', `index has a preference for tiers [${preference}], but no nodes for any of those tiers are available in the cluster`);
  return decision('data_tier', 'NO', `index has a preference for tiers [${preference}] and node does not meet the required [${mismatch.tier}] tier`);
}

export const dataTierDecider: AllocationDecider = { name: 'data_tier', canAllocate: tierDecision, canRemain: tierDecision };
