/**
 * One node's answer to a nodes stats request (what ES's TransportNodesStatsAction computes on each node), in
 * NodeStats.toXContent's order: timestamp and identity, then indices, os, process, jvm, thread_pool, fs,
 * breakers, ingest and adaptive_selection when asked for. The indices section is the CommonStats of this node's
 * shard copies, computed by the same code as `_stats`; thread_pool and breakers are the node's own pools and
 * circuit breakers. Sections Gannet cannot fill with real figures (transport, http, script, discovery,
 * script_cache, indexing_pressure, repositories, allocations) are left out; docs/compat.md lists them.
 */
import { resolve } from 'node:path';
import type { ShardStatsSnapshot } from '../../indices/index.js';
import { heapPools, mountOf, virtualMemoryBytes, type FsStats } from '../../monitor/index.js';
import type { StatsMetric } from '../indices/stats-xcontent.js';
import { commonStats } from '../indices/stats-xcontent.js';
import type { NodeServices } from '../context.js';
import { putBytes, putMillis, type JsonObject } from './human-fields.js';
import { jsonFloat } from '../../common/json-float.js';
import { byteSizeString } from '../../common/es-units.js';
import { nodeIdentity } from './node-info.js';
import type { NodesStatsRequest } from './nodes-request.js';

export async function localNodeStats(services: NodeServices, request: NodesStatsRequest, human: boolean): Promise<JsonObject> {
  const node = services.localNode;
  const sections = request.sections;
  const out: JsonObject = {
    timestamp: Date.now(),
    ...nodeIdentity(node),
    // NodeStats prints the transport address here, not the bare IP (ES's own quirk).
    ip: `${node.ip}:${node.transportPort}`,
    roles: [...node.roles],
  };
  if (Object.keys(node.attributes).length > 0) out['attributes'] = { ...node.attributes };
  if (sections.has('indices')) out['indices'] = indicesSection(services, request, human);
  if (sections.has('os')) out['os'] = osSection(services, human);
  if (sections.has('process')) out['process'] = processSection(services, human);
  if (sections.has('jvm')) out['jvm'] = runtimeSection(services, human);
  if (sections.has('thread_pool')) out['thread_pool'] = threadPoolSection(services);
  if (sections.has('fs')) out['fs'] = fsSection(await services.monitor.fs(), human);
  if (sections.has('breaker')) out['breakers'] = breakersSection(services);
  // No ingest pipelines exist, so nothing has been ingested: these zeros are the truth.
  if (sections.has('ingest')) out['ingest'] = { total: { count: 0, time_in_millis: 0, current: 0, failed: 0 }, pipelines: {} };
  // Adaptive replica selection tracks other nodes' search response times; no node has been ranked.
  if (sections.has('adaptive_selection')) out['adaptive_selection'] = {};
  return out;
}

function indicesSection(services: NodeServices, request: NodesStatsRequest, human: boolean): JsonObject {
  void human; // CommonStats are printed without their readable twins (see docs/compat.md).
  const shards = services.indices?.service.shardStats() ?? [];
  const metrics: ReadonlySet<StatsMetric> = request.indexMetrics;
  const section: JsonObject = commonStats(shards, metrics);
  if (request.level === 'indices') {
    const byIndex: JsonObject = {};
    for (const [index, copies] of groupByIndex(shards)) byIndex[index] = commonStats(copies, metrics);
    section['indices'] = byIndex;
  } else if (request.level === 'shards') {
    const state = services.clusterService.state();
    const byIndex: JsonObject = {};
    for (const [index, copies] of groupByIndex(shards)) {
      byIndex[index] = [...copies]
        .sort((a, b) => a.shard - b.shard)
        .map((copy) => {
          const routing = state.routing.get(index)?.[copy.shard]?.find((candidate) => candidate.primary === copy.primary);
          return {
            [String(copy.shard)]: {
              routing: {
                state: routing?.state ?? 'STARTED',
                primary: copy.primary,
                node: routing?.nodeId ?? services.localNode.id,
                relocating_node: routing?.relocatingNodeId ?? null,
              },
              ...commonStats([copy], metrics),
            },
          };
        });
    }
    section['shards'] = byIndex;
  }
  return section;
}

function groupByIndex(shards: readonly ShardStatsSnapshot[]): Map<string, ShardStatsSnapshot[]> {
  const groups = new Map<string, ShardStatsSnapshot[]>();
  for (const shard of [...shards].sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0))) {
    const list = groups.get(shard.index);
    if (list === undefined) groups.set(shard.index, [shard]);
    else list.push(shard);
  }
  return groups;
}

function osSection(services: NodeServices, human: boolean): JsonObject {
  const os = services.monitor.os();
  const cpu: JsonObject = { percent: os.cpuPercent };
  if (os.loadAverage) cpu['load_average'] = { '1m': os.loadAverage[0], '5m': os.loadAverage[1], '15m': os.loadAverage[2] };
  const mem: JsonObject = {};
  putBytes(mem, 'total', os.memTotalBytes, human);
  // No cgroup memory limit is read, so the adjusted total is the physical total (ES's default).
  putBytes(mem, 'adjusted_total', os.memTotalBytes, human);
  putBytes(mem, 'free', os.memFreeBytes, human);
  putBytes(mem, 'used', os.memUsedBytes, human);
  mem['free_percent'] = os.memFreePercent;
  mem['used_percent'] = os.memUsedPercent;
  const swap: JsonObject = {};
  putBytes(swap, 'total', os.swapTotalBytes, human);
  putBytes(swap, 'free', os.swapFreeBytes, human);
  putBytes(swap, 'used', os.swapTotalBytes - os.swapFreeBytes, human);
  return { timestamp: os.timestampMillis, cpu, mem, swap };
}

function processSection(services: NodeServices, human: boolean): JsonObject {
  const stats = services.monitor.process();
  const cpu: JsonObject = { percent: stats.cpuPercent };
  putMillis(cpu, 'total', stats.cpuTotalMillis, human);
  const mem: JsonObject = {};
  putBytes(mem, 'total_virtual', virtualMemoryBytes(), human);
  return {
    timestamp: stats.timestampMillis,
    open_file_descriptors: stats.openFileDescriptors,
    max_file_descriptors: stats.maxFileDescriptors,
    cpu,
    mem,
  };
}

function runtimeSection(services: NodeServices, human: boolean): JsonObject {
  const stats = services.monitor.process();
  const section: JsonObject = { timestamp: stats.timestampMillis };
  putMillis(section, 'uptime', stats.uptimeMillis, human);
  const mem: JsonObject = {};
  putBytes(mem, 'heap_used', stats.heapUsedBytes, human);
  mem['heap_used_percent'] = stats.heapUsedPercent;
  putBytes(mem, 'heap_committed', stats.heapCommittedBytes, human);
  putBytes(mem, 'heap_max', stats.heapMaxBytes, human);
  // Resident memory outside the V8 heap (buffers, code, native allocations) is what the process holds.
  putBytes(mem, 'non_heap_used', stats.nonHeapUsedBytes, human);
  putBytes(mem, 'non_heap_committed', stats.nonHeapUsedBytes, human);
  const pools = heapPools();
  const poolJson = (pool: { usedBytes: number; maxBytes: number }): JsonObject => {
    const out: JsonObject = {};
    putBytes(out, 'used', pool.usedBytes, human);
    putBytes(out, 'max', pool.maxBytes, human);
    return out;
  };
  mem['pools'] = { young: poolJson(pools.young), old: poolJson(pools.old) };
  section['mem'] = mem;
  const gc = services.monitor.gc();
  const collector = (c: { collectionCount: number; collectionTimeMillis: number }): JsonObject => {
    const out: JsonObject = { collection_count: c.collectionCount };
    putMillis(out, 'collection_time', c.collectionTimeMillis, human);
    return out;
  };
  section['gc'] = { collectors: { young: collector(gc.young), old: collector(gc.old) } };
  return section;
}

function fsSection(fs: FsStats, human: boolean): JsonObject {
  const totals = (target: JsonObject): JsonObject => {
    putBytes(target, 'total', fs.totalBytes, human);
    putBytes(target, 'free', fs.freeBytes, human);
    putBytes(target, 'available', fs.availableBytes, human);
    return target;
  };
  const mount = mountOf(fs.path);
  const data: JsonObject = { path: resolve(fs.path) };
  if (mount) {
    data['mount'] = `${mount.mountPoint} (${mount.source})`;
    data['type'] = mount.type;
  }
  return { timestamp: Date.now(), total: totals({}), data: [totals(data)] };
}

/** ThreadPoolStats.toXContent: each pool's figures, by pool name. */
function threadPoolSection(services: NodeServices): JsonObject {
  const out: JsonObject = {};
  for (const pool of services.threadPools.stats()) {
    out[pool.name] = { threads: pool.threads, queue: pool.queue, active: pool.active, rejected: pool.rejected, largest: pool.largest, completed: pool.completed };
  }
  return out;
}

/** AllCircuitBreakerStats.toXContent: every child, then the parent; sizes are printed both ways whatever `human`. */
function breakersSection(services: NodeServices): JsonObject {
  const out: JsonObject = {};
  for (const breaker of services.breakers.stats()) {
    out[breaker.name] = {
      limit_size_in_bytes: breaker.limitBytes,
      limit_size: byteSizeString(breaker.limitBytes),
      estimated_size_in_bytes: breaker.estimatedBytes,
      estimated_size: byteSizeString(breaker.estimatedBytes),
      overhead: jsonFloat(breaker.overhead),
      tripped: breaker.tripped,
    };
  }
  return out;
}
