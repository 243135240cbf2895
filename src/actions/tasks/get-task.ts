/**
 * Getting one task, as ES's TransportGetTaskAction: a running task on this node is returned at once
 * (`completed: false`, detailed) or, with `wait_for_completion`, once it has finished (`completed: true`,
 * a snapshot taken at completion, unless the result store holds its record). A task that is not running is
 * looked up in the result store (the `.tasks` index); with no store, ES's not-found chain ends in
 * `no such index [.tasks]`, which is what a cluster that never stored a result answers.
 *
 * The request goes to the task's node (this one included: the transport's local shortcut), as ES forwards it;
 * a task whose node left the cluster can only be found in the result store.
 */
import { errors, type EsError } from '../../common/errors.js';
import { TaskId, taskInfoOf, type StoredTaskResult, type Task, type TaskInfo, type TaskResultStore } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { sendToNode } from '../remote-node.js';
import { withTimeout } from './wait-for-tasks.js';
import { TASK_RESULTS_INDEX } from './task-results-index.js';

export const GET_TASK_ACTION = 'cluster:monitor/task/get';

export interface GetTaskRequest {
  readonly taskId: TaskId;
  readonly waitForCompletion: boolean;
  readonly timeoutMillis: number | undefined;
}

export async function getTask(services: NodeServices, request: GetTaskRequest, parentTask: Task | undefined): Promise<StoredTaskResult> {
  const taskId = request.taskId;
  const state = services.clusterService.state();
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
  return (await sendToNode(services, node, GET_TASK_ACTION, getRequestToWire(request), parentTask, undefined, { decodeResponse: storedResultFromWire })) as StoredTaskResult;
}

/** The request as it travels to the task's node (the task id as a string). */
export function getRequestToWire(request: GetTaskRequest): unknown {
  return { ...request, taskId: request.taskId.toString() };
}

export function getRequestFromWire(raw: unknown): GetTaskRequest {
  const wire = raw as Omit<GetTaskRequest, 'taskId'> & { taskId: string };
  return { ...wire, taskId: TaskId.parse(wire.taskId)! };
}

type WireTaskInfo = Omit<TaskInfo, 'taskId' | 'parentTaskId'> & { taskId: string; parentTaskId?: string };

/** A task's record as it crosses the transport: its ids as strings (its status and bodies are plain data). */
export function storedResultToWire(value: unknown): unknown {
  const result = value as StoredTaskResult;
  return { ...result, task: { ...result.task, taskId: result.task.taskId.toString(), parentTaskId: result.task.parentTaskId?.toString() } };
}

function storedResultFromWire(raw: unknown): StoredTaskResult {
  const wire = raw as Omit<StoredTaskResult, 'task'> & { task: WireTaskInfo };
  return { ...wire, task: { ...wire.task, taskId: TaskId.parse(wire.task.taskId)!, parentTaskId: TaskId.parse(wire.task.parentTaskId ?? undefined) } };
}

/** The task's node's part: its running task (waited for if asked), else the result store's record. */
export async function getFromThisNode(services: NodeServices, request: GetTaskRequest): Promise<StoredTaskResult> {
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
