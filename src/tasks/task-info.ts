/**
 * A snapshot of a task for reporting, neutral of any wire format (ES's TaskInfo). `_tasks`, `_cat/tasks`,
 * the cancel API and the `.tasks` store all render from this one shape.
 */
import type { Task, TaskType } from './task.js';
import type { TaskId } from './task-id.js';

export interface TaskInfo {
  readonly taskId: TaskId;
  readonly type: TaskType | string;
  readonly action: string;
  /** Present only in detailed snapshots; ES requests without a description report `""`. */
  readonly description: string | undefined;
  /** The task's status object, present only in detailed snapshots of tasks that have one. */
  readonly status: unknown;
  readonly startTimeMillis: number;
  readonly runningTimeNanos: number;
  readonly cancellable: boolean;
  /** Always false for tasks that are not cancellable. */
  readonly cancelled: boolean;
  readonly parentTaskId: TaskId | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Takes the snapshot; `detailed` adds the description and status, which may cost more to build. A listing passes
 * one clock reading (`nowMillis`, performance.now()) for all its tasks.
 */
export function taskInfoOf(task: Task, detailed: boolean, nowMillis: number = performance.now()): TaskInfo {
  return {
    taskId: task.taskId,
    type: task.type,
    action: task.action,
    description: detailed ? (task.description ?? '') : undefined,
    status: detailed ? task.status : undefined,
    startTimeMillis: task.startTimeMillis,
    runningTimeNanos: task.runningTimeNanosAt(nowMillis),
    cancellable: task.cancellable,
    cancelled: task.cancellable && task.isCancelled,
    parentTaskId: task.parentTaskId,
    headers: task.headers,
  };
}

/** A task with the tasks below it, as ES's TaskGroup (`group_by=parents`, `_cat/tasks` row order). */
export interface TaskGroup {
  readonly info: TaskInfo;
  readonly children: readonly TaskGroup[];
}

/**
 * Groups snapshots under their parents, as ES's ListTasksResponse.buildTaskGroups: a task whose parent is
 * not among the snapshots (filtered out, finished, or on a node that did not answer) becomes a top-level
 * group. Input order is kept at every level.
 */
export function groupByParents(infos: readonly TaskInfo[]): TaskGroup[] {
  const byId = new Map<string, { info: TaskInfo; children: TaskGroup[] }>();
  for (const info of infos) byId.set(info.taskId.toString(), { info, children: [] });
  const topLevel: TaskGroup[] = [];
  for (const group of byId.values()) {
    const parent = group.info.parentTaskId ? byId.get(group.info.parentTaskId.toString()) : undefined;
    if (parent && parent !== group) parent.children.push(group);
    else topLevel.push(group);
  }
  return topLevel;
}
