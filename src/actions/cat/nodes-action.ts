/**
 * `GET /_cat/nodes`: one row per node in the cluster (ES 8.x's RestNodesAction): identity, heap (the V8
 * heap of the node process), machine memory, CPU and load, roles, who is master, and the index statistics
 * behind `h=`. Each node's figures come from its snapshot; a node that did not answer gets null cells.
 * Each column is a function of the row's source, so only the cells a request prints (10 of ~90 by default) or
 * sorts on are made (decision 0022).
 */
import { cell, cellsOfSources, rowOfSource, type CatCell, type CatCellFunctions, type CatRow } from '../../cat/index.js';
import { roleLetters, type ClusterState, type DiscoveryNode } from '../../cluster/index.js';
import type { NodeIndicesStats } from '../../monitor/index.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';
import { collectNodeSnapshots, type NodeSnapshot } from './node-snapshot.js';
import { nodesColumns, type NodesColumn } from './nodes-columns.js';

/** What a row is made from. */
interface NodeRowSource {
  readonly state: ClusterState;
  readonly node: DiscoveryNode;
  /** Undefined for a node that did not answer: its figures print as null cells. */
  readonly snapshot: NodeSnapshot | undefined;
  readonly fullId: boolean;
}

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
    const sources = nodeIds.map((nodeId): NodeRowSource => ({ state, node: state.nodes.get(nodeId)!, snapshot: snapshots.get(nodeId), fullId }));
    return cellsOfSources(sources, NODE_CELLS);
  },
};

/** Every cell of one node's row (tests read whole rows). */
export function nodeRow(state: ClusterState, node: DiscoveryNode, snapshot: NodeSnapshot | undefined, fullId: boolean): CatRow<NodesColumn> {
  return rowOfSource(nodesColumns, NODE_CELLS, { state, node, snapshot, fullId });
}

const info = (source: NodeRowSource) => source.snapshot?.info;
const os = (source: NodeRowSource) => source.snapshot?.stats.os;
const proc = (source: NodeRowSource) => source.snapshot?.stats.process;
const fs = (source: NodeRowSource) => source.snapshot?.stats.fs;
const indices = (source: NodeRowSource) => source.snapshot?.stats.indices;
const script = (source: NodeRowSource) => source.snapshot?.stats.script;

function loadCell(source: NodeRowSource, index: number): CatCell {
  const value = os(source)?.loadAverage?.[index];
  return value === undefined || value === -1 ? null : cell.fixed2(value);
}

/** ES's RestNodesAction.calculatePercentage: 0 when the maximum is unknown, else truncated. */
function percentage(used: number, max: number): number {
  return max <= 0 ? 0 : Math.trunc((100 * used) / max);
}

/** A column of the index statistics: `read` picks the figure, `make` the cell type. */
function stat(read: (stats: NodeIndicesStats) => number, make: (value: number) => CatCell): (source: NodeRowSource) => CatCell {
  return (source) => {
    const stats = indices(source);
    return stats === undefined ? null : cell.maybe(read(stats), make);
  };
}
const long = (read: (stats: NodeIndicesStats) => number) => stat(read, cell.long);
const bytes = (read: (stats: NodeIndicesStats) => number) => stat(read, cell.bytes);
const millis = (read: (stats: NodeIndicesStats) => number) => stat(read, cell.millis);

const NODE_CELLS: CatCellFunctions<NodesColumn, NodeRowSource> = {
  // Identity.
  id: ({ node, fullId }) => cell.string(fullId ? node.id : node.id.slice(0, 4)),
  pid: (source) => cell.maybe(info(source)?.pid, cell.long),
  ip: ({ node }) => cell.string(node.ip),
  port: ({ node }) => cell.long(node.transportPort),
  http_address: (source) => cell.string(info(source)?.httpPublishAddress ?? '-'),
  version: ({ node }) => cell.string(node.version),
  type: (source) => cell.maybe(info(source)?.buildType, cell.string),
  build: (source) => cell.maybe(info(source)?.buildHash, cell.string),
  jdk: (source) => cell.maybe(info(source)?.runtimeVersion, cell.string),
  'node.role': ({ node }) => cell.string(roleLetters(node.roles)),
  master: ({ state, node }) => cell.string(state.masterNodeId === undefined ? 'x' : state.masterNodeId === node.id ? '*' : '-'),
  name: ({ node }) => cell.string(node.name),
  // Resources.
  'disk.total': (source) => cell.maybe(fs(source)?.totalBytes, cell.bytes),
  'disk.used': (source) => {
    const disk = fs(source);
    return disk ? cell.bytes(disk.totalBytes - disk.availableBytes) : null;
  },
  'disk.avail': (source) => cell.maybe(fs(source)?.availableBytes, cell.bytes),
  // ES reports a file system of unknown size as full.
  'disk.used_percent': (source) => {
    const disk = fs(source);
    return disk ? cell.fixed2(disk.totalBytes === 0 ? 100 : (100 * (disk.totalBytes - disk.availableBytes)) / disk.totalBytes) : null;
  },
  'heap.current': (source) => cell.maybe(proc(source)?.heapUsedBytes, cell.bytes),
  'heap.percent': (source) => cell.maybe(proc(source)?.heapUsedPercent, cell.long),
  'heap.max': (source) => cell.maybe(info(source)?.heapMaxBytes, cell.bytes),
  'ram.current': (source) => cell.maybe(os(source)?.memUsedBytes, cell.bytes),
  'ram.percent': (source) => cell.maybe(os(source)?.memUsedPercent, cell.long),
  'ram.max': (source) => cell.maybe(os(source)?.memTotalBytes, cell.bytes),
  'file_desc.current': (source) => cell.maybe(proc(source)?.openFileDescriptors, cell.long),
  'file_desc.percent': (source) => {
    const process = proc(source);
    return process ? cell.long(percentage(process.openFileDescriptors, process.maxFileDescriptors)) : null;
  },
  'file_desc.max': (source) => cell.maybe(proc(source)?.maxFileDescriptors, cell.long),
  // ES passes the CPU percent as a string (Short.toString), so it also sorts as one.
  cpu: (source) => cell.maybe(os(source)?.cpuPercent, (percent) => cell.string(String(percent))),
  load_1m: (source) => loadCell(source, 0),
  load_5m: (source) => loadCell(source, 1),
  load_15m: (source) => loadCell(source, 2),
  uptime: (source) => cell.maybe(proc(source)?.uptimeMillis, cell.millis),
  // Index statistics.
  'completion.size': bytes((s) => s.completionSizeBytes),
  'fielddata.memory_size': bytes((s) => s.fielddata.memorySizeBytes),
  'fielddata.evictions': long((s) => s.fielddata.evictions),
  'query_cache.memory_size': bytes((s) => s.queryCache.memorySizeBytes),
  'query_cache.evictions': long((s) => s.queryCache.evictions),
  'query_cache.hit_count': long((s) => s.queryCache.hitCount),
  'query_cache.miss_count': long((s) => s.queryCache.missCount),
  'request_cache.memory_size': bytes((s) => s.requestCache.memorySizeBytes),
  'request_cache.evictions': long((s) => s.requestCache.evictions),
  'request_cache.hit_count': long((s) => s.requestCache.hitCount),
  'request_cache.miss_count': long((s) => s.requestCache.missCount),
  'flush.total': long((s) => s.flush.total),
  'flush.total_time': millis((s) => s.flush.totalTimeMillis),
  'get.current': long((s) => s.get.current),
  'get.time': millis((s) => s.get.timeMillis),
  'get.total': long((s) => s.get.total),
  'get.exists_time': millis((s) => s.get.existsTimeMillis),
  'get.exists_total': long((s) => s.get.existsTotal),
  'get.missing_time': millis((s) => s.get.missingTimeMillis),
  'get.missing_total': long((s) => s.get.missingTotal),
  'indexing.delete_current': long((s) => s.indexing.deleteCurrent),
  'indexing.delete_time': millis((s) => s.indexing.deleteTimeMillis),
  'indexing.delete_total': long((s) => s.indexing.deleteTotal),
  'indexing.index_current': long((s) => s.indexing.indexCurrent),
  'indexing.index_time': millis((s) => s.indexing.indexTimeMillis),
  'indexing.index_total': long((s) => s.indexing.indexTotal),
  'indexing.index_failed': long((s) => s.indexing.indexFailed),
  'indexing.index_failed_due_to_version_conflict': long((s) => s.indexing.indexFailedDueToVersionConflict),
  'merges.current': long((s) => s.merges.current),
  'merges.current_docs': long((s) => s.merges.currentDocs),
  'merges.current_size': bytes((s) => s.merges.currentSizeBytes),
  'merges.total': long((s) => s.merges.total),
  'merges.total_docs': long((s) => s.merges.totalDocs),
  'merges.total_size': bytes((s) => s.merges.totalSizeBytes),
  'merges.total_time': millis((s) => s.merges.totalTimeMillis),
  'refresh.total': long((s) => s.refresh.total),
  'refresh.time': millis((s) => s.refresh.totalTimeMillis),
  'refresh.external_total': long((s) => s.refresh.externalTotal),
  'refresh.external_time': millis((s) => s.refresh.externalTotalTimeMillis),
  'refresh.listeners': long((s) => s.refresh.listeners),
  'script.compilations': (source) => cell.maybe(script(source)?.compilations, cell.long),
  'script.cache_evictions': (source) => cell.maybe(script(source)?.cacheEvictions, cell.long),
  'script.compilation_limit_triggered': (source) => cell.maybe(script(source)?.compilationLimitTriggered, cell.long),
  'search.fetch_current': long((s) => s.search.fetchCurrent),
  'search.fetch_time': millis((s) => s.search.fetchTimeMillis),
  'search.fetch_total': long((s) => s.search.fetchTotal),
  'search.open_contexts': long((s) => s.search.openContexts),
  'search.query_current': long((s) => s.search.queryCurrent),
  'search.query_time': millis((s) => s.search.queryTimeMillis),
  'search.query_total': long((s) => s.search.queryTotal),
  'search.scroll_current': long((s) => s.search.scrollCurrent),
  'search.scroll_time': millis((s) => s.search.scrollTimeMillis),
  'search.scroll_total': long((s) => s.search.scrollTotal),
  'segments.count': long((s) => s.segments.count),
  // ES stopped tracking segment memory and always prints 0b.
  'segments.memory': bytes(() => 0),
  'segments.index_writer_memory': bytes((s) => s.segments.indexWriterMemoryBytes),
  'segments.version_map_memory': bytes((s) => s.segments.versionMapMemoryBytes),
  'segments.fixed_bitset_memory': bytes((s) => s.segments.fixedBitSetMemoryBytes),
  'suggest.current': long((s) => s.search.suggestCurrent),
  'suggest.time': millis((s) => s.search.suggestTimeMillis),
  'suggest.total': long((s) => s.search.suggestTotal),
  'bulk.total_operations': long((s) => s.bulk.totalOperations),
  'bulk.total_time': millis((s) => s.bulk.totalTimeMillis),
  // A plain number in ES (not a byte size), despite the name.
  'bulk.total_size_in_bytes': long((s) => s.bulk.totalSizeInBytes),
  'bulk.avg_time': millis((s) => s.bulk.avgTimeMillis),
  'bulk.avg_size_in_bytes': long((s) => s.bulk.avgSizeInBytes),
  'shard_stats.total_count': long((s) => s.shardCount),
  'mappings.total_count': long((s) => s.mappings.totalCount),
  'mappings.total_estimated_overhead_in_bytes': bytes((s) => s.mappings.totalEstimatedOverheadBytes),
};
