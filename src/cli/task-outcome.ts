/**
 * The final report of a followed task and the exit code a script can branch on: 0 done cleanly,
 * 2 the task failed or reported failures (or timed out), 5 cancelled. The counts are printed in every
 * case, since a cancelled or failed reindex has still written what it wrote.
 */
import { formatTimeValueMillis, formatTimeValueNanos } from '../common/time-value.js';
import { cancelReasonOf, countsOf, failuresOf, slicesOf, type BulkByScrollCounts, type SliceCounts, type TaskRecord } from './bulk-by-scroll.js';
import { describeEsError, numberField, booleanField, stringField } from './es-json.js';
import { ExitCode } from './exit-codes.js';
import { formatCount, formatRequestsPerSecond } from './progress-line.js';

export interface TaskOutcome {
  exitCode: number;
  /** The report for stdout. */
  report: string;
  /** Failures and errors, for stderr. */
  problems: string;
}

export function taskOutcome(record: TaskRecord): TaskOutcome {
  const name = record.task.description ?? `${record.task.action} [${record.task.id}]`;
  if (record.error !== undefined) {
    // A failed task may still carry its status: show how far it got.
    const counts = record.status === undefined ? '' : renderCounts(countsOf(record.status)) + renderSlices(slicesOf(record.status));
    // A task that ended on its cancellation (a slice's cancel reaching the leader as an error) is a cancelled run.
    if (stringField(record.error, 'type') === 'task_cancelled_exception') {
      const reason = stringField(record.error, 'reason') ?? 'cancelled';
      return { exitCode: ExitCode.cancelled, report: `${name}: cancelled (${reason}) after ${elapsed(record)}; documents written before the cancel stay written\n${counts}`, problems: '' };
    }
    return { exitCode: ExitCode.redOrFailure, report: `${name}: failed after ${elapsed(record)}\n${counts}`, problems: `error: ${describeEsError(record.error)}\n` };
  }
  const body = record.response ?? record.status;
  const counts = countsOf(body);
  const slices = slicesOf(body);
  const cancel = cancelReasonOf(body);
  const failures = failuresOf(record.response);
  const timedOut = booleanField(record.response, 'timed_out') === true;
  let headline: string;
  let exitCode: number;
  if (failures.length > 0 || timedOut) {
    const what = [failures.length > 0 ? `${failures.length} failure${failures.length === 1 ? '' : 's'}` : '', timedOut ? 'a timeout' : ''].filter(Boolean).join(' and ');
    headline = `${name}: stopped with ${what} after ${elapsed(record)}`;
    exitCode = ExitCode.redOrFailure;
  } else if (cancel !== undefined) {
    // Only the slices were cancelled (the leader was not): say how many, so nobody reads it as a complete copy.
    const which = counts.canceled === undefined ? `; ${cancel.cancelledSlices} of ${slices.length} slices cancelled` : '';
    headline = `${name}: cancelled (${cancel.reason}${which}) after ${elapsed(record)}; documents written before the cancel stay written`;
    exitCode = ExitCode.cancelled;
  } else {
    headline = `${name}: completed in ${elapsed(record)}`;
    exitCode = ExitCode.ok;
  }
  const problems = failures
    .map((failure) => `failure ${failure.where}: ${describeEsError(failure.cause ?? 'unknown')}${failure.status === undefined ? '' : ` (status ${failure.status})`}\n`)
    .join('');
  return { exitCode, report: `${headline}\n${renderCounts(counts, failures.length)}${renderSlices(slices)}`, problems };
}

/** One line per slice of a sliced task: its counters and whether it was cancelled (or never started). */
export function renderSlices(slices: readonly SliceCounts[]): string {
  return slices
    .map((slice) => {
      const label = `slice ${slice.sliceId ?? slice.position}`;
      if (slice.counts === undefined) return `  ${label}: not started\n`;
      const parts: string[] = [];
      const part = (name: string, value: number | undefined) => {
        if (value !== undefined) parts.push(`${name} ${formatCount(value)}`);
      };
      part('total', slice.counts.total);
      part('created', slice.counts.created);
      part('updated', slice.counts.updated);
      part('deleted', slice.counts.deleted);
      part('batches', slice.counts.batches);
      part('version_conflicts', slice.counts.versionConflicts);
      part('noops', slice.counts.noops);
      const state = slice.counts.canceled === undefined ? '' : `; cancelled (${slice.counts.canceled})`;
      return `  ${label}: ${parts.join(', ')}${state}\n`;
    })
    .join('');
}

/** The response's `took`, else the task's running time. */
function elapsed(record: TaskRecord): string {
  const took = numberField(record.response, 'took');
  if (took !== undefined) return formatTimeValueMillis(took);
  return record.task.runningTimeNanos === undefined ? 'an unknown time' : formatTimeValueNanos(record.task.runningTimeNanos);
}

/** Aligned `label  value` rows; counters the API does not report (update-by-query has no `created`) are left out. */
export function renderCounts(counts: BulkByScrollCounts, failureCount?: number): string {
  const rows: Array<[string, string]> = [];
  const count = (label: string, value: number | undefined) => {
    if (value !== undefined) rows.push([label, formatCount(value)]);
  };
  count('total', counts.total);
  count('created', counts.created);
  count('updated', counts.updated);
  count('deleted', counts.deleted);
  count('batches', counts.batches);
  count('version_conflicts', counts.versionConflicts);
  count('noops', counts.noops);
  if (counts.bulkRetries !== undefined || counts.searchRetries !== undefined) rows.push(['retries', `bulk ${counts.bulkRetries ?? 0}, search ${counts.searchRetries ?? 0}`]);
  if (counts.throttledMillis !== undefined) rows.push(['throttled', formatTimeValueMillis(counts.throttledMillis)]);
  if (counts.requestsPerSecond !== undefined) rows.push(['requests_per_second', counts.requestsPerSecond < 0 ? 'unlimited' : formatRequestsPerSecond(counts.requestsPerSecond)]);
  if (counts.slices > 0) rows.push(['slices', String(counts.slices)]);
  if (failureCount !== undefined) rows.push(['failures', failureCount === 0 ? 'none' : `${failureCount} (listed on stderr)`]);
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}\n`).join('');
}
