/**
 * Drives a synthetic cluster state to settled for routing unit tests: starts one INITIALIZING copy at a time and
 * reroutes after each, as the master does when the copies report started.
 */
import { reroute } from '../../src/cluster/routing/allocation.js';
import { markShardsStarted } from '../../src/cluster/routing/shard-allocation.js';
import type { ClusterState } from '../../src/cluster/index.js';

/** `pick(count)` chooses which of the `count` initializing copies starts next (default: the first in routing order). */
export function startCopiesOneByOne(initial: ClusterState, pick: (count: number) => number = () => 0): ClusterState {
  let state = initial;
  for (let round = 0; round < 100; round++) {
    const initializing = [...state.routing.values()].flatMap((shards) => shards.flatMap((copies) => copies.filter((copy) => copy.state === 'INITIALIZING')));
    if (initializing.length === 0) return state;
    const copy = initializing[pick(initializing.length) % initializing.length]!;
    state = reroute(state, markShardsStarted(state, [{ index: copy.index, shard: copy.shard, allocationId: copy.allocationId! }]), 0);
  }
  throw new Error('allocation did not settle');
}
