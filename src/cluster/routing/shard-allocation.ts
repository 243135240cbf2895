/**
 * Routing-table changes the master makes for indices: placing a new index's primaries, rebuilding routing after
 * a restart, following a replica-count change, the INITIALIZING -> STARTED transition when a node reports a
 * copy started (relocations included) and the shard-failed transition with its primary-term check. Replicas
 * are placed by the allocation round (allocation.ts) and filled by peer recovery (indices/recovery/).
 */
import { randomBase64Uuid } from '../../common/uuid.js';
import { replicationErrors } from '../../common/errors.js';
import type { ClusterState, IndexMetadata, RecoverySource, ShardRouting, UnassignedInfo } from '../cluster-state.js';
import { isDataNode } from '../discovery-node.js';
import { allocationFiltersAllow } from './allocation-filters.js';

export type UnassignedReason =
  | 'INDEX_CREATED'
  | 'CLUSTER_RECOVERED'
  | 'INDEX_REOPENED'
  | 'REPLICA_ADDED'
  | 'ALLOCATION_FAILED'
  | 'NODE_LEFT'
  | 'INDEX_CLOSED'
  | 'PRIMARY_FAILED'
  | 'REALLOCATED_REPLICA';

function unassignedInfo(reason: UnassignedReason, now: number, failedAllocations = 0): UnassignedInfo {
  return { reason, atMillis: now, delayed: false, failedAllocations, lastAllocationStatus: failedAllocations > 0 ? 'NO_VALID_SHARD_COPY' : 'NO_ATTEMPT' };
}

function unassignedCopy(index: string, shard: number, primary: boolean, reason: UnassignedReason, now: number): ShardRouting {
  return {
    index,
    shard,
    primary,
    state: 'UNASSIGNED',
    nodeId: undefined,
    relocatingNodeId: undefined,
    allocationId: undefined,
    recoverySource: primary ? (reason === 'INDEX_CREATED' ? 'EMPTY_STORE' : 'EXISTING_STORE') : 'PEER',
    unassignedInfo: unassignedInfo(reason, now),
  };
}

/**
 * An assigned copy sent back to UNASSIGNED (its node left, it failed, its primary failed, or a reroute cancelled
 * it): it gives up its node, any relocation and its allocation id, and recovers again from `recoverySource`.
 */
export function copyMadeUnassigned(copy: ShardRouting, info: UnassignedInfo, recoverySource: RecoverySource = copy.primary ? 'EXISTING_STORE' : 'PEER'): ShardRouting {
  return { ...copy, state: 'UNASSIGNED', nodeId: undefined, relocatingNodeId: undefined, relocationId: undefined, allocationId: undefined, recoverySource, unassignedInfo: info };
}

/** Copies per node id, to spread primaries. */
function copiesPerNode(state: ClusterState): Map<string, number> {
  const counts = new Map<string, number>();
  for (const node of state.nodes.values()) if (isDataNode(node)) counts.set(node.id, 0);
  for (const shards of state.routing.values()) {
    for (const copies of shards) for (const copy of copies) if (copy.nodeId !== undefined && counts.has(copy.nodeId)) counts.set(copy.nodeId, counts.get(copy.nodeId)! + 1);
  }
  return counts;
}

function leastLoaded(counts: Map<string, number>, exclude: ReadonlySet<string>, allowed: (nodeId: string) => boolean = () => true): string | undefined {
  let best: string | undefined;
  for (const [nodeId, count] of [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (exclude.has(nodeId) || !allowed(nodeId)) continue;
    if (best === undefined || count < counts.get(best)!) best = nodeId;
  }
  return best;
}

/**
 * Assigns the unassigned primaries of `index` that can be assigned; replicas stay as they are (see above). A new
 * primary (an empty store) goes only where the index's allocation filters allow (allocation-filters.ts); one with
 * data goes back to a node as before, as ES force-allocates an existing primary.
 */
function allocatePrimaries(state: ClusterState, index: string, shards: ShardRouting[][], recovery: 'EMPTY_STORE' | 'EXISTING_STORE', metadata?: IndexMetadata): ShardRouting[][] {
  const counts = copiesPerNode(state);
  const allowed = (nodeId: string): boolean => {
    const node = state.nodes.get(nodeId);
    return recovery !== 'EMPTY_STORE' || metadata === undefined || (node !== undefined && allocationFiltersAllow(state, metadata, node));
  };
  return shards.map((copies) =>
    copies.map((copy) => {
      if (!copy.primary || copy.state !== 'UNASSIGNED') return copy;
      const nodeId = leastLoaded(counts, new Set(), allowed);
      // Data nodes exist but the filters allow none: ES records the deciders' NO, which makes the index red.
      if (nodeId === undefined && counts.size > 0 && copy.unassignedInfo !== undefined) return { ...copy, unassignedInfo: { ...copy.unassignedInfo, lastAllocationStatus: 'DECIDERS_NO' } };
      if (nodeId === undefined) return copy;
      counts.set(nodeId, counts.get(nodeId)! + 1);
      return { ...copy, state: 'INITIALIZING', nodeId, allocationId: randomBase64Uuid(), recoverySource: recovery };
    }),
  );
}

/** `cluster.routing.allocation.enable: none` (EnableAllocationDecider): not even a new index's primaries are placed. */
function allocationDisabled(state: ClusterState): boolean {
  const value = state.transientSettings['cluster.routing.allocation.enable'] ?? state.persistentSettings['cluster.routing.allocation.enable'];
  return value?.toLowerCase() === 'none';
}

/**
 * Routing for a newly created index: primaries INITIALIZING from an empty store, replicas UNASSIGNED; every copy
 * UNASSIGNED while allocation is disabled (the master's next allocation round places them once it is enabled).
 */
export function routingForNewIndex(state: ClusterState, metadata: IndexMetadata, now: number): ShardRouting[][] {
  const shards: ShardRouting[][] = [];
  for (let shard = 0; shard < metadata.numberOfShards; shard++) {
    const copies = [unassignedCopy(metadata.name, shard, true, 'INDEX_CREATED', now)];
    for (let r = 0; r < metadata.numberOfReplicas; r++) copies.push(unassignedCopy(metadata.name, shard, false, 'INDEX_CREATED', now));
    shards.push(copies);
  }
  return allocationDisabled(state) ? shards : allocatePrimaries(state, metadata.name, shards, 'EMPTY_STORE', metadata);
}

/**
 * A single node's allocation round after the cluster settings changed (a cluster's master runs allocation.ts
 * instead): new indices' primaries left unassigned while allocation was disabled are placed once it is not.
 */
export function allocateNewPrimariesOfEveryIndex(state: ClusterState): ClusterState {
  if (allocationDisabled(state)) return state;
  let working = state;
  for (const name of state.indices.keys()) {
    const metadata = working.indices.get(name);
    if (metadata !== undefined) working = allocateNewPrimaries(working, metadata);
  }
  return working;
}

/**
 * Another chance for a new index's unassigned primaries after its allocation filters changed (ES reroutes after
 * every settings update): those the filters now allow are placed; the rest of the routing stays as it is.
 */
export function allocateNewPrimaries(state: ClusterState, metadata: IndexMetadata): ClusterState {
  const shards = state.routing.get(metadata.name);
  if (shards === undefined || metadata.state === 'close' || allocationDisabled(state)) return state;
  const pending = shards.map((copies) => copies.map((copy) => ({ ...copy })));
  if (!pending.some((copies) => copies.some((copy) => copy.primary && copy.state === 'UNASSIGNED' && copy.recoverySource === 'EMPTY_STORE'))) return state;
  const allocated = allocatePrimaries(state, metadata.name, pending, 'EMPTY_STORE', metadata);
  const routing = new Map(state.routing);
  routing.set(metadata.name, allocated);
  const primaryTerms = metadata.primaryTerms.map((term, shard) => (shards[shard]?.[0]?.state === 'UNASSIGNED' && allocated[shard]?.[0]?.state === 'INITIALIZING' ? term + 1 : term));
  const indices = new Map(state.indices);
  indices.set(metadata.name, { ...metadata, primaryTerms });
  return { ...state, routing, indices };
}

/**
 * Routing rebuilt from persisted metadata when the cluster starts: every primary recovers from the store this
 * node has on disk (EXISTING_STORE), replicas wait unassigned.
 */
export function restoredRouting(state: ClusterState, now: number): ClusterState {
  const routing = new Map<string, ShardRouting[][]>();
  const indices = new Map(state.indices);
  let working: ClusterState = { ...state, routing, indices };
  for (const metadata of state.indices.values()) {
    // Closed indices are replicated too (ES 7.2+): their copies recover from the store without an engine.
    const shards: ShardRouting[][] = [];
    for (let shard = 0; shard < metadata.numberOfShards; shard++) {
      const copies = [unassignedCopy(metadata.name, shard, true, 'CLUSTER_RECOVERED', now)];
      for (let r = 0; r < metadata.numberOfReplicas; r++) copies.push(unassignedCopy(metadata.name, shard, false, 'CLUSTER_RECOVERED', now));
      shards.push(copies);
    }
    const allocated = allocatePrimaries(working, metadata.name, shards, 'EXISTING_STORE');
    routing.set(metadata.name, allocated);
    // A primary assigned anew starts a new term, so operations of the old term are told apart (ES bumps it too).
    const primaryTerms = metadata.primaryTerms.map((term, shard) => (allocated[shard]?.[0]?.state === 'INITIALIZING' ? term + 1 : term));
    indices.set(metadata.name, { ...metadata, primaryTerms });
    working = { ...working, routing, indices };
  }
  return working;
}

/**
 * Routing for an index that changes state (ES's RoutingTable.addAsFromOpenToClose / addAsFromCloseToOpen): every
 * copy starts over, its primary recovering from the store on the node that holds its files (or on a data node
 * chosen as for a restart when it had none), with a new primary term; replicas wait unassigned.
 */
export function reinitializedRouting(state: ClusterState, metadata: IndexMetadata, reason: 'INDEX_CLOSED' | 'INDEX_REOPENED', now: number): ClusterState {
  const previous = state.routing.get(metadata.name) ?? [];
  const shards: ShardRouting[][] = [];
  for (let shard = 0; shard < metadata.numberOfShards; shard++) {
    const copies = [unassignedCopy(metadata.name, shard, true, reason, now)];
    for (let r = 0; r < metadata.numberOfReplicas; r++) copies.push(unassignedCopy(metadata.name, shard, false, reason, now));
    const holder = previous[shard]?.find((copy) => copy.primary && copy.nodeId !== undefined)?.nodeId;
    if (holder !== undefined && state.nodes.has(holder)) {
      copies[0] = { ...copies[0]!, state: 'INITIALIZING', nodeId: holder, allocationId: randomBase64Uuid(), recoverySource: 'EXISTING_STORE' };
    }
    shards.push(copies);
  }
  const allocated = allocatePrimaries(state, metadata.name, shards, 'EXISTING_STORE');
  const routing = new Map(state.routing);
  routing.set(metadata.name, allocated);
  const primaryTerms = metadata.primaryTerms.map((term, shard) => (allocated[shard]?.[0]?.state === 'INITIALIZING' ? term + 1 : term));
  const indices = new Map(state.indices);
  indices.set(metadata.name, { ...metadata, primaryTerms });
  return { ...state, routing, indices };
}

/** Adds or removes (unassigned first) replica copies so each shard has `replicas` of them. */
export function withReplicaCount(copiesOfShards: ReadonlyArray<ReadonlyArray<ShardRouting>>, replicas: number, now: number): ShardRouting[][] {
  return copiesOfShards.map((copies) => {
    const primary = copies.filter((copy) => copy.primary);
    let replicaCopies = copies.filter((copy) => !copy.primary);
    if (replicaCopies.length > replicas) {
      const ordered = [...replicaCopies.filter((copy) => copy.state === 'UNASSIGNED'), ...replicaCopies.filter((copy) => copy.state !== 'UNASSIGNED')];
      const removed = new Set(ordered.slice(0, replicaCopies.length - replicas));
      replicaCopies = replicaCopies.filter((copy) => !removed.has(copy));
    }
    const first = copies[0]!;
    while (replicaCopies.length < replicas) replicaCopies.push(unassignedCopy(first.index, first.shard, false, 'REPLICA_ADDED', now));
    return [...primary, ...replicaCopies];
  });
}

export interface StartedShard {
  readonly index: string;
  readonly shard: number;
  readonly allocationId: string;
}

/** ES's ShardStateAction.FailedShardEntry, as the master takes it. */
export interface FailedShard extends StartedShard {
  /** The index's uuid as the sender knows it: a report about an index deleted and created again is ignored. */
  readonly indexUuid?: string;
  /** The sender's primary term; absent or 0 when a copy fails itself. */
  readonly primaryTerm?: number;
  /** Take the copy out of the in-sync set (a replica that missed a write). */
  readonly markAsStale?: boolean;
  readonly message?: string;
}

type Shards = ReadonlyArray<ReadonlyArray<ShardRouting>>;

function withShard(shards: Shards, shard: number, copies: ShardRouting[]): ShardRouting[][] {
  return shards.map((group, number) => (number === shard ? copies : [...group]));
}

function withInSync(metadata: IndexMetadata, shard: number, ids: readonly string[]): IndexMetadata {
  return { ...metadata, inSyncAllocationIds: metadata.inSyncAllocationIds.map((existing, number) => (number === shard ? [...ids] : existing)) };
}

/**
 * Marks reported copies STARTED (only if still the same INITIALIZING allocation) and adds them to the in-sync
 * set (ES's AllocationService.applyStartedShards + IndexMetadataUpdater):
 * - a relocation target takes its source's place (the source's id leaves the in-sync set, the target's joins);
 * - a primary recovered from its store starts a new in-sync set of its own; copies that were started under the
 *   previous primary go back to UNASSIGNED (reason PRIMARY_FAILED, remembering their node), so they recover from
 *   this primary, which the new primary term may have made diverge from them.
 */
export function markShardsStarted(state: ClusterState, started: readonly StartedShard[], now = Date.now()): ClusterState {
  let changed = false;
  const routing = new Map(state.routing);
  const indices = new Map(state.indices);
  for (const entry of started) {
    const shards = routing.get(entry.index);
    const metadata = indices.get(entry.index);
    if (shards === undefined || metadata === undefined) continue;
    const copies = shards[entry.shard];
    if (copies === undefined) continue;
    const inSync = metadata.inSyncAllocationIds[entry.shard] ?? [];
    const source = copies.find((copy) => copy.state === 'RELOCATING' && copy.relocationId === entry.allocationId);
    if (source !== undefined) {
      changed = true;
      const moved: ShardRouting = {
        ...source,
        state: 'STARTED',
        nodeId: source.relocatingNodeId,
        relocatingNodeId: undefined,
        allocationId: entry.allocationId,
        relocationId: undefined,
        recoverySource: undefined,
        unassignedInfo: undefined,
      };
      routing.set(entry.index, withShard(shards, entry.shard, copies.map((copy) => (copy === source ? moved : copy))));
      indices.set(entry.index, withInSync(metadata, entry.shard, [...inSync.filter((id) => id !== source.allocationId), entry.allocationId]));
      continue;
    }
    const target = copies.find((copy) => copy.allocationId === entry.allocationId && copy.state === 'INITIALIZING');
    if (target === undefined) continue;
    changed = true;
    const fromStore = target.primary && target.recoverySource !== 'PEER';
    const next = copies.map((copy): ShardRouting => {
      if (copy === target) return { ...copy, state: 'STARTED', recoverySource: undefined, unassignedInfo: undefined };
      if (fromStore && !copy.primary && copy.nodeId !== undefined && copy.state !== 'UNASSIGNED') {
        return copyMadeUnassigned(copy, { reason: 'PRIMARY_FAILED', atMillis: now, delayed: false, failedAllocations: 0, lastAllocationStatus: 'NO_ATTEMPT', lastNodeId: copy.nodeId });
      }
      return copy;
    });
    routing.set(entry.index, withShard(shards, entry.shard, next));
    indices.set(entry.index, withInSync(metadata, entry.shard, fromStore ? [entry.allocationId] : [...new Set([...inSync, entry.allocationId])]));
  }
  return changed ? { ...state, routing, indices } : state;
}

/**
 * A copy failed (ES's ShardFailedTaskExecutor + AllocationService.applyFailedShards):
 * - a sender with a primary term that is not the shard's current one is told it is no longer the primary;
 * - a failed relocation target cancels the relocation (its source is STARTED again);
 * - any other copy goes back to UNASSIGNED (a relocating source takes its target with it), counting the failure
 *   and remembering its node; with `markAsStale` its id leaves the in-sync set;
 * - an id with no routing entry that is still in sync is just marked stale (its node left before).
 * The in-sync set is never emptied: a failed primary with no copy to replace it keeps its id.
 */
export function markShardFailed(state: ClusterState, failed: FailedShard, now: number): ClusterState {
  const metadata = state.indices.get(failed.index);
  const shards = state.routing.get(failed.index);
  if (metadata === undefined || shards === undefined || (failed.indexUuid !== undefined && failed.indexUuid !== metadata.uuid)) return state;
  const currentTerm = metadata.primaryTerms[failed.shard] ?? 0;
  if ((failed.primaryTerm ?? 0) > 0 && failed.primaryTerm !== currentTerm) {
    throw replicationErrors.noLongerPrimary(failed.index, metadata.uuid, failed.shard, failed.primaryTerm!, currentTerm);
  }
  const copies = shards[failed.shard];
  if (copies === undefined) return state;
  const inSync = metadata.inSyncAllocationIds[failed.shard] ?? [];
  const withoutId = (id: string): string[] => {
    const remaining = inSync.filter((existing) => existing !== id);
    return remaining.length === 0 ? [...inSync] : remaining;
  };
  const routing = new Map(state.routing);
  const indices = new Map(state.indices);
  const relocating = copies.find((copy) => copy.state === 'RELOCATING' && copy.relocationId === failed.allocationId);
  if (relocating !== undefined) {
    const back: ShardRouting = { ...relocating, state: 'STARTED', relocatingNodeId: undefined, relocationId: undefined };
    routing.set(failed.index, withShard(shards, failed.shard, copies.map((copy) => (copy === relocating ? back : copy))));
    if (inSync.includes(failed.allocationId)) indices.set(failed.index, withInSync(metadata, failed.shard, withoutId(failed.allocationId)));
    return { ...state, routing, indices };
  }
  const target = copies.find((copy) => copy.allocationId === failed.allocationId);
  if (target === undefined) {
    if ((failed.primaryTerm ?? 0) > 0 && inSync.includes(failed.allocationId)) {
      indices.set(failed.index, withInSync(metadata, failed.shard, withoutId(failed.allocationId)));
      return { ...state, indices };
    }
    return state;
  }
  const unassigned = copyMadeUnassigned(
    target,
    {
      ...unassignedInfo('ALLOCATION_FAILED', now, (target.unassignedInfo?.failedAllocations ?? 0) + 1),
      lastNodeId: target.nodeId,
      // ES's `details`: what the copy reported ("shard failure, reason [...]").
      ...(failed.message !== undefined && { details: failed.message }),
    },
    target.primary ? (target.recoverySource === 'EMPTY_STORE' ? 'EMPTY_STORE' : 'EXISTING_STORE') : 'PEER',
  );
  routing.set(failed.index, withShard(shards, failed.shard, copies.map((copy) => (copy === target ? unassigned : copy))));
  if (failed.markAsStale === true && inSync.includes(failed.allocationId)) indices.set(failed.index, withInSync(metadata, failed.shard, withoutId(failed.allocationId)));
  return { ...state, routing, indices };
}

/**
 * A retry of failed primaries (ES's `_cluster/reroute?retry_failed`, for the failures `retry` accepts): each goes
 * back to the node that had it, if that node is still in the cluster, and recovers from its store there
 * (INITIALIZING, EXISTING_STORE, a new primary term, its failure count reset).
 */
export function retryFailedPrimaries(state: ClusterState, retry: (info: UnassignedInfo) => boolean): ClusterState {
  let routing: Map<string, readonly (readonly ShardRouting[])[]> | undefined;
  let indices: Map<string, IndexMetadata> | undefined;
  for (const [index, shards] of state.routing) {
    const metadata = state.indices.get(index);
    if (metadata === undefined || metadata.state === 'close') continue;
    const primaryTerms = [...metadata.primaryTerms];
    let changed = false;
    const next = shards.map((copies, shard) =>
      copies.map((copy): ShardRouting => {
        const info = copy.unassignedInfo;
        if (!copy.primary || copy.state !== 'UNASSIGNED' || info === undefined || info.failedAllocations === 0 || !retry(info)) return copy;
        const nodeId = info.lastNodeId;
        if (nodeId === undefined || !state.nodes.has(nodeId)) return copy;
        changed = true;
        primaryTerms[shard] = (primaryTerms[shard] ?? 0) + 1;
        return { ...copy, state: 'INITIALIZING', nodeId, allocationId: randomBase64Uuid(), recoverySource: 'EXISTING_STORE', unassignedInfo: { ...info, failedAllocations: 0 } };
      }),
    );
    if (!changed) continue;
    (routing ??= new Map(state.routing)).set(index, next);
    (indices ??= new Map(state.indices)).set(index, { ...metadata, primaryTerms });
  }
  return routing === undefined ? state : { ...state, routing, indices: indices! };
}
