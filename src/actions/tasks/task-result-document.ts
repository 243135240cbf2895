/**
 * A finished task's record as ES keeps it in the `.tasks` index, and back: the document is TaskResult.toXContent
 * written with `include_cancelled=false` (`completed`, `task` as TaskInfo prints it without `cancelled`, then
 * `error` or `response`), and reading it is TaskResult.PARSER (a missing `cancelled` reads as false, unknown
 * fields are ignored). `status`, `error` and `response` come back with their numbers as the literal text that
 * was stored, so `1.0` or a 19-digit long print exactly as they went in.
 */
import { errors, describeError } from '../../common/errors.js';
import { JsonFloat, javaDoubleString } from '../../common/json-float.js';
import { RawJson, expandRawJson } from '../../common/raw-json.js';
import { TaskId, type StoredTaskResult, type TaskInfo } from '../../tasks/index.js';
import { taskInfoJson } from './task-json.js';

/** The `.tasks` document of a record, as a JSON tree (field order as ES writes it). */
export function taskResultDocument(result: StoredTaskResult): Record<string, unknown> {
  const task = taskInfoJson(result.task, { human: false });
  // The mapping is strict and has no `cancelled` field; ES leaves it out of stored records.
  delete task['cancelled'];
  const document: Record<string, unknown> = { completed: result.completed, task };
  if (result.error !== undefined) document['error'] = result.error;
  if (result.response !== undefined) document['response'] = result.response;
  return document;
}

/** The document's source bytes. */
export function encodeTaskResult(result: StoredTaskResult): Uint8Array {
  return Buffer.from(compactJson(taskResultDocument(result)), 'utf8');
}

/** Parses a stored document back into a record; `taskId` names it in errors. */
export function decodeTaskResult(source: Uint8Array | undefined, taskId: string): StoredTaskResult {
  if (source === undefined || source.length === 0) throw errors.storedTaskWithoutSource(taskId);
  let tree: unknown;
  try {
    tree = expandRawJson(new RawJson(Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8')));
  } catch (err) {
    throw errors.storedTaskUnreadable(taskId, describeError(err));
  }
  const document = asObject(tree, 'stored_task_result', taskId);
  const completed = document['completed'];
  if (typeof completed !== 'boolean') throw errors.storedTaskUnreadable(taskId, 'required field [completed] is missing');
  const result: { completed: boolean; task: TaskInfo; error?: Record<string, unknown>; response?: Record<string, unknown> } = {
    completed,
    task: decodeTaskInfo(asObject(document['task'], 'task', taskId), taskId),
  };
  if (document['error'] !== undefined && document['error'] !== null) result.error = asObject(document['error'], 'error', taskId);
  if (document['response'] !== undefined && document['response'] !== null) result.response = asObject(document['response'], 'response', taskId);
  return result;
}

/** TaskInfo.PARSER: node, id, type, action, start and running time and cancellable are required. */
function decodeTaskInfo(task: Record<string, unknown>, taskId: string): TaskInfo {
  const required = <T>(name: string, read: (value: unknown) => T | undefined): T => {
    const value = read(task[name]);
    if (value === undefined) throw errors.storedTaskUnreadable(taskId, `required field [task.${name}] is missing or malformed`);
    return value;
  };
  const parent = readString(task['parent_task_id']);
  const description = readString(task['description']);
  const rawHeaders = task['headers'];
  // fromEntries defines own properties, so a header named `__proto__` stays a header (assignment would not).
  const headers: Record<string, string> =
    rawHeaders !== null && typeof rawHeaders === 'object' && !Array.isArray(rawHeaders)
      ? Object.fromEntries(Object.entries(rawHeaders).map(([name, value]) => [name, value instanceof RawJson ? value.text : String(value)]))
      : {};
  const cancellable = required('cancellable', readBoolean);
  return {
    taskId: new TaskId(required('node', readString), required('id', readNumber)),
    type: required('type', readString),
    action: required('action', readString),
    description,
    status: task['status'] === null ? undefined : task['status'],
    startTimeMillis: required('start_time_in_millis', readNumber),
    runningTimeNanos: required('running_time_in_nanos', readNumber),
    cancellable,
    cancelled: cancellable && readBoolean(task['cancelled']) === true,
    parentTaskId: parent === undefined ? undefined : (TaskId.parse(parent) ?? undefined),
    headers,
  };
}

function asObject(value: unknown, field: string, taskId: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RawJson) {
    throw errors.storedTaskUnreadable(taskId, `[${field}] is not an object`);
  }
  return value as Record<string, unknown>;
}

function readString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function readBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

function readNumber(value: unknown): number | undefined {
  const number = value instanceof RawJson ? Number(value.text) : typeof value === 'number' ? value : Number.NaN;
  return Number.isFinite(number) ? number : undefined;
}

/**
 * Compact JSON as the response writer prints it (RawJson verbatim, JsonFloat as a Java double, Maps as
 * objects, undefined members left out), so a stored response reads back as the API would have answered.
 */
export function compactJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(value: unknown, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
  } else if (value instanceof RawJson) {
    out.push(value.text);
  } else if (value instanceof JsonFloat) {
    const text = javaDoubleString(value.value);
    out.push(Number.isFinite(value.value) ? text : JSON.stringify(text));
  } else if (value instanceof Date) {
    out.push(JSON.stringify(value.toISOString()));
  } else if (typeof value === 'number') {
    out.push(Number.isFinite(value) ? String(value) : JSON.stringify(javaDoubleString(value)));
  } else if (typeof value === 'bigint') {
    out.push(value.toString());
  } else if (typeof value === 'string' || typeof value === 'boolean') {
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
  } else if (typeof value === 'object') {
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    out.push('{');
    let first = true;
    for (const [key, child] of entries) {
      if (child === undefined) continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(String(key)), ':');
      write(child, out);
    }
    out.push('}');
  } else {
    out.push('null');
  }
}
