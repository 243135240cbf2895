/**
 * `_flush` (and `_flush/synced`): ES's TransportShardFlushAction, `indices:admin/flush[s]` on each shard's primary,
 * then `[s][r]` on every copy it writes to, a copy still recovering included (replicated-broadcast.ts), so what a
 * write reached, the flush commits.
 */
import type { ClusterState } from '../../cluster/index.js';
import type { ActionContext } from '../rest.js';
import { broadcastThroughPrimaries, type ReplicatedBroadcastOutcome, type ReplicatedOperation } from './replicated-broadcast.js';

export interface FlushArgs {
  readonly force: boolean;
}

export const FLUSH_OPERATION: ReplicatedOperation<FlushArgs> = {
  shardAction: 'indices:admin/flush[s]',
  // ShardFlushRequest.toString.
  describe: (index, shard) => `flush {[${index}][${shard}]}`,
  run: (shard, args) => shard.flush(args.force),
};

/** Flushes every shard of `indices` through its primary; the answer counts as ES's `_shards` of `_flush`. */
export function flushThroughPrimaries(context: ActionContext, state: ClusterState, indices: readonly string[], args: FlushArgs): Promise<ReplicatedBroadcastOutcome> {
  return broadcastThroughPrimaries(context, state, indices, FLUSH_OPERATION, args);
}
