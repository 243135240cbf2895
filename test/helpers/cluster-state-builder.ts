/**
 * Builds synthetic ClusterStates for unit tests: nodes, index metadata and a routing table of shard copies,
 * with short constructors for each copy state (started, unassigned, initializing, relocating).
 */
import type { ClusterState, IndexMetadata, RecoverySource, ShardRouting, UnassignedInfo } from '../../src/cluster/cluster-state.js';
import type { DiscoveryNode, NodeRole } from '../../src/cluster/discovery-node.js';

export interface CopyOptions {
  recoverySource?: RecoverySource;
  lastAllocationStatus?: UnassignedInfo['lastAllocationStatus'];
  failedAllocations?: number;
  delayed?: boolean;
  nodeId?: string;
  relocatingNodeId?: string;
}

/** A copy without index/shard; `index()` fills those in. */
export type CopySpec = Omit<ShardRouting, 'index' | 'shard'>;

export function started(primary: boolean, options: CopyOptions = {}): CopySpec {
  return copy(primary, 'STARTED', { nodeId: 'n1', ...options });
}

export function relocating(primary: boolean, options: CopyOptions = {}): CopySpec {
  return copy(primary, 'RELOCATING', { nodeId: 'n1', relocatingNodeId: 'n2', ...options });
}

/** The initializing copy a relocation is building (its relocatingNodeId points back at the source). */
export function relocationTarget(primary: boolean, options: CopyOptions = {}): CopySpec {
  return copy(primary, 'INITIALIZING', { nodeId: 'n2', relocatingNodeId: 'n1', recoverySource: 'PEER', ...options });
}

export function initializing(primary: boolean, options: CopyOptions = {}): CopySpec {
  return copy(primary, 'INITIALIZING', { nodeId: 'n1', recoverySource: primary ? 'EMPTY_STORE' : 'PEER', ...options });
}

export function unassigned(primary: boolean, options: CopyOptions = {}): CopySpec {
  return copy(primary, 'UNASSIGNED', { recoverySource: primary ? 'EXISTING_STORE' : 'PEER', ...options });
}

function copy(primary: boolean, state: ShardRouting['state'], options: CopyOptions): CopySpec {
  const hasInfo = state === 'UNASSIGNED' || options.lastAllocationStatus !== undefined || options.failedAllocations !== undefined;
  return {
    primary,
    state,
    nodeId: state === 'UNASSIGNED' ? undefined : options.nodeId,
    relocatingNodeId: options.relocatingNodeId,
    allocationId: state === 'UNASSIGNED' ? undefined : `alloc-${Math.random().toString(36).slice(2)}`,
    recoverySource: state === 'STARTED' || state === 'RELOCATING' ? undefined : options.recoverySource,
    unassignedInfo: hasInfo
      ? {
          reason: 'INDEX_CREATED',
          atMillis: 0,
          delayed: options.delayed ?? false,
          failedAllocations: options.failedAllocations ?? 0,
          lastAllocationStatus: options.lastAllocationStatus ?? 'NO_ATTEMPT',
        }
      : undefined,
  };
}

export interface IndexSpec {
  name: string;
  metadata: IndexMetadata;
  /** undefined = the index has no routing table at all. */
  shards: ShardRouting[][] | undefined;
}

export interface IndexOptions {
  replicas?: number;
  closed?: boolean;
  hidden?: boolean;
  aliases?: string[];
  settings?: Record<string, string>;
  /** Leave the index out of the routing table entirely. */
  noRouting?: boolean;
  /** Declared shard count when it should differ from the routing (e.g. 0 routed shards). */
  numberOfShards?: number;
}

/** An index whose routing is `shards` (one array of copies per shard, primary first). */
export function index(name: string, shards: CopySpec[][], options: IndexOptions = {}): IndexSpec {
  const settings: Record<string, string> = { ...options.settings };
  if (options.hidden) settings['index.hidden'] = 'true';
  const numberOfShards = options.numberOfShards ?? shards.length;
  return {
    name,
    metadata: {
      name,
      uuid: `${name}-uuid`,
      state: options.closed ? 'close' : 'open',
      numberOfShards,
      numberOfReplicas: options.replicas ?? Math.max(0, (shards[0]?.length ?? 1) - 1),
      creationDateMillis: 0,
      settings,
      mappings: {},
      aliases: Object.fromEntries((options.aliases ?? []).map((alias) => [alias, {}])),
      primaryTerms: Array.from({ length: numberOfShards }, () => 1),
      inSyncAllocationIds: Array.from({ length: numberOfShards }, () => []),
    },
    shards: options.noRouting ? undefined : shards.map((copies, shard) => copies.map((spec) => ({ ...spec, index: name, shard }))),
  };
}

/** `count` shards of one started primary plus `replicas` started replicas each: a green index. */
export function greenIndex(name: string, count = 1, replicas = 0, options: IndexOptions = {}): IndexSpec {
  const shards = Array.from({ length: count }, () => [started(true), ...Array.from({ length: replicas }, () => started(false))]);
  return index(name, shards, { replicas, ...options });
}

export function node(id: string, roles: NodeRole[] = ['data', 'master', 'ingest']): DiscoveryNode {
  return {
    id,
    name: `node-${id}`,
    ephemeralId: `${id}-eph`,
    host: '127.0.0.1',
    ip: '127.0.0.1',
    transportPort: 9300,
    httpPort: 9200,
    roles,
    attributes: {},
    version: '8.19.2',
  };
}

export interface StateOptions {
  nodes?: DiscoveryNode[];
  indices?: IndexSpec[];
  globalBlocks?: ClusterState['globalBlocks'];
  version?: number;
  clusterName?: string;
}

export function clusterState(options: StateOptions = {}): ClusterState {
  const nodes = options.nodes ?? [node('n1')];
  const indices = options.indices ?? [];
  return {
    clusterName: options.clusterName ?? 'test-cluster',
    clusterUuid: 'cluster-uuid',
    version: options.version ?? 1,
    stateUuid: `state-${options.version ?? 1}`,
    term: 1,
    masterNodeId: nodes[0]?.id,
    nodes: new Map(nodes.map((n) => [n.id, n])),
    indices: new Map(indices.map((spec) => [spec.name, spec.metadata])),
    routing: new Map(indices.filter((spec) => spec.shards !== undefined).map((spec) => [spec.name, spec.shards!])),
    persistentSettings: {},
    transientSettings: {},
    templates: { component: {}, composable: {}, legacy: {} },
    globalBlocks: options.globalBlocks ?? [],
  };
}
