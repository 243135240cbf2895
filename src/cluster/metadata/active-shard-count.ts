/** ES's ActiveShardCount: how many copies of each shard must be active (`1`, `all`, or a number). */
import { errors } from '../../common/errors.js';
import type { ClusterState } from '../cluster-state.js';

export type ActiveShardCount = { readonly kind: 'all' } | { readonly kind: 'count'; readonly count: number };

export function parseActiveShardCount(value: string): ActiveShardCount {
  if (value === 'all') return { kind: 'all' };
  if (!/^-?\d+$/.test(value)) throw errors.numberFormat(value);
  const count = Number(value);
  if (count < 0) throw errors.illegalArgument(`shard count cannot be a negative value`);
  return { kind: 'count', count };
}

/** Active copies (started or relocating) of a shard. */
export function activeCopies(state: ClusterState, index: string, shard: number): number {
  const copies = state.routing.get(index)?.[shard] ?? [];
  return copies.filter((copy) => copy.state === 'STARTED' || copy.state === 'RELOCATING').length;
}

export function shardHasEnoughActive(state: ClusterState, index: string, shard: number, wanted: ActiveShardCount): boolean {
  const copies = state.routing.get(index)?.[shard] ?? [];
  const active = activeCopies(state, index, shard);
  if (wanted.kind === 'all') return active === copies.length;
  return active >= wanted.count;
}

/** ActiveShardCount.enoughShardsActive for every shard of an index. */
export function enoughShardsActive(state: ClusterState, index: string, wanted: ActiveShardCount): boolean {
  const shards = state.routing.get(index);
  if (shards === undefined) return false;
  return shards.every((_copies, shard) => shardHasEnoughActive(state, index, shard, wanted));
}

/** What the wait needs, for ES's "Not enough active copies" message. */
export function requiredCopies(state: ClusterState, index: string, shard: number, wanted: ActiveShardCount): number {
  return wanted.kind === 'all' ? (state.routing.get(index)?.[shard]?.length ?? 1) : wanted.count;
}
