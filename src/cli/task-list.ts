/**
 * Reading the list-tasks response shape (also what cancel answers with) into flat task views, the
 * parent -> children forest the operator reads, and the node/task failures that came back with it.
 * Accepts all three `group_by` shapes so the commands do not depend on which one the node chose.
 */
import { arrayField, booleanField, describeEsError, isObject, numberField, objectField, rootCause, stringField } from './es-json.js';

export interface TaskView {
  /** `<node_id>:<number>` */
  id: string;
  nodeName: string | undefined;
  action: string;
  type: string | undefined;
  description: string | undefined;
  startTimeMillis: number | undefined;
  runningTimeNanos: number | undefined;
  cancellable: boolean;
  cancelled: boolean;
  parentTaskId: string | undefined;
  opaqueId: string | undefined;
}

export interface TaskTreeNode {
  task: TaskView;
  children: TaskTreeNode[];
}

export interface FailureView {
  /** What failed: `node <id>` or `task <node:id>`. */
  subject: string;
  message: string;
  /** The failure only says the task or node does not exist: the request matched nothing. */
  notFound: boolean;
}

export function tasksFromResponse(body: unknown): TaskView[] {
  const tasks: TaskView[] = [];
  const nodes = objectField(body, 'nodes');
  if (nodes !== undefined) {
    for (const [nodeId, node] of Object.entries(nodes)) {
      const nodeName = stringField(node, 'name');
      for (const [taskId, info] of Object.entries(objectField(node, 'tasks') ?? {})) tasks.push(taskView(info, taskId, nodeId, nodeName));
    }
    return tasks;
  }
  const grouped = isObject(body) ? body['tasks'] : undefined;
  const visit = (info: unknown, key: string | undefined): void => {
    tasks.push(taskView(info, key, undefined, undefined));
    for (const child of arrayField(info, 'children')) visit(child, undefined);
  };
  if (Array.isArray(grouped)) for (const info of grouped) visit(info, undefined);
  else if (isObject(grouped)) for (const [key, info] of Object.entries(grouped)) visit(info, key);
  return tasks;
}

/** One TaskInfo object (as in `GET /_tasks/<id>`'s `task`), read on its own. */
export function taskViewOf(info: unknown): TaskView {
  return taskView(info, undefined, undefined, undefined);
}

function taskView(info: unknown, key: string | undefined, nodeIdFromGroup: string | undefined, nodeName: string | undefined): TaskView {
  const nodeId = stringField(info, 'node') ?? nodeIdFromGroup ?? '?';
  const number = numberField(info, 'id');
  const headers = objectField(info, 'headers');
  return {
    id: key ?? `${nodeId}:${number ?? '?'}`,
    nodeName,
    action: stringField(info, 'action') ?? '?',
    type: stringField(info, 'type'),
    description: stringField(info, 'description'),
    startTimeMillis: numberField(info, 'start_time_in_millis'),
    runningTimeNanos: numberField(info, 'running_time_in_nanos'),
    cancellable: booleanField(info, 'cancellable') ?? false,
    cancelled: booleanField(info, 'cancelled') ?? false,
    parentTaskId: stringField(info, 'parent_task_id'),
    opaqueId: stringField(headers, 'X-Opaque-Id'),
  };
}

/** Drops the tasks a request with this X-Opaque-Id created (the CLI's own `GET /_tasks`) and their children. */
export function withoutRequest(tasks: readonly TaskView[], opaqueId: string): TaskView[] {
  const dropped = new Set(tasks.filter((task) => task.opaqueId === opaqueId).map((task) => task.id));
  let grew = true;
  while (grew) {
    grew = false;
    for (const task of tasks) {
      if (!dropped.has(task.id) && task.parentTaskId !== undefined && dropped.has(task.parentTaskId)) {
        dropped.add(task.id);
        grew = true;
      }
    }
  }
  return tasks.filter((task) => !dropped.has(task.id));
}

/**
 * Parents before their children, oldest first at each level (as `_cat/tasks` orders rows). A task whose
 * parent is not in the list (finished, filtered out, on a node that failed) is a root.
 */
export function buildTaskForest(tasks: readonly TaskView[]): TaskTreeNode[] {
  const byId = new Map<string, TaskTreeNode>();
  for (const task of tasks) if (!byId.has(task.id)) byId.set(task.id, { task, children: [] });
  const roots: TaskTreeNode[] = [];
  for (const node of byId.values()) {
    const parent = node.task.parentTaskId === undefined ? undefined : byId.get(node.task.parentTaskId);
    if (parent !== undefined && parent !== node && !isAncestor(node, parent, byId)) parent.children.push(node);
    else roots.push(node);
  }
  const sortLevel = (level: TaskTreeNode[]): void => {
    level.sort((a, b) => (a.task.startTimeMillis ?? 0) - (b.task.startTimeMillis ?? 0) || a.task.id.localeCompare(b.task.id));
    for (const node of level) sortLevel(node.children);
  };
  sortLevel(roots);
  return roots;
}

/** True when `candidate` sits above `node` already: linking would close a cycle (a malformed response must not loop). */
function isAncestor(node: TaskTreeNode, candidate: TaskTreeNode, byId: Map<string, TaskTreeNode>): boolean {
  const seen = new Set<string>();
  let current: TaskTreeNode | undefined = candidate;
  while (current !== undefined && !seen.has(current.task.id)) {
    if (current === node) return true;
    seen.add(current.task.id);
    current = current.task.parentTaskId === undefined ? undefined : byId.get(current.task.parentTaskId);
  }
  return false;
}

/** Walks the forest depth-first, parent before children, with each task's depth. */
export function flattenForest(forest: readonly TaskTreeNode[]): Array<{ task: TaskView; depth: number }> {
  const out: Array<{ task: TaskView; depth: number }> = [];
  const walk = (nodes: readonly TaskTreeNode[], depth: number): void => {
    for (const node of nodes) {
      out.push({ task: node.task, depth });
      walk(node.children, depth + 1);
    }
  };
  walk(forest, 0);
  return out;
}

const NOT_FOUND_TYPES = new Set(['resource_not_found_exception', 'no_such_node_exception']);

export function failuresFromResponse(body: unknown): FailureView[] {
  const failures: FailureView[] = [];
  for (const failure of arrayField(body, 'node_failures')) {
    const nodeId = stringField(failure, 'node_id') ?? nodeIdFromReason(stringField(failure, 'reason'));
    failures.push({
      subject: nodeId !== undefined ? `node ${nodeId}` : 'node',
      message: describeEsError(failure),
      notFound: NOT_FOUND_TYPES.has(stringField(rootCause(failure), 'type') ?? ''),
    });
  }
  for (const failure of arrayField(body, 'task_failures')) {
    const nodeId = stringField(failure, 'node_id') ?? '?';
    const taskNumber = numberField(failure, 'task_id');
    const reason = isObject(failure) ? failure['reason'] : undefined;
    failures.push({
      subject: `task ${nodeId}:${taskNumber ?? '?'}`,
      message: reason !== undefined ? describeEsError(reason) : (stringField(failure, 'status') ?? 'failed'),
      notFound: NOT_FOUND_TYPES.has(stringField(rootCause(reason), 'type') ?? ''),
    });
  }
  return failures;
}

/** ES's failed_node_exception reason is "Failed node [<id>]"; older bodies carry no node_id key. */
function nodeIdFromReason(reason: string | undefined): string | undefined {
  return reason === undefined ? undefined : /^Failed node \[(.+)\]$/.exec(reason)?.[1];
}

export function renderFailures(failures: readonly FailureView[]): string {
  return failures.map((failure) => `${failure.subject}: ${failure.message}\n`).join('');
}
