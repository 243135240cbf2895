/** Waiting for tasks to finish with a deadline, as the tasks APIs' `wait_for_completion` + `timeout` do. */
import { errors } from '../../common/errors.js';
import { formatTimeValueMillis } from '../../common/time-value.js';
import { settleWithin } from '../../common/settle-within.js';
import type { Task } from '../../tasks/index.js';

/** What `wait_for_completion` waits when no `timeout` is given (ES's DEFAULT_WAIT_FOR_COMPLETION_TIMEOUT). */
export const DEFAULT_WAIT_FOR_COMPLETION_MILLIS = 30_000;

/**
 * Resolves once every task has completed; rejects with ES's `timed out after [<timeout>/<ms>ms]` when the
 * timeout passes first. A negative timeout elapses at once, as a negative delay does in ES's scheduler.
 */
export function waitForTasks(tasks: readonly Task[], timeoutMillis: number | undefined): Promise<void> {
  const running = tasks.filter((task) => !task.isCompleted);
  if (running.length === 0) return Promise.resolve();
  return withTimeout(Promise.all(running.map((task) => task.whenCompleted())).then(() => undefined), timeoutMillis);
}

export function withTimeout<T>(work: Promise<T>, timeoutMillis: number | undefined): Promise<T> {
  const millis = timeoutMillis ?? DEFAULT_WAIT_FOR_COMPLETION_MILLIS;
  return settleWithin(work, millis, () => errors.timedOutAfter(timeText(millis), millis));
}

/** TimeValue.toString of the timeout as the user gave it (`30s`, `1.5s`, `-1`). */
function timeText(millis: number): string {
  return millis < 0 ? '-1' : formatTimeValueMillis(millis);
}
