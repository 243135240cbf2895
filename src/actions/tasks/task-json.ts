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
