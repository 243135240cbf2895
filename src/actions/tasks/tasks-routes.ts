/**
 * The task management REST API: `GET /_tasks`, `GET /_tasks/{task_id}`, `POST /_tasks/_cancel` and
 * `POST /_tasks/{task_id}/_cancel`, with the parameters ES's RestListTasksAction, RestGetTaskAction and
 * RestCancelTasksAction read. Parameters are read in ES's order so that bad input meets the same first error.
 */
import { errors } from '../../common/errors.js';
import { splitByComma } from '../../cat/index.js';
import { TaskId } from '../../tasks/index.js';
import { json, type RestRequest, type Route } from '../rest.js';
import type { ActionContext } from '../rest.js';
import { cancelTasks, CANCEL_TASKS_ACTION, DEFAULT_CANCEL_REASON } from './cancel-tasks.js';
import { getTask, GET_TASK_ACTION } from './get-task.js';
import { LIST_TASKS_ACTION, LIST_TASKS_PARAMS, listTasks, parseListTasksRequest } from './list-tasks.js';
import { taskInfoJson } from './task-json.js';
import { catTasksRoute } from './cat-tasks.js';
import { parseGroupBy, tasksResponseJson, type GroupBy, type TasksResponse } from './tasks-response.js';

function respond(request: RestRequest, context: ActionContext, response: TasksResponse, groupBy: GroupBy) {
  const nodes = context.services.clusterService.state().nodes;
  return json(tasksResponseJson(response, groupBy, nodes, { human: request.human }));
}

const listRoute: Route = {
  method: 'GET',
  path: '/_tasks',
  action: LIST_TASKS_ACTION,
  params: [...LIST_TASKS_PARAMS, 'group_by'],
  handler: async (request, context) => {
    const parsed = parseListTasksRequest(request);
    const groupBy = parseGroupBy(request.param('group_by'));
    // Grouped by node or not grouped, every node writes its own tasks' JSON (the response is spliced together here);
    // grouped by parents, a task's children may come from any node, and the tree is built here from TaskInfos.
    const listRequest = groupBy !== 'parents' && !parsed.detailed ? { ...parsed, renderJson: { human: request.human, elements: groupBy === 'none' } } : parsed;
    const response = await listTasks(context.services, context.task, listRequest);
    return respond(request, context, response, groupBy);
  },
};

const getRoute: Route = {
  method: 'GET',
  path: '/_tasks/{task_id}',
  action: GET_TASK_ACTION,
  params: ['wait_for_completion', 'timeout'],
  handler: async (request, { services, task }) => {
    const taskId = TaskId.parse(request.param('task_id'));
    const waitForCompletion = request.paramBool('wait_for_completion', false);
    const timeoutMillis = request.hasParam('timeout') ? request.paramTimeMillis('timeout', 0) : undefined;
    if (!taskId) throw errors.requestValidation(['task id is required']);
    const result = await getTask(services, { taskId, waitForCompletion, timeoutMillis }, task);
    // TaskResult.toXContent: completed, task, then the stored error or response.
    const body: Record<string, unknown> = {
      completed: result.completed,
      task: taskInfoJson(result.task, { human: request.human }),
    };
    if (result.error) body['error'] = result.error;
    if (result.response) body['response'] = result.response;
    return json(body);
  },
};

const CANCEL_PARAMS = ['nodes', 'actions', 'parent_task_id', 'wait_for_completion', 'group_by'] as const;

async function cancelHandler(request: RestRequest, context: ActionContext) {
  const nodes = splitByComma(request.param('nodes'));
  const targetTaskId = TaskId.parse(request.param('task_id'));
  const actions = splitByComma(request.param('actions'));
  const parentTaskId = TaskId.parse(request.param('parent_task_id'));
  const waitForCompletion = request.paramBool('wait_for_completion', false);
  const groupBy = parseGroupBy(request.param('group_by'));
  const response = await cancelTasks(context.services, context.task, {
    targetTaskId,
    nodes,
    actions,
    parentTaskId,
    waitForCompletion,
    reason: DEFAULT_CANCEL_REASON,
  });
  return respond(request, context, response, groupBy);
}

const cancelRoutes: Route[] = [
  { method: 'POST', path: '/_tasks/_cancel', action: CANCEL_TASKS_ACTION, params: CANCEL_PARAMS, handler: cancelHandler },
  { method: 'POST', path: '/_tasks/{task_id}/_cancel', action: CANCEL_TASKS_ACTION, params: CANCEL_PARAMS, handler: cancelHandler },
];

export const taskRoutes: readonly Route[] = [listRoute, getRoute, ...cancelRoutes, catTasksRoute];
