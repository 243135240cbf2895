/**
 * Which running task is a bulk-by-scroll task and what drives it (ES's BulkByScrollTask with its worker or
 * leader state), so `_rethrottle` can find the worker or leader behind a task id. Entries live as long as
 * their task object.
 */
import type { Task } from '../../tasks/index.js';

export interface Rethrottleable {
  /** Applies a new rate (Infinity: unthrottled); returns the child tasks it was passed on to (a leader's). */
  rethrottle(requestsPerSecond: number): readonly Task[];
}

const STATES = new WeakMap<Task, Rethrottleable>();

export function registerBulkByScrollTask(task: Task, state: Rethrottleable): void {
  STATES.set(task, state);
}

/** The worker or leader of a task, or undefined when the task is not a bulk-by-scroll task. */
export function bulkByScrollStateOf(task: Task): Rethrottleable | undefined {
  return STATES.get(task);
}
