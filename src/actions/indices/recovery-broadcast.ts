/**
 * The recovery states of the copies of a set of indices, from the nodes that hold them (ES's RecoveryAction, a
 * broadcast by node: `indices:monitor/recovery[n]`). A state crosses the wire as its fields and is rebuilt on
 * the coordinating node as a ShardRecoveryState (its figures are getters over those fields), reported with the
 * node that holds the copy (the recovery's target).
 */
import type { ClusterState, DiscoveryNode } from '../../cluster/index.js';
import { ShardRecoveryState } from '../../indices/index.js';
import { allShardCopies, broadcastByNode, type BroadcastByNodeOutcome, type BroadcastOperation } from '../broadcast-by-node.js';
import { indicesOf } from '../indices-services.js';
import type { ActionContext } from '../rest.js';
import { errors } from '../../common/errors.js';

export const RECOVERY_ACTION = 'indices:monitor/recovery';

/** The copy's recovery on this node, or ES's "not available" when it has none (total only). */
export const recoveryOnShard: BroadcastOperation = async (services, _args, { copy }) => {
  const state = indicesOf(services).service.recoveryStates(copy.index).find((candidate) => candidate.shard === copy.shard);
  if (state === undefined) throw errors.shardNotFound(copy.index, copy.indexUuid, copy.shard);
  // Its timers fixed now: a running timer's monotonic start means nothing on the coordinating node.
  return state.snapshot();
};

export interface ReportedRecovery {
  readonly state: ShardRecoveryState;
  /** The node holding the copy (the recovery's target). */
  readonly target: DiscoveryNode;
}

/** Rebuilds a recovery state from its fields (timers included) without running its constructor. */
export function recoveryFromWire(fields: Record<string, unknown>): ShardRecoveryState {
  if (fields instanceof ShardRecoveryState) return fields; // the local shortcut passes the object itself
  const state = Object.create(ShardRecoveryState.prototype) as Record<string, unknown>;
  const template = new ShardRecoveryState('', 0, false, 'EMPTY_STORE') as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    const prototypeOfDefault = template[key] !== null && typeof template[key] === 'object' && !Array.isArray(template[key]) ? Object.getPrototypeOf(template[key]) : undefined;
    state[key] = prototypeOfDefault !== undefined && prototypeOfDefault !== Object.prototype ? Object.assign(Object.create(prototypeOfDefault), value) : value;
  }
  return state as unknown as ShardRecoveryState;
}

export async function collectRecoveryStates(context: ActionContext, state: ClusterState, indices: readonly string[]): Promise<{ outcome: BroadcastByNodeOutcome<unknown>; recoveries: Map<string, ReportedRecovery[]> }> {
  const outcome = await broadcastByNode<unknown>(context, RECOVERY_ACTION, state, allShardCopies(state, indices), {});
  const recoveries = new Map<string, ReportedRecovery[]>();
  for (const { copy, nodeId, result } of outcome.results) {
    const target = state.nodes.get(nodeId);
    if (target === undefined) continue;
    const list = recoveries.get(copy.index) ?? [];
    list.push({ state: recoveryFromWire(result as Record<string, unknown>), target });
    recoveries.set(copy.index, list);
  }
  for (const list of recoveries.values()) list.sort((a, b) => a.state.shard - b.state.shard || Number(b.state.primary) - Number(a.state.primary));
  return { outcome, recoveries };
}
