/**
 * What a shard copy is told about its shard on every applied cluster state (ES's IndexShard.updateShardState
 * arguments): the copies with their nodes, the in-sync ids and the primary term, as the indices layer's neutral
 * ReplicationGroupState. Also the node descriptions peer recovery and `_recovery` use.
 */
import type { RecoveryNode } from '../indices/index.js';
import type { ReplicationGroupState } from '../indices/replication/replication-group.js';
import type { TransportNode } from '../transport/index.js';
import { assignedCopiesWithTargets, relocationTarget, type ClusterState } from './cluster-state.js';
import { transportAddress, type DiscoveryNode } from './discovery-node.js';
import { transportNode } from './transport-nodes.js';

export function replicationGroupOf(state: ClusterState, index: string, shard: number): ReplicationGroupState | undefined {
  const metadata = state.indices.get(index);
  const copies = state.routing.get(index)?.[shard];
  if (metadata === undefined || copies === undefined) return undefined;
  const targets = new Set(copies.map((copy) => relocationTarget(copy)?.allocationId).filter((id): id is string => id !== undefined));
  return {
    stateVersion: state.version,
    primaryTerm: metadata.primaryTerms[shard] ?? 0,
    inSyncAllocationIds: metadata.inSyncAllocationIds[shard] ?? [],
    copies: assignedCopiesWithTargets(copies).map((copy) => {
      const node = state.nodes.get(copy.nodeId!);
      return {
        allocationId: copy.allocationId!,
        nodeId: copy.nodeId!,
        node: node === undefined ? undefined : transportNode(node),
        primary: copy.primary,
        state: copy.state as 'INITIALIZING' | 'STARTED' | 'RELOCATING',
        relocationTarget: targets.has(copy.allocationId!),
      };
    }),
    unassignedCopies: copies.filter((copy) => copy.state === 'UNASSIGNED').length,
    allStarted: copies.every((copy) => copy.state === 'STARTED'),
  };
}

/** A node as recoveries name it, and how the transport reaches it. */
export function recoveryNode(node: DiscoveryNode): RecoveryNode & TransportNode {
  return { ...transportNode(node), host: node.host, ip: node.ip, transportAddress: transportAddress(node) };
}
