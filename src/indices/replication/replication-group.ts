/**
 * A shard's copies as the cluster layer tells a copy about them on every applied cluster state (ES's
 * IndexShardRoutingTable + in-sync ids, pushed by IndicesClusterStateService.updateShardState): which copies
 * exist, where, in which state, which are in sync, and the shard's primary term. The indices layer never reads
 * the cluster state itself.
 */
import type { TransportNode } from '../../transport/index.js';

export interface ShardCopyRouting {
  readonly allocationId: string;
  readonly nodeId: string;
  /** How to reach the node; undefined when the node is not in the cluster state (it just left). */
  readonly node: TransportNode | undefined;
  readonly primary: boolean;
  readonly state: 'INITIALIZING' | 'STARTED' | 'RELOCATING';
  /** The target of a relocation (it exists only while its source is RELOCATING). */
  readonly relocationTarget: boolean;
}

export interface ReplicationGroupState {
  /** The cluster-state version this was computed from (the tracker ignores older ones). */
  readonly stateVersion: number;
  readonly primaryTerm: number;
  /** The master's in-sync allocation ids of the shard. */
  readonly inSyncAllocationIds: readonly string[];
  /** Every assigned copy, relocation targets included. */
  readonly copies: readonly ShardCopyRouting[];
  /** Copies without a node (they count in `_shards.total` and are skipped). */
  readonly unassignedCopies: number;
  /** Whether every copy of the shard is started (leases of departed nodes may go then). */
  readonly allStarted: boolean;
}

/** The copies of `group` that are not `allocationId`. */
export function otherCopies(group: ReplicationGroupState, allocationId: string): ShardCopyRouting[] {
  return group.copies.filter((copy) => copy.allocationId !== allocationId);
}
