/**
 * The master's replica promotion (ES's RoutingNodes.failShard / unassignPrimaryAndPromoteActiveReplicaIfExists
 * with IndexMetadataUpdater's primary-term increment), run in every allocation round after the copies of departed
 * nodes were unassigned and before anything is allocated:
 *
 * - a shard whose primary copy is UNASSIGNED (its node left, or the copy failed) and that has an active replica
 *   whose allocation id is **in sync** gets that replica as its primary: same copy, same allocation id, same
 *   node, now `primary: true`; the shard's primary term goes up by one, so every copy can tell the new primary's
 *   operations from the old one's, and the old primary (if it still runs, paused or cut off) is refused by term;
 * - the old primary's entry becomes an unassigned replica (it remembers its node; when that node comes back the
 *   copy recovers there from the new primary, dropping whatever it had above the global checkpoint: see
 *   indices/replication/replica-apply.ts and docs/decisions/0013);
 * - a copy that is not in the in-sync set is never promoted (it may miss acknowledged writes: the primary
 *   acknowledged them only after the master took that copy out of the set). With no in-sync active replica the
 *   primary stays unassigned, remembering its node: the shard is red until that node returns with its data
 *   (allocation.ts), or an operator forces a stale copy (`_cluster/reroute`, not here);
 * - an in-sync replica that was relocating is promoted where it is and its relocation is cancelled (the target
 *   was recovering from the old primary).
 *
 * The in-sync set itself is left as it is: the old primary's id stays in it, without a routing entry, until the
 * new primary marks it stale (replication-operation.ts, before it acknowledges its first write), as ES does.
 */
import type { ClusterState, IndexMetadata, ShardRouting } from '../cluster-state.js';
import { delayedReplicaInfo } from './delayed-allocation.js';

/** Promotes an in-sync active replica of every shard whose primary is unassigned (see the file comment). */
export function promoteInSyncReplicas(state: ClusterState, now: number): ClusterState {
  return promoteWhere(state, now, () => true);
}

/**
 * The same for one shard, at once: a reroute `cancel` of a started primary fails that copy, and ES's failShard
 * promotes an in-sync active replica in the same step (before the command's allocation round could place the
 * cancelled primary again on its own store).
 */
export function promoteInSyncReplicaOf(state: ClusterState, index: string, shard: number, now: number): ClusterState {
  return promoteWhere(state, now, (name, number) => name === index && number === shard);
}

function promoteWhere(state: ClusterState, now: number, includes: (index: string, shard: number) => boolean): ClusterState {
  let routing: Map<string, ReadonlyArray<ReadonlyArray<ShardRouting>>> | undefined;
  let indices: Map<string, IndexMetadata> | undefined;
  for (const [index, shards] of state.routing) {
    const metadata = state.indices.get(index);
    if (metadata === undefined || metadata.state === 'close') continue;
    let primaryTerms: number[] | undefined;
    const next = shards.map((copies, shard) => {
      if (!includes(index, shard)) return copies;
      const promoted = promoteInShard(copies, metadata.inSyncAllocationIds[shard] ?? [], metadata, now);
      if (promoted === undefined) return copies;
      primaryTerms ??= [...metadata.primaryTerms];
      primaryTerms[shard] = (primaryTerms[shard] ?? 0) + 1;
      return promoted;
    });
    if (primaryTerms === undefined) continue;
    (routing ??= new Map(state.routing)).set(index, next);
    (indices ??= new Map(state.indices)).set(index, { ...metadata, primaryTerms });
  }
  return routing === undefined ? state : { ...state, routing, indices: indices! };
}

/** The shard's copies after a promotion, or undefined when there is nothing to promote. */
function promoteInShard(copies: ReadonlyArray<ShardRouting>, inSync: readonly string[], metadata: IndexMetadata, now: number): ShardRouting[] | undefined {
  const oldPrimary = copies.find((copy) => copy.primary);
  if (oldPrimary === undefined || oldPrimary.state !== 'UNASSIGNED') return undefined;
  // A new index's primary never started: its replicas hold nothing yet.
  if (oldPrimary.recoverySource === 'EMPTY_STORE') return undefined;
  const candidate = promotionCandidate(copies, inSync);
  if (candidate === undefined) return undefined;
  const info = oldPrimary.unassignedInfo;
  return copies.map((copy): ShardRouting => {
    if (copy === candidate) return { ...copy, primary: true, state: 'STARTED', relocatingNodeId: undefined, relocationId: undefined };
    if (copy === oldPrimary) {
      return {
        ...copy,
        primary: false,
        recoverySource: 'PEER',
        // The old primary's node left: its copy waits `index.unassigned.node_left.delayed_timeout` (or its node).
        ...(info !== undefined && { unassignedInfo: info.reason === 'NODE_LEFT' ? delayedReplicaInfo(info, metadata, now) : info }),
      };
    }
    return copy;
  });
}

/**
 * The replica to promote: active (started, or relocating from where it is) and in sync. ES takes the active
 * replica on the node of the highest version; every node here runs one version, so the first by node id (stable
 * across masters that compute the same round).
 */
function promotionCandidate(copies: ReadonlyArray<ShardRouting>, inSync: readonly string[]): ShardRouting | undefined {
  const active = copies.filter(
    (copy) => !copy.primary && (copy.state === 'STARTED' || copy.state === 'RELOCATING') && copy.nodeId !== undefined && copy.allocationId !== undefined && inSync.includes(copy.allocationId),
  );
  active.sort((a, b) => (a.state === b.state ? a.nodeId!.localeCompare(b.nodeId!) : a.state === 'STARTED' ? -1 : 1));
  return active[0];
}
