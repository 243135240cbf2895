/**
 * A node's `tasks` object of `GET /_tasks` grouped by node (not detailed), `{"<task id>":{...},...}`, as UTF-8 JSON
 * bytes written straight from the node's Task objects, with no TaskInfo and no object tree in between: the same
 * bytes the response writer makes of taskInfoJson's objects (a unit test holds them equal). The bytes cross to the
 * coordinating node as they are and go into its HTTP response as they are (decision 0026).
 *
 * Under 50 concurrent listings each one holds the ~150-200 tasks of the requests in flight, and a task is listed by
 * every listing made while it lives: the parts of its JSON that never change (all but its running time and its
 * cancelled flag) are made at its first listing and kept on the task.
 */
import type { Task } from '../../tasks/index.js';
import { taskInfoOf } from '../../tasks/index.js';
import { taskInfoJson } from './task-json.js';

export function renderTaskMapBytes(tasks: readonly Task[], human: boolean, nowMillis: number): Buffer {
  if (human) return renderHuman(tasks, nowMillis);
  let size = 2;
  for (let i = 0; i < tasks.length; i++) size += fixedPartsOf(tasks[i]!).size;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  out[at++] = 0x7b; // {
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i]!;
    const parts = task.listingJson as FixedTaskJson;
    if (i > 0) out[at++] = 0x2c; // ,
    out.set(parts.head, at);
    at += parts.head.length;
    at = writeDigits(out, at, task.runningTimeNanosAt(nowMillis));
    const flags = task.cancellable ? (task.isCancelled ? CANCELLED : NOT_CANCELLED) : NOT_CANCELLABLE;
    out.set(flags, at);
    at += flags.length;
    out.set(parts.tail, at);
    at += parts.tail.length;
  }
  out[at++] = 0x7d; // }
  return out.subarray(0, at);
}

/** A non-negative integer's decimal digits (below 2^53: a running time in nanoseconds is below 104 days' worth). */
function writeDigits(out: Buffer, at: number, value: number): number {
  if (value >= 1e15) return at + out.write(String(value), at, 'latin1');
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let rest = value;
  for (let i = at + digits - 1; i >= at; i--) {
    const next = Math.floor(rest / 10);
    out[i] = 0x30 + (rest - next * 10);
    rest = next;
  }
  return at + digits;
}

function renderHuman(tasks: readonly Task[], nowMillis: number): Buffer {
  // `?human` adds two formatted times; rare enough to go the plain way.
  const entries = tasks.map((task) => `${JSON.stringify(task.taskId.toString())}:${JSON.stringify(taskInfoJson(taskInfoOf(task, false, nowMillis), { human: true }))}`);
  return Buffer.from(`{${entries.join(',')}}`, 'utf8');
}

const CANCELLED = Buffer.from(',"cancellable":true,"cancelled":true');
const NOT_CANCELLED = Buffer.from(',"cancellable":true,"cancelled":false');
const NOT_CANCELLABLE = Buffer.from(',"cancellable":false');
/** The most a task's JSON has beside its fixed parts: a comma, the running time's digits and the flags. */
const VARIABLE_BYTES = 1 + 21 + NOT_CANCELLED.length;

interface FixedTaskJson {
  /** `"<id>":{` up to `"running_time_in_nanos":`, UTF-8. */
  readonly head: Buffer;
  /** After `cancellable`/`cancelled`: the parent, the headers and the closing brace. */
  readonly tail: Buffer;
  /** The most bytes the task's entry takes. */
  readonly size: number;
}

function fixedPartsOf(task: Task): FixedTaskJson {
  const cached = task.listingJson as FixedTaskJson | undefined;
  if (cached !== undefined) return cached;
  const id = task.taskId;
  const head =
    `${JSON.stringify(id.toString())}:{"node":${JSON.stringify(id.nodeId)},"id":${id.id},"type":${JSON.stringify(task.type)},` +
    `"action":${JSON.stringify(task.action)},"start_time_in_millis":${task.startTimeMillis},"running_time_in_nanos":`;
  const tail = `${task.parentTaskId ? `,"parent_task_id":${JSON.stringify(task.parentTaskId.toString())}` : ''},"headers":${JSON.stringify(task.headers)}}`;
  const headBytes = Buffer.from(head, 'utf8');
  const tailBytes = Buffer.from(tail, 'utf8');
  const parts: FixedTaskJson = { head: headBytes, tail: tailBytes, size: headBytes.length + tailBytes.length + VARIABLE_BYTES };
  task.listingJson = parts;
  return parts;
}
