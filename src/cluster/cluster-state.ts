/**
 * The cluster state: which nodes are in the cluster, who is master, which indices exist and where every shard
 * copy lives. It is immutable; a change produces a new state with a higher version. Only the master computes
 * new states; every node applies them in version order.
 */
import type { IndexAliases } from './alias-metadata.js';
import type { DiscoveryNode } from './discovery-node.js';
import type { IndexTemplates } from './metadata/templates/template-model.js';

export type ShardState = 'UNASSIGNED' | 'INITIALIZING' | 'STARTED' | 'RELOCATING';

/** Where a copy recovers from; a new empty primary (EMPTY_STORE) still initialising counts as yellow, not red. */
export type RecoverySource = 'EMPTY_STORE' | 'EXISTING_STORE' | 'PEER' | 'SNAPSHOT' | 'LOCAL_SHARDS';

export interface UnassignedInfo {
  reason: string;
  atMillis: number;
  delayed: boolean;
  failedAllocations: number;
  /** ES's AllocationStatus: `DECIDERS_NO` makes an unassigned primary red even for a new index. */
  lastAllocationStatus: 'NO_ATTEMPT' | 'DECIDERS_NO' | 'NO_VALID_SHARD_COPY' | 'DECIDERS_THROTTLED' | 'DELAYED_ALLOCATION' | 'FETCHING_SHARD_DATA';
  /** The node the copy was on before it became unassigned (ES's last_allocated_node / `last_node`). */
  lastNodeId?: string;
  /** ES's `details`: why an allocation failed (the failure a shard reported). */
  details?: string;
}

export interface ShardRouting {
  index: string;
  shard: number;
  primary: boolean;
  state: ShardState;
  nodeId: string | undefined;
  relocatingNodeId: string | undefined;
  allocationId: string | undefined;
  /**
   * While RELOCATING: the allocation id of the copy being built on `relocatingNodeId` (ES's AllocationId
   * relocation_id). That target exists only through this field, as in ES's routing table.
   */
  relocationId?: string | undefined;
  recoverySource: RecoverySource | undefined;
  unassignedInfo: UnassignedInfo | undefined;
}

export interface IndexMetadata {
  name: string;
  uuid: string;
  state: 'open' | 'close';
  numberOfShards: number;
  numberOfReplicas: number;
  creationDateMillis: number;
  /** Flat index settings (`index.refresh_interval` ...), as strings the way ES stores them. */
  settings: Record<string, string>;
  /** Mapping as stored; owned by the mapping layer. */
  mappings: Record<string, unknown>;
  /** Alias name -> its definition on this index. */
  aliases: IndexAliases;
  /** Primary term per shard, raised when a primary is promoted. */
  primaryTerms: number[];
  /** Allocation ids of the in-sync copies per shard: only these may become primary. */
  inSyncAllocationIds: string[][];
}

export interface ClusterState {
  clusterName: string;
  clusterUuid: string;
  version: number;
  stateUuid: string;
  /**
   * The term of the master that published this state: with etcd, the create revision of its campaign key
   * (docs/decisions/0006); 1 for the embedded coordinator. Nodes never apply a state of a lower term.
   */
  term: number;
  masterNodeId: string | undefined;
  nodes: ReadonlyMap<string, DiscoveryNode>;
  indices: ReadonlyMap<string, IndexMetadata>;
  /** index name -> shard number -> copies (primary first). */
  routing: ReadonlyMap<string, ReadonlyArray<ReadonlyArray<ShardRouting>>>;
  /** Cluster settings set through `PUT _cluster/settings` (flat keys): persistent ones survive a restart. */
  persistentSettings: Readonly<Record<string, string>>;
  /** Transient ones last until the node stops; they win over persistent ones, as in ES. */
  transientSettings: Readonly<Record<string, string>>;
  /** Composable, component and legacy index templates (persisted with the index metadata). */
  templates: IndexTemplates;
  /** Global blocks with a 503 status force health to red (no master, state not recovered). */
  globalBlocks: ReadonlyArray<{ id: number; description: string; status: number }>;
  /**
   * The indices deleted last, newest last (ES's IndexGraveyard, `cluster.indices.tombstones.size` 500): a node that
   * was away when an index was deleted finds its directory here and deletes it (shard-store-cleanup.ts). Absent
   * in states written before it existed.
   */
  indexGraveyard?: ReadonlyArray<IndexTombstone>;
}

/** One deleted index in the graveyard. */
export interface IndexTombstone {
  readonly name: string;
  readonly uuid: string;
  readonly deletedAtMillis: number;
}

/** ES's default `cluster.indices.tombstones.size`. */
export const INDEX_TOMBSTONES_KEPT = 500;

/** ES's NO_MASTER_BLOCK_WRITES: a node that knows no master refuses writes and metadata changes. */
export const NO_MASTER_BLOCK = Object.freeze({ id: 2, description: 'no master', status: 503 });

export function hasNoMasterBlock(state: ClusterState): boolean {
  return state.globalBlocks.some((block) => block.id === NO_MASTER_BLOCK.id);
}

export function shardCopies(state: ClusterState, index: string): ReadonlyArray<ReadonlyArray<ShardRouting>> {
  return state.routing.get(index) ?? [];
}

/**
 * The relocation target a RELOCATING copy implies (ES's ShardRouting.getTargetRelocatingShard): INITIALIZING on
 * the relocating node, with the relocation id as its allocation id, recovering from the primary.
 */
export function relocationTarget(source: ShardRouting): ShardRouting | undefined {
  if (source.state !== 'RELOCATING' || source.relocatingNodeId === undefined || source.relocationId === undefined) return undefined;
  return {
    index: source.index,
    shard: source.shard,
    primary: source.primary,
    state: 'INITIALIZING',
    nodeId: source.relocatingNodeId,
    relocatingNodeId: source.nodeId,
    allocationId: source.relocationId,
    relocationId: source.allocationId,
    recoverySource: 'PEER',
    unassignedInfo: undefined,
  };
}

/** Every assigned copy of one shard, relocation targets included. */
export function assignedCopiesWithTargets(copies: ReadonlyArray<ShardRouting>): ShardRouting[] {
  const out: ShardRouting[] = [];
  for (const copy of copies) {
    if (copy.nodeId === undefined || copy.state === 'UNASSIGNED') continue;
    out.push(copy);
    const target = relocationTarget(copy);
    if (target !== undefined) out.push(target);
  }
  return out;
}

export function allShardCopies(state: ClusterState): ShardRouting[] {
  const out: ShardRouting[] = [];
  for (const shards of state.routing.values()) for (const copies of shards) out.push(...copies);
  return out;
}
