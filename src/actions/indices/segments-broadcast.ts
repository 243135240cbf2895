/**
 * The segments of every started copy of a set of indices, from the nodes that hold them (ES's
 * IndicesSegmentsAction, a broadcast by node: `indices:monitor/segments[n]`). `_cat/segments` reads them.
 */
import type { ClusterState } from '../../cluster/index.js';
import type { SegmentStats } from '../../engine/engine.js';
import { activeCopy, allShardCopies, broadcastByNode, openShard, type BroadcastByNodeOutcome, type BroadcastOperation } from '../broadcast-by-node.js';
import type { ActionContext } from '../rest.js';

export const INDICES_SEGMENTS_ACTION = 'indices:monitor/segments';

export interface ShardSegments {
  readonly primary: boolean;
  readonly segments: readonly SegmentStats[];
}

export const shardSegmentsOnShard: BroadcastOperation = async (_services, _args, local): Promise<ShardSegments> => {
  const stats = openShard(local).stats();
  return { primary: stats.primary, segments: stats.engine.segments };
};

export function collectSegments(context: ActionContext, state: ClusterState, indices: readonly string[]): Promise<BroadcastByNodeOutcome<ShardSegments>> {
  return broadcastByNode<ShardSegments>(context, INDICES_SEGMENTS_ACTION, state, allShardCopies(state, indices), {}, activeCopy);
}
