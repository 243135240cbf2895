/**
 * Renders a health result in the exact field order of ES 8.19's ClusterHealthResponse.toXContent (with
 * ClusterIndexHealth / ClusterShardHealth below it). `human` adds the readable time and percentage right
 * before their raw fields, as XContentBuilder.humanReadableField / percentageField do.
 */
import { jsonFloat, javaDoubleString } from '../../common/json-float.js';
import { defaultText } from '../../cat/index.js';
import type { ClusterHealthResult, IndexHealth, ShardHealth } from '../../cluster/health/index.js';
import type { HealthLevel } from './health-params.js';

export function renderHealth(result: ClusterHealthResult, timedOut: boolean, level: HealthLevel, human: boolean): Record<string, unknown> {
  const health = result.health;
  const body: Record<string, unknown> = {
    cluster_name: result.clusterName,
    status: result.status,
    timed_out: timedOut,
    number_of_nodes: health.numberOfNodes,
    number_of_data_nodes: health.numberOfDataNodes,
    active_primary_shards: health.activePrimaryShards,
    active_shards: health.activeShards,
    relocating_shards: health.relocatingShards,
    initializing_shards: health.initializingShards,
    unassigned_shards: health.unassignedShards,
    unassigned_primary_shards: health.unassignedPrimaryShards,
    delayed_unassigned_shards: result.delayedUnassignedShards,
    number_of_pending_tasks: result.stats.numberOfPendingTasks,
    number_of_in_flight_fetch: result.stats.numberOfInFlightFetch,
  };
  const maxWaitMillis = Math.trunc(result.stats.taskMaxWaitingInQueueMillis);
  if (human) body['task_max_waiting_in_queue'] = humanTime(maxWaitMillis);
  body['task_max_waiting_in_queue_millis'] = maxWaitMillis;
  if (human) body['active_shards_percent'] = `${javaFixed1(health.activeShardsPercent)}%`;
  body['active_shards_percent_as_number'] = jsonFloat(health.activeShardsPercent);
  if (level !== 'cluster') {
    // Plain objects (not Maps) so filter_path can reach inside; an all-digit index name would sort first.
    const indices: Record<string, unknown> = {};
    for (const index of health.indices) indices[index.index] = renderIndex(index, level);
    body['indices'] = indices;
  }
  return body;
}

function renderIndex(index: IndexHealth, level: HealthLevel): Record<string, unknown> {
  const body: Record<string, unknown> = {
    status: index.status,
    number_of_shards: index.numberOfShards,
    number_of_replicas: index.numberOfReplicas,
    active_primary_shards: index.activePrimaryShards,
    active_shards: index.activeShards,
    relocating_shards: index.relocatingShards,
    initializing_shards: index.initializingShards,
    unassigned_shards: index.unassignedShards,
    unassigned_primary_shards: index.unassignedPrimaryShards,
  };
  if (level === 'shards') {
    const shards: Record<string, unknown> = {};
    for (const shard of index.shards) shards[String(shard.shardId)] = renderShard(shard);
    body['shards'] = shards;
  }
  return body;
}

function renderShard(shard: ShardHealth): Record<string, unknown> {
  return {
    status: shard.status,
    primary_active: shard.primaryActive,
    active_shards: shard.activeShards,
    relocating_shards: shard.relocatingShards,
    initializing_shards: shard.initializingShards,
    unassigned_shards: shard.unassignedShards,
    unassigned_primary_shards: shard.unassignedPrimaryShards,
  };
}

/** TimeValue.toString() of a millisecond count ("0s", "422ms", "1.5s": one truncated decimal), as cat prints it. */
function humanTime(millis: number): string {
  return defaultText({ kind: 'time', duration: millis, unitNanos: 1e6 });
}

/**
 * Java's String.format("%1.1f", value): HALF_UP rounding of the value's shortest decimal form (Java rounds
 * 0.15 to 0.2 where JavaScript's toFixed, working on the binary value, gives 0.1).
 */
export function javaFixed1(value: number): string {
  if (!Number.isFinite(value)) return javaDoubleString(value);
  const text = Math.abs(value).toString();
  if (text.includes('e')) return value.toFixed(1);
  const [whole, fraction = ''] = text.split('.');
  let scaled = BigInt(whole! + (fraction + '0').slice(0, 1));
  if ((fraction[1] ?? '0') >= '5') scaled += 1n;
  const digits = scaled.toString().padStart(2, '0');
  const sign = value < 0 && scaled !== 0n ? '-' : '';
  return `${sign}${digits.slice(0, -1)}.${digits.slice(-1)}`;
}
