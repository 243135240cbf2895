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

const CANCELLED = Buffer.from(',"cancellable":true,"cancelled":true');
const NOT_CANCELLED = Buffer.from(',"cancellable":true,"cancelled":false');
const NOT_CANCELLABLE = Buffer.from(',"cancellable":false');
const KEY_END = Buffer.from('":');
const ID_KEY = Buffer.from(',"id":');
const RUNNING_TIME_KEY = Buffer.from(',"running_time_in_nanos":');
const PARENT_KEY = Buffer.from(',"parent_task_id":');
const HEADERS_KEY = Buffer.from(',"headers":');
const EMPTY_HEADERS_END = Buffer.from('{}}');
/**
 * The most a task's JSON has beside its fixed parts: a comma and the running time's digits (the flags are in the tail,
 * and a cancelled tail is never longer than the not-cancelled one it replaces).
 */
const VARIABLE_BYTES = 1 + 21;
/** The most digits a task id or a start time takes (a number below 2^53; an id parsed from text keeps its text). */
const MAX_NUMBER_BYTES = 21;

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
  /** Where the tail's text after the flags starts, kept to make the cancelled tail. */
  readonly restOffset: number;
  /** The most bytes the task's entry takes. */
  readonly size: number;
}

function unkeyedHeadOf(parts: FixedTaskJson): Buffer {
  if (parts.unkeyedHead === undefined) parts.unkeyedHead = parts.head.subarray(parts.keyLength);
  return parts.unkeyedHead;
}

function cancelledTailOf(parts: FixedTaskJson): Buffer {
  if (parts.cancelledTail === undefined) parts.cancelledTail = Buffer.concat([CANCELLED, parts.tail.subarray(parts.restOffset)]);
  return parts.cancelledTail;
}

/**
 * The task's fixed parts, written as bytes from pieces kept per node id and per type and action (a node runs a bounded
 * set of actions, and a cluster has a few node ids): each task is rendered once this way (a request's each, on every
 * node it reaches), and building its strings and encoding them cost ~10x a later listing of it (decision 0031).
 */
function fixedPartsOf(task: Task): FixedTaskJson {
  const cached = task.listingJson as FixedTaskJson | undefined;
  if (cached !== undefined) return cached;
  const id = task.taskId;
  const node = nodeIdPieces(id.nodeId);
  const typeAndAction = typeAndActionOf(task.type, task.action);
  const parent = task.parentTaskId;
  const parentNode = parent === undefined ? undefined : nodeIdPieces(parent.nodeId);
  const headers = hasKeys(task.headers) ? Buffer.from(`${JSON.stringify(task.headers)}}`, 'utf8') : EMPTY_HEADERS_END;
  const flags = task.cancellable ? NOT_CANCELLED : NOT_CANCELLABLE;
  const idText = id.idText;
  const headSize = node.quotedOpen.length + 1 + 2 * MAX_NUMBER_BYTES + KEY_END.length + node.nodeField.length + ID_KEY.length + typeAndAction.length + MAX_NUMBER_BYTES + RUNNING_TIME_KEY.length;
  const tailSize = flags.length + (parentNode === undefined ? 0 : PARENT_KEY.length + parentNode.quotedOpen.length + 2 + MAX_NUMBER_BYTES) + HEADERS_KEY.length + headers.length;
  const out = Buffer.allocUnsafe(headSize + tailSize);
  // "<node>:<id>":{"node":"<node>","id":<id>,"type":...,"start_time_in_millis":<start>,"running_time_in_nanos":
  let at = copy(out, 0, node.quotedOpen);
  out[at++] = 0x3a; // :
  at = writeAscii(out, at, idText);
  at = copy(out, at, KEY_END);
  const keyLength = at;
  at = copy(out, at, node.nodeField);
  at = copy(out, at, ID_KEY);
  at = writeAscii(out, at, idText);
  at = copy(out, at, typeAndAction);
  at = writeDigits(out, at, task.startTimeMillis);
  at = copy(out, at, RUNNING_TIME_KEY);
  const headEnd = at;
  // <flags>,"parent_task_id":"<node>:<id>","headers":{...}}
  at = copy(out, at, flags);
  if (parent !== undefined) {
    at = copy(out, at, PARENT_KEY);
    at = copy(out, at, parentNode!.quotedOpen);
    out[at++] = 0x3a; // :
    at = writeAscii(out, at, parent.idText);
    out[at++] = 0x22; // "
  }
  at = copy(out, at, HEADERS_KEY);
  at = copy(out, at, headers);
  const head = out.subarray(0, headEnd);
  const tail = out.subarray(headEnd, at);
  const parts: FixedTaskJson = {
    head,
    keyLength,
    unkeyedHead: undefined,
    tail,
    cancelledTail: undefined,
    restOffset: flags.length,
    size: head.length + tail.length + VARIABLE_BYTES,
  };
  task.listingJson = parts;
  return parts;
}

function copy(out: Buffer, at: number, bytes: Buffer): number {
  out.set(bytes, at);
  return at + bytes.length;
}

/** A task id's number as its text has it (digits, or a sign and digits: ASCII). */
function writeAscii(out: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
  return at;
}

interface NodeIdPieces {
  /** The node id as a JSON string without its closing quote: `"<node>`. */
  readonly quotedOpen: Buffer;
  /** `{"node":"<node>"`. */
  readonly nodeField: Buffer;
}

/** By node id: the task's own node and its parent's (a cluster has a few). */
const nodeIds = new Map<string, NodeIdPieces>();

function nodeIdPieces(nodeId: string): NodeIdPieces {
  let pieces = nodeIds.get(nodeId);
  if (pieces === undefined) {
    const text = quoted(nodeId);
    pieces = { quotedOpen: Buffer.from(text.slice(0, -1), 'utf8'), nodeField: Buffer.from(`{"node":${text}`, 'utf8') };
    // Node ids come from the cluster (and from parent ids in requests): keep the memory bounded all the same.
    if (nodeIds.size >= 1024) nodeIds.clear();
    nodeIds.set(nodeId, pieces);
  }
  return pieces;
}

/** `,"type":<type>,"action":<action>,"start_time_in_millis":` by type and action (a node runs a bounded set of actions). */
const typeAndAction = new Map<string, Map<string, Buffer>>();

function typeAndActionOf(type: string, action: string): Buffer {
  let byAction = typeAndAction.get(type);
  if (byAction === undefined) typeAndAction.set(type, (byAction = new Map()));
  let bytes = byAction.get(action);
  if (bytes === undefined) byAction.set(action, (bytes = Buffer.from(`,"type":${quoted(type)},"action":${quoted(action)},"start_time_in_millis":`, 'utf8')));
  return bytes;
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
