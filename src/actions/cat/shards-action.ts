/**
 * `GET /_cat/shards[/{index}]` (ES 8.19's RestShardsAction): one row per shard copy in the routing table, with
 * its state, docs, store, node, unassigned details, recovery source and the statistic columns of the copy (as
 * its node reports them: shard-stats-broadcast.ts).
 */
import { cell, defineColumns, type CatColumn, type CatRow } from '../../cat/index.js';
import { INDICES_OPTIONS_PARAMS } from '../../cluster/indices-options.js';
import type { IndicesOptions } from '../../cluster/indices-options.js';
import { resolveIndices } from '../indices/resolve-indices.js';
import { collectShardStats } from '../indices/shard-stats-broadcast.js';
import { commonStats, STATS_METRICS, type StatsMetric } from '../indices/stats-xcontent.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';
import { STAT_COLUMNS, statCell } from './stats-columns.js';

const ALL_METRICS = new Set<StatsMetric>(STATS_METRICS);

/** RestShardsAction lists the statistic columns without suggest and memory.total; bulk uses its own alias. */
const SHARD_STAT_COLUMNS = STAT_COLUMNS.filter((column) => !column.name.startsWith('suggest.') && !column.name.startsWith('request_cache.'));

const statColumn = (name: string): CatColumn<string> => {
  const column = SHARD_STAT_COLUMNS.find((candidate) => candidate.name === name)!;
  const aliases = name === 'bulk.total_operations' ? ['bto', 'bulkTotalOperations'] : column.aliases;
  const description = name === 'bulk.avg_size_in_bytes' ? 'avg size in bytes of shard bulk' : column.description;
  return { name, aliases, description, shownByDefault: false, align: 'right' };
};

const before = (prefix: string) => SHARD_STAT_COLUMNS.filter((column) => column.name.startsWith(prefix)).map((column) => statColumn(column.name));

export const shardsColumns = defineColumns<string>([
  { name: 'index', aliases: ['i', 'idx'], description: 'index name' },
  { name: 'shard', aliases: ['s', 'sh'], description: 'shard name' },
  { name: 'prirep', aliases: ['p', 'pr', 'primaryOrReplica'], description: 'primary or replica' },
  { name: 'state', aliases: ['st'], description: 'shard state' },
  { name: 'docs', aliases: ['d', 'dc'], align: 'right', description: 'number of docs in shard' },
  { name: 'store', aliases: ['sto'], align: 'right', description: 'store size of shard (how much disk it uses)' },
  { name: 'dataset', align: 'right', description: 'total size of dataset' },
  { name: 'ip', description: 'ip of node where it lives' },
  { name: 'id', shownByDefault: false, description: 'unique id of node where it lives' },
  { name: 'node', aliases: ['n'], description: 'name of node where it lives' },
  { name: 'sync_id', aliases: ['sync_id'], shownByDefault: false, description: 'sync id' },
  { name: 'unassigned.reason', aliases: ['ur'], shownByDefault: false, description: 'reason shard became unassigned' },
  { name: 'unassigned.at', aliases: ['ua'], shownByDefault: false, description: 'time shard became unassigned (UTC)' },
  { name: 'unassigned.for', aliases: ['uf'], shownByDefault: false, align: 'right', description: 'time has been unassigned' },
  { name: 'unassigned.details', aliases: ['ud'], shownByDefault: false, description: 'additional details as to why the shard became unassigned' },
  { name: 'recoverysource.type', aliases: ['rs'], shownByDefault: false, description: 'recovery source type' },
  ...before('completion.'),
  ...before('fielddata.'),
  ...before('query_cache.'),
  ...before('flush.'),
  ...before('get.'),
  ...before('indexing.'),
  ...before('merges.'),
  ...before('refresh.'),
  ...before('search.'),
  ...before('segments.'),
  { name: 'seq_no.max', aliases: ['sqm', 'maxSeqNo'], shownByDefault: false, align: 'right', description: 'max sequence number' },
  { name: 'seq_no.local_checkpoint', aliases: ['sql', 'localCheckpoint'], shownByDefault: false, align: 'right', description: 'local checkpoint' },
  { name: 'seq_no.global_checkpoint', aliases: ['sqg', 'globalCheckpoint'], shownByDefault: false, align: 'right', description: 'global checkpoint' },
  ...before('warmer.'),
  { name: 'path.data', aliases: ['pd', 'dataPath'], shownByDefault: false, align: 'right', description: 'shard data path' },
  { name: 'path.state', aliases: ['ps', 'statsPath'], shownByDefault: false, align: 'right', description: 'shard state path' },
  { name: 'refresh.is_search_idle', aliases: ['rsi', 'refreshSearchIdle'], shownByDefault: false, align: 'right', description: 'shard idle state' },
  ...before('bulk.'),
  { name: 'dense_vector.value_count', aliases: ['dvc', 'denseVectorCount'], shownByDefault: false, align: 'right', description: 'number of indexed dense vectors in shard' },
  { name: 'sparse_vector.value_count', aliases: ['svc', 'sparseVectorCount'], shownByDefault: false, align: 'right', description: 'number of indexed sparse vectors in shard' },
]);

/** ES's IndicesOptions.strictExpandHidden(): open and closed, hidden included, a missing name fails. */
const STRICT_EXPAND_HIDDEN: IndicesOptions = Object.freeze({
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandOpen: true,
  expandClosed: true,
  expandHidden: true,
  allowAliasesToMultipleIndices: true,
  forbidClosedIndices: false,
  ignoreAliases: false,
  ignoreThrottled: false,
});

/** UnassignedInfo.DATE_TIME_FORMATTER: `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC. */
function unassignedAt(millis: number): string {
  return new Date(millis).toISOString();
}

export const catShardsEndpoint: CatEndpoint<string> = {
  documentation: ['/_cat/shards', '/_cat/shards/{index}'],
  paths: ['/_cat/shards', '/_cat/shards/{index}'],
  action: 'indices:monitor/stats',
  params: ['master_timeout', ...INDICES_OPTIONS_PARAMS],
  columns: shardsColumns,
  async rows(request, context) {
    const state = await readClusterState(request, context, { acceptsLocal: false });
    const names = new Set(resolveIndices(request, state, STRICT_EXPAND_HIDDEN));
    // Each started copy's figures come from its own node.
    const { shards: stats } = await collectShardStats(context, state, [...names]);
    const byCopy = new Map(stats.map((shard) => [`${shard.index}/${shard.shard}/${shard.nodeId}`, shard]));
    const rows: CatRow<string>[] = [];
    const now = Date.now();
    for (const [index, shards] of state.routing) {
      if (!names.has(index)) continue;
      for (const copies of shards) {
        for (const copy of copies) {
          const assigned = copy.state !== 'UNASSIGNED' && copy.nodeId !== undefined;
          const started = copy.state === 'STARTED' || copy.state === 'RELOCATING';
          const snapshot = started && assigned ? byCopy.get(`${index}/${copy.shard}/${copy.nodeId}`) : undefined;
          const common = snapshot === undefined ? undefined : commonStats([snapshot], ALL_METRICS);
          const node = assigned ? state.nodes.get(copy.nodeId!) : undefined;
          const info = copy.unassignedInfo;
          const row: Record<string, ReturnType<typeof cell.long>> = {
            index: cell.string(index),
            shard: cell.long(copy.shard),
            prirep: cell.string(copy.primary ? 'p' : 'r'),
            state: cell.string(copy.state),
            docs: snapshot === undefined ? null : cell.long(snapshot.engine.docs.count),
            store: snapshot === undefined ? null : cell.bytes(snapshot.engine.store.sizeInBytes),
            dataset: snapshot === undefined ? null : cell.bytes(snapshot.engine.store.sizeInBytes),
            ip: node === undefined ? null : cell.string(node.ip),
            id: assigned ? cell.string(copy.nodeId!) : null,
            node: node === undefined ? null : cell.string(node.name),
            sync_id: null,
            'unassigned.reason': info === undefined ? null : cell.string(info.reason),
            'unassigned.at': info === undefined ? null : cell.string(unassignedAt(info.atMillis)),
            'unassigned.for': info === undefined ? null : cell.millis(Math.max(0, now - info.atMillis)),
            'unassigned.details': info?.details === undefined ? null : cell.string(info.details),
            'recoverysource.type': copy.recoverySource === undefined ? null : cell.string(copy.recoverySource.toLowerCase()),
            'seq_no.max': snapshot === undefined ? null : cell.long(snapshot.engine.seqNo.maxSeqNo),
            'seq_no.local_checkpoint': snapshot === undefined ? null : cell.long(snapshot.engine.seqNo.localCheckpoint),
            'seq_no.global_checkpoint': snapshot === undefined ? null : cell.long(snapshot.engine.seqNo.globalCheckpoint),
            'path.data': snapshot === undefined ? null : cell.string(snapshot.path),
            'path.state': snapshot === undefined ? null : cell.string(snapshot.path),
            'refresh.is_search_idle': snapshot === undefined ? null : cell.string(String(snapshot.searchIdle)),
            'dense_vector.value_count': common === undefined ? null : cell.long(0),
            'sparse_vector.value_count': common === undefined ? null : cell.long(0),
          };
          for (const column of SHARD_STAT_COLUMNS) row[column.name] = statCell(column, common);
          rows.push(row);
        }
      }
    }
    return rows;
  },
};
