/**
 * `GET /_cat/pending_tasks` (RestPendingClusterTasksAction) and `GET /_cluster/pending_tasks`: cluster-state
 * updates queued on the master and not yet applied. Gannet's embedded master applies each update as soon as the
 * one before it is persisted and keeps no queue to inspect, so both report no pending task.
 */
import { defineColumns } from '../../cat/index.js';
import { json, type Route } from '../rest.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';

export const pendingTasksColumns = defineColumns([
  { name: 'insertOrder', aliases: ['o'], description: 'task insertion order', align: 'right' },
  { name: 'timeInQueue', aliases: ['t'], description: 'how long task has been in queue', align: 'right' },
  { name: 'priority', aliases: ['p'], description: 'task priority' },
  { name: 'source', aliases: ['s'], description: 'task source' },
]);

export const catPendingTasksEndpoint: CatEndpoint<(typeof pendingTasksColumns)[number]['name']> = {
  documentation: ['/_cat/pending_tasks'],
  paths: ['/_cat/pending_tasks'],
  action: 'cluster:monitor/task',
  params: ['local', 'master_timeout'],
  columns: pendingTasksColumns,
  async rows(request, context) {
    await readClusterState(request, context, { acceptsLocal: true });
    return [];
  },
};

export const clusterPendingTasksRoutes: Route[] = [
  {
    method: 'GET',
    path: '/_cluster/pending_tasks',
    action: 'cluster:monitor/task',
    params: ['local', 'master_timeout'],
    handler: async (request, context) => {
      await readClusterState(request, context, { acceptsLocal: true });
      return json({ tasks: [] });
    },
  },
];
