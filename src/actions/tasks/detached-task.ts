/**
 * ES's `wait_for_completion=false` (RestForceMergeAction.sendTask, and the reindex family): the request's task
 * goes on after the HTTP answer `{"task": "<node>:<id>"}`; when its work ends, the outcome is stored as the task's
 * record in the result store (`.tasks`), and only then is the task unregistered, so a `GET _tasks/<id>` that
 * waited for it finds the record. A failure of the work is stored as the error; a failure to store is logged and
 * dropped, as ES's LoggingTaskListener does. Nothing here can reject into the node.
 */
import { EsError, toEsError } from '../../common/errors.js';
import { taskInfoOf, type StoredTaskResult, type Task } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { json, type ActionContext, type JsonResponse } from '../rest.js';
import { errorJson } from './task-json.js';

/**
 * Detaches the request's task, runs `work` in the background and answers with the task id. `work` resolves to
 * the response body the API would have sent with `wait_for_completion=true`.
 */
export function runDetached(context: ActionContext, work: () => Promise<Record<string, unknown>>): JsonResponse {
  if (context.detach === undefined) throw new EsError('illegal_state_exception', 'this request cannot run in the background');
  context.detach();
  const { task, services } = context;
  void finishInBackground(task, services, work).catch((err: unknown) => services.logger.error({ err, task: task.taskId.toString() }, 'background task failed'));
  return json({ task: context.task.taskId.toString() });
}

async function finishInBackground(task: Task, services: NodeServices, work: () => Promise<Record<string, unknown>>): Promise<void> {
  let record: StoredTaskResult;
  try {
    const response = await work();
    record = { completed: true, task: taskInfoOf(task, true), response };
  } catch (err) {
    record = { completed: true, task: taskInfoOf(task, true), error: errorJson(toEsError(err)) };
  }
  try {
    await storeResult(services, record);
  } finally {
    services.taskManager.unregister(task);
  }
}

/** Stores a record, logging (never throwing) when there is no store or storing fails. */
export async function storeResult(services: NodeServices, record: StoredTaskResult): Promise<void> {
  const id = record.task.taskId.toString();
  const store = services.taskManager.resultStore;
  if (store === undefined) {
    services.logger.warn({ task: id }, `no task result store; the result of task [${id}] is dropped`);
    return;
  }
  try {
    await store.store(record);
  } catch (err) {
    services.logger.warn({ err: toEsError(err), task: id }, `couldn't store response of task [${id}]`);
  }
}
