/**
 * Listing tasks across nodes, as ES's TransportListTasksAction; `GET /_tasks` and `GET /_cat/tasks` both
 * call it. On each node the matching tasks are snapshotted (detailed or not); with `wait_for_completion`
 * the node then waits until those tasks have finished (list tasks excepted, so a list never waits for
 * itself or another list), and a node that waits past the timeout reports a node failure.
 */
import { splitByComma } from '../../cat/index.js';
import { TaskId, taskInfoOf, taskMatches, type Task, type TaskFilter } from '../../tasks/index.js';
import type { RestRequest } from '../rest.js';
import type { NodeServices } from '../context.js';
import { executeOnTaskNodes, type NodeTasksResult } from './node-fanout.js';
import type { TasksResponse } from './tasks-response.js';
import { waitForTasks } from './wait-for-tasks.js';
import { renderTaskElementsBytes, renderTaskMapBytes } from './task-listing-json.js';

export const LIST_TASKS_ACTION = 'cluster:monitor/tasks/lists';

/** The query parameters RestListTasksAction.generateListTasksRequest reads (also `_cat/tasks`'s). */
export const LIST_TASKS_PARAMS = ['nodes', 'actions', 'detailed', 'parent_task_id', 'wait_for_completion', 'timeout'] as const;

export interface ListTasksRequest {
  readonly nodes: readonly string[];
  readonly filter: TaskFilter;
  readonly detailed: boolean;
  readonly waitForCompletion: boolean;
  /** undefined: the default wait of 30s. */
  readonly timeoutMillis: number | undefined;
  /**
   * Set by `GET /_tasks?group_by=nodes|none` (not detailed): each node writes its own tasks' JSON bytes (the
   * response's `tasks` object of its block, or its elements of the `tasks` array) from its Task objects, and the
   * coordinating node splices the bytes into the response instead of decoding and writing every task of every node
   * again (decisions 0020, 0026, 0030).
   */
  readonly renderJson?: { readonly human: boolean; readonly elements?: boolean };
}

/** Reads the list parameters in ES's order, so the same input fails with the same first error. */
export function parseListTasksRequest(request: RestRequest): ListTasksRequest {
  const detailed = request.paramBool('detailed', false);
  // Strings.splitStringByCommaToArray: Java's split, entries not trimmed.
  const nodes = splitByComma(request.param('nodes'));
  const actions = splitByComma(request.param('actions'));
  const parentTaskId = TaskId.parse(request.param('parent_task_id'));
  const waitForCompletion = request.paramBool('wait_for_completion', false);
  const timeoutMillis = request.hasParam('timeout') ? request.paramTimeMillis('timeout', 0) : undefined;
  return { nodes, filter: { actions, parentTaskId }, detailed, waitForCompletion, timeoutMillis };
}

export function listTasks(services: NodeServices, listTask: Task, request: ListTasksRequest): Promise<TasksResponse> {
  // A node that does not answer within `timeout` is a node failure (TransportTasksAction's request timeout); with
  // wait_for_completion the node's own wait ends first and reports ES's "timed out" for its tasks.
  const remoteTimeout = request.timeoutMillis === undefined || request.timeoutMillis < 0 ? undefined : request.timeoutMillis + (request.waitForCompletion ? 5_000 : 0);
  return executeOnTaskNodes(services, listTask, LIST_TASKS_ACTION, { nodes: request.nodes, targetTaskId: undefined }, listRequestToWire(request), remoteTimeout);
}

/**
 * The request as it travels to the nodes: one JSON string (task ids as strings), made once for all of them. A frame
 * body of nested maps cost each answering node ~10% of its time to unpack and rebuild under 50 concurrent `_tasks`
 * requests (decision 0030); a short string is one copy each way and one JSON.parse.
 */
export function listRequestToWire(request: ListTasksRequest): string {
  // `GET /_tasks` without parameters (what monitoring polls): the same string every time.
  if (isPlainListing(request)) return request.renderJson!.elements === true ? PLAIN_ELEMENTS_WIRE : PLAIN_MAP_WIRE;
  return wireText(request);
}

function wireText(request: ListTasksRequest): string {
  return JSON.stringify({ ...request, filter: { actions: request.filter.actions, parentTaskId: request.filter.parentTaskId?.toString() } });
}

/** A listing of every task of every node, written as JSON bytes by each node (group_by=nodes or none, not human). */
function isPlainListing(request: ListTasksRequest): boolean {
  const render = request.renderJson;
  return (
    render !== undefined &&
    !render.human &&
    request.nodes.length === 0 &&
    request.filter.actions.length === 0 &&
    request.filter.parentTaskId === undefined &&
    request.filter.targetTaskId === undefined &&
    !request.detailed &&
    !request.waitForCompletion &&
    request.timeoutMillis === undefined
  );
}

const PLAIN_REQUEST: ListTasksRequest = { nodes: [], filter: { actions: [], parentTaskId: undefined }, detailed: false, waitForCompletion: false, timeoutMillis: undefined };
const PLAIN_MAP_WIRE = wireText({ ...PLAIN_REQUEST, renderJson: { human: false, elements: false } });
const PLAIN_ELEMENTS_WIRE = wireText({ ...PLAIN_REQUEST, renderJson: { human: false, elements: true } });

/**
 * The last request read from its string, and that string: under concurrent listings a node reads the same few strings
 * over and over (the request is read-only once parsed).
 */
let lastWire: string | undefined;
let lastRequest: ListTasksRequest | undefined;

/** Reads the request from its JSON string (or from the object form an older node sends). */
export function listRequestFromWire(raw: unknown): ListTasksRequest {
  if (typeof raw === 'string' && raw === lastWire) return lastRequest!;
  const request = parseWire(raw);
  if (typeof raw === 'string') {
    lastWire = raw;
    lastRequest = request;
  }
  return request;
}

function parseWire(raw: unknown): ListTasksRequest {
  const wire = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Omit<ListTasksRequest, 'filter'> & { filter: { actions: string[]; parentTaskId?: string | null } };
  return {
    nodes: wire.nodes,
    filter: { actions: wire.filter.actions, parentTaskId: TaskId.parse(wire.filter.parentTaskId ?? undefined) },
    detailed: wire.detailed,
    waitForCompletion: wire.waitForCompletion,
    timeoutMillis: wire.timeoutMillis ?? undefined,
    ...(wire.renderJson !== undefined && wire.renderJson !== null && { renderJson: { human: wire.renderJson.human, elements: wire.renderJson.elements === true } }),
  };
}

/** One node's part of a list: its matching tasks (after waiting for them with wait_for_completion). */
export async function listTasksOnNode(services: NodeServices, request: ListTasksRequest): Promise<NodeTasksResult> {
  const all = services.taskManager.list();
  const filter = request.filter;
  const matched = filter.actions.length === 0 && filter.parentTaskId === undefined && filter.targetTaskId === undefined ? all : all.filter((task) => taskMatches(filter, task));
  // One clock reading for the whole listing, taken before any wait: the running times are the listing's.
  const now = performance.now();
  let result: NodeTasksResult;
  if (request.renderJson !== undefined && !request.detailed) {
    const render = request.renderJson.elements === true ? renderTaskElementsBytes : renderTaskMapBytes;
    result = { tasks: [], taskFailures: [], rendered: { count: matched.length, bytes: render(matched, request.renderJson.human, now) } };
  } else {
    result = { tasks: matched.map((task) => taskInfoOf(task, request.detailed, now)), taskFailures: [] };
  }
  if (request.waitForCompletion) {
    await waitForTasks(
      matched.filter((task) => !task.action.startsWith(LIST_TASKS_ACTION)),
      request.timeoutMillis,
    );
  }
  return result;
}
