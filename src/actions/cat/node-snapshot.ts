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
 * A snapshot crosses the wire as a flat array of its ~110 values in the order of SNAPSHOT_SHAPE, no key written:
 * writing and parsing it as JSON (its numbers printed and read back) was a quarter of the answering node's CPU
 * per `_cat/nodes` and a tenth of the coordinating node's; the array costs about a third of that both ways
 * (decision 0022). The first value names the layout (a hash of its key paths): a node of another build whose
 * snapshot has other fields is not misread, its answer is refused and its cells print empty. A value the shape
 * marks as a leaf (the load averages, the allocation figures, an absent address) crosses as it is.
 */
export function snapshotToWire(snapshot: unknown): unknown[] {
  return flattenSnapshot(snapshot as NodeSnapshot);
}

export function snapshotFromWire(wire: unknown): NodeSnapshot {
  const values = wire as unknown[];
  if (!Array.isArray(values) || values[0] !== SNAPSHOT_LAYOUT_ID || values.length !== SNAPSHOT_LAYOUT.leafCount + 1) {
    throw new TypeError(`a node snapshot of another layout (${Array.isArray(values) ? String(values[0]) : typeof values}, this node's is ${SNAPSHOT_LAYOUT_ID})`);
  }
  return rebuildSnapshot(values);
}

/**
 * Every field of a snapshot, in wire order: an object here is walked into, anything else (a number, a string,
 * `undefined`) is one value on the wire. Typed as a NodeSnapshot, so a field added there without being added
 * here fails to compile.
 */
const SNAPSHOT_SHAPE: NodeSnapshot = {
  info: { pid: 0, buildType: '', buildHash: '', runtimeVersion: '', heapMaxBytes: 0, httpPublishAddress: undefined },
  stats: {
    os: {
      timestampMillis: 0,
      cpuPercent: 0,
      loadAverage: undefined,
      memTotalBytes: 0,
      memFreeBytes: 0,
      memUsedBytes: 0,
      memFreePercent: 0,
      memUsedPercent: 0,
      swapTotalBytes: 0,
      swapFreeBytes: 0,
      availableProcessors: 0,
    },
    process: {
      timestampMillis: 0,
      pid: 0,
      uptimeMillis: 0,
      startTimeMillis: 0,
      heapUsedBytes: 0,
      heapCommittedBytes: 0,
      heapMaxBytes: 0,
      heapUsedPercent: 0,
      nonHeapUsedBytes: 0,
      rssBytes: 0,
      cpuPercent: 0,
      cpuTotalMillis: 0,
      openFileDescriptors: 0,
      maxFileDescriptors: 0,
      nodeVersion: '',
      v8Version: '',
    },
    fs: { path: '', totalBytes: 0, freeBytes: 0, availableBytes: 0 },
    indices: zeroIndicesStats(),
    script: zeroScriptStats(),
    allocation: undefined,
  },
};

/** The shape's objects as key lists, computed once. */
interface Layout {
  readonly keys: readonly string[];
  /** Per key: the nested object's layout, or undefined for a value. */
  readonly children: ReadonlyArray<Layout | undefined>;
  readonly leafCount: number;
}

function layoutOf(shape: Record<string, unknown>): Layout {
  const keys = Object.keys(shape);
  const children = keys.map((key) => {
    const value = shape[key];
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? layoutOf(value as Record<string, unknown>) : undefined;
  });
  const leafCount = children.reduce((sum, child) => sum + (child === undefined ? 1 : child.leafCount), 0);
  return { keys, children, leafCount };
}

const SNAPSHOT_LAYOUT = layoutOf(SNAPSHOT_SHAPE as unknown as Record<string, unknown>);
const SNAPSHOT_LAYOUT_ID = layoutId(SNAPSHOT_LAYOUT);

/** FNV-1a (32 bits) of the layout's key paths in order: equal layouts, equal ids. */
function layoutId(layout: Layout): number {
  const paths: string[] = [];
  const walk = (node: Layout, prefix: string) =>
    node.keys.forEach((key, i) => {
      const child = node.children[i];
      if (child === undefined) paths.push(prefix + key);
      else walk(child, `${prefix}${key}.`);
    });
  walk(layout, '');
  let hash = 0x811c9dc5;
  for (const char of paths.join(',')) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

/**
 * The snapshot's wire values, as one array literal compiled from the layout at start-up: `[id, s?.["info"]?.["pid"],
 * ...]`. Walking the layout and reading each key by name from a list was ~12% of an answering node's time per
 * `_cat/nodes` (decision 0031); the literal reads each field at a fixed place. Safe to compile for the same reasons as
 * the rebuild below: the keys are this module's own (each quoted by JSON.stringify), values are only read.
 */
const flattenSnapshot = compileFlatten(SNAPSHOT_LAYOUT);

function compileFlatten(layout: Layout): (snapshot: NodeSnapshot) => unknown[] {
  const leaves: string[] = [];
  const walk = (node: Layout, path: string): void =>
    node.keys.forEach((key, i) => {
      const child = node.children[i];
      const access = `${path}?.[${JSON.stringify(key)}]`;
      if (child === undefined) leaves.push(access);
      else walk(child, access);
    });
  walk(layout, 's');
  return new Function('s', `return [${SNAPSHOT_LAYOUT_ID}, ${leaves.join(', ')}];`) as (snapshot: NodeSnapshot) => unknown[];
}

/**
 * The snapshot's objects from its wire values, as one object literal compiled from the layout at start-up:
 * `{"info":{"pid":v[1],...},...}`. Adding ~110 keys one by one to empty objects cost ~5 us per snapshot (two per
 * `_cat/nodes` on the coordinating node); the literal ~0.2 us (decision 0026). Safe to compile: the keys are this
 * module's own SNAPSHOT_SHAPE's (each quoted by JSON.stringify), and received values are only read by index.
 */
const rebuildSnapshot = compileRebuild(SNAPSHOT_LAYOUT);

function compileRebuild(layout: Layout): (values: readonly unknown[]) => NodeSnapshot {
  let next = 1;
  const literal = (node: Layout): string =>
    `{${node.keys.map((key, i) => `${JSON.stringify(key)}:${node.children[i] === undefined ? `v[${next++}]` : literal(node.children[i]!)}`).join(',')}}`;
  return new Function('v', `return ${literal(layout)};`) as (values: readonly unknown[]) => NodeSnapshot;
}

export async function localSnapshot(services: NodeServices, state: ClusterState): Promise<NodeSnapshot> {
  const node = services.localNode;
  const figures = await services.monitor.figures();
  // The engines' figures summed over this node's shard copies (all zero on a node without indices), store size
  // included (ES's indices.store.size: segment files, not the translog). A new object each time, so the shard count
  // is set on it rather than spread into a copy.
  const indices: NodeIndicesStats = services.indices === undefined ? zeroIndicesStats() : await services.indices.service.nodeStats();
  indices.shardCount = shardCopiesOn(state, node.id);
  return {
    info: {
      pid: figures.process.pid,
      buildType: services.version.buildType,
      buildHash: services.version.buildHash,
      runtimeVersion: figures.process.nodeVersion.replace(/^v/, ''),
      heapMaxBytes: figures.process.heapMaxBytes,
      httpPublishAddress: httpPublishAddress(node),
    },
    // The figures named one by one: spreading them into a literal that adds fields was ~85% of this function
    // (~10 us of a node's CPU per `_cat/nodes`, decision 0031).
    stats: {
      os: figures.os,
      process: figures.process,
      fs: figures.fs,
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
