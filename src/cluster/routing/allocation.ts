/**
 * The master's allocation round for a cluster of several nodes (ES's AllocationService.reroute with the
 * BalancedShardsAllocator), run on every state the etcd master publishes. Every placement question goes to the
 * deciders (deciders/: same_shard, filter, data_tier, disk_threshold, max_retry, throttling, enable,
 * replica_after_primary_active and the rebalance ones), the same functions `_cluster/allocation/explain` and
 * `_cluster/reroute` ask:
 *
 * 1. copies on nodes that left (or came back as a new process: another ephemeral id) become UNASSIGNED with
 *    reason NODE_LEFT (a replica delayed by `index.unassigned.node_left.delayed_timeout`: delayed-allocation.ts);
 *    then a shard whose primary is unassigned gets an in-sync active replica as its primary, with the primary
 *    term + 1 (primary-promotion.ts); with no in-sync replica the primary remembers its node and waits for it
 *    (red until it returns);
 * 2. `index.auto_expand_replicas` follows the data nodes as they join and leave (autoExpandReplicas);
 * 3. a replica recovering by copying files while another node holds a store it could recover with nothing to
 *    replay is sent there instead (cancelForNoopCopies, ES's ReplicaShardAllocator.processExistingRecoveries);
 *    unassigned copies are placed (unassigned-decision.ts): a known primary back on the node holding its data, a
 *    replica on a node whose store it can reuse (the data nodes' store listings: shard-store-fetch.ts), else a new
 *    primary or a replica on the YES node of lowest weight (a replica preferring the node that held it, and a
 *    delayed one waiting until its delay runs out while no node holds data for it); each primary allocation raises
 *    the shard's primary term;
 * 4. started copies that may not remain (filters, disk past the high watermark) move to the YES node of lowest
 *    weight (move-decision.ts);
 * 5. rebalancing (rebalance.ts) moves started copies towards an even spread, a few at a time.
 * `cluster.routing.allocation.enable: none` stops 3-5 altogether.
 */
import { randomBase64Uuid } from '../../common/uuid.js';
import type { ClusterState, IndexMetadata, ShardRouting, UnassignedInfo } from '../cluster-state.js';
import { promoteInSyncReplicas } from './primary-promotion.js';
import { delayedReplicaInfo, expireDelays } from './delayed-allocation.js';
import { copyMadeUnassigned, withReplicaCount } from './shard-allocation.js';
import { autoExpandedReplicas, dataNodeCount } from '../metadata/create-index.js';
import { add, clusterSetting, perIndexOf, routingAllocation, type AllocationOptions, type RoutingAllocation } from './routing-allocation.js';
import { decideUnassigned } from './unassigned-decision.js';
import { decideMove } from './move-decision.js';
import { rebalance } from './rebalance.js';
import { replaceCopy, startRelocation } from './relocation.js';
import { cancelForNoopCopies } from './existing-recoveries.js';

/** Allocation round: departed nodes' copies unassigned, then unassigned copies placed, moved, rebalanced. */
export function reroute(previous: ClusterState, next: ClusterState, now: number, options: AllocationOptions = {}): ClusterState {
  const departed = departedNodes(previous, next);
  let state = departed.size > 0 || hasCopiesOnUnknownNodes(next) ? unassignCopiesOf(next, departed, now) : next;
  state = promoteInSyncReplicas(state, now);
  state = expireDelays(state, now);
  state = autoExpandReplicas(state, now);
  const allocation = routingAllocation(state, { ...options, now });
  if ((clusterSetting(allocation, 'cluster.routing.allocation.enable') ?? 'all').toLowerCase() === 'none' && !allocation.ignoreDisable) return state;
  const cancelled = cancelForNoopCopies(allocation);
  return allocate(cancelled === state ? allocation : routingAllocation(cancelled, { ...options, now }));
}

/** Steps 3-5 on a prepared round (reroute commands run them after their own changes). */
export function allocate(allocation: RoutingAllocation): ClusterState {
  if (allocation.dataNodes.length === 0) return allocation.state;
  allocateUnassigned(allocation);
  moveShards(allocation);
  rebalance(allocation);
  return allocation.state;
}

/**
 * ES's AutoExpandReplicas, applied on every reroute: an index with `index.auto_expand_replicas` follows the number
 * of data nodes as they join and leave (a replica added recovers from its primary; one removed leaves the in-sync
 * set on the primary's next write, as an in-sync id without a routing entry).
 */
function autoExpandReplicas(state: ClusterState, now: number): ClusterState {
  const dataNodes = dataNodeCount(state);
  let indices: Map<string, IndexMetadata> | undefined;
  let routing: Map<string, ReadonlyArray<ReadonlyArray<ShardRouting>>> | undefined;
  for (const metadata of state.indices.values()) {
    const expanded = autoExpandedReplicas(metadata.settings, dataNodes);
    if (expanded === undefined || expanded === metadata.numberOfReplicas || dataNodes === 0) continue;
    indices ??= new Map(state.indices);
    routing ??= new Map(state.routing);
    indices.set(metadata.name, { ...metadata, numberOfReplicas: expanded, settings: { ...metadata.settings, 'index.number_of_replicas': String(expanded) } });
    const shards = state.routing.get(metadata.name);
    if (shards !== undefined) routing.set(metadata.name, withReplicaCount(shards, expanded, now));
  }
  return indices === undefined ? state : { ...state, indices, routing: routing as ClusterState['routing'] };
}

function departedNodes(previous: ClusterState, next: ClusterState): Set<string> {
  const departed = new Set<string>();
  for (const [id, node] of previous.nodes) {
    const now = next.nodes.get(id);
    if (now === undefined || now.ephemeralId !== node.ephemeralId) departed.add(id);
  }
  return departed;
}

function hasCopiesOnUnknownNodes(state: ClusterState): boolean {
  for (const shards of state.routing.values()) for (const copies of shards) for (const copy of copies) if (copy.nodeId !== undefined && !state.nodes.has(copy.nodeId)) return true;
  return false;
}

function unassignCopiesOf(state: ClusterState, departed: ReadonlySet<string>, now: number): ClusterState {
  const routing = new Map(state.routing);
  for (const [index, shards] of state.routing) {
    let changed = false;
    const nextShards = shards.map((copies) =>
      copies.map((copy): ShardRouting => {
        const gone = (nodeId: string): boolean => departed.has(nodeId) || !state.nodes.has(nodeId);
        if (copy.nodeId !== undefined && !gone(copy.nodeId) && copy.state === 'RELOCATING' && copy.relocatingNodeId !== undefined && gone(copy.relocatingNodeId)) {
          // The relocation's target left: the source stays where it is (ES cancels the relocation).
          changed = true;
          return { ...copy, state: 'STARTED', relocatingNodeId: undefined, relocationId: undefined };
        }
        if (copy.nodeId === undefined || !gone(copy.nodeId)) return copy;
        changed = true;
        const info: UnassignedInfo = { reason: 'NODE_LEFT', atMillis: now, delayed: false, failedAllocations: 0, lastAllocationStatus: 'NO_ATTEMPT', lastNodeId: copy.nodeId };
        const metadata = state.indices.get(index);
        return copyMadeUnassigned(copy, copy.primary || metadata === undefined ? info : delayedReplicaInfo(info, metadata, now));
      }),
    );
    if (changed) routing.set(index, nextShards);
  }
  return { ...state, routing };
}

/** Places every unassigned copy the deciders allow, primaries of a shard before its replicas, indices in name order. */
export function allocateUnassigned(allocation: RoutingAllocation): void {
  for (const index of [...allocation.state.routing.keys()].sort()) {
    const metadata = allocation.state.indices.get(index);
    if (metadata === undefined || metadata.state === 'close') continue;
    const shardCount = allocation.state.routing.get(index)!.length;
    for (let shard = 0; shard < shardCount; shard++) {
      // Re-read each time: placing a copy replaces the shard's copies in the state.
      for (let position = 0; ; position++) {
        const copy = allocation.state.routing.get(index)![shard]![position];
        if (copy === undefined) break;
        if (copy.state === 'UNASSIGNED') allocateOne(allocation, metadata, copy);
      }
    }
  }
}

/** The allocation status a replica that stays unassigned records (ES's removeAndIgnore with FETCHING_SHARD_DATA or DELAYED_ALLOCATION). */
const WAITING_STATUS: Partial<Record<string, UnassignedInfo['lastAllocationStatus']>> = { awaiting_info: 'FETCHING_SHARD_DATA', allocation_delayed: 'DELAYED_ALLOCATION' };

function allocateOne(allocation: RoutingAllocation, metadata: IndexMetadata, copy: ShardRouting): void {
  const decided = decideUnassigned(copy, allocation);
  const waiting = WAITING_STATUS[decided.outcome];
  if (waiting !== undefined && copy.unassignedInfo !== undefined && copy.unassignedInfo.lastAllocationStatus !== waiting) {
    allocation.state = replaceCopy(allocation.state, copy, { ...copy, unassignedInfo: { ...copy.unassignedInfo, lastAllocationStatus: waiting } });
    return;
  }
  if (decided.outcome !== 'yes' || decided.targetNode === undefined) {
    const isNewPrimary = copy.primary && copy.recoverySource === 'EMPTY_STORE';
    if (decided.outcome === 'no' && isNewPrimary && copy.unassignedInfo !== undefined && copy.unassignedInfo.lastAllocationStatus !== 'DECIDERS_NO') {
      // The deciders allow no data node: ES records DECIDERS_NO, which makes a new index red.
      allocation.state = replaceCopy(allocation.state, copy, { ...copy, unassignedInfo: { ...copy.unassignedInfo, lastAllocationStatus: 'DECIDERS_NO' } });
    }
    return;
  }
  const nodeId = decided.targetNode.id;
  const loads = allocation.loads;
  add(loads.perNode, nodeId);
  add(perIndexOf(loads, copy.index), nodeId);
  if (copy.primary) {
    add(loads.initialPrimaries, nodeId);
    const current = allocation.state.indices.get(metadata.name)!;
    const primaryTerms = [...current.primaryTerms];
    primaryTerms[copy.shard] = (primaryTerms[copy.shard] ?? 0) + 1;
    const indices = new Map(allocation.state.indices).set(metadata.name, { ...current, primaryTerms });
    allocation.state = replaceCopy({ ...allocation.state, indices }, copy, { ...copy, state: 'INITIALIZING', nodeId, allocationId: randomBase64Uuid() });
    return;
  }
  add(loads.incoming, nodeId);
  const primaryNode = allocation.state.routing.get(copy.index)?.[copy.shard]?.find((candidate) => candidate.primary)?.nodeId;
  if (primaryNode !== undefined) add(loads.outgoing, primaryNode);
  const unassignedInfo = copy.unassignedInfo === undefined ? undefined : { ...copy.unassignedInfo, delayed: false };
  allocation.state = replaceCopy(allocation.state, copy, { ...copy, state: 'INITIALIZING', nodeId, allocationId: randomBase64Uuid(), recoverySource: 'PEER', unassignedInfo });
}

/**
 * ES's AllocationService.moveShards: a started copy that may not remain where it is (the index's filters no longer
 * allow the node, or its disk is past the high watermark) relocates to the YES node of lowest weight. Only a shard
 * whose copies are all started (or unassigned) moves, one copy at a time.
 */
function moveShards(allocation: RoutingAllocation): void {
  if (allocation.dataNodes.length < 2) return;
  for (const index of [...allocation.state.routing.keys()].sort()) {
    const metadata = allocation.state.indices.get(index);
    if (metadata === undefined || metadata.state === 'close') continue;
    const shardCount = allocation.state.routing.get(index)!.length;
    for (let shard = 0; shard < shardCount; shard++) {
      const copies = allocation.state.routing.get(index)![shard]!;
      if (!copies.every((copy) => copy.state === 'STARTED' || copy.state === 'UNASSIGNED')) continue;
      for (const copy of copies) {
        if (copy.state !== 'STARTED' || copy.nodeId === undefined) continue;
        const decided = decideMove(copy, allocation, false);
        if (decided.move?.outcome !== 'yes' || decided.move.targetNode === undefined) continue;
        startRelocation(allocation, copy, decided.move.targetNode.id);
        break;
      }
    }
  }
}
