/** The task table shared by `tasks` and `cancel`: one row per task, children indented under their parent as `ps f` does. */
import { formatTimeValueNanos } from '../common/time-value.js';
import { flattenForest, type TaskTreeNode, type TaskView } from './task-list.js';
import { formatTable, type Column } from './text-table.js';

export interface TaskTableOptions {
  /** Adds the description column (what `detailed` returns). */
  description?: boolean;
}

export function renderTaskTable(forest: readonly TaskTreeNode[], options: TaskTableOptions = {}): string {
  const columns: Column[] = [{ header: 'task' }, { header: 'action' }, { header: 'node' }, { header: 'running', align: 'right' }, { header: 'state' }];
  if (options.description === true) columns.push({ header: 'description' });
  const rows = flattenForest(forest).map(({ task, depth }) => {
    const row = [treePrefix(depth) + task.id, task.action, nodeLabel(task), runningTime(task), taskState(task)];
    if (options.description === true) row.push(task.description ?? '');
    return row;
  });
  return formatTable(columns, rows);
}

export function treePrefix(depth: number): string {
  return depth === 0 ? '' : '   '.repeat(depth - 1) + ' \\_ ';
}

/** The node's name when the response says it, else the node id from the task id. */
export function nodeLabel(task: TaskView): string {
  if (task.nodeName !== undefined) return task.nodeName;
  const colon = task.id.lastIndexOf(':');
  return colon > 0 ? task.id.slice(0, colon) : '';
}

export function runningTime(task: TaskView): string {
  return task.runningTimeNanos === undefined ? '' : formatTimeValueNanos(task.runningTimeNanos);
}

/** "cancelling" once a cancel was processed but the task has not finished yet (ES's `cancelled: true`). */
export function taskState(task: TaskView): string {
  if (task.cancelled) return 'cancelling';
  return task.cancellable ? 'cancellable' : '';
}
