/**
 * `GET /_nodes[/{node_id}][/{metric}]` (RestNodesInfoAction, with `/_nodes/{node_id}/info/{metric}`) and
 * `GET /_nodes[/{node_id}]/stats[/{metric}[/{index_metric}]]` (RestNodesStatsAction).
 */
import { json, type Route } from '../rest.js';
import { parseNodesInfoRequest, parseNodesStatsRequest } from './nodes-request.js';
import { nodeTimeoutMillis, nodesResponseBody, onSelectedNodes } from './nodes-fanout.js';
import type { JsonObject } from './human-fields.js';

export const NODES_INFO_NODE_ACTION = 'cluster:monitor/nodes/info[n]';
export const NODES_STATS_NODE_ACTION = 'cluster:monitor/nodes/stats[n]';

const nodesInfoHandler: Route['handler'] = async (request, { services, task }) => {
  const parsed = parseNodesInfoRequest(request);
  const options = { human: request.human, flatSettings: request.paramBool('flat_settings', false) };
  const outcome = await onSelectedNodes<JsonObject>(services, parsed.nodeSelectors, {
    action: NODES_INFO_NODE_ACTION,
    args: { metrics: [...parsed.metrics], options },
    task,
    timeoutMillis: nodeTimeoutMillis(request),
  });
  return json(nodesResponseBody(outcome));
};

const nodesStatsHandler: Route['handler'] = async (request, { services, task }) => {
  const parsed = parseNodesStatsRequest(request);
  const outcome = await onSelectedNodes<JsonObject>(services, parsed.nodeSelectors, {
    action: NODES_STATS_NODE_ACTION,
    args: { request: { ...parsed, sections: [...parsed.sections], indexMetrics: [...parsed.indexMetrics] }, human: request.human },
    task,
    timeoutMillis: nodeTimeoutMillis(request),
  });
  return json(nodesResponseBody(outcome));
};

const INFO_PARAMS = ['flat_settings', 'timeout'];
// `fields`, `completion_fields`, `fielddata_fields`, `groups`, `types`, `include_segment_file_sizes` and
// `include_unloaded_segments` narrow sections whose figures Gannet reports as whole zeros or not at all.
const STATS_PARAMS = [
  'timeout', 'fields', 'completion_fields', 'fielddata_fields', 'groups', 'types', 'include_segment_file_sizes',
  'include_unloaded_segments',
];

const info = (path: string): Route => ({
  method: 'GET',
  path,
  action: 'cluster:monitor/nodes/info',
  params: INFO_PARAMS,
  handler: nodesInfoHandler,
});
const stats = (path: string): Route => ({
  method: 'GET',
  path,
  action: 'cluster:monitor/nodes/stats',
  params: STATS_PARAMS,
  responseParams: ['level'],
  handler: nodesStatsHandler,
});

export const nodesRoutes: Route[] = [
  info('/_nodes'),
  info('/_nodes/{node_id}'),
  info('/_nodes/{node_id}/{metric}'),
  info('/_nodes/{node_id}/info/{metric}'),
  stats('/_nodes/stats'),
  stats('/_nodes/{node_id}/stats'),
  stats('/_nodes/stats/{metric}'),
  stats('/_nodes/{node_id}/stats/{metric}'),
  stats('/_nodes/stats/{metric}/{index_metric}'),
  stats('/_nodes/{node_id}/stats/{metric}/{index_metric}'),
];
