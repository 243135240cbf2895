/**
 * `GET /_stats[/{metric}]`, `GET /{index}/_stats[/{metric}]` (RestIndicesStatsAction): per-index `primaries`
 * and `total` statistics from the shard copies' engines and counters, `_all` over every resolved index, and
 * with `level=shards` each copy's figures with its routing. Metric names are checked as ES checks them. The
 * copies' figures come from the nodes that hold them (`indices:monitor/stats[n]`, broadcast-by-node.ts).
 */
import { errors } from '../../common/errors.js';
import { levenshteinSimilarity } from '../../common/levenshtein.js';
import { computeIndexHealth } from '../../cluster/health/index.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN, STRICT_EXPAND_OPEN_FORBID_CLOSED, splitCommaLikeJava } from '../../cluster/indices-options.js';
import { PEER_RECOVERY_LEASE_SOURCE, type ShardStatsSnapshot } from '../../indices/index.js';
import { json, type RestRequest, type Route } from '../rest.js';
import { resolveIndices } from './resolve-indices.js';
import { shardsBody } from './broadcast-actions.js';
import { collectShardStats, INDICES_STATS_ACTION } from './shard-stats-broadcast.js';
import { commonStats, STATS_METRICS, type StatsMetric } from './stats-xcontent.js';

function parseMetrics(request: RestRequest): Set<StatsMetric> {
  const raw = request.pathParams['metric'];
  const all = new Set<StatsMetric>(STATS_METRICS.filter((metric) => metric !== 'mappings'));
  if (raw === undefined) return all;
  const names = splitCommaLikeJava(raw);
  if (names.length === 1 && names[0] === '_all') return all;
  if (names.includes('_all')) throw errors.illegalArgument(`request [${request.path}] contains _all and individual metrics [${names.join(',')}]`);
  const unknown = names.filter((name) => !(STATS_METRICS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    const parts = unknown.map((name) => {
      const similar = STATS_METRICS.filter((candidate) => levenshteinSimilarity(name, candidate) > 0.5);
      if (similar.length === 1) return `[${name}] -> did you mean [${similar[0]}]?`;
      if (similar.length > 1) return `[${name}] -> did you mean any of [${similar.join(', ')}]?`;
      return `[${name}]`;
    });
    throw errors.illegalArgument(`request [${request.path}] contains unrecognized metric${unknown.length === 1 ? '' : 's'}: ${parts.join(', ')}`);
  }
  return new Set(names as StatsMetric[]);
}

const statsHandler: Route['handler'] = async (request, context) => {
  const level = request.param('level') ?? 'indices';
  if (!['cluster', 'indices', 'shards'].includes(level)) {
    throw errors.illegalArgument(`level parameter must be one of [cluster] or [indices] or [shards] but was [${level}]`);
  }
  const metrics = parseMetrics(request);
  const state = context.services.clusterService.state();
  // RestIndicesStatsAction: a named closed index fails unless `forbid_closed_indices=false` asks to include it.
  const defaults = request.paramBool('forbid_closed_indices', true) ? STRICT_EXPAND_OPEN_FORBID_CLOSED : STRICT_EXPAND_OPEN;
  const names = resolveIndices(request, state, defaults).sort();
  const collected = await collectShardStats(context, state, names);
  const byIndex = new Map<string, Array<ShardStatsSnapshot & { nodeId: string }>>();
  for (const shard of collected.shards) {
    let list = byIndex.get(shard.index);
    if (list === undefined) byIndex.set(shard.index, (list = []));
    list.push(shard);
  }
  const allShards = collected.shards;
  const body: Record<string, unknown> = {
    ...shardsBody(collected.outcome),
    _all: {
      primaries: commonStats(allShards.filter((shard) => shard.primary), metrics),
      total: commonStats(allShards, metrics),
    },
  };
  if (level === 'cluster') return json(body);
  const indices: Record<string, unknown> = {};
  for (const name of names) {
    const metadata = state.indices.get(name)!;
    const shards = byIndex.get(name) ?? [];
    const entry: Record<string, unknown> = {
      uuid: metadata.uuid,
      health: computeIndexHealth(metadata, state.routing.get(name) ?? []).status,
      status: metadata.state,
      primaries: commonStats(shards.filter((shard) => shard.primary), metrics),
      total: commonStats(shards, metrics),
    };
    if (level === 'shards') {
      const perShard: Record<string, unknown[]> = {};
      for (const shard of [...shards].sort((a, b) => a.shard - b.shard || Number(b.primary) - Number(a.primary))) {
        const copy = state.routing.get(name)?.[shard.shard]?.find((candidate) => candidate.nodeId === shard.nodeId);
        const list = (perShard[String(shard.shard)] ??= []);
        list.push({
          routing: { state: copy?.state ?? 'STARTED', primary: shard.primary, node: shard.nodeId, relocating_node: copy?.relocatingNodeId ?? null },
          ...commonStats([shard], metrics),
          seq_no: {
            max_seq_no: shard.engine.seqNo.maxSeqNo,
            local_checkpoint: shard.engine.seqNo.localCheckpoint,
            global_checkpoint: shard.engine.seqNo.globalCheckpoint,
          },
          retention_leases: {
            primary_term: shard.retentionLeases.primaryTerm,
            version: shard.retentionLeases.version,
            leases: shard.retentionLeases.leases.map((lease) => ({
              id: lease.id,
              retaining_seq_no: lease.retainingSeqNo,
              timestamp: lease.timestampMillis,
              source: PEER_RECOVERY_LEASE_SOURCE,
            })),
          },
          shard_path: { state_path: shard.path, data_path: shard.path, is_custom_data_path: false },
          // ES 8.x's ShardStats: whether the copy is search-idle and for how long nobody searched it (decision 0025).
          search_idle: shard.searchIdle,
          search_idle_time: shard.searchIdleTimeMillis,
        });
      }
      entry['shards'] = perShard;
    }
    indices[name] = entry;
  }
  body['indices'] = indices;
  return json(body);
};

const STATS_PARAMS = [
  'level', 'fields', 'completion_fields', 'fielddata_fields', 'groups', 'include_segment_file_sizes', 'include_unloaded_segments',
  'forbid_closed_indices', ...INDICES_OPTIONS_PARAMS,
];

export const statsRoutes: Route[] = [
  { method: 'GET', path: '/_stats', action: INDICES_STATS_ACTION, params: STATS_PARAMS, handler: statsHandler },
  { method: 'GET', path: '/_stats/{metric}', action: INDICES_STATS_ACTION, params: STATS_PARAMS, handler: statsHandler },
  { method: 'GET', path: '/{index}/_stats', action: INDICES_STATS_ACTION, params: STATS_PARAMS, handler: statsHandler },
  { method: 'GET', path: '/{index}/_stats/{metric}', action: INDICES_STATS_ACTION, params: STATS_PARAMS, handler: statsHandler },
];
