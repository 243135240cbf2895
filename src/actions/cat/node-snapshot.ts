/**
 * What cat endpoints know about each node: ES gathers it with nodes info (build, JVM, HTTP address) and
 * nodes stats (OS, process, file system, indices) requests to every selected node. Here each node's answer
 * is a NodeSnapshot from its own monitor and data path: every selected node, this one included (the transport's
 * local shortcut), is sent `internal:monitor/cat/node_snapshot` (all at once). A node that does not answer is absent,
 * which cat renders the way ES renders a node that did not answer (null cells in `_cat/nodes`, no row in
 * `_cat/allocation`).
 */
import { join } from 'node:path';
import { isDataNode, type ClusterState, type DiscoveryNode } from '../../cluster/index.js';
import {
  directorySizeBytes,
  zeroIndicesStats,
  zeroScriptStats,
  type NodeFigures,
  type NodeIndicesStats,
  type ScriptStats,
} from '../../monitor/index.js';
import type { NodeServices } from '../context.js';
import { sendToNode } from '../remote-node.js';

/** ES's NodeInfo fields that cat reads. */
export interface NodeInfoSnapshot {
  pid: number;
  buildType: string;
  buildHash: string;
  /** The runtime's version, shown in the `jdk` column (Node.js here, the JVM in ES). */
  runtimeVersion: string;
  heapMaxBytes: number;
  /** `ip:port` the node publishes for HTTP, or undefined when it serves no HTTP. */
  httpPublishAddress: string | undefined;
}

/** ES's NodeStats fields that cat reads. */
export interface NodeStatsSnapshot extends NodeFigures {
  indices: NodeIndicesStats;
  script: ScriptStats;
  /** Desired-balance figures the master keeps for data nodes; undefined for nodes that hold no data. */
  allocation: NodeAllocationStats | undefined;
}

/** ES's NodeAllocationStats. */
export interface NodeAllocationStats {
  undesiredShards: number;
  forecastedIngestLoad: number;
  forecastedDiskUsageBytes: number;
}

export interface NodeSnapshot {
  info: NodeInfoSnapshot;
  stats: NodeStatsSnapshot;
}

/** Snapshots of the given nodes that could be reached, keyed by node id. */
export async function collectNodeSnapshots(
  services: NodeServices,
  state: ClusterState,
  nodeIds: readonly string[],
): Promise<Map<string, NodeSnapshot>> {
  const snapshots = new Map<string, NodeSnapshot>();
  // Each node answers for itself; one that does not answer in time is left out (its cells print empty).
  await Promise.all(
    nodeIds.map(async (nodeId) => {
      try {
        const node = state.nodes.get(nodeId);
        if (node !== undefined) snapshots.set(nodeId, (await sendToNode(services, node, NODE_SNAPSHOT_ACTION, {}, undefined, 10_000, { decodeResponse: snapshotFromWire })) as NodeSnapshot);
      } catch {
        // unreachable node: no figures
      }
    }),
  );
  return new Map(nodeIds.filter((id) => snapshots.has(id)).map((id) => [id, snapshots.get(id)!]));
}

export const NODE_SNAPSHOT_ACTION = 'internal:monitor/cat/node_snapshot';

/**
 * A snapshot crosses the wire as one JSON string: ~150 keys of numbers and names, which the runtime's JSON
 * parser reads several times faster than msgpack's maps rebuilt into objects (a fifth of the coordinating
 * node's time in `_cat/nodes` under 50 clients went there). It holds no BigInt and no user-chosen key.
 */
export function snapshotToWire(snapshot: unknown): { json: string } {
  return { json: JSON.stringify(snapshot as NodeSnapshot) };
}

export function snapshotFromWire(wire: unknown): NodeSnapshot {
  return JSON.parse((wire as { json: string }).json) as NodeSnapshot;
}

export async function localSnapshot(services: NodeServices, state: ClusterState): Promise<NodeSnapshot> {
  const node = services.localNode;
  const figures = await services.monitor.figures();
  const indices: NodeIndicesStats = {
    // The engines' figures summed over this node's shard copies (all zero on a node without indices),
    // store size included (ES's indices.store.size: segment files, not the translog).
    ...(services.indices === undefined ? zeroIndicesStats() : await services.indices.service.nodeStats()),
    shardCount: shardCopiesOn(state, node.id),
  };
  return {
    info: {
      pid: figures.process.pid,
      buildType: services.version.buildType,
      buildHash: services.version.buildHash,
      runtimeVersion: figures.process.nodeVersion.replace(/^v/, ''),
      heapMaxBytes: figures.process.heapMaxBytes,
      httpPublishAddress: httpPublishAddress(node),
    },
    stats: {
      ...figures,
      indices,
      script: zeroScriptStats(),
      allocation: allocationStats(node, indices),
    },
  };
}

function httpPublishAddress(node: DiscoveryNode): string | undefined {
  return node.httpPort === undefined ? undefined : `${node.ip}:${node.httpPort}`;
}

/**
 * Gannet has no desired-balance allocator, so no shard is ever scheduled to move and no write-load
 * forecast exists; the disk forecast is ES's fallback, the shards' current size.
 */
function allocationStats(node: DiscoveryNode, indices: NodeIndicesStats): NodeAllocationStats | undefined {
  if (!isDataNode(node)) return undefined;
  return { undesiredShards: 0, forecastedIngestLoad: 0, forecastedDiskUsageBytes: indices.storeSizeBytes };
}

/** Shard copies a node holds, a relocation's incoming copy included (ES counts the node's shard objects). */
export function shardCopiesOn(state: ClusterState, nodeId: string): number {
  let count = 0;
  for (const shards of state.routing.values()) {
    for (const copies of shards) for (const copy of copies) if (copy.state !== 'UNASSIGNED' && copy.nodeId === nodeId) count++;
  }
  return count;
}
