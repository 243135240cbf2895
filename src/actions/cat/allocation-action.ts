/**
 * `GET /_cat/allocation[/{nodes}]`: shards and disk per node (ES 8.19's RestAllocationAction). Data nodes
 * only unless node selectors say otherwise; shard counts come from the routing table, disk figures from each
 * node's data path, and an extra UNASSIGNED row counts the copies no node holds.
 */
import { cell, defineColumns, splitByComma, type CatRow } from '../../cat/index.js';
import { allShardCopies, resolveNodeSelectors, roleLetters, type ClusterState } from '../../cluster/index.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';
import { collectNodeSnapshots, type NodeSnapshot } from './node-snapshot.js';

const UNASSIGNED = 'UNASSIGNED';

export const allocationColumns = defineColumns([
  { name: 'shards', aliases: ['s'], align: 'right', description: 'number of shards on node' },
  {
    name: 'shards.undesired',
    align: 'right',
    description: 'number of shards that are scheduled to be moved elsewhere in the cluster',
  },
  { name: 'write_load.forecast', aliases: ['wlf', 'writeLoadForecast'], align: 'right', description: 'sum of index write load forecasts' },
  { name: 'disk.indices.forecast', aliases: ['dif', 'diskIndicesForecast'], align: 'right', description: 'sum of shard size forecasts' },
  { name: 'disk.indices', aliases: ['di', 'diskIndices'], align: 'right', description: 'disk used by ES indices' },
  { name: 'disk.used', aliases: ['du', 'diskUsed'], align: 'right', description: 'disk used (total, not just ES)' },
  { name: 'disk.avail', aliases: ['da', 'diskAvail'], align: 'right', description: 'disk available' },
  { name: 'disk.total', aliases: ['dt', 'diskTotal'], align: 'right', description: 'total capacity of all volumes' },
  { name: 'disk.percent', aliases: ['dp', 'diskPercent'], align: 'right', description: 'percent disk used' },
  { name: 'host', aliases: ['h'], description: 'host of node' },
  { name: 'ip', description: 'ip of node' },
  { name: 'node', aliases: ['n'], description: 'name of node' },
  { name: 'node.role', aliases: ['r', 'role', 'nodeRole'], description: 'node roles' },
]);

type AllocationColumn = (typeof allocationColumns)[number]['name'];
type AllocationRow = CatRow<AllocationColumn>;

export const allocationEndpoint: CatEndpoint<AllocationColumn> = {
  documentation: ['/_cat/allocation'],
  paths: ['/_cat/allocation', '/_cat/allocation/{nodes}'],
  action: 'cluster:monitor/state',
  params: ['local', 'master_timeout'],
  columns: allocationColumns,
  async rows(request, context) {
    const state = await readClusterState(request, context, { acceptsLocal: true });
    const selectors = splitByComma(request.param('nodes') ?? 'data:true');
    const nodeIds = resolveNodeSelectors(state, context.services.localNode.id, selectors);
    const snapshots = await collectNodeSnapshots(context.services, state, nodeIds);
    return allocationRows(state, nodeIds, snapshots);
  },
};

/** One row per selected node that answered, then the UNASSIGNED row if any copy is unassigned. */
export function allocationRows(
  state: ClusterState,
  nodeIds: readonly string[],
  snapshots: ReadonlyMap<string, NodeSnapshot>,
): AllocationRow[] {
  const shardCounts = new Map<string, number>();
  for (const copy of allShardCopies(state)) {
    // ES's routing table keeps a relocation as one entry, on its source node; skip a separate target entry.
    if (copy.state === 'INITIALIZING' && copy.relocatingNodeId !== undefined) continue;
    const holder = copy.state !== 'UNASSIGNED' && copy.nodeId !== undefined ? copy.nodeId : UNASSIGNED;
    shardCounts.set(holder, (shardCounts.get(holder) ?? 0) + 1);
  }
  const rows: AllocationRow[] = [];
  for (const nodeId of nodeIds) {
    const node = state.nodes.get(nodeId);
    const snapshot = snapshots.get(nodeId);
    if (node === undefined || snapshot === undefined) continue;
    const { fs, indices, allocation } = snapshot.stats;
    const disk = diskUsage(fs.totalBytes, fs.availableBytes);
    rows.push({
      shards: cell.long(shardCounts.get(nodeId) ?? 0),
      'shards.undesired': cell.maybe(allocation?.undesiredShards, cell.long),
      'write_load.forecast': cell.maybe(allocation?.forecastedIngestLoad, cell.double),
      'disk.indices.forecast': cell.maybe(allocation?.forecastedDiskUsageBytes, cell.bytes),
      'disk.indices': cell.bytes(indices.storeSizeBytes),
      'disk.used': disk.usedBytes < 0 ? null : cell.bytes(disk.usedBytes),
      'disk.avail': fs.availableBytes < 0 ? null : cell.bytes(fs.availableBytes),
      'disk.total': fs.totalBytes < 0 ? null : cell.bytes(fs.totalBytes),
      'disk.percent': cell.maybe(disk.percent, cell.long),
      host: cell.string(node.host),
      ip: cell.string(node.ip),
      node: cell.string(node.name),
      'node.role': cell.string(roleLetters(node.roles)),
    });
  }
  const unassigned = shardCounts.get(UNASSIGNED);
  if (unassigned !== undefined) {
    rows.push({
      shards: cell.long(unassigned),
      'shards.undesired': null,
      'write_load.forecast': null,
      'disk.indices.forecast': null,
      'disk.indices': null,
      'disk.used': null,
      'disk.avail': null,
      'disk.total': null,
      'disk.percent': null,
      host: null,
      ip: null,
      node: cell.string(UNASSIGNED),
      'node.role': null,
    });
  }
  return rows;
}

/**
 * ES's arithmetic: used is total minus available (the whole file system, not only Gannet's files); with no
 * known total, used is 0 and the percent unknown; the percent is truncated, `used * 100 / (used + avail)`.
 */
export function diskUsage(totalBytes: number, availableBytes: number): { usedBytes: number; percent: number | undefined } {
  if (totalBytes <= 0) return { usedBytes: 0, percent: undefined };
  const usedBytes = totalBytes - availableBytes;
  if (usedBytes < 0 || availableBytes < 0) return { usedBytes, percent: undefined };
  const capacity = BigInt(usedBytes) + BigInt(availableBytes);
  const percent = capacity === 0n ? undefined : Number((BigInt(usedBytes) * 100n) / capacity);
  return { usedBytes, percent };
}
