/**
 * The master's allocation round for a cluster of several nodes (ES's AllocationService.reroute with the
 * BalancedShardsAllocator's weight function and the deciders that matter here), run on every state the etcd
 * master publishes:
 *
 * 1. copies on nodes that left (or came back as a new process: another ephemeral id) become UNASSIGNED with
 *    reason NODE_LEFT (a replica delayed by `index.unassigned.node_left.delayed_timeout`: delayed-allocation.ts);
 *    then a shard whose primary is unassigned gets an in-sync active replica as its primary, with the primary
 *    term + 1 (primary-promotion.ts); with no in-sync replica the primary remembers its node and waits for it
 *    (red until it returns);
 * 2. unassigned primaries go to a data node: a new index's to the node of lowest weight, a known one's back
 *    to the node that holds its files; each allocation raises the shard's primary term;
 * 3. unassigned replicas of a started primary (a delayed one only once its delay ran out, or when its node is
 *    back) go back to the node that held them when it is there (its store
 *    lets the copy recover by operations), else to the data node of lowest weight that holds no copy of the
 *    shard (same_shard), at most `cluster.routing.allocation.node_concurrent_recoveries` (2) recoveries in and
 *    out per node (throttling); they recover from the primary (indices/recovery);
 * 4. `cluster.routing.allocation.enable` (all, primaries, new_primaries, none) gates 2 and 3, and a copy that
 *    failed `index.allocation.max_retries` (5) times waits (max_retry decider);
 * 5. a new primary or a replica goes only to a node the index's allocation filters allow (allocation-filters.ts:
 *    require/include/exclude and the tier preference); a known primary returns to its data whatever they say;
 * 6. a started copy on a node the filters no longer allow relocates (moveCopiesFiltersExclude);
 * 7. `index.auto_expand_replicas` follows the data nodes as they join and leave (autoExpandReplicas).
 *
 * Weight of a node for an index (BalancedShardsAllocator): 0.45 x (copies on the node - mean copies per node)
 * + 0.55 x (the index's copies on the node - the index's mean per node); ties go to the node id order.
 */
import { randomBase64Uuid } from '../../common/uuid.js';
import type { ClusterState, IndexMetadata, ShardRouting, UnassignedInfo } from '../cluster-state.js';
import { isDataNode, type DiscoveryNode } from '../discovery-node.js';
import { allocationFiltersAllow } from './allocation-filters.js';
import { withReplicaCount } from './shard-allocation.js';
import { autoExpandedReplicas, dataNodeCount } from '../metadata/create-index.js';
import { promoteInSyncReplicas } from './primary-promotion.js';
import { delayedReplicaInfo, expireDelays, stillDelayed } from './delayed-allocation.js';

const SHARD_BALANCE = 0.45;
const INDEX_BALANCE = 0.55;

type EnableMode = 'all' | 'primaries' | 'new_primaries' | 'none';

function clusterSetting(state: ClusterState, key: string): string | undefined {
  return state.transientSettings[key] ?? state.persistentSettings[key];
}

function enableMode(state: ClusterState): EnableMode {
  const value = (clusterSetting(state, 'cluster.routing.allocation.enable') ?? 'all').toLowerCase();
  return value === 'primaries' || value === 'new_primaries' || value === 'none' ? value : 'all';
}

function concurrentRecoveries(state: ClusterState): number {
  const value = Number(clusterSetting(state, 'cluster.routing.allocation.node_concurrent_recoveries') ?? '2');
  return Number.isFinite(value) && value >= 0 ? value : 2;
}

function maxRetries(metadata: IndexMetadata): number {
  const value = Number(metadata.settings['index.allocation.max_retries'] ?? '5');
  return Number.isFinite(value) ? value : 5;
}

/** Allocation round: departed nodes' copies unassigned, then unassigned copies placed. */
export function reroute(previous: ClusterState, next: ClusterState, now: number): ClusterState {
  const departed = departedNodes(previous, next);
  let state = departed.size > 0 || hasCopiesOnUnknownNodes(next) ? unassignCopiesOf(next, departed, now) : next;
  state = promoteInSyncReplicas(state, now);
  state = expireDelays(state, now);
  state = autoExpandReplicas(state, now);
  state = allocateUnassigned(state, now);
  state = moveCopiesFiltersExclude(state);
  return state;
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

/**
 * ES's AllocationService.moveShards with the filter decider's canRemain: a started copy on a node the index's
 * allocation filters no longer allow relocates to an allowed node of lowest weight that holds no copy of the
 * shard. One relocation per shard at a time, within the recovery throttle. The copy turns RELOCATING with a
 * relocation id; its target (cluster-state.ts relocationTarget) recovers from the primary (a primary hands its
 * primary context over at the end: indices/recovery) and takes the source's place when it reports started.
 */
function moveCopiesFiltersExclude(state: ClusterState): ClusterState {
  const dataNodes = [...state.nodes.values()].filter(isDataNode).sort((a, b) => a.id.localeCompare(b.id));
  if (dataNodes.length < 2 || enableMode(state) !== 'all') return state;
  const limit = concurrentRecoveries(state);
  const loads = loadsOf(state, dataNodes);
  const routing = new Map(state.routing);
  let changed = false;
  for (const index of [...state.routing.keys()].sort()) {
    const metadata = state.indices.get(index);
    if (metadata === undefined || metadata.state === 'close') continue;
    const shards = state.routing.get(index)!;
    const indexCopies = metadata.numberOfShards * (metadata.numberOfReplicas + 1);
    let indexChanged = false;
    const nextShards = shards.map((copies) => {
      // Only a shard whose copies are all started moves, one copy at a time.
      if (!copies.every((copy) => copy.state === 'STARTED' || copy.state === 'UNASSIGNED')) return copies;
      const primary = copies.find((copy) => copy.primary && copy.state === 'STARTED');
      if (primary?.nodeId === undefined) return copies;
      const holders = new Set(copies.flatMap((copy) => (copy.nodeId === undefined ? [] : [copy.nodeId])));
      let moved = false;
      return copies.map((copy): ShardRouting => {
        if (moved || copy.state !== 'STARTED' || copy.nodeId === undefined) return copy;
        const node = state.nodes.get(copy.nodeId);
        if (node === undefined || allocationFiltersAllow(state, metadata, node)) return copy;
        if ((loads.outgoing.get(primary.nodeId!) ?? 0) >= limit) return copy;
        let target: string | undefined;
        let targetWeight = Infinity;
        for (const candidate of dataNodes) {
          if (holders.has(candidate.id) || (loads.incoming.get(candidate.id) ?? 0) >= limit || !allocationFiltersAllow(state, metadata, candidate)) continue;
          const w = weight(loads, dataNodes.length, index, indexCopies, candidate.id);
          if (w < targetWeight) {
            target = candidate.id;
            targetWeight = w;
          }
        }
        if (target === undefined) return copy;
        moved = true;
        indexChanged = true;
        add(loads.incoming, target);
        add(loads.outgoing, primary.nodeId!);
        add(loads.perNode, target);
        return { ...copy, state: 'RELOCATING', relocatingNodeId: target, relocationId: randomBase64Uuid() };
      });
    });
    if (indexChanged) {
      changed = true;
      routing.set(index, nextShards);
    }
  }
  return changed ? { ...state, routing } : state;
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
        return {
          ...copy,
          state: 'UNASSIGNED',
          nodeId: undefined,
          relocatingNodeId: undefined,
          relocationId: undefined,
          allocationId: undefined,
          recoverySource: copy.primary ? 'EXISTING_STORE' : 'PEER',
          unassignedInfo: copy.primary || metadata === undefined ? info : delayedReplicaInfo(info, metadata, now),
        };
      }),
    );
    if (changed) routing.set(index, nextShards);
  }
  return { ...state, routing };
}

interface Loads {
  readonly perNode: Map<string, number>;
  readonly perIndexNode: Map<string, Map<string, number>>;
  readonly incoming: Map<string, number>;
  readonly outgoing: Map<string, number>;
}

function loadsOf(state: ClusterState, dataNodes: readonly DiscoveryNode[]): Loads {
  const perNode = new Map<string, number>(dataNodes.map((node) => [node.id, 0]));
  const perIndexNode = new Map<string, Map<string, number>>();
  const incoming = new Map<string, number>();
  const outgoing = new Map<string, number>();
  for (const [index, shards] of state.routing) {
    const byNode = new Map<string, number>();
    perIndexNode.set(index, byNode);
    for (const copies of shards) {
      const primaryNode = copies.find((copy) => copy.primary && copy.state === 'STARTED')?.nodeId;
      for (const copy of copies) {
        if (copy.nodeId === undefined) continue;
        perNode.set(copy.nodeId, (perNode.get(copy.nodeId) ?? 0) + 1);
        byNode.set(copy.nodeId, (byNode.get(copy.nodeId) ?? 0) + 1);
        if (copy.state === 'RELOCATING' && copy.relocatingNodeId !== undefined) {
          // A relocation target recovers from the primary like a replica does.
          perNode.set(copy.relocatingNodeId, (perNode.get(copy.relocatingNodeId) ?? 0) + 1);
          byNode.set(copy.relocatingNodeId, (byNode.get(copy.relocatingNodeId) ?? 0) + 1);
          incoming.set(copy.relocatingNodeId, (incoming.get(copy.relocatingNodeId) ?? 0) + 1);
          const source = primaryNode ?? copies.find((candidate) => candidate.primary && candidate.state === 'RELOCATING')?.nodeId;
          if (source !== undefined) outgoing.set(source, (outgoing.get(source) ?? 0) + 1);
        }
        if (copy.state === 'INITIALIZING' && copy.recoverySource === 'PEER') {
          incoming.set(copy.nodeId, (incoming.get(copy.nodeId) ?? 0) + 1);
          if (primaryNode !== undefined) outgoing.set(primaryNode, (outgoing.get(primaryNode) ?? 0) + 1);
        }
      }
    }
  }
  return { perNode, perIndexNode, incoming, outgoing };
}

function weight(loads: Loads, nodeCount: number, index: string, indexCopies: number, nodeId: string): number {
  let total = 0;
  for (const count of loads.perNode.values()) total += count;
  const nodeMean = total / nodeCount;
  const indexMean = indexCopies / nodeCount;
  const onNode = loads.perNode.get(nodeId) ?? 0;
  const indexOnNode = loads.perIndexNode.get(index)?.get(nodeId) ?? 0;
  return SHARD_BALANCE * (onNode - nodeMean) + INDEX_BALANCE * (indexOnNode - indexMean);
}

function add(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function allocateUnassigned(state: ClusterState, now: number): ClusterState {
  const dataNodes = [...state.nodes.values()].filter(isDataNode).sort((a, b) => a.id.localeCompare(b.id));
  if (dataNodes.length === 0) return state;
  const mode = enableMode(state);
  if (mode === 'none') return state;
  const limit = concurrentRecoveries(state);
  const loads = loadsOf(state, dataNodes);
  const routing = new Map(state.routing);
  const indices = new Map(state.indices);
  let changed = false;
  for (const index of [...state.routing.keys()].sort()) {
    const metadata = state.indices.get(index);
    if (metadata === undefined) continue;
    const shards = state.routing.get(index)!;
    const indexCopies = metadata.numberOfShards * (metadata.numberOfReplicas + 1);
    const primaryTerms = [...metadata.primaryTerms];
    let indexChanged = false;
    const futureExclusions = (nodeId: string, shard: number): number => {
      let count = 0;
      shards.forEach((copies, other) => {
        if (other === shard) return;
        if (copies.some((copy) => !copy.primary && copy.state === 'UNASSIGNED') && copies.some((copy) => copy.nodeId === nodeId)) count++;
      });
      return count;
    };
    const best = (shard: number, holders: ReadonlySet<string>, accept: (node: DiscoveryNode) => boolean): string | undefined => {
      let chosen: string | undefined;
      let chosenWeight = Infinity;
      for (const node of dataNodes) {
        if (holders.has(node.id) || !accept(node)) continue;
        // Ties go to the node that other shards' unassigned replicas cannot use anyway (it holds their copy):
        // otherwise the last replica of an index may find only the fullest node left.
        const w = weight(loads, dataNodes.length, index, indexCopies, node.id) - 1e-6 * futureExclusions(node.id, shard);
        if (w < chosenWeight) {
          chosen = node.id;
          chosenWeight = w;
        }
      }
      return chosen;
    };
    const nextShards = shards.map((copies, shard) => {
      // A relocation's target node holds a copy too (same_shard).
      const holders = new Set(copies.flatMap((copy) => [copy.nodeId, copy.relocatingNodeId].filter((id): id is string => id !== undefined)));
      return copies.map((copy): ShardRouting => {
        if (copy.state !== 'UNASSIGNED' || metadata.state === 'close') return copy;
        // max_retry decider: a copy that failed this often waits for `_cluster/reroute?retry_failed`.
        if ((copy.unassignedInfo?.failedAllocations ?? 0) >= maxRetries(metadata)) return copy;
        if (copy.primary) {
          const isNew = copy.recoverySource === 'EMPTY_STORE';
          if (mode === 'new_primaries' && !isNew) return copy;
          const lastNode = copy.unassignedInfo?.lastNodeId;
          // A known primary's files are on the node that had it: it goes back there (or waits for it).
          const nodeId = isNew ? best(shard, holders, (node) => allocationFiltersAllow(state, metadata, node)) : lastNode !== undefined && state.nodes.has(lastNode) && !holders.has(lastNode) ? lastNode : undefined;
          if (nodeId === undefined && isNew && copy.unassignedInfo !== undefined && copy.unassignedInfo.lastAllocationStatus !== 'DECIDERS_NO') {
            // The filters allow no data node: the deciders' NO, which ES's health reports as red.
            indexChanged = true;
            return { ...copy, unassignedInfo: { ...copy.unassignedInfo, lastAllocationStatus: 'DECIDERS_NO' } };
          }
          if (nodeId === undefined) return copy;
          holders.add(nodeId);
          add(loads.perNode, nodeId);
          add(loads.perIndexNode.get(index) ?? loads.perIndexNode.set(index, new Map()).get(index)!, nodeId);
          primaryTerms[shard] = (primaryTerms[shard] ?? 0) + 1;
          indexChanged = true;
          return { ...copy, state: 'INITIALIZING', nodeId, allocationId: randomBase64Uuid() };
        }
        if (mode !== 'all') return copy;
        // A replica whose node left waits for it (delayed allocation), unless its delay ran out.
        if (stillDelayed(state, metadata, copy, now)) return copy;
        const primary = copies.find((candidate) => candidate.primary);
        if (primary?.state !== 'STARTED' || primary.nodeId === undefined) return copy;
        if ((loads.outgoing.get(primary.nodeId) ?? 0) >= limit) return copy;
        // A replica goes back to the node that held it when it can (ES's ReplicaShardAllocator prefers the node
        // whose store matches): its files there let it recover by operations instead of copying them.
        const lastNode = copy.unassignedInfo?.lastNodeId;
        const accepts = (node: DiscoveryNode): boolean => (loads.incoming.get(node.id) ?? 0) < limit && allocationFiltersAllow(state, metadata, node);
        const previousHome = lastNode === undefined ? undefined : dataNodes.find((node) => node.id === lastNode && !holders.has(node.id) && accepts(node));
        const nodeId = previousHome?.id ?? best(shard, holders, accepts);
        if (nodeId === undefined) return copy;
        holders.add(nodeId);
        add(loads.perNode, nodeId);
        add(loads.perIndexNode.get(index) ?? loads.perIndexNode.set(index, new Map()).get(index)!, nodeId);
        add(loads.incoming, nodeId);
        add(loads.outgoing, primary.nodeId);
        indexChanged = true;
        const unassignedInfo = copy.unassignedInfo === undefined ? undefined : { ...copy.unassignedInfo, delayed: false };
        return { ...copy, state: 'INITIALIZING', nodeId, allocationId: randomBase64Uuid(), recoverySource: 'PEER', unassignedInfo };
      });
    });
    if (indexChanged) {
      changed = true;
      routing.set(index, nextShards);
      indices.set(index, { ...metadata, primaryTerms } satisfies IndexMetadata);
    }
  }
  return changed ? { ...state, routing, indices } : state;
}
