/**
 * The ES JSON forms of the tasks API's pieces: a TaskInfo (TaskInfo.toXContent, field order and presence
 * exactly as ES 8), an error inside a response body (ElasticsearchException.toXContent: no root_cause), and
 * a per-task failure (TaskOperationFailure.toXContent).
 */
import type { EsError } from '../../common/errors.js';
import { formatTimeValueNanos } from '../../common/time-value.js';
import type { TaskInfo } from '../../tasks/index.js';

export interface TaskJsonOptions {
  /** `?human`: adds `start_time` and `running_time` before their raw siblings. */
  readonly human: boolean;
}

export function taskInfoJson(info: TaskInfo, options: TaskJsonOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    node: info.taskId.nodeId,
    id: info.taskId.id,
    type: info.type,
    action: info.action,
  };
  if (info.status !== undefined && info.status !== null) out['status'] = info.status;
  if (info.description !== undefined) out['description'] = info.description;
  // XContentBuilder.timeField: the readable date (strict_date_optional_time, UTC) precedes the raw one.
  if (options.human) out['start_time'] = new Date(info.startTimeMillis).toISOString();
  out['start_time_in_millis'] = info.startTimeMillis;
  if (options.human) out['running_time'] = formatTimeValueNanos(info.runningTimeNanos);
  out['running_time_in_nanos'] = info.runningTimeNanos;
  out['cancellable'] = info.cancellable;
  if (info.cancellable) out['cancelled'] = info.cancelled;
  if (info.parentTaskId) out['parent_task_id'] = info.parentTaskId.toString();
  out['headers'] = { ...info.headers };
  return out;
}

/**
 * A node's `tasks` object of `_tasks?group_by=nodes` as JSON text, `{"<task id>":{...},...}`, written as the
 * response writer would write taskInfoJson's object. Under many concurrent listings most of a listing's cost was
 * writing the same tasks again and again, so the parts of a task's JSON that never change (everything but its
 * running time and cancelled flag) are written once per task and kept beside its id.
 */
export function renderTaskMap(tasks: readonly TaskInfo[], options: TaskJsonOptions): string {
  let out = '{';
  for (let i = 0; i < tasks.length; i++) {
    const info = tasks[i]!;
    if (i > 0) out += ',';
    if (options.human || info.description !== undefined || (info.status !== undefined && info.status !== null)) {
      out += `${JSON.stringify(info.taskId.toString())}:${JSON.stringify(taskInfoJson(info, options))}`;
      continue;
    }
    const parts = fixedPartsOf(info);
    out += parts.head + String(info.runningTimeNanos) + (info.cancellable ? `,"cancellable":true,"cancelled":${info.cancelled}` : ',"cancellable":false') + parts.tail;
  }
  return out + '}';
}

interface FixedTaskJson {
  /** `"<id>":{` up to `"running_time_in_nanos":`. */
  readonly head: string;
  /** After `cancelled`: the parent and the headers, and the closing brace. */
  readonly tail: string;
}

/** By task id object: a task's snapshots share its TaskId, and the entry goes with the task. */
const fixedParts = new WeakMap<object, FixedTaskJson>();

function fixedPartsOf(info: TaskInfo): FixedTaskJson {
  const cached = fixedParts.get(info.taskId);
  if (cached !== undefined) return cached;
  const head =
    `${JSON.stringify(info.taskId.toString())}:{"node":${JSON.stringify(info.taskId.nodeId)},"id":${info.taskId.id},"type":${JSON.stringify(info.type)},` +
    `"action":${JSON.stringify(info.action)},"start_time_in_millis":${info.startTimeMillis},"running_time_in_nanos":`;
  const tail = `${info.parentTaskId ? `,"parent_task_id":${JSON.stringify(info.parentTaskId.toString())}` : ''},"headers":${JSON.stringify(info.headers)}}`;
  const parts = { head, tail };
  fixedParts.set(info.taskId, parts);
  return parts;
}

/** An error nested in a 200 body (`node_failures`, `task_failures[].reason`): type, reason, metadata, cause. */
export function errorJson(error: EsError): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.type, reason: error.reason, ...error.metadata };
  if (error.causedBy) out['caused_by'] = errorJson(error.causedBy);
  return out;
}

/** A failure to operate on one task (e.g. to cancel it), as ES's TaskOperationFailure. */
export interface TaskOperationFailure {
  readonly nodeId: string;
  readonly taskId: number;
  readonly error: EsError;
}

export function taskFailureJson(failure: TaskOperationFailure): Record<string, unknown> {
  return {
    task_id: failure.taskId,
    node_id: failure.nodeId,
    status: restStatusName(failure.error.status),
    reason: errorJson(failure.error),
  };
}

/** ES's RestStatus enum names for the statuses an error can carry. */
const REST_STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'REQUEST_ENTITY_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  501: 'NOT_IMPLEMENTED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

export function restStatusName(status: number): string {
  return REST_STATUS_NAMES[status] ?? 'INTERNAL_SERVER_ERROR';
}
