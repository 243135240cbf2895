/**
 * `GET /_cat/health`: the cluster health as one cat row (ES 8.19's RestHealthAction). It runs the same
 * cluster health as `GET /_cluster/health` with no index and no wait condition, so it answers at once.
 */
import { cell, defineColumns, timestampCells, timestampColumns, type CatRow } from '../../cat/index.js';
import { LENIENT_EXPAND_OPEN_CLOSED_HIDDEN } from '../../cluster/indices-options.js';
import { clusterHealth } from '../cluster/health.js';
import { javaFixed1 } from '../cluster/health-response.js';
import type { CatEndpoint } from './cat-endpoint.js';

export const healthColumns = defineColumns([
  ...timestampColumns,
  { name: 'cluster', aliases: ['cl'], description: 'cluster name' },
  { name: 'status', aliases: ['st'], description: 'health status' },
  { name: 'node.total', aliases: ['nt', 'nodeTotal'], align: 'right', description: 'total number of nodes' },
  { name: 'node.data', aliases: ['nd', 'nodeData'], align: 'right', description: 'number of nodes that can store data' },
  { name: 'shards', aliases: ['t', 'sh', 'shards.total', 'shardsTotal'], align: 'right', description: 'total number of shards' },
  { name: 'pri', aliases: ['p', 'shards.primary', 'shardsPrimary'], align: 'right', description: 'number of primary shards' },
  { name: 'relo', aliases: ['r', 'shards.relocating', 'shardsRelocating'], align: 'right', description: 'number of relocating nodes' },
  { name: 'init', aliases: ['i', 'shards.initializing', 'shardsInitializing'], align: 'right', description: 'number of initializing nodes' },
  { name: 'unassign', aliases: ['u', 'shards.unassigned', 'shardsUnassigned'], align: 'right', description: 'number of unassigned shards' },
  {
    name: 'unassign.pri',
    aliases: ['up', 'shards.unassigned.primary', 'shardsUnassignedPrimary'],
    align: 'right',
    description: 'number of unassigned primary shards',
  },
  { name: 'pending_tasks', aliases: ['pt', 'pendingTasks'], align: 'right', description: 'number of pending tasks' },
  { name: 'max_task_wait_time', aliases: ['mtwt', 'maxTaskWaitTime'], align: 'right', description: 'wait time of longest task pending' },
  { name: 'active_shards_percent', aliases: ['asp', 'activeShardsPercent'], align: 'right', description: 'active number of shards in percent' },
]);

type HealthColumn = (typeof healthColumns)[number]['name'];

export const catHealthEndpoint: CatEndpoint<HealthColumn> = {
  documentation: ['/_cat/health'],
  paths: ['/_cat/health'],
  action: 'cluster:monitor/health',
  params: [],
  columns: healthColumns,
  async rows(_request, { task, services }) {
    const { result } = await clusterHealth(
      { indices: [], indicesOptions: LENIENT_EXPAND_OPEN_CLOSED_HIDDEN, timeoutMillis: 30_000, waitForNoRelocatingShards: false, waitForNoInitializingShards: false },
      services.clusterService,
      task,
    );
    const health = result.health;
    const maxWaitMillis = Math.trunc(result.stats.taskMaxWaitingInQueueMillis);
    const row: CatRow<HealthColumn> = {
      ...timestampCells(Date.now()),
      cluster: cell.string(result.clusterName),
      status: cell.string(result.status),
      'node.total': cell.long(health.numberOfNodes),
      'node.data': cell.long(health.numberOfDataNodes),
      shards: cell.long(health.activeShards),
      pri: cell.long(health.activePrimaryShards),
      relo: cell.long(health.relocatingShards),
      init: cell.long(health.initializingShards),
      unassign: cell.long(health.unassignedShards),
      'unassign.pri': cell.long(health.unassignedPrimaryShards),
      pending_tasks: cell.long(result.stats.numberOfPendingTasks),
      // ES prints "-" rather than "0s" when nothing waits (a string cell, so it sorts as text).
      max_task_wait_time: maxWaitMillis === 0 ? cell.string('-') : cell.millis(maxWaitMillis),
      active_shards_percent: cell.string(`${javaFixed1(health.activeShardsPercent)}%`),
    };
    return [row];
  },
};
