/**
 * `POST /_reindex/{task_id}/_rethrottle`, `/_update_by_query/{task_id}/_rethrottle` and
 * `/_delete_by_query/{task_id}/_rethrottle` (RestRethrottleAction -> TransportRethrottleAction, a tasks action):
 * a new `requests_per_second` (required; -1 for unlimited) for a running bulk-by-scroll task. A worker takes it
 * at once (a faster rate also shortens the pending wait); a sliced leader splits it among its slices still
 * running. The answer is a ListTasksResponse (`group_by` as `_tasks`) with the task's detailed info; a task
 * that is missing or is not a bulk-by-scroll task is a node failure, as in ES.
 */
import { errors, toEsError } from '../../common/errors.js';
import { bulkByScrollStateOf, parseRequestsPerSecond } from '../../reindex/index.js';
import { taskInfoOf, TaskId, type Task, type TaskInfo } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { executeOnTaskNodes } from '../tasks/node-fanout.js';
import type { TaskOperationFailure } from '../tasks/task-json.js';
import type { NodeTasksResult } from '../tasks/node-fanout.js';
import { parseGroupBy, tasksResponseJson } from '../tasks/tasks-response.js';

export const RETHROTTLE_ACTION = 'cluster:admin/reindex/rethrottle';

/** RethrottleRequest's actions: only these tasks can be rethrottled. */
const RETHROTTLEABLE_ACTIONS = new Set(['indices:data/write/reindex', 'indices:data/write/update/byquery', 'indices:data/write/delete/byquery']);

/** processTasks for one target task: it must exist here and be a bulk-by-scroll task. */
function targetTask(services: NodeServices, taskId: TaskId): Task {
  const task = services.taskManager.get(taskId.id);
  if (task === undefined) throw errors.taskMissing(taskId.toString());
  if (!RETHROTTLEABLE_ACTIONS.has(task.action)) throw errors.taskOperationNotSupported(taskId.toString());
  return task;
}

async function handleRethrottle(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const taskId = TaskId.parse(request.param('task_id'));
  const requestsPerSecond = parseRequestsPerSecond(request.param('requests_per_second'));
  if (requestsPerSecond === undefined) throw errors.rethrottleRateRequired();
  const groupBy = parseGroupBy(request.param('group_by'));
  if (taskId === undefined) throw errors.requestValidation(['task id must be set']);
  const args: RethrottleNodeRequest = { taskId: taskId.toString(), requestsPerSecond };
  const response = await executeOnTaskNodes(context.services, context.task, RETHROTTLE_ACTION, { nodes: [], targetTaskId: taskId }, args);
  const nodes = context.services.clusterService.state().nodes;
  return json(tasksResponseJson(response, groupBy, nodes, { human: request.human }));
}

export interface RethrottleNodeRequest {
  readonly taskId: string;
  readonly requestsPerSecond: number;
}

/** The task's node's part (`cluster:admin/reindex/rethrottle[n]`): the new rate for its bulk-by-scroll task. */
export function rethrottleOnNode(services: NodeServices, request: RethrottleNodeRequest): NodeTasksResult {
  const task = targetTask(services, TaskId.parse(request.taskId)!);
  const tasks: TaskInfo[] = [];
  const taskFailures: TaskOperationFailure[] = [];
  try {
    const state = bulkByScrollStateOf(task);
    if (state === undefined) throw errors.rethrottleNotInitialized(task.id);
    state.rethrottle(request.requestsPerSecond);
    tasks.push(taskInfoOf(task, true));
  } catch (err) {
    taskFailures.push({ nodeId: services.localNode.id, taskId: task.id, error: toEsError(err) });
  }
  return { tasks, taskFailures };
}

function route(api: '_reindex' | '_update_by_query' | '_delete_by_query'): Route {
  return {
    method: 'POST',
    path: `/${api}/{task_id}/_rethrottle`,
    action: RETHROTTLE_ACTION,
    params: ['requests_per_second', 'group_by'],
    handler: handleRethrottle,
  };
}

export const rethrottleRoutes: Route[] = [route('_reindex'), route('_update_by_query'), route('_delete_by_query')];
