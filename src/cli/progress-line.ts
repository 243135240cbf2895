/**
 * The one-line progress report of a followed task: a bar, done/total, percent, docs/s, ETA, batches,
 * conflicts and the throttle. Pure text, so the same line serves a terminal (redrawn in place) and a log
 * (one line per poll). Unknown figures print as `?` or `--`, never as a made-up number.
 */
import { formatTimeValueMillis } from '../common/time-value.js';

export interface ProgressSnapshot {
  processed: number;
  /** Documents the task will process; undefined or 0 while the task has not counted them yet. */
  total: number | undefined;
  /** undefined while there is too little history to say. */
  docsPerSecond: number | undefined;
  batches?: number | undefined;
  versionConflicts?: number | undefined;
  /** -1 or undefined: unthrottled. */
  requestsPerSecond?: number | undefined;
  throttledMillis?: number | undefined;
  throttledUntilMillis?: number | undefined;
  /** A cancel was processed; the task is winding down. */
  cancelling?: boolean;
}

export const BAR_WIDTH = 24;

export function renderProgressLine(snapshot: ProgressSnapshot, maxWidth?: number): string {
  const total = knownTotal(snapshot.total);
  const parts = [
    renderBar(snapshot.processed, total),
    `${formatCount(snapshot.processed)}/${total === undefined ? '?' : formatCount(total)}`,
    formatPercent(snapshot.processed, total),
    formatRate(snapshot.docsPerSecond),
    `ETA ${formatEta(etaSeconds(snapshot.processed, total, snapshot.docsPerSecond))}`,
  ];
  if (snapshot.batches !== undefined) parts.push(`batches ${formatCount(snapshot.batches)}`);
  if (snapshot.versionConflicts !== undefined) parts.push(`conflicts ${formatCount(snapshot.versionConflicts)}`);
  parts.push(formatThrottle(snapshot.requestsPerSecond, snapshot.throttledMillis, snapshot.throttledUntilMillis));
  if (snapshot.cancelling === true) parts.push('cancelling');
  const line = parts.join('  ');
  // A line as wide as the terminal wraps, and a wrapped line can no longer be redrawn with \r.
  return maxWidth !== undefined && maxWidth > 0 && line.length >= maxWidth ? line.slice(0, maxWidth - 1) : line;
}

function knownTotal(total: number | undefined): number | undefined {
  return total !== undefined && total > 0 ? total : undefined;
}

/** `[#########...............]`; all dots when the total is not known yet (nothing to measure against). */
export function renderBar(processed: number, total: number | undefined, width = BAR_WIDTH): string {
  const known = knownTotal(total);
  const filled = known === undefined ? 0 : Math.min(width, Math.floor((Math.min(processed, known) / known) * width));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatPercent(processed: number, total: number | undefined): string {
  const known = knownTotal(total);
  if (known === undefined) return '--.-%';
  return `${((Math.min(processed, known) / known) * 100).toFixed(1)}%`;
}

export function formatRate(docsPerSecond: number | undefined): string {
  if (docsPerSecond === undefined || !Number.isFinite(docsPerSecond) || docsPerSecond < 0) return '-- docs/s';
  if (docsPerSecond > 0 && docsPerSecond < 10) return `${docsPerSecond.toFixed(1)} docs/s`;
  return `${formatCount(docsPerSecond)} docs/s`;
}

/** Seconds left at the current rate; undefined when the total or a positive rate is missing. */
export function etaSeconds(processed: number, total: number | undefined, docsPerSecond: number | undefined): number | undefined {
  const known = knownTotal(total);
  if (known === undefined) return undefined;
  const remaining = known - processed;
  if (remaining <= 0) return 0;
  if (docsPerSecond === undefined || !(docsPerSecond > 0) || !Number.isFinite(docsPerSecond)) return undefined;
  return remaining / docsPerSecond;
}

/** `42s`, `3m05s`, `2h03m`; `--` when unknown. Rounded up, so the last second never shows as 0s. */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '--';
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
  const minutes = Math.floor(whole / 60);
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** `unthrottled`, or `throttle 500/s` with the time slept so far and the current sleep. */
export function formatThrottle(requestsPerSecond: number | undefined, throttledMillis: number | undefined, throttledUntilMillis: number | undefined): string {
  if (requestsPerSecond === undefined || requestsPerSecond < 0 || !Number.isFinite(requestsPerSecond)) return 'unthrottled';
  let text = `throttle ${formatRequestsPerSecond(requestsPerSecond)}/s`;
  if (throttledMillis !== undefined && throttledMillis > 0) text += ` slept ${formatTimeValueMillis(throttledMillis)}`;
  if (throttledUntilMillis !== undefined && throttledUntilMillis > 0) text += ` (next batch in ${formatTimeValueMillis(throttledUntilMillis)})`;
  return text;
}

export function formatRequestsPerSecond(value: number): string {
  return Number.isInteger(value) ? formatCount(value) : String(Number(value.toPrecision(3)));
}
