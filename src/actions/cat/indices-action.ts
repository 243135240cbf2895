/**
 * `GET /_cat/indices[/{index}]` (ES 8.19's RestIndicesAction): one row per index with health, status, uuid,
 * shard counts, document counts, store and dataset sizes, and every statistic column (with its `pri.` sibling
 * for `pri=true`), figures from the same shard statistics `_stats` prints (collected from every node). `health=` keeps only indices of that
 * colour.
 */
import { errors } from '../../common/errors.js';
import { cell, defineColumns, type CatColumn, type CatRow } from '../../cat/index.js';
import { computeIndexHealth } from '../../cluster/health/index.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_CLOSED } from '../../cluster/indices-options.js';
import { resolveIndices } from '../indices/resolve-indices.js';
import { collectShardStats } from '../indices/shard-stats-broadcast.js';
import { commonStats, STATS_METRICS, type StatsMetric } from '../indices/stats-xcontent.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';
import { STAT_COLUMNS, statCell } from './stats-columns.js';

const ALL_METRICS = new Set<StatsMetric>(STATS_METRICS);

const withPri = (column: { name: string; aliases: readonly string[]; description: string }): CatColumn<string>[] => [
  { name: column.name, aliases: column.aliases, description: column.description, shownByDefault: false, align: 'right' as const, sibling: 'pri' },
  { name: `pri.${column.name}`, description: column.description, shownByDefault: false, align: 'right' as const },
];

// RestIndicesAction lists memory.total and search.throttled between the suggest and the bulk columns.
const BULK_COLUMNS = STAT_COLUMNS.filter((column) => column.name.startsWith('bulk.'));
const statColumns = STAT_COLUMNS.filter((column) => !column.name.startsWith('bulk.')).flatMap(withPri);
const bulkColumns = BULK_COLUMNS.flatMap(withPri);

/** Vector counts of `_stats` (dense_vector, sparse_vector): Gannet has no vector field types, so they are 0. */
const VECTOR_COLUMNS = [
  { name: 'dense_vector.value_count', aliases: ['dvc', 'denseVectorCount'], description: 'total count of indexed dense vector', path: 'dense_vector.value_count' },
  { name: 'sparse_vector.value_count', aliases: ['svc', 'sparseVectorCount'], description: 'total count of indexed sparse vectors', path: 'sparse_vector.value_count' },
] as const;

export const indicesColumns = defineColumns<string>([
  { name: 'health', aliases: ['h'], description: 'current health status' },
  { name: 'status', aliases: ['s'], description: 'open/close status' },
  { name: 'index', aliases: ['i', 'idx'], description: 'index name' },
  { name: 'uuid', aliases: ['id', 'uuid'], description: 'index uuid' },
  { name: 'pri', aliases: ['p', 'shards.primary', 'shardsPrimary'], align: 'right', description: 'number of primary shards' },
  { name: 'rep', aliases: ['r', 'shards.replica', 'shardsReplica'], align: 'right', description: 'number of replica shards' },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], align: 'right', description: 'available docs' },
  { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], align: 'right', description: 'deleted docs' },
  { name: 'creation.date', aliases: ['cd'], shownByDefault: false, description: 'index creation date (millisecond value)' },
  { name: 'creation.date.string', aliases: ['cds'], shownByDefault: false, description: 'index creation date (as string)' },
  { name: 'store.size', aliases: ['ss', 'storeSize'], align: 'right', sibling: 'pri', description: 'store size of primaries & replicas' },
  { name: 'pri.store.size', align: 'right', description: 'store size of primaries' },
  { name: 'dataset.size', align: 'right', description: 'total size of dataset' },
  ...statColumns,
  { name: 'memory.total', aliases: ['tm', 'memoryTotal'], shownByDefault: false, align: 'right', sibling: 'pri', description: 'total used memory' },
  { name: 'pri.memory.total', shownByDefault: false, align: 'right', description: 'total user memory' },
  { name: 'search.throttled', aliases: ['sth'], shownByDefault: false, description: 'indicates if the index is search throttled' },
  ...bulkColumns,
  ...VECTOR_COLUMNS.flatMap(withPri),
]);

function healthFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower !== 'green' && lower !== 'yellow' && lower !== 'red') throw errors.illegalArgument(`unknown cluster health status [${value}]`);
  return lower;
}

export const catIndicesEndpoint: CatEndpoint<string> = {
  documentation: ['/_cat/indices', '/_cat/indices/{index}'],
  paths: ['/_cat/indices', '/_cat/indices/{index}'],
  action: 'indices:monitor/stats',
  params: ['local', 'master_timeout', 'health', 'include_unloaded_segments', ...INDICES_OPTIONS_PARAMS],
  columns: indicesColumns,
  async rows(request, context) {
    const state = await readClusterState(request, context, { acceptsLocal: true });
    const wanted = healthFilter(request.param('health'));
    request.paramBool('include_unloaded_segments', false);
    const names = resolveIndices(request, state, STRICT_EXPAND_OPEN_CLOSED).sort();
    // The copies' figures from the nodes that hold them (closed indices have none to give).
    const { shards: shardStats } = await collectShardStats(context, state, names.filter((name) => state.indices.get(name)?.state === 'open'));
    const rows: CatRow<string>[] = [];
    for (const name of names) {
      const metadata = state.indices.get(name)!;
      const health = computeIndexHealth(metadata, state.routing.get(name) ?? []);
      if (wanted !== undefined && health.status !== wanted) continue;
      // RestIndicesAction prints a closed index with empty CommonStats: every statistic cell is blank, while the
      // metadata cells and memory.total (a sum over nothing, 0b) keep values.
      const open = metadata.state === 'open';
      const copies = open ? shardStats.filter((shard) => shard.index === name) : [];
      const total = open ? commonStats(copies, ALL_METRICS) : undefined;
      const primaries = open ? commonStats(copies.filter((shard) => shard.primary), ALL_METRICS) : undefined;
      const docs = primaries?.['docs'] as { count: number; deleted: number } | undefined;
      const store = total?.['store'] as { size_in_bytes: number; total_data_set_size_in_bytes: number } | undefined;
      const primaryStore = primaries?.['store'] as { size_in_bytes: number } | undefined;
      const row: Record<string, ReturnType<typeof cell.long>> = {
        health: cell.string(health.status),
        status: cell.string(metadata.state),
        index: cell.string(name),
        uuid: cell.string(metadata.uuid),
        pri: cell.long(metadata.numberOfShards),
        rep: cell.long(metadata.numberOfReplicas),
        'docs.count': cell.maybe(docs?.count, cell.long),
        'docs.deleted': cell.maybe(docs?.deleted, cell.long),
        'creation.date': cell.long(metadata.creationDateMillis),
        'creation.date.string': cell.string(new Date(metadata.creationDateMillis).toISOString()),
        'store.size': cell.maybe(store?.size_in_bytes, cell.bytes),
        'pri.store.size': cell.maybe(primaryStore?.size_in_bytes, cell.bytes),
        'dataset.size': cell.maybe(store?.total_data_set_size_in_bytes, cell.bytes),
        'memory.total': cell.bytes(0),
        'pri.memory.total': cell.bytes(0),
        'search.throttled': cell.string('false'),
      };
      for (const column of [...STAT_COLUMNS, ...VECTOR_COLUMNS.map((vector) => ({ ...vector, kind: 'long' as const }))]) {
        row[column.name] = statCell(column, total);
        row[`pri.${column.name}`] = statCell(column, primaries);
      }
      rows.push(row);
    }
    return rows;
  },
};
