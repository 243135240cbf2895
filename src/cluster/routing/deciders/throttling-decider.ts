/**
 * throttling (ES's ThrottlingAllocationDecider): a node recovers at most `node_initial_primaries_recoveries` (4)
 * primaries from their own store at once, and at most `node_concurrent_incoming_recoveries` peer recoveries in and
 * `node_concurrent_outgoing_recoveries` out (both default to `node_concurrent_recoveries`, 2). Over a limit the
 * answer is THROTTLE: the copy is placed in a later round, when a recovery ends.
 */
import { activePrimary, clusterSetting, intClusterSetting, type RoutingAllocation } from '../routing-allocation.js';
import { decision } from './decision.js';
import { shardCopiesOf, type AllocationDecider } from './decider.js';

const CONCURRENT = 'cluster.routing.allocation.node_concurrent_recoveries';
const INCOMING = 'cluster.routing.allocation.node_concurrent_incoming_recoveries';
const OUTGOING = 'cluster.routing.allocation.node_concurrent_outgoing_recoveries';
const INITIAL_PRIMARIES = 'cluster.routing.allocation.node_initial_primaries_recoveries';

function limit(allocation: RoutingAllocation, key: string): number {
  const fallback = intClusterSetting(allocation, CONCURRENT, 2);
  return clusterSetting(allocation, key) === undefined ? fallback : intClusterSetting(allocation, key, fallback);
}

export const throttlingDecider: AllocationDecider = {
  name: 'throttling',
  canAllocate(copy, node, allocation) {
    const loads = allocation.loads;
    if (copy.primary && copy.state === 'UNASSIGNED') {
      const max = intClusterSetting(allocation, INITIAL_PRIMARIES, 4);
      const recovering = loads.initialPrimaries.get(node.id) ?? 0;
      if (recovering >= max) return decision('throttling', 'THROTTLE', `reached the limit of ongoing initial primary recoveries [${recovering}], cluster setting [${INITIAL_PRIMARIES}=${max}]`);
      return decision('throttling', 'YES', `below primary recovery limit of [${max}]`);
    }
    const maxIn = limit(allocation, INCOMING);
    const incoming = loads.incoming.get(node.id) ?? 0;
    if (incoming >= maxIn) {
      return decision('throttling', 'THROTTLE', `reached the limit of incoming shard recoveries [${incoming}], cluster setting [${INCOMING}=${maxIn}] (can also be set via [${CONCURRENT}])`);
    }
    const primary = activePrimary(shardCopiesOf(copy, allocation));
    if (primary?.nodeId === undefined) return decision('throttling', 'NO', 'primary shard for this replica is not yet active');
    const maxOut = limit(allocation, OUTGOING);
    const outgoing = loads.outgoing.get(primary.nodeId) ?? 0;
    if (outgoing >= maxOut) {
      return decision(
        'throttling',
        'THROTTLE',
        `reached the limit of outgoing shard recoveries [${outgoing}] on the node [${primary.nodeId}] which holds the primary, cluster setting [${OUTGOING}=${maxOut}] (can also be set via [${CONCURRENT}])`,
      );
    }
    return decision('throttling', 'YES', `below shard recovery limit of outgoing: [${outgoing} < ${maxOut}] incoming: [${incoming} < ${maxIn}]`);
  },
};
