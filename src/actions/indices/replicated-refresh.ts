/**
 * `_refresh` (and the `refresh=true` of `_reindex`, `_update_by_query`, `_delete_by_query`, and a resize's source):
 * ES's TransportShardRefreshAction, `indices:admin/refresh[s]` on each shard's primary, then `[s][r]` on every
 * copy it writes to (replicated-broadcast.ts).
 */
import type { ClusterState } from '../../cluster/index.js';
import type { ActionContext } from '../rest.js';
import { broadcastThroughPrimaries, type ReplicatedBroadcastOutcome, type ReplicatedOperation } from './replicated-broadcast.js';

export const REFRESH_OPERATION: ReplicatedOperation<Record<string, never>> = {
  shardAction: 'indices:admin/refresh[s]',
  // BasicReplicationRequest.toString.
  describe: (index, shard) => `BasicReplicationRequest{[${index}][${shard}]}`,
  run: (shard) => shard.refresh('api'),
};

/** Refreshes every shard of `indices` through its primary; the answer counts as ES's `_shards` of `_refresh`. */
export function refreshThroughPrimaries(context: ActionContext, state: ClusterState, indices: readonly string[]): Promise<ReplicatedBroadcastOutcome> {
  return broadcastThroughPrimaries(context, state, indices, REFRESH_OPERATION, {});
}
