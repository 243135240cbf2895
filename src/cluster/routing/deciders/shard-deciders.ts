/**
 * The deciders about the shard itself: max_retry (a copy that failed `index.allocation.max_retries` times waits
 * for `_cluster/reroute?retry_failed`), replica_after_primary_active (a replica recovers from an active primary),
 * same_shard (never two copies of a shard on one node) and enable (`cluster.routing.allocation.enable` and
 * `cluster.routing.rebalance.enable`, overridden per index by `index.routing.allocation.enable` /
 * `index.routing.rebalance.enable`). Explanations as ES words them.
 */
import { clusterSetting } from '../routing-allocation.js';
import { shardRoutingSummary, unassignedInfoSummary } from '../shard-routing-summary.js';
import { activePrimary, type RoutingAllocation } from '../routing-allocation.js';
import type { ShardRouting } from '../../cluster-state.js';
import { decision, type Decision } from './decision.js';
import { shardCopiesOf, type AllocationDecider } from './decider.js';

export const MAX_RETRIES_SETTING = 'index.allocation.max_retries';

export function maxRetries(allocation: RoutingAllocation, index: string): number {
  const value = Number(allocation.state.indices.get(index)?.settings[MAX_RETRIES_SETTING] ?? '5');
  return Number.isFinite(value) && value >= 0 ? value : 5;
}

export const maxRetryDecider: AllocationDecider = {
  name: 'max_retry',
  canAllocate(copy, _node, allocation) {
    const info = copy.unassignedInfo;
    const failed = info?.failedAllocations ?? 0;
    if (info === undefined || failed === 0) return decision('max_retry', 'YES', 'shard has no previous failures');
    const max = maxRetries(allocation, copy.index);
    if (failed >= max) {
      return decision(
        'max_retry',
        'NO',
        `shard has exceeded the maximum number of retries [${max}] on failed allocation attempts - manually call [/_cluster/reroute?retry_failed=true] to retry, [unassigned_info[${unassignedInfoSummary(info)}]]`,
      );
    }
    return decision('max_retry', 'YES', `shard has failed allocating [${failed}] times but [${max}] retries are allowed`);
  },
};

export const replicaAfterPrimaryActiveDecider: AllocationDecider = {
  name: 'replica_after_primary_active',
  canAllocate(copy, _node, allocation) {
    if (copy.primary) return decision('replica_after_primary_active', 'YES', 'shard is primary and can be allocated');
    return activePrimary(shardCopiesOf(copy, allocation)) === undefined
      ? decision('replica_after_primary_active', 'NO', 'primary shard for this replica is not yet active')
      : decision('replica_after_primary_active', 'YES', 'primary shard for this replica is already active');
  },
};

export const sameShardDecider: AllocationDecider = {
  name: 'same_shard',
  canAllocate(copy, node, allocation) {
    for (const other of shardCopiesOf(copy, allocation)) {
      const onNode = other.nodeId === node.id || other.relocatingNodeId === node.id;
      if (!onNode || other.state === 'UNASSIGNED') continue;
      const same = other.allocationId !== undefined && other.allocationId === copy.allocationId;
      return decision('same_shard', 'NO', `${same ? 'this shard is already allocated to this node' : 'a copy of this shard is already allocated to this node'} [${shardRoutingSummary(other)}]`);
    }
    return decision('same_shard', 'YES', 'this node does not hold a copy of this shard');
  },
};

function enableSetting(allocation: RoutingAllocation, index: string, indexKey: string, clusterKey: string): { value: string; source: string } {
  const own = allocation.state.indices.get(index)?.settings[indexKey];
  if (own !== undefined) return { value: own.toLowerCase(), source: `index setting [${indexKey}=${own.toLowerCase()}]` };
  const value = (clusterSetting(allocation, clusterKey) ?? 'all').toLowerCase();
  return { value, source: `cluster setting [${clusterKey}=${value}]` };
}

function isNewPrimary(copy: ShardRouting): boolean {
  return copy.primary && copy.state !== 'STARTED' && copy.state !== 'RELOCATING' && copy.recoverySource !== 'EXISTING_STORE';
}

export const enableDecider: AllocationDecider = {
  name: 'enable',
  canAllocate(copy, _node, allocation): Decision {
    if (allocation.ignoreDisable) return decision('enable', 'YES', 'explicitly ignoring any disabling of allocation due to manual allocation commands via the reroute API');
    const { value, source } = enableSetting(allocation, copy.index, 'index.routing.allocation.enable', 'cluster.routing.allocation.enable');
    switch (value) {
      case 'none':
        return decision('enable', 'NO', `no allocations are allowed due to ${source}`);
      case 'new_primaries':
        return isNewPrimary(copy) ? decision('enable', 'YES', 'new primary allocations are allowed') : decision('enable', 'NO', `non-new primary allocations are forbidden due to ${source}`);
      case 'primaries':
        return copy.primary ? decision('enable', 'YES', 'primary allocations are allowed') : decision('enable', 'NO', `replica allocations are forbidden due to ${source}`);
      default:
        return decision('enable', 'YES', 'all allocations are allowed');
    }
  },
  canRebalanceCluster(allocation): Decision {
    if (allocation.ignoreDisable) return decision('enable', 'YES', 'allocation is explicitly ignoring any disabling of rebalancing');
    const value = (clusterSetting(allocation, 'cluster.routing.rebalance.enable') ?? 'all').toLowerCase();
    if (value !== 'none') return decision('enable', 'YES', 'rebalancing is not globally disabled');
    for (const metadata of allocation.state.indices.values()) {
      if (metadata.settings['index.routing.rebalance.enable'] !== undefined) return decision('enable', 'YES', 'rebalancing is overridden on one or more indices');
    }
    return decision('enable', 'NO', `no rebalancing is allowed due to cluster setting [cluster.routing.rebalance.enable=${value}]`);
  },
  canRebalance(copy, allocation): Decision {
    if (allocation.ignoreDisable) return decision('enable', 'YES', 'allocation is explicitly ignoring any disabling of rebalancing');
    const { value, source } = enableSetting(allocation, copy.index, 'index.routing.rebalance.enable', 'cluster.routing.rebalance.enable');
    switch (value) {
      case 'none':
        return decision('enable', 'NO', `no rebalancing is allowed due to ${source}`);
      case 'primaries':
        return copy.primary ? decision('enable', 'YES', 'primary rebalancing is allowed') : decision('enable', 'NO', `replica rebalancing is forbidden due to ${source}`);
      case 'replicas':
        return copy.primary ? decision('enable', 'NO', `primary rebalancing is forbidden due to ${source}`) : decision('enable', 'YES', 'replica rebalancing is allowed');
      default:
        return decision('enable', 'YES', 'all rebalancing is allowed');
    }
  },
};
