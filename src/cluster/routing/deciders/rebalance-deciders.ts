/**
 * When shards may move for balance alone (never for a rule: a copy that may not remain moves regardless):
 * rebalance_only_when_active (every copy of the shard is active), cluster_rebalance
 * (`cluster.routing.allocation.allow_rebalance`: indices_all_active by default, indices_primaries_active, always)
 * and concurrent_rebalance (`cluster.routing.allocation.cluster_concurrent_rebalance`, 2; -1 for no limit).
 */
import { clusterSetting, type RoutingAllocation } from '../routing-allocation.js';
import { decision, type Decision } from './decision.js';
import { shardCopiesOf, type AllocationDecider } from './decider.js';

export const ALLOW_REBALANCE = 'cluster.routing.allocation.allow_rebalance';
export const CLUSTER_CONCURRENT_REBALANCE = 'cluster.routing.allocation.cluster_concurrent_rebalance';

export const rebalanceOnlyWhenActiveDecider: AllocationDecider = {
  name: 'rebalance_only_when_active',
  canRebalance(copy, allocation) {
    const allActive = shardCopiesOf(copy, allocation).every((other) => other.state === 'STARTED' || other.state === 'RELOCATING');
    return allActive
      ? decision('rebalance_only_when_active', 'YES', 'rebalancing is allowed as all copies of this shard are active')
      : decision('rebalance_only_when_active', 'NO', 'rebalancing is not allowed until all copies of this shard are active');
  },
};

interface CopyStates {
  unassigned: boolean;
  inactive: boolean;
  unassignedPrimary: boolean;
  inactivePrimary: boolean;
}

/** One scan per state (a round asks for every candidate copy). */
const copyStatesCache = new WeakMap<object, CopyStates>();

function copyStates(allocation: RoutingAllocation): CopyStates {
  const cached = copyStatesCache.get(allocation.state.routing);
  if (cached !== undefined) return cached;
  const out = { unassigned: false, inactive: false, unassignedPrimary: false, inactivePrimary: false };
  for (const shards of allocation.state.routing.values()) {
    for (const copies of shards) {
      for (const copy of copies) {
        if (copy.state === 'UNASSIGNED') {
          out.unassigned = true;
          if (copy.primary) out.unassignedPrimary = true;
        } else if (copy.state === 'INITIALIZING') {
          out.inactive = true;
          if (copy.primary) out.inactivePrimary = true;
        }
      }
    }
  }
  copyStatesCache.set(allocation.state.routing, out);
  return out;
}

function clusterRebalance(allocation: RoutingAllocation): Decision {
  {
    const mode = (clusterSetting(allocation, ALLOW_REBALANCE) ?? 'indices_all_active').toLowerCase();
    if (mode === 'always') return decision('cluster_rebalance', 'YES', 'rebalancing is always allowed');
    const states = copyStates(allocation);
    if (mode === 'indices_primaries_active') {
      if (states.unassignedPrimary) return decision('cluster_rebalance', 'NO', `the cluster has unassigned primary shards and cluster setting [${ALLOW_REBALANCE}] is set to [${mode}]`);
      if (states.inactivePrimary) return decision('cluster_rebalance', 'NO', `the cluster has inactive primary shards and cluster setting [${ALLOW_REBALANCE}] is set to [${mode}]`);
      return decision('cluster_rebalance', 'YES', 'all primary shards are active');
    }
    if (states.unassigned) return decision('cluster_rebalance', 'NO', `the cluster has unassigned shards and cluster setting [${ALLOW_REBALANCE}] is set to [${mode}]`);
    if (states.inactive) return decision('cluster_rebalance', 'NO', `the cluster has inactive shards and cluster setting [${ALLOW_REBALANCE}] is set to [${mode}]`);
    return decision('cluster_rebalance', 'YES', 'all shards are active');
  }
}

export const clusterRebalanceDecider: AllocationDecider = {
  name: 'cluster_rebalance',
  canRebalance: (_copy, allocation) => clusterRebalance(allocation),
  canRebalanceCluster: clusterRebalance,
};

export function concurrentRebalanceLimit(allocation: RoutingAllocation): number {
  const value = Number(clusterSetting(allocation, CLUSTER_CONCURRENT_REBALANCE) ?? '2');
  return Number.isFinite(value) ? value : 2;
}

function concurrentRebalance(allocation: RoutingAllocation): Decision {
  {
    const max = concurrentRebalanceLimit(allocation);
    if (max === -1) return decision('concurrent_rebalance', 'YES', 'unlimited concurrent rebalances are allowed');
    const relocating = allocation.loads.relocations;
    if (relocating >= max) {
      return decision('concurrent_rebalance', 'THROTTLE', `reached the limit of concurrently rebalancing shards [${relocating}], cluster setting [${CLUSTER_CONCURRENT_REBALANCE}=${max}]`);
    }
    return decision('concurrent_rebalance', 'YES', `below threshold [${max}] for concurrent rebalances, current rebalance shard count [${relocating}]`);
  }
}

export const concurrentRebalanceDecider: AllocationDecider = {
  name: 'concurrent_rebalance',
  canRebalance: (_copy, allocation) => concurrentRebalance(allocation),
  canRebalanceCluster: concurrentRebalance,
};
