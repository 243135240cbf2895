/**
 * Reading what `GET /_tasks/<id>` answers for a reindex, update-by-query or delete-by-query: the task's
 * live `status` (ES's BulkByScrollTask.Status) and, once it has finished, the stored `response`
 * (BulkByScrollResponse: `took`, `timed_out`, the same counters, `failures`) or `error`. Counters the node
 * left out read as undefined, so a task of another kind still shows whatever it has.
 */
import { arrayField, booleanField, isObject, numberField, objectField, stringField, type JsonObject } from './es-json.js';
import { taskViewOf, type TaskView } from './task-list.js';

export interface BulkByScrollCounts {
  /** Documents the request will process; 0 while the first batch has not come back yet. */
  total: number | undefined;
  created: number | undefined;
  updated: number | undefined;
  deleted: number | undefined;
  batches: number | undefined;
  versionConflicts: number | undefined;
  noops: number | undefined;
  bulkRetries: number | undefined;
  searchRetries: number | undefined;
  throttledMillis: number | undefined;
  /** -1 (or absent) means unlimited, as ES prints Float.POSITIVE_INFINITY. */
  requestsPerSecond: number | undefined;
  /** Remaining delay of the current throttle sleep. */
  throttledUntilMillis: number | undefined;
  /** ES's `canceled` reason, e.g. "by user request"; only present once the task was cancelled. */
  canceled: string | undefined;
  /** Number of slice entries of a sliced parent (0 when not sliced). */
  slices: number;
}

export function countsOf(status: unknown): BulkByScrollCounts {
  const retries = objectField(status, 'retries');
  return {
    total: numberField(status, 'total'),
    created: numberField(status, 'created'),
    updated: numberField(status, 'updated'),
    deleted: numberField(status, 'deleted'),
    batches: numberField(status, 'batches'),
    versionConflicts: numberField(status, 'version_conflicts'),
    noops: numberField(status, 'noops'),
    bulkRetries: numberField(retries, 'bulk'),
    searchRetries: numberField(retries, 'search'),
    throttledMillis: numberField(status, 'throttled_millis'),
    requestsPerSecond: numberField(status, 'requests_per_second'),
    throttledUntilMillis: numberField(status, 'throttled_until_millis'),
    canceled: stringField(status, 'canceled'),
    slices: arrayField(status, 'slices').length,
  };
}

/** One slice of a sliced task: its `slice_id` and counters, or `undefined` counts for a slice not started yet. */
export interface SliceCounts {
  position: number;
  sliceId: number | undefined;
  counts: BulkByScrollCounts | undefined;
}

/** The `slices` entries of a sliced task's status or response (ES prints null for a slice not started yet). */
export function slicesOf(status: unknown): SliceCounts[] {
  return arrayField(status, 'slices').map((slice, position) => ({
    position,
    sliceId: numberField(slice, 'slice_id'),
    counts: isObject(slice) ? countsOf(slice) : undefined,
  }));
}

/**
 * Why the task was cancelled, if it was: the task's own `canceled`, else that of a slice. Cancelling only the
 * children of a sliced task (by `parent_task_id`, or each by id) leaves the leader's `canceled` unset while its
 * slices stopped early, and that run is still a cancelled one.
 */
export function cancelReasonOf(status: unknown): { reason: string; cancelledSlices: number } | undefined {
  const counts = countsOf(status);
  const cancelledSlices = slicesOf(status).filter((slice) => slice.counts?.canceled !== undefined);
  const reason = counts.canceled ?? cancelledSlices[0]?.counts?.canceled;
  return reason === undefined ? undefined : { reason, cancelledSlices: cancelledSlices.length };
}

/**
 * Documents the task has dealt with so far: written (created, updated, deleted) plus skipped (noops, version
 * conflicts under `conflicts=proceed`). ES's own progress hint divides created+updated+deleted by total;
 * counting the skipped ones too keeps the bar honest when most documents conflict.
 */
export function processedCount(counts: BulkByScrollCounts): number {
  return (counts.created ?? 0) + (counts.updated ?? 0) + (counts.deleted ?? 0) + (counts.noops ?? 0) + (counts.versionConflicts ?? 0);
}

export interface TaskRecord {
  completed: boolean;
  task: TaskView;
  /** The task's live status object, as sent (undefined for a task without one). */
  status: JsonObject | undefined;
  /** The finished task's response body (a BulkByScrollResponse for the reindex family). */
  response: JsonObject | undefined;
  /** The finished task's error object. */
  error: JsonObject | undefined;
}

/** `{"completed": .., "task": {TaskInfo}, ["error": ..], ["response": ..]}`; undefined when the body is not that shape. */
export function taskRecordOf(body: unknown): TaskRecord | undefined {
  const info = objectField(body, 'task');
  if (info === undefined) return undefined;
  return {
    completed: booleanField(body, 'completed') ?? false,
    task: taskViewOf(info),
    status: objectField(info, 'status'),
    response: objectField(body, 'response'),
    error: isObject(body) && body['error'] !== undefined ? (objectField(body, 'error') ?? { reason: String(body['error']) }) : undefined,
  };
}

/** One entry of a BulkByScrollResponse's `failures`: a bulk item failure or a search (shard) failure. */
export interface ScrollFailure {
  where: string;
  cause: unknown;
  status: number | undefined;
}

export function failuresOf(response: JsonObject | undefined): ScrollFailure[] {
  return arrayField(response, 'failures').map((failure) => {
    const index = stringField(failure, 'index');
    const id = stringField(failure, 'id');
    const shard = numberField(failure, 'shard');
    const node = stringField(failure, 'node');
    const parts: string[] = [];
    if (index !== undefined) parts.push(`[${index}]`);
    if (id !== undefined) parts.push(`id [${id}]`);
    if (shard !== undefined) parts.push(`shard ${shard}`);
    if (node !== undefined) parts.push(`on node ${node}`);
    const cause = isObject(failure) ? (failure['cause'] ?? failure['reason']) : undefined;
    return { where: parts.join(' ') || 'unknown', cause, status: numberField(failure, 'status') };
  });
}
