/**
 * The seam for finished tasks' results, ES's `.tasks` index (TaskResultsService). GET `_tasks/<id>` falls
 * back to it for a task that is no longer running. Gannet has no `.tasks` index yet, so the TaskManager
 * holds no store and callers answer as ES does when that index does not exist; a store that indexes
 * results into `.tasks` plugs in here without changing the callers.
 */
import type { TaskId } from './task-id.js';
import type { TaskInfo } from './task-info.js';

/** A stored task record, as ES's TaskResult: the final TaskInfo and either the response or the error. */
export interface StoredTaskResult {
  readonly completed: boolean;
  readonly task: TaskInfo;
  /** The failure as an ES error object, when the task failed. */
  readonly error?: Readonly<Record<string, unknown>>;
  /** The original API's response body, when the task succeeded. */
  readonly response?: Readonly<Record<string, unknown>>;
}

export interface TaskResultStore {
  /**
   * The stored record for `taskId`, or undefined when the store holds none. Throws the store's own error
   * (ES: index_not_found_exception `no such index [.tasks]`) when the store does not exist yet.
   */
  get(taskId: TaskId): Promise<StoredTaskResult | undefined>;
}
