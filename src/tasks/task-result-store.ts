/**
 * The seam for finished tasks' results, ES's `.tasks` index (TaskResultsService). GET `_tasks/<id>` falls
 * back to it for a task that is no longer running; a task started with `wait_for_completion=false` stores its
 * final result here when it ends. While the TaskManager holds no store, callers answer as ES does when that
 * index does not exist.
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
  /**
   * Stores a finished task's record (ES: indexes it into `.tasks` under the task id, creating the index with
   * its mapping when missing). Resolves once the record is durable and visible to `get`.
   */
  store(result: StoredTaskResult): Promise<void>;
}
