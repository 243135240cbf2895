/**
 * The shard statistics of a set of indices, from the nodes that hold the copies (ES's IndicesStatsAction, a
 * broadcast by node: `indices:monitor/stats[n]`). `_stats`, `_cat/indices` and `_cat/shards` read them; each copy's
 * figures come back with the node that reported them.
 */
import type { ClusterState } from '../../cluster/index.js';
import type { ShardStatsSnapshot } from '../../indices/index.js';
import { allShardCopies, broadcastByNode, openShard, type BroadcastByNodeOutcome, type BroadcastOperation } from '../broadcast-by-node.js';
import type { ActionContext } from '../rest.js';

export const INDICES_STATS_ACTION = 'indices:monitor/stats';

export const shardStatsOnShard: BroadcastOperation = async (_services, _args, local) => openShard(local).stats();

export type ReportedShardStats = ShardStatsSnapshot & { readonly nodeId: string };

export interface CollectedShardStats {
  readonly outcome: BroadcastByNodeOutcome<ShardStatsSnapshot>;
  /** Every copy that answered, with its node. */
  readonly shards: ReportedShardStats[];
}

export async function collectShardStats(context: ActionContext, state: ClusterState, indices: readonly string[]): Promise<CollectedShardStats> {
  const outcome = await broadcastByNode<ShardStatsSnapshot>(context, INDICES_STATS_ACTION, state, allShardCopies(state, indices), {});
  return { outcome, shards: outcome.results.map(({ result, nodeId }) => ({ ...result, nodeId })) };
}
