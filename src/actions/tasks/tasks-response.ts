/**
 * What list and cancel return, as ES's ListTasksResponse: the tasks with the failures met on the way, and
 * its three JSON shapes (`group_by=nodes|parents|none`). Failure arrays are written only when non-empty, and
 * before the tasks. The HTTP status stays 200 whatever failed.
 */
import { errors, type EsError } from '../../common/errors.js';
import { transportAddress, type DiscoveryNode } from '../../cluster/index.js';
import { groupByParents, type TaskGroup, type TaskInfo } from '../../tasks/index.js';
import { errorJson, taskFailureJson, taskInfoJson, type TaskJsonOptions, type TaskOperationFailure } from './task-json.js';
import type { RenderedTasks } from './node-fanout.js';
import { RawJson } from '../../common/raw-json.js';

export interface TasksResponse {
  /** Per node in the order the nodes were asked, each node's tasks in id order. */
  readonly tasks: readonly TaskInfo[];
  readonly taskFailures: readonly TaskOperationFailure[];
  /** failed_node_exception per node that could not answer. */
  readonly nodeFailures: readonly EsError[];
  /** Nodes that wrote their tasks' JSON themselves (`renderJson`), in the order they were asked. */
  readonly rendered?: ReadonlyArray<{ readonly nodeId: string } & RenderedTasks>;
}

export type GroupBy = 'nodes' | 'parents' | 'none';

/** RestListTasksAction's `group_by` check (also used by cancel): anything else is a 400. */
export function parseGroupBy(value: string | undefined): GroupBy {
  const groupBy = value ?? 'nodes';
  if (groupBy === 'nodes' || groupBy === 'parents' || groupBy === 'none') return groupBy;
  throw errors.tasksGroupByInvalid(groupBy);
}

export function tasksResponseJson(
  response: TasksResponse,
  groupBy: GroupBy,
  clusterNodes: ReadonlyMap<string, DiscoveryNode>,
  options: TaskJsonOptions,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (response.taskFailures.length > 0) out['task_failures'] = response.taskFailures.map(taskFailureJson);
  if (response.nodeFailures.length > 0) out['node_failures'] = response.nodeFailures.map(errorJson);
  if (groupBy === 'nodes') out['nodes'] = response.rendered !== undefined ? renderedByNode(response.rendered, clusterNodes) : groupedByNode(response.tasks, clusterNodes, options);
  else if (groupBy === 'parents') out['tasks'] = groupedByParents(response.tasks, options);
  else out['tasks'] = response.rendered !== undefined ? renderedElements(response.rendered) : response.tasks.map((info) => taskInfoJson(info, options));
  return out;
}

/** ES's node block: the node's identity, then its tasks (omitted when it has none). */
function nodeBlock(nodeId: string, clusterNodes: ReadonlyMap<string, DiscoveryNode>, tasks: unknown): Record<string, unknown> {
  const block: Record<string, unknown> = {};
  const node = clusterNodes.get(nodeId);
  // A node that left the cluster since answering keeps only its tasks, as in ES.
  if (node) {
    block['name'] = node.name;
    block['transport_address'] = transportAddress(node);
    block['host'] = node.host;
    block['ip'] = transportAddress(node);
    block['roles'] = [...node.roles].sort();
    if (Object.keys(node.attributes).length > 0) block['attributes'] = { ...node.attributes };
  }
  block['tasks'] = tasks;
  return block;
}

/**
 * The `nodes` object of nodes that wrote their tasks' JSON themselves, as UTF-8 byte parts: each node's block head
 * (its identity, up to `"tasks":`) made once per DiscoveryNode, then its listing's bytes as they came, never copied
 * here (the HTTP layer writes the parts as they are, decision 0030).
 */
function renderedByNode(rendered: NonNullable<TasksResponse['rendered']>, clusterNodes: ReadonlyMap<string, DiscoveryNode>): RawJson {
  const parts: Uint8Array[] = [];
  for (const { nodeId, count, bytes } of rendered) {
    if (count === 0) continue;
    parts.push(parts.length === 0 ? OPEN_BRACE : CLOSE_BRACE_COMMA, blockHead(nodeId, clusterNodes.get(nodeId)), bytes);
  }
  parts.push(parts.length === 0 ? EMPTY_OBJECT : CLOSE_TWO_BRACES);
  return RawJson.ofUtf8Parts(parts);
}

/** `group_by=none`'s `tasks` array of every node's elements (in the order the nodes were asked), as byte parts. */
function renderedElements(rendered: NonNullable<TasksResponse['rendered']>): RawJson {
  const parts: Uint8Array[] = [OPEN_BRACKET];
  for (const { count, bytes } of rendered) {
    if (count === 0) continue;
    if (parts.length > 1) parts.push(COMMA);
    parts.push(bytes);
  }
  parts.push(CLOSE_BRACKET);
  return RawJson.ofUtf8Parts(parts);
}

const OPEN_BRACKET = Buffer.from('[');
const CLOSE_BRACKET = Buffer.from(']');
const COMMA = Buffer.from(',');
const OPEN_BRACE = Buffer.from('{');
const CLOSE_BRACE_COMMA = Buffer.from('},');
const CLOSE_TWO_BRACES = Buffer.from('}}');
const EMPTY_OBJECT = Buffer.from('{}');

/** Block heads by node: a DiscoveryNode is immutable, and every listing's response starts each block the same way. */
const blockHeads = new WeakMap<DiscoveryNode, Buffer>();

/** `"<node id>":{<the block's identity fields>,"tasks":` as nodeBlock writes them, UTF-8. */
function blockHead(nodeId: string, node: DiscoveryNode | undefined): Buffer {
  const cached = node === undefined ? undefined : blockHeads.get(node);
  if (cached !== undefined) return cached;
  const identity = JSON.stringify(nodeBlock(nodeId, node === undefined ? new Map() : new Map([[nodeId, node]]), undefined));
  // The identity's closing brace gives way to the tasks key (a block without identity is only `{"tasks":`).
  const fields = identity.slice(0, -1);
  const head = Buffer.from(`${JSON.stringify(nodeId)}:${fields}${fields === '{' ? '' : ','}"tasks":`, 'utf8');
  if (node !== undefined) blockHeads.set(node, head);
  return head;
}

function groupedByNode(
  tasks: readonly TaskInfo[],
  clusterNodes: ReadonlyMap<string, DiscoveryNode>,
  options: TaskJsonOptions,
): Record<string, unknown> {
  const byNode = new Map<string, TaskInfo[]>();
  for (const info of tasks) {
    const list = byNode.get(info.taskId.nodeId) ?? [];
    list.push(info);
    byNode.set(info.taskId.nodeId, list);
  }
  const out: Record<string, unknown> = {};
  for (const [nodeId, nodeTasks] of byNode) {
    const taskMap: Record<string, unknown> = {};
    for (const info of nodeTasks) taskMap[info.taskId.toString()] = taskInfoJson(info, options);
    out[nodeId] = nodeBlock(nodeId, clusterNodes, taskMap);
  }
  return out;
}

function groupedByParents(tasks: readonly TaskInfo[], options: TaskJsonOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const group of groupByParents(tasks)) out[group.info.taskId.toString()] = groupJson(group, options);
  return out;
}

function groupJson(group: TaskGroup, options: TaskJsonOptions): Record<string, unknown> {
  const out = taskInfoJson(group.info, options);
  if (group.children.length > 0) out['children'] = group.children.map((child) => groupJson(child, options));
  return out;
}
