/**
 * A node's `tasks` object of `GET /_tasks` grouped by node (not detailed), `{"<task id>":{...},...}`, or its elements
 * of the `tasks` array `group_by=none` writes (decision 0030), as UTF-8 JSON
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
  return renderTasks(tasks, human, nowMillis, true);
}

/**
 * The same tasks as the elements of `GET /_tasks?group_by=none`'s `tasks` array, comma-separated without the
 * brackets (the coordinating node puts every node's elements into one array): each task's object without its key.
 */
export function renderTaskElementsBytes(tasks: readonly Task[], human: boolean, nowMillis: number): Buffer {
  return renderTasks(tasks, human, nowMillis, false);
}

function renderTasks(tasks: readonly Task[], human: boolean, nowMillis: number, keyed: boolean): Buffer {
  if (human) return renderHuman(tasks, nowMillis, keyed);
  let size = 2;
  for (let i = 0; i < tasks.length; i++) size += fixedPartsOf(tasks[i]!).size;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  if (keyed) out[at++] = 0x7b; // {
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i]!;
    const parts = task.listingJson as FixedTaskJson;
    if (i > 0) out[at++] = 0x2c; // ,
    const head = keyed ? parts.head : unkeyedHeadOf(parts);
    out.set(head, at);
    at += head.length;
    at = writeDigits(out, at, task.runningTimeNanosAt(nowMillis));
    // The flags and the rest of the entry in one copy: the tail is kept with each flag string in front of it.
    const tail = task.isCancelled ? cancelledTailOf(parts) : parts.tail;
    out.set(tail, at);
    at += tail.length;
  }
  if (keyed) out[at++] = 0x7d; // }
  return out.subarray(0, at);
}

/**
 * A non-negative integer's decimal digits (below 2^53: a running time in nanoseconds is below 104 days' worth). Below
 * 1e9 a value is a small integer, whose digits int32 arithmetic gives (a division by 10 becomes a multiplication);
 * a larger one is written as its two halves around 1e9.
 */
function writeDigits(out: Buffer, at: number, value: number): number {
  if (value < 1e9) return writeSmallDigits(out, at, value);
  if (value >= 1e15) return at + out.write(String(value), at, 'latin1');
  const high = Math.floor(value / 1e9);
  at = writeSmallDigits(out, at, high);
  let low = value - high * 1e9;
  for (let i = at + 8; i >= at; i--) {
    const next = (low / 10) | 0;
    out[i] = 0x30 + low - next * 10;
    low = next;
  }
  return at + 9;
}

/** The digits of an integer 0 <= value < 1e9. */
function writeSmallDigits(out: Buffer, at: number, value: number): number {
  const digits = value < 1e4 ? (value < 10 ? 1 : value < 100 ? 2 : value < 1e3 ? 3 : 4) : value < 1e6 ? (value < 1e5 ? 5 : 6) : value < 1e7 ? 7 : value < 1e8 ? 8 : 9;
  let rest = value | 0;
  const end = at + digits;
  for (let i = end - 1; i >= at; i--) {
    const next = (rest / 10) | 0;
    out[i] = 0x30 + rest - next * 10;
    rest = next;
  }
  return end;
}

function renderHuman(tasks: readonly Task[], nowMillis: number, keyed: boolean): Buffer {
  // `?human` adds two formatted times; rare enough to go the plain way.
  const entries = tasks.map((task) => `${keyed ? `${JSON.stringify(task.taskId.toString())}:` : ''}${JSON.stringify(taskInfoJson(taskInfoOf(task, false, nowMillis), { human: true }))}`);
  return Buffer.from(keyed ? `{${entries.join(',')}}` : entries.join(','), 'utf8');
}

const CANCELLED = ',"cancellable":true,"cancelled":true';
const NOT_CANCELLED = ',"cancellable":true,"cancelled":false';
const NOT_CANCELLABLE = ',"cancellable":false';
/**
 * The most a task's JSON has beside its fixed parts: a comma and the running time's digits (the flags are in the tail,
 * and a cancelled tail is never longer than the not-cancelled one it replaces).
 */
const VARIABLE_BYTES = 1 + 21;

interface FixedTaskJson {
  /** `"<id>":{` up to `"running_time_in_nanos":`, UTF-8. */
  readonly head: Buffer;
  /** The bytes of the head's `"<id>":`. */
  readonly keyLength: number;
  /** The head without its key (the array form), made when first needed. */
  unkeyedHead: Buffer | undefined;
  /** The flags as they are until the task is cancelled (cancellable or not), the parent, the headers, the closing brace. */
  readonly tail: Buffer;
  /** The same after the cancellation (a cancellable task's), made when first listed cancelled. */
  cancelledTail: Buffer | undefined;
  /** The text after the flags, kept to make the cancelled tail. */
  readonly rest: string;
  /** The most bytes the task's entry takes. */
  readonly size: number;
}

function unkeyedHeadOf(parts: FixedTaskJson): Buffer {
  if (parts.unkeyedHead === undefined) parts.unkeyedHead = parts.head.subarray(parts.keyLength);
  return parts.unkeyedHead;
}

function cancelledTailOf(parts: FixedTaskJson): Buffer {
  if (parts.cancelledTail === undefined) parts.cancelledTail = Buffer.from(CANCELLED + parts.rest, 'utf8');
  return parts.cancelledTail;
}

function fixedPartsOf(task: Task): FixedTaskJson {
  const cached = task.listingJson as FixedTaskJson | undefined;
  if (cached !== undefined) return cached;
  // Every task is rendered once this way (a request's each, on every node it reaches): the pieces shared by many
  // tasks (the type and action, empty headers) are quoted once.
  const id = task.taskId;
  const nodeId = quoted(id.nodeId);
  const key = `${nodeId.slice(0, -1)}:${id.id}":`;
  const head = `${key}{"node":${nodeId},"id":${id.id}${typeAndActionOf(task.type, task.action)}${task.startTimeMillis},"running_time_in_nanos":`;
  const rest = `${task.parentTaskId ? `,"parent_task_id":${quoted(task.parentTaskId.toString())}` : ''},"headers":${hasKeys(task.headers) ? JSON.stringify(task.headers) : '{}'}}`;
  const headBytes = Buffer.from(head, 'utf8');
  // Only a cancellable task is ever cancelled; until then its flags are the not-cancelled ones.
  const tailBytes = Buffer.from((task.cancellable ? NOT_CANCELLED : NOT_CANCELLABLE) + rest, 'utf8');
  const parts: FixedTaskJson = {
    head: headBytes,
    keyLength: Buffer.byteLength(key, 'utf8'),
    unkeyedHead: undefined,
    tail: tailBytes,
    cancelledTail: undefined,
    rest,
    size: headBytes.length + tailBytes.length + VARIABLE_BYTES,
  };
  task.listingJson = parts;
  return parts;
}

/** `,"type":<type>,"action":<action>,"start_time_in_millis":` by type and action (a node runs a bounded set of actions). */
const typeAndAction = new Map<string, Map<string, string>>();

function typeAndActionOf(type: string, action: string): string {
  let byAction = typeAndAction.get(type);
  if (byAction === undefined) typeAndAction.set(type, (byAction = new Map()));
  let text = byAction.get(action);
  if (text === undefined) byAction.set(action, (text = `,"type":${quoted(type)},"action":${quoted(action)},"start_time_in_millis":`));
  return text;
}

/** A JSON string literal as JSON.stringify writes it; printable ASCII without a quote or backslash needs no escape. */
function quoted(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(text);
  }
  return `"${text}"`;
}

function hasKeys(record: Readonly<Record<string, string>>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}
