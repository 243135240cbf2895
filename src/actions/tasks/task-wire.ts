/** Task listings as they cross the transport: task ids as strings, errors as wire errors. */
import { TaskId, type TaskInfo } from '../../tasks/index.js';
import { fromWireError, toWireError, TrailingBytesBody, type WireError } from '../../transport/index.js';
import type { NodeTasksResult, RenderedTasks } from './node-fanout.js';
import type { TaskOperationFailure } from './task-json.js';

interface WireTaskInfo extends Omit<TaskInfo, 'taskId' | 'parentTaskId'> {
  readonly taskId: string;
  readonly parentTaskId: string | undefined;
}

export interface WireTasksResult {
  readonly tasks: WireTaskInfo[];
  readonly taskFailures: Array<{ nodeId: string; taskId: number; error: WireError }>;
}

/**
 * A listing without task statuses (every listing that is not `detailed`) crosses as one JSON string: it is only
 * numbers, names and header strings, and the runtime's JSON parser reads the ~150 tasks that 50 concurrent
 * `_tasks` requests make several times faster than msgpack's maps rebuilt into objects. A status may hold values
 * JSON would change (a non-finite rate), so a listing with statuses travels as msgpack.
 */
export function tasksResultToWire(value: unknown): WireTasksResult | { json: string } | TrailingBytesBody {
  const result = value as NodeTasksResult;
  if (result.rendered !== undefined) {
    // The listing's bytes are the body's last value, so they go to the socket as they are (frame.ts).
    const { count, bytes } = result.rendered;
    const taskFailures = result.taskFailures.map(failureToWire);
    return new TrailingBytesBody(bytes, (last): WireRenderedResult => ({ taskFailures, rendered: { count, bytes: last } }));
  }
  const wire: WireTasksResult = {
    tasks: result.tasks.map((info) => ({ ...info, taskId: info.taskId.toString(), parentTaskId: info.parentTaskId?.toString() })),
    taskFailures: result.taskFailures.map(failureToWire),
  };
  return result.tasks.every((info) => info.status === undefined) ? { json: JSON.stringify(wire) } : wire;
}

/** A listing its node wrote as JSON already: its bytes as one msgpack bin, received as a view of the frame. */
interface WireRenderedResult {
  readonly rendered: RenderedTasks;
  readonly taskFailures: WireTasksResult['taskFailures'];
}

function failureToWire(failure: TaskOperationFailure): WireTasksResult['taskFailures'][number] {
  return { nodeId: failure.nodeId, taskId: failure.taskId, error: toWireError(failure.error) };
}

export function tasksResultFromWire(raw: unknown): NodeTasksResult {
  const rendered = (raw as Partial<WireRenderedResult>).rendered;
  if (rendered !== undefined) {
    const wire = raw as WireRenderedResult;
    return { tasks: [], rendered, taskFailures: wire.taskFailures.map((failure) => ({ nodeId: failure.nodeId, taskId: failure.taskId, error: fromWireError(failure.error) })) };
  }
  const json = (raw as { json?: unknown }).json;
  const wire = (typeof json === 'string' ? JSON.parse(json) : raw) as WireTasksResult;
  return {
    tasks: wire.tasks.map((info) => ({ ...info, taskId: TaskId.parse(info.taskId)!, parentTaskId: TaskId.parse(info.parentTaskId ?? undefined) })),
    taskFailures: wire.taskFailures.map((failure) => ({ nodeId: failure.nodeId, taskId: failure.taskId, error: fromWireError(failure.error) })),
  };
}
