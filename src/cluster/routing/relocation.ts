/**
 * Starting a relocation inside an allocation round: the copy turns RELOCATING with a relocation id; its target
 * (cluster-state.ts relocationTarget) recovers from the primary (a primary hands its primary context over at the
 * end: indices/recovery) and takes the source's place when it reports started. The round's counts follow, so
 * the throttling and concurrent_rebalance deciders see the move at once.
 */
import { randomBase64Uuid } from '../../common/uuid.js';
import type { ClusterState, ShardRouting } from '../cluster-state.js';
import { activePrimary, add, leavingOf, perIndexOf, type RoutingAllocation } from './routing-allocation.js';

export function startRelocation(allocation: RoutingAllocation, copy: ShardRouting, targetNodeId: string): void {
  const copies = allocation.state.routing.get(copy.index)?.[copy.shard] ?? [];
  const primaryNode = activePrimary(copies)?.nodeId;
  const moving: ShardRouting = { ...copy, state: 'RELOCATING', relocatingNodeId: targetNodeId, relocationId: randomBase64Uuid() };
  allocation.state = replaceCopy(allocation.state, copy, moving);
  const loads = allocation.loads;
  add(loads.perNode, targetNodeId);
  add(perIndexOf(loads, copy.index), targetNodeId);
  add(loads.incoming, targetNodeId);
  if (primaryNode !== undefined) add(loads.outgoing, primaryNode);
  add(leavingOf(loads, copy.index), copy.nodeId!);
  loads.relocations++;
}

/** The state with one copy of a shard replaced (matched by identity). */
export function replaceCopy(state: ClusterState, before: ShardRouting, after: ShardRouting): ClusterState {
  const shards = state.routing.get(before.index);
  if (shards === undefined) return state;
  const routing = new Map(state.routing);
  routing.set(
    before.index,
    shards.map((copies, shard) => (shard === before.shard ? copies.map((copy) => (copy === before ? after : copy)) : copies)),
  );
  return { ...state, routing };
}
