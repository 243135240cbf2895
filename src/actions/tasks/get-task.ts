/**
 * Getting one task, as ES's TransportGetTaskAction: a running task on this node is returned at once
 * (`completed: false`, detailed) or, with `wait_for_completion`, once it has finished (`completed: true`,
 * a snapshot taken at completion, unless the result store holds its record). A task that is not running is
 * looked up in the result store (the `.tasks` index); with no store, ES's not-found chain ends in
 * `no such index [.tasks]`, which is what a cluster that never stored a result answers.
 */
import { errors, type EsError } from '../../common/errors.js';
import { transportAddress } from '../../cluster/index.js';
import { taskInfoOf, type StoredTaskResult, type TaskId, type TaskResultStore } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { withTimeout } from './wait-for-tasks.js';
import { TASK_RESULTS_INDEX } from './task-results-index.js';

export const GET_TASK_ACTION = 'cluster:monitor/task/get';

export interface GetTaskRequest {
  readonly taskId: TaskId;
  readonly waitForCompletion: boolean;
  readonly timeoutMillis: number | undefined;
}

export async function getTask(services: NodeServices, request: GetTaskRequest): Promise<StoredTaskResult> {
  const taskId = request.taskId;
  const state = services.clusterService.state();
  if (taskId.nodeId === services.localNode.id) return getFromThisNode(services, request);
  const node = state.nodes.get(taskId.nodeId);
  if (!node) {
    try {
      return await getFinishedTask(services.taskManager.resultStore, taskId);
    } catch (err) {
      if (isNotFound(err)) throw errors.taskNodeNotInCluster(taskId.toString(), taskId.nodeId, err);
      throw err;
    }
  }
  // The task's node is in the cluster: ES forwards the request there.
  throw errors.nodeNotConnected(node.name, transportAddress(node));
}

async function getFromThisNode(services: NodeServices, request: GetTaskRequest): Promise<StoredTaskResult> {
  const store = services.taskManager.resultStore;
  const running = services.taskManager.get(request.taskId.id);
  if (!running) return getFinishedTask(store, request.taskId);
  if (!request.waitForCompletion) return { completed: false, task: taskInfoOf(running, true) };
  await withTimeout(running.whenCompleted(), request.timeoutMillis);
  const snapshot = taskInfoOf(running, true);
  try {
    return await getFinishedTask(store, request.taskId);
  } catch (err) {
    // Not stored: the snapshot taken as it finished is the answer (ES does the same rather than 404).
    if (isNotFound(err) || hasNotFoundCause(err)) return { completed: true, task: snapshot };
    throw err;
  }
}

async function getFinishedTask(store: TaskResultStore | undefined, taskId: TaskId): Promise<StoredTaskResult> {
  if (!store) throw errors.taskNotRunningNoResults(taskId.toString(), errors.indexNotFound(TASK_RESULTS_INDEX));
  let stored: StoredTaskResult | undefined;
  try {
    stored = await store.get(taskId);
  } catch (err) {
    if (isType(err, 'index_not_found_exception')) throw errors.taskNotRunningNoResults(taskId.toString(), err as EsError);
    throw err;
  }
  if (!stored) throw errors.taskNotRunningNoResults(taskId.toString());
  return stored;
}

/** ResourceNotFoundException or a subclass (index_not_found_exception). */
function isNotFound(err: unknown): err is EsError {
  return isType(err, 'resource_not_found_exception') || isType(err, 'index_not_found_exception');
}

function hasNotFoundCause(err: unknown): boolean {
  let current: EsError | undefined = (err as EsError | undefined)?.causedBy;
  for (; current; current = current.causedBy) {
    if (current.type === 'resource_not_found_exception' || current.type === 'index_not_found_exception') return true;
  }
  return false;
}

function isType(err: unknown, type: string): boolean {
  return typeof err === 'object' && err !== null && (err as EsError).type === type;
}
