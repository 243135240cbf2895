/**
 * The input of one allocation round (ES's RoutingAllocation): the cluster state being changed, the master's disk
 * figures, and the per-node counts the deciders and the weight function read (copies per node and per index,
 * recoveries in and out, initial primary recoveries, relocations under way), kept up to date as the round places
 * and moves copies, so a later decision in the same round sees the earlier ones.
 */
import type { ClusterState, ShardRouting } from '../cluster-state.js';
import { isDataNode, type DiscoveryNode } from '../discovery-node.js';
import { EMPTY_CLUSTER_INFO, type ClusterInfo } from './cluster-info.js';
import type { ShardStoreSource } from './shard-store-fetch.js';

export interface Loads {
  /** Copies per node, relocation targets counted on both ends (both use the disk until the move ends). */
  readonly perNode: Map<string, number>;
  readonly perIndexNode: Map<string, Map<string, number>>;
  /** Peer recoveries into a node (replicas being built and relocation targets). */
  readonly incoming: Map<string, number>;
  /** Peer recoveries served by a node (it holds the primary they copy from). */
  readonly outgoing: Map<string, number>;
  /** Primaries recovering from their own store (or created empty) on a node. */
  readonly initialPrimaries: Map<string, number>;
  /** Relocation sources per index and node: the copies that are leaving (balance looks at where copies will be). */
  readonly leaving: Map<string, Map<string, number>>;
  /** Relocations under way in the whole cluster (for `cluster_concurrent_rebalance`). */
  relocations: number;
}

export interface RoutingAllocation {
  /** The state as this round has changed it so far (each placement or move replaces it). */
  state: ClusterState;
  readonly info: ClusterInfo;
  /** Data nodes in node id order (ties in weight go to the first). */
  readonly dataNodes: readonly DiscoveryNode[];
  readonly loads: Loads;
  /** Reroute commands are explicit: `cluster.routing.allocation.enable` and `rebalance.enable` do not stop them. */
  readonly ignoreDisable: boolean;
  readonly now: number;
  /** The master's own node settings (gannet.yml, -E): what a cluster setting is when no PUT set it. */
  readonly nodeSettings: Readonly<Record<string, string>>;
  /** What the data nodes hold on disk for a shard (the master's store fetch); absent on a single node and in tests. */
  readonly shardStores: ShardStoreSource | undefined;
}

export interface AllocationOptions {
  readonly info?: ClusterInfo;
  readonly now?: number;
  readonly ignoreDisable?: boolean;
  readonly nodeSettings?: Readonly<Record<string, string>>;
  readonly shardStores?: ShardStoreSource;
}

export function routingAllocation(state: ClusterState, options: AllocationOptions = {}): RoutingAllocation {
  const dataNodes = [...state.nodes.values()].filter(isDataNode).sort((a, b) => a.id.localeCompare(b.id));
  return {
    state,
    info: options.info ?? EMPTY_CLUSTER_INFO,
    dataNodes,
    loads: loadsOf(state, dataNodes),
    ignoreDisable: options.ignoreDisable ?? false,
    now: options.now ?? Date.now(),
    nodeSettings: options.nodeSettings ?? {},
    shardStores: options.shardStores,
  };
}

/** A cluster setting as the master reads it: transient over persistent over its own node settings. */
export function clusterSetting(allocation: RoutingAllocation, key: string): string | undefined {
  return allocation.state.transientSettings[key] ?? allocation.state.persistentSettings[key] ?? allocation.nodeSettings[key];
}

export function intClusterSetting(allocation: RoutingAllocation, key: string, fallback: number): number {
  const value = Number(clusterSetting(allocation, key) ?? String(fallback));
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

export function add(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** The copies of one shard that live on a node now or soon (relocation targets included): same_shard's view. */
export function holdersOf(copies: readonly ShardRouting[]): Set<string> {
  return new Set(copies.flatMap((copy) => [copy.nodeId, copy.relocatingNodeId].filter((id): id is string => id !== undefined)));
}

/** The started (or relocating) primary of a shard, the source every peer recovery copies from. */
export function activePrimary(copies: readonly ShardRouting[]): ShardRouting | undefined {
  return copies.find((copy) => copy.primary && (copy.state === 'STARTED' || copy.state === 'RELOCATING') && copy.nodeId !== undefined);
}

function loadsOf(state: ClusterState, dataNodes: readonly DiscoveryNode[]): Loads {
  const loads: Loads = { perNode: new Map(dataNodes.map((node) => [node.id, 0])), perIndexNode: new Map(), incoming: new Map(), outgoing: new Map(), initialPrimaries: new Map(), leaving: new Map(), relocations: 0 };
  for (const [index, shards] of state.routing) {
    const byNode = new Map<string, number>();
    loads.perIndexNode.set(index, byNode);
    for (const copies of shards) {
      const primaryNode = activePrimary(copies)?.nodeId;
      for (const copy of copies) {
        if (copy.nodeId === undefined) continue;
        add(loads.perNode, copy.nodeId);
        add(byNode, copy.nodeId);
        if (copy.state === 'RELOCATING' && copy.relocatingNodeId !== undefined) {
          add(loads.perNode, copy.relocatingNodeId);
          add(byNode, copy.relocatingNodeId);
          add(loads.incoming, copy.relocatingNodeId);
          if (primaryNode !== undefined) add(loads.outgoing, primaryNode);
          add(leavingOf(loads, index), copy.nodeId);
          loads.relocations++;
        }
        if (copy.state === 'INITIALIZING' && copy.recoverySource === 'PEER') {
          add(loads.incoming, copy.nodeId);
          if (primaryNode !== undefined) add(loads.outgoing, primaryNode);
        }
        if (copy.state === 'INITIALIZING' && copy.primary && copy.recoverySource !== 'PEER') add(loads.initialPrimaries, copy.nodeId);
      }
    }
  }
  return loads;
}

export function leavingOf(loads: Loads, index: string): Map<string, number> {
  let byNode = loads.leaving.get(index);
  if (byNode === undefined) loads.leaving.set(index, (byNode = new Map()));
  return byNode;
}

export function perIndexOf(loads: Loads, index: string): Map<string, number> {
  let byNode = loads.perIndexNode.get(index);
  if (byNode === undefined) loads.perIndexNode.set(index, (byNode = new Map()));
  return byNode;
}
