/**
 * The counters of one bulk-by-scroll worker and their JSON form, exactly as ES's BulkByScrollTask.Status
 * prints them (field order, `requests_per_second: -1.0` when unthrottled, `canceled` only once cancelled,
 * `slice_id` only for a slice, `slices` only for a leader). A task status and the final response share this
 * rendering; the by-query responses leave out `created` (and `updated` for delete_by_query).
 */
import { jsonFloat } from '../common/json-float.js';
import { formatTimeValueNanos } from '../common/time-value.js';

export interface BulkByScrollCounts {
  total: number;
  updated: number;
  created: number;
  deleted: number;
  batches: number;
  versionConflicts: number;
  noops: number;
  bulkRetries: number;
  searchRetries: number;
}

export function emptyCounts(): BulkByScrollCounts {
  return { total: 0, updated: 0, created: 0, deleted: 0, batches: 0, versionConflicts: 0, noops: 0, bulkRetries: 0, searchRetries: 0 };
}

/** A point-in-time copy of a worker's (or a leader's summed) status. */
export interface BulkByScrollStatus extends BulkByScrollCounts {
  readonly sliceId: number | undefined;
  readonly throttledNanos: number;
  /** Infinity when unthrottled. */
  readonly requestsPerSecond: number;
  readonly reasonCancelled: string | undefined;
  readonly throttledUntilNanos: number;
  /** A leader's per-slice statuses (null for a slice that has not reported); empty for a worker. */
  readonly slices: readonly (BulkByScrollStatus | null)[];
}

export interface StatusRenderOptions {
  /** ES's `include_created` param of the status (false for update_by_query and delete_by_query responses). */
  readonly includeCreated: boolean;
  /** ES's `include_updated` (false for delete_by_query responses). */
  readonly includeUpdated: boolean;
  /**
   * A human-readable builder: `throttled` and `throttled_until` (TimeValue strings) before their `_millis` fields.
   * ES's TaskResult stores a finished task's response this way, so `GET _tasks/<id>` of a background reindex shows them.
   */
  readonly human?: boolean;
}

export const FULL_STATUS: StatusRenderOptions = { includeCreated: true, includeUpdated: true };

const NANOS_PER_MILLI = 1_000_000;

/** Status.innerXContent's fields, in its order. */
export function statusFields(status: BulkByScrollStatus, options: StatusRenderOptions = FULL_STATUS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (status.sliceId !== undefined) out['slice_id'] = status.sliceId;
  out['total'] = status.total;
  if (options.includeUpdated) out['updated'] = status.updated;
  if (options.includeCreated) out['created'] = status.created;
  out['deleted'] = status.deleted;
  out['batches'] = status.batches;
  out['version_conflicts'] = status.versionConflicts;
  out['noops'] = status.noops;
  out['retries'] = { bulk: status.bulkRetries, search: status.searchRetries };
  if (options.human) out['throttled'] = formatTimeValueNanos(status.throttledNanos);
  out['throttled_millis'] = Math.floor(status.throttledNanos / NANOS_PER_MILLI);
  // A Java float: -1 stands for "unlimited" and prints as -1.0, a rate prints with its fraction.
  out['requests_per_second'] = jsonFloat(status.requestsPerSecond === Number.POSITIVE_INFINITY ? -1 : status.requestsPerSecond);
  if (status.reasonCancelled !== undefined) out['canceled'] = status.reasonCancelled;
  if (options.human) out['throttled_until'] = formatTimeValueNanos(status.throttledUntilNanos);
  out['throttled_until_millis'] = Math.floor(status.throttledUntilNanos / NANOS_PER_MILLI);
  if (status.slices.length > 0) out['slices'] = status.slices.map((slice) => (slice === null ? null : statusFields(slice, options)));
  return out;
}

/**
 * A leader's status: the sum of its slices' (ES's BulkByScrollTask.Status(List, reasonCancelled)), with the
 * rates summed and throttled_until the smallest of the slices'.
 */
export function sumStatuses(slices: readonly (BulkByScrollStatus | null)[], reasonCancelled: string | undefined): BulkByScrollStatus {
  const sum = emptyCounts();
  let throttledNanos = 0;
  let requestsPerSecond = 0;
  let throttledUntilNanos = Number.POSITIVE_INFINITY;
  for (const slice of slices) {
    if (slice === null) continue;
    sum.total += slice.total;
    sum.updated += slice.updated;
    sum.created += slice.created;
    sum.deleted += slice.deleted;
    sum.batches += slice.batches;
    sum.versionConflicts += slice.versionConflicts;
    sum.noops += slice.noops;
    sum.bulkRetries += slice.bulkRetries;
    sum.searchRetries += slice.searchRetries;
    throttledNanos += slice.throttledNanos;
    requestsPerSecond += slice.requestsPerSecond;
    throttledUntilNanos = Math.min(throttledUntilNanos, slice.throttledUntilNanos);
  }
  return {
    ...sum,
    sliceId: undefined,
    throttledNanos,
    requestsPerSecond,
    reasonCancelled,
    throttledUntilNanos: throttledUntilNanos === Number.POSITIVE_INFINITY ? 0 : throttledUntilNanos,
    slices,
  };
}
