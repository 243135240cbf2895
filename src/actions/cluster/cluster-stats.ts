/**
 * `GET /_cluster/stats` and `GET /_cluster/stats/nodes/{node_id}` (RestClusterStatsAction): each selected node
 * contributes what ES's ClusterStatsNodeResponse carries (its info, its OS/process/runtime/fs figures, its
 * shard copies' statistics), and the response sums them as ClusterStatsIndices and ClusterStatsNodes do,
 * in ClusterStatsResponse's field order. `status` is the cluster's health over every index.
 */
import { computeClusterStateHealth } from '../../cluster/health/index.js';
import { KNOWN_ROLES, type DiscoveryNode } from '../../cluster/index.js';
import type { ShardStatsSnapshot } from '../../indices/index.js';
import { osInfo, runtimeInfo, type FsStats, type OsInfo, type OsStats, type ProcessStats, type RuntimeInfo } from '../../monitor/index.js';
import { jsonFloat } from '../../common/json-float.js';
import type { NodeServices } from '../context.js';
import { json, type Route } from '../rest.js';
import { commonStats, type StatsMetric } from '../indices/stats-xcontent.js';
import { nodeTimeoutMillis, nodesHeader, onSelectedNodes } from '../nodes/nodes-fanout.js';
import { putBytes, putMillis, type JsonObject } from '../nodes/human-fields.js';

/** One node's share of the cluster stats (ES's ClusterStatsNodeResponse). */
interface ClusterStatsNodePart {
  node: DiscoveryNode;
  os: OsInfo;
  runtime: RuntimeInfo;
  osStats: OsStats;
  process: ProcessStats;
  fs: FsStats;
  shards: ShardStatsSnapshot[];
  coordination: string;
  buildType: string;
}

export const CLUSTER_STATS_NODE_ACTION = 'cluster:monitor/stats[n]';

export async function localPart(services: NodeServices): Promise<ClusterStatsNodePart> {
  return {
    node: services.localNode,
    os: osInfo(),
    runtime: runtimeInfo(),
    osStats: services.monitor.os(),
    process: services.monitor.process(),
    fs: await services.monitor.fs(),
    shards: services.indices?.service.shardStats() ?? [],
    coordination: services.settings.getString('cluster.coordination', 'embedded'),
    buildType: services.version.buildType,
  };
}

/** ES lists every built-in role, sorted, with coordinating_only; `index` and `search` are the stateless roles. */
const COUNTED_ROLES = [...new Set<string>(['coordinating_only', ...KNOWN_ROLES, 'index', 'search'])].sort();

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function indicesSection(parts: readonly ClusterStatsNodePart[], human: boolean): JsonObject {
  void human;
  const shards = parts.flatMap((part) => part.shards);
  const byIndex = new Map<string, { total: number; primaries: number }>();
  for (const shard of shards) {
    const counts = byIndex.get(shard.index) ?? { total: 0, primaries: 0 };
    counts.total++;
    if (shard.primary) counts.primaries++;
    byIndex.set(shard.index, counts);
  }
  const shardsJson: JsonObject = {};
  if (byIndex.size > 0) {
    const list = [...byIndex.values()];
    const replication = (c: { total: number; primaries: number }) => (c.primaries === 0 ? 0 : (c.total - c.primaries) / c.primaries);
    const total = list.reduce((sum, c) => sum + c.total, 0);
    const primaries = list.reduce((sum, c) => sum + c.primaries, 0);
    const minMaxAvg = (values: number[], avg: number, asDouble: boolean) => {
      const wrap = (value: number) => (asDouble ? jsonFloat(value) : value);
      return { min: wrap(Math.min(...values)), max: wrap(Math.max(...values)), avg: jsonFloat(avg) };
    };
    Object.assign(shardsJson, {
      total,
      primaries,
      replication: jsonFloat(primaries === 0 ? 0 : (total - primaries) / primaries),
      index: {
        shards: minMaxAvg(list.map((c) => c.total), total / list.length, false),
        primaries: minMaxAvg(list.map((c) => c.primaries), primaries / list.length, false),
        replication: minMaxAvg(list.map(replication), list.reduce((sum, c) => sum + replication(c), 0) / list.length, true),
      },
    });
  }
  // Documents count once (primaries); everything else over every copy, as ClusterStatsIndices adds them.
  const docs = commonStats(shards.filter((shard) => shard.primary), new Set<StatsMetric>(['docs']));
  const rest = commonStats(shards, new Set<StatsMetric>(['store', 'fielddata', 'query_cache', 'completion', 'segments', 'dense_vector', 'sparse_vector']));
  return {
    count: byIndex.size,
    shards: shardsJson,
    docs: docs['docs'],
    store: rest['store'],
    fielddata: rest['fielddata'],
    query_cache: rest['query_cache'],
    completion: rest['completion'],
    segments: rest['segments'],
    dense_vector: rest['dense_vector'],
    sparse_vector: rest['sparse_vector'],
  };
}

function nodesSection(parts: readonly ClusterStatsNodePart[], human: boolean): JsonObject {
  const roleCounts = new Map<string, number>(COUNTED_ROLES.map((role) => [role, 0]));
  for (const { node } of parts) {
    const roles = node.roles.length === 0 ? ['coordinating_only'] : node.roles;
    for (const role of roles) roleCounts.set(role, (roleCounts.get(role) ?? 0) + 1);
  }
  const count: JsonObject = { total: parts.length, ...Object.fromEntries([...roleCounts].sort(([a], [b]) => (a < b ? -1 : 1))) };

  const memTotal = parts.reduce((sum, p) => sum + Math.max(0, p.osStats.memTotalBytes), 0);
  const memFree = parts.reduce((sum, p) => sum + Math.max(0, p.osStats.memFreeBytes), 0);
  const mem: JsonObject = {};
  putBytes(mem, 'total', memTotal, human);
  putBytes(mem, 'adjusted_total', memTotal, human);
  putBytes(mem, 'free', memFree, human);
  putBytes(mem, 'used', memTotal - memFree, human);
  mem['free_percent'] = memTotal > 0 ? Math.round((memFree * 100) / memTotal) : 0;
  mem['used_percent'] = memTotal > 0 ? Math.round(((memTotal - memFree) * 100) / memTotal) : 0;
  const os = {
    available_processors: parts.reduce((sum, p) => sum + p.os.availableProcessors, 0),
    allocated_processors: parts.reduce((sum, p) => sum + p.os.availableProcessors, 0),
    names: [...countBy(parts, (p) => p.os.name)].map(([name, n]) => ({ name, count: n })),
    pretty_names: [...countBy(parts, (p) => p.os.prettyName)].map(([name, n]) => ({ pretty_name: name, count: n })),
    architectures: [...countBy(parts, (p) => p.os.arch)].map(([name, n]) => ({ arch: name, count: n })),
    mem,
  };

  const fds = parts.map((p) => p.process.openFileDescriptors);
  const process = {
    cpu: { percent: parts.reduce((sum, p) => sum + p.process.cpuPercent, 0) },
    open_file_descriptors: {
      min: parts.length === 0 ? 0 : Math.min(...fds),
      max: parts.length === 0 ? 0 : Math.max(...fds),
      avg: parts.length === 0 ? -1 : Math.trunc(fds.filter((fd) => fd > 0).reduce((a, b) => a + b, 0) / parts.length),
    },
  };

  const jvm: JsonObject = {};
  putMillis(jvm, 'max_uptime', Math.max(0, ...parts.map((p) => p.process.uptimeMillis)), human);
  jvm['versions'] = [...countBy(parts, (p) => JSON.stringify([p.runtime.version, p.runtime.vmName, p.runtime.vmVersion, p.runtime.vmVendor]))].map(
    ([key, n]) => {
      const [version, vmName, vmVersion, vmVendor] = JSON.parse(key) as string[];
      return { version, vm_name: vmName, vm_version: vmVersion, vm_vendor: vmVendor, bundled_jdk: false, using_bundled_jdk: null, count: n };
    },
  );
  const heap: JsonObject = {};
  putBytes(heap, 'heap_used', parts.reduce((sum, p) => sum + p.process.heapUsedBytes, 0), human);
  putBytes(heap, 'heap_max', parts.reduce((sum, p) => sum + p.process.heapMaxBytes, 0), human);
  jvm['mem'] = heap;

  // File systems count once per host, as ES dedupes them by the nodes' publish address.
  const seenHosts = new Set<string>();
  let fsTotal = 0;
  let fsFree = 0;
  let fsAvailable = 0;
  for (const part of parts) {
    if (seenHosts.has(part.node.ip)) continue;
    seenHosts.add(part.node.ip);
    fsTotal += part.fs.totalBytes;
    fsFree += part.fs.freeBytes;
    fsAvailable += part.fs.availableBytes;
  }
  const fs: JsonObject = {};
  putBytes(fs, 'total', fsTotal, human);
  putBytes(fs, 'free', fsFree, human);
  putBytes(fs, 'available', fsAvailable, human);

  return {
    count,
    versions: [...new Set(parts.map((p) => p.node.version))],
    os,
    process,
    jvm,
    fs,
    plugins: [],
    network_types: { transport_types: { gannet: parts.length }, http_types: { gannet: parts.length } },
    discovery_types: Object.fromEntries(countBy(parts, (p) => p.coordination)),
    packaging_types: [...countBy(parts, (p) => p.buildType)].map(([type, n]) => ({ flavor: 'default', type, count: n })),
    ingest: { number_of_pipelines: 0, processor_stats: {} },
  };
}

const clusterStatsHandler: Route['handler'] = async (request, { services, task }) => {
  const selectors = (request.pathParams['node_id'] ?? '').split(',').filter((token) => token.length > 0);
  const outcome = await onSelectedNodes<Awaited<ReturnType<typeof localPart>>>(services, selectors, { action: CLUSTER_STATS_NODE_ACTION, args: {}, task, timeoutMillis: nodeTimeoutMillis(request) });
  const parts = [...outcome.answers.values()];
  const state = outcome.state;
  return json({
    _nodes: nodesHeader(parts.length + outcome.failures.length, parts.length, outcome.failures),
    cluster_name: state.clusterName,
    cluster_uuid: state.clusterUuid,
    timestamp: Date.now(),
    status: computeClusterStateHealth(state, [...state.indices.keys()]).status,
    indices: indicesSection(parts, request.human),
    nodes: nodesSection(parts, request.human),
  });
};

const PARAMS = ['timeout', 'include_remotes'];

export const clusterStatsRoutes: Route[] = [
  { method: 'GET', path: '/_cluster/stats', action: 'cluster:monitor/stats', params: PARAMS, handler: clusterStatsHandler },
  { method: 'GET', path: '/_cluster/stats/nodes/{node_id}', action: 'cluster:monitor/stats', params: PARAMS, handler: clusterStatsHandler },
];
