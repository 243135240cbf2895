/**
 * Cancelling tasks across nodes, as ES's TransportCancelTasksAction. With a task id, that one task is
 * cancelled on its node, and a task that is missing, not cancellable or filtered out is a node failure;
 * without one, every cancellable task matching the filters is cancelled and the others are skipped. The
 * cancel never turns on its own request. Each cancel bans the task's children (TaskManager); with
 * `wait_for_completion` a node answers only once the cancelled tasks and all their descendants finished.
 * The response lists what was cancelled, as non-detailed TaskInfos with `cancelled: true`.
 */
import { toEsError } from '../../common/errors.js';
import { errors } from '../../common/errors.js';
import { TaskId, taskInfoOf, taskMatches, type Task, type TaskFilter, type TaskInfo } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { executeOnTaskNodes, type NodeTasksResult } from './node-fanout.js';
import type { TaskOperationFailure } from './task-json.js';
import type { TasksResponse } from './tasks-response.js';

export const CANCEL_TASKS_ACTION = 'cluster:admin/tasks/cancel';

/** CancelTasksRequest.DEFAULT_REASON. */
export const DEFAULT_CANCEL_REASON = 'by user request';

export interface CancelTasksRequest {
  readonly targetTaskId: TaskId | undefined;
  readonly nodes: readonly string[];
  readonly actions: readonly string[];
  readonly parentTaskId: TaskId | undefined;
  readonly waitForCompletion: boolean;
  readonly reason: string;
}

export function cancelTasks(services: NodeServices, cancelTask: Task, request: CancelTasksRequest): Promise<TasksResponse> {
  if (request.targetTaskId && request.nodes.length > 0) {
    throw errors.requestValidation(['task id cannot be used together with node ids']);
  }
  const filter: TaskFilter = { actions: request.actions, parentTaskId: request.parentTaskId, targetTaskId: request.targetTaskId };
  const target = { nodes: request.nodes, targetTaskId: request.targetTaskId };
  return executeOnTaskNodes(services, cancelTask, CANCEL_TASKS_ACTION, target, cancelRequestToWire(request));
}

export function cancelRequestToWire(request: CancelTasksRequest): unknown {
  return { ...request, targetTaskId: request.targetTaskId?.toString(), parentTaskId: request.parentTaskId?.toString() };
}

export function cancelRequestFromWire(raw: unknown): CancelTasksRequest {
  const wire = raw as Omit<CancelTasksRequest, 'targetTaskId' | 'parentTaskId'> & { targetTaskId?: string; parentTaskId?: string };
  return { ...wire, targetTaskId: TaskId.parse(wire.targetTaskId ?? undefined), parentTaskId: TaskId.parse(wire.parentTaskId ?? undefined) };
}

/** One node's part of a cancel: the matching tasks here, cancelled (and their children, bans included). */
export async function cancelTasksOnNode(services: NodeServices, nodeTask: Task, request: CancelTasksRequest): Promise<NodeTasksResult> {
  const filter: TaskFilter = { actions: request.actions, parentTaskId: request.parentTaskId, targetTaskId: request.targetTaskId };
  {
    const targets = tasksToCancel(services, nodeTask, filter);
    const outcomes = await Promise.all(
      targets.map(async (task): Promise<TaskInfo | TaskOperationFailure> => {
        try {
          await services.taskManager.cancel(task, request.reason, request.waitForCompletion);
          return taskInfoOf(task, false);
        } catch (err) {
          return { nodeId: services.localNode.id, taskId: task.id, error: toEsError(err) };
        }
      }),
    );
    const tasks: TaskInfo[] = [];
    const taskFailures: TaskOperationFailure[] = [];
    for (const outcome of outcomes) {
      if ('error' in outcome) taskFailures.push(outcome);
      else tasks.push(outcome);
    }
    return { tasks, taskFailures };
  }
}

/** ES's processTasks for cancel, on the node the operation runs on. */
function tasksToCancel(services: NodeServices, nodeTask: Task, filter: TaskFilter): Task[] {
  const taskManager = services.taskManager;
  const targetId = filter.targetTaskId;
  if (targetId) {
    const task = taskManager.get(targetId.id);
    if (!task) throw errors.taskToCancelNotFound(targetId.toString());
    if (!task.cancellable) throw errors.taskNotCancellable(targetId.toString());
    if (!taskMatches(filter, task)) throw errors.taskDoesNotSupportOperation(targetId.toString());
    return [task];
  }
  // The cancel request's own node task is cancellable (as in ES); never let a bulk cancel pick it or its
  // parents, or it would cancel, and with wait_for_completion wait for, itself.
  return taskManager
    .list()
    .filter((task) => task.cancellable && taskMatches(filter, task) && !taskManager.isSelfOrAncestor(task.taskId, nodeTask));
}
