/** Task listings as they cross the transport: task ids as strings, errors as wire errors. */
import { TaskId, type TaskInfo } from '../../tasks/index.js';
import { fromWireError, toWireError, type WireError } from '../../transport/index.js';
import type { NodeTasksResult } from './node-fanout.js';

interface WireTaskInfo extends Omit<TaskInfo, 'taskId' | 'parentTaskId'> {
  readonly taskId: string;
  readonly parentTaskId: string | undefined;
}

export interface WireTasksResult {
  readonly tasks: WireTaskInfo[];
  readonly taskFailures: Array<{ nodeId: string; taskId: number; error: WireError }>;
}

export function tasksResultToWire(result: NodeTasksResult): WireTasksResult {
  return {
    tasks: result.tasks.map((info) => ({ ...info, taskId: info.taskId.toString(), parentTaskId: info.parentTaskId?.toString() })),
    taskFailures: result.taskFailures.map((failure) => ({ nodeId: failure.nodeId, taskId: failure.taskId, error: toWireError(failure.error) })),
  };
}

export function tasksResultFromWire(raw: unknown): NodeTasksResult {
  const wire = raw as WireTasksResult;
  return {
    tasks: wire.tasks.map((info) => ({ ...info, taskId: TaskId.parse(info.taskId)!, parentTaskId: TaskId.parse(info.parentTaskId ?? undefined) })),
    taskFailures: wire.taskFailures.map((failure) => ({ nodeId: failure.nodeId, taskId: failure.taskId, error: fromWireError(failure.error) })),
  };
}
