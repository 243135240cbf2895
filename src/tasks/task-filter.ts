/**
 * Which tasks a tasks request applies to on a node, as ES's BaseTasksRequest.match: the action matches
 * one of the `*` patterns (no patterns: any action), the id is the target id (when one is given), and the
 * parent is the requested parent (when one is given). Which nodes are asked is decided separately, from
 * the `nodes` selectors or the target id's node (cluster/task-nodes.ts).
 */
import { simpleMatchAny } from '../common/wildcards.js';
import type { TaskId } from './task-id.js';

export interface TaskFilter {
  /** Action name patterns with `*` wildcards; empty means every action. */
  readonly actions: readonly string[];
  /** Only children of this task; undefined means any parent (or none). */
  readonly parentTaskId?: TaskId | undefined;
  /** Only this task; its node part is used for routing, only the number is compared here (as in ES). */
  readonly targetTaskId?: TaskId | undefined;
}

export interface FilterableTask {
  readonly id: number;
  readonly action: string;
  readonly parentTaskId: TaskId | undefined;
}

export function taskMatches(filter: TaskFilter, task: FilterableTask): boolean {
  if (filter.actions.length > 0 && !simpleMatchAny(filter.actions, task.action)) return false;
  if (filter.targetTaskId && filter.targetTaskId.id !== task.id) return false;
  if (filter.parentTaskId && !filter.parentTaskId.equals(task.parentTaskId)) return false;
  return true;
}
