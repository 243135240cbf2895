/**
 * ES's ReplicaShardAllocator.processExistingRecoveries: a replica being rebuilt on a node that must copy every
 * file (its node holds nothing it can recover by operations) is called off when another node the deciders allow
 * holds a store it could recover with nothing to replay (typically the node the replica was on, back after its
 * delay ran out). The copy turns UNASSIGNED with reason REALLOCATED_REPLICA, and the same round places it on that
 * node (unassigned-decision.ts finds the same listings cached). Only a no-op recovery is worth the cancel, as in ES:
 * a recovery under way that is already operations-based, or a better store that still needs operations, is left
 * alone.
 */
import type { ClusterState, ShardRouting } from '../cluster-state.js';
import { copyMadeUnassigned } from './shard-allocation.js';
import { activePrimary, type RoutingAllocation } from './routing-allocation.js';
import { canRecoverByOperations, matchStores, primaryStoreOf } from './replica-store-match.js';
import { replaceCopy } from './relocation.js';
import { wantsStoreListing } from './shard-store-fetch.js';

/** The round's state with every such recovery cancelled (the same state when none is). */
export function cancelForNoopCopies(allocation: RoutingAllocation): ClusterState {
  const source = allocation.shardStores;
  if (source === undefined) return allocation.state;
  let state = allocation.state;
  for (const shards of allocation.state.routing.values()) {
    for (const copies of shards) {
      for (const copy of copies) {
        if (copy.state !== 'INITIALIZING' || copy.nodeId === undefined || !wantsStoreListing(copy)) continue;
        const cancel = noopElsewhere(copy, copies, allocation);
        if (cancel === undefined) continue;
        state = replaceCopy(
          state,
          copy,
          copyMadeUnassigned(copy, {
            reason: 'REALLOCATED_REPLICA',
            atMillis: allocation.now,
            delayed: false,
            failedAllocations: 0,
            lastAllocationStatus: 'NO_ATTEMPT',
            details: `existing allocation of replica to [${describe(allocation, copy.nodeId)}] cancelled, can perform a noop recovery on [${describe(allocation, cancel)}]`,
          }),
        );
      }
    }
  }
  return state;
}

/** The node with a no-op store when the copy's own node cannot recover by operations, else undefined. */
function noopElsewhere(copy: ShardRouting, copies: readonly ShardRouting[], allocation: RoutingAllocation): string | undefined {
  const primaryNodeId = activePrimary(copies)?.nodeId;
  if (primaryNodeId === undefined) return undefined;
  const listings = allocation.shardStores!.fetch(copy, allocation.state);
  if (listings === undefined) return undefined;
  const primary = primaryStoreOf(listings, primaryNodeId);
  if (primary === undefined) return undefined;
  const best = matchStores(copy, allocation, listings, primary).best;
  if (best === undefined || !best.noop || best.node.id === copy.nodeId) return undefined;
  return canRecoverByOperations(listings, primary, copy.nodeId!) ? undefined : best.node.id;
}

function describe(allocation: RoutingAllocation, nodeId: string): string {
  const node = allocation.state.nodes.get(nodeId);
  return node === undefined ? nodeId : `${node.name}`;
}
