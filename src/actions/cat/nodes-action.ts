/**
 * `GET /_cat/nodes`: one row per node in the cluster (ES 8.x's RestNodesAction): identity, heap (the V8
 * heap of the node process), machine memory, CPU and load, roles, who is master, and the index statistics
 * behind `h=`. Each node's figures come from its snapshot; a node that did not answer gets null cells.
 */
import { cell, type CatRow } from '../../cat/index.js';
import { roleLetters, type ClusterState, type DiscoveryNode } from '../../cluster/index.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';
import { collectNodeSnapshots, type NodeSnapshot } from './node-snapshot.js';
import { nodesColumns, type NodesColumn } from './nodes-columns.js';

type NodesRow = CatRow<NodesColumn>;

export const nodesEndpoint: CatEndpoint<NodesColumn> = {
  documentation: ['/_cat/nodes'],
  paths: ['/_cat/nodes'],
  action: 'cluster:monitor/nodes/stats',
  params: ['full_id', 'include_unloaded_segments', 'master_timeout'],
  columns: nodesColumns,
  async rows(request, context) {
    const fullId = request.paramBool('full_id', false);
    // Gannet loads every segment it has, so unloaded segments never change a figure; ES still parses it.
    request.paramBool('include_unloaded_segments', false);
    const state = await readClusterState(request, context, { acceptsLocal: false });
    const nodeIds = [...state.nodes.keys()];
    const snapshots = await collectNodeSnapshots(context.services, state, nodeIds);
    return nodeIds.map((nodeId) => nodeRow(state, state.nodes.get(nodeId)!, snapshots.get(nodeId), fullId));
  },
};

export function nodeRow(state: ClusterState, node: DiscoveryNode, snapshot: NodeSnapshot | undefined, fullId: boolean): NodesRow {
  // Object.assign, not `{...a, ...b, ...c}`: V8 spreads a ~90-property object into a literal through one map
  // transition per property, ~1-2 ms per row (the ten-fold cost of `_cat/nodes` against the other ops endpoints).
  return Object.assign(identityCells(state, node, snapshot, fullId), resourceCells(snapshot), indicesCells(snapshot));
}

function identityCells(state: ClusterState, node: DiscoveryNode, snapshot: NodeSnapshot | undefined, fullId: boolean) {
  const info = snapshot?.info;
  const master = state.masterNodeId === undefined ? 'x' : state.masterNodeId === node.id ? '*' : '-';
  return {
    id: cell.string(fullId ? node.id : node.id.slice(0, 4)),
    pid: cell.maybe(info?.pid, cell.long),
    ip: cell.string(node.ip),
    port: cell.long(node.transportPort),
    http_address: cell.string(info?.httpPublishAddress ?? '-'),
    version: cell.string(node.version),
    type: cell.maybe(info?.buildType, cell.string),
    build: cell.maybe(info?.buildHash, cell.string),
    jdk: cell.maybe(info?.runtimeVersion, cell.string),
    'node.role': cell.string(roleLetters(node.roles)),
    master: cell.string(master),
    name: cell.string(node.name),
  } satisfies Partial<NodesRow>;
}

function resourceCells(snapshot: NodeSnapshot | undefined) {
  const stats = snapshot?.stats;
  const fs = stats?.fs;
  const os = stats?.os;
  const process = stats?.process;
  const load = os?.loadAverage;
  const loadCell = (index: number) => {
    const value = load?.[index];
    return value === undefined || value === -1 ? null : cell.fixed2(value);
  };
  return {
    'disk.total': cell.maybe(fs?.totalBytes, cell.bytes),
    'disk.used': fs ? cell.bytes(fs.totalBytes - fs.availableBytes) : null,
    'disk.avail': cell.maybe(fs?.availableBytes, cell.bytes),
    // ES reports a file system of unknown size as full.
    'disk.used_percent': fs ? cell.fixed2(fs.totalBytes === 0 ? 100 : (100 * (fs.totalBytes - fs.availableBytes)) / fs.totalBytes) : null,
    'heap.current': cell.maybe(process?.heapUsedBytes, cell.bytes),
    'heap.percent': cell.maybe(process?.heapUsedPercent, cell.long),
    'heap.max': cell.maybe(snapshot?.info.heapMaxBytes, cell.bytes),
    'ram.current': cell.maybe(os?.memUsedBytes, cell.bytes),
    'ram.percent': cell.maybe(os?.memUsedPercent, cell.long),
    'ram.max': cell.maybe(os?.memTotalBytes, cell.bytes),
    'file_desc.current': cell.maybe(process?.openFileDescriptors, cell.long),
    'file_desc.percent': process ? cell.long(percentage(process.openFileDescriptors, process.maxFileDescriptors)) : null,
    'file_desc.max': cell.maybe(process?.maxFileDescriptors, cell.long),
    // ES passes the CPU percent as a string (Short.toString), so it also sorts as one.
    cpu: cell.maybe(os?.cpuPercent, (percent) => cell.string(String(percent))),
    load_1m: loadCell(0),
    load_5m: loadCell(1),
    load_15m: loadCell(2),
    uptime: cell.maybe(process?.uptimeMillis, cell.millis),
  } satisfies Partial<NodesRow>;
}

/** ES's RestNodesAction.calculatePercentage: 0 when the maximum is unknown, else truncated. */
function percentage(used: number, max: number): number {
  return max <= 0 ? 0 : Math.trunc((100 * used) / max);
}

function indicesCells(snapshot: NodeSnapshot | undefined) {
  const indices = snapshot?.stats.indices;
  const script = snapshot?.stats.script;
  const long = (value: number | undefined) => cell.maybe(value, cell.long);
  const bytes = (value: number | undefined) => cell.maybe(value, cell.bytes);
  const millis = (value: number | undefined) => cell.maybe(value, cell.millis);
  return {
    'completion.size': bytes(indices?.completionSizeBytes),
    'fielddata.memory_size': bytes(indices?.fielddata.memorySizeBytes),
    'fielddata.evictions': long(indices?.fielddata.evictions),
    'query_cache.memory_size': bytes(indices?.queryCache.memorySizeBytes),
    'query_cache.evictions': long(indices?.queryCache.evictions),
    'query_cache.hit_count': long(indices?.queryCache.hitCount),
    'query_cache.miss_count': long(indices?.queryCache.missCount),
    'request_cache.memory_size': bytes(indices?.requestCache.memorySizeBytes),
    'request_cache.evictions': long(indices?.requestCache.evictions),
    'request_cache.hit_count': long(indices?.requestCache.hitCount),
    'request_cache.miss_count': long(indices?.requestCache.missCount),
    'flush.total': long(indices?.flush.total),
    'flush.total_time': millis(indices?.flush.totalTimeMillis),
    'get.current': long(indices?.get.current),
    'get.time': millis(indices?.get.timeMillis),
    'get.total': long(indices?.get.total),
    'get.exists_time': millis(indices?.get.existsTimeMillis),
    'get.exists_total': long(indices?.get.existsTotal),
    'get.missing_time': millis(indices?.get.missingTimeMillis),
    'get.missing_total': long(indices?.get.missingTotal),
    'indexing.delete_current': long(indices?.indexing.deleteCurrent),
    'indexing.delete_time': millis(indices?.indexing.deleteTimeMillis),
    'indexing.delete_total': long(indices?.indexing.deleteTotal),
    'indexing.index_current': long(indices?.indexing.indexCurrent),
    'indexing.index_time': millis(indices?.indexing.indexTimeMillis),
    'indexing.index_total': long(indices?.indexing.indexTotal),
    'indexing.index_failed': long(indices?.indexing.indexFailed),
    'indexing.index_failed_due_to_version_conflict': long(indices?.indexing.indexFailedDueToVersionConflict),
    'merges.current': long(indices?.merges.current),
    'merges.current_docs': long(indices?.merges.currentDocs),
    'merges.current_size': bytes(indices?.merges.currentSizeBytes),
    'merges.total': long(indices?.merges.total),
    'merges.total_docs': long(indices?.merges.totalDocs),
    'merges.total_size': bytes(indices?.merges.totalSizeBytes),
    'merges.total_time': millis(indices?.merges.totalTimeMillis),
    'refresh.total': long(indices?.refresh.total),
    'refresh.time': millis(indices?.refresh.totalTimeMillis),
    'refresh.external_total': long(indices?.refresh.externalTotal),
    'refresh.external_time': millis(indices?.refresh.externalTotalTimeMillis),
    'refresh.listeners': long(indices?.refresh.listeners),
    'script.compilations': long(script?.compilations),
    'script.cache_evictions': long(script?.cacheEvictions),
    'script.compilation_limit_triggered': long(script?.compilationLimitTriggered),
    'search.fetch_current': long(indices?.search.fetchCurrent),
    'search.fetch_time': millis(indices?.search.fetchTimeMillis),
    'search.fetch_total': long(indices?.search.fetchTotal),
    'search.open_contexts': long(indices?.search.openContexts),
    'search.query_current': long(indices?.search.queryCurrent),
    'search.query_time': millis(indices?.search.queryTimeMillis),
    'search.query_total': long(indices?.search.queryTotal),
    'search.scroll_current': long(indices?.search.scrollCurrent),
    'search.scroll_time': millis(indices?.search.scrollTimeMillis),
    'search.scroll_total': long(indices?.search.scrollTotal),
    'segments.count': long(indices?.segments.count),
    // ES stopped tracking segment memory and always prints 0b.
    'segments.memory': indices ? cell.bytes(0) : null,
    'segments.index_writer_memory': bytes(indices?.segments.indexWriterMemoryBytes),
    'segments.version_map_memory': bytes(indices?.segments.versionMapMemoryBytes),
    'segments.fixed_bitset_memory': bytes(indices?.segments.fixedBitSetMemoryBytes),
    'suggest.current': long(indices?.search.suggestCurrent),
    'suggest.time': millis(indices?.search.suggestTimeMillis),
    'suggest.total': long(indices?.search.suggestTotal),
    'bulk.total_operations': long(indices?.bulk.totalOperations),
    'bulk.total_time': millis(indices?.bulk.totalTimeMillis),
    // A plain number in ES (not a byte size), despite the name.
    'bulk.total_size_in_bytes': long(indices?.bulk.totalSizeInBytes),
    'bulk.avg_time': millis(indices?.bulk.avgTimeMillis),
    'bulk.avg_size_in_bytes': long(indices?.bulk.avgSizeInBytes),
    'shard_stats.total_count': long(indices?.shardCount),
    'mappings.total_count': long(indices?.mappings.totalCount),
    'mappings.total_estimated_overhead_in_bytes': bytes(indices?.mappings.totalEstimatedOverheadBytes),
  } satisfies Partial<NodesRow>;
}
