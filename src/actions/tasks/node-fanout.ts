/**
 * Runs one tasks operation on every node it targets, as ES's TransportTasksAction: the nodes come from the
 * target task id or the `nodes` selectors; each node runs the operation from its serializable arguments as the
 * node-level action `<action>[n]` (node-actions.ts registers it), a cancellable child task of the caller's task
 * carrying its headers, so it shows up under its parent in the task list. The coordinating node is sent the
 * same request: the transport's local shortcut runs it in-process (type `direct`, no encoding). A node that is
 * not in the cluster, or that fails, becomes a `failed_node_exception` in `node_failures`; the other nodes still
 * answer.
 */
import { errors, toEsError, type EsError } from '../../common/errors.js';
import { resolveTaskNodes } from '../../cluster/task-nodes.js';
import type { Task, TaskId, TaskInfo } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { sendToNode } from '../remote-node.js';
import { tasksResultFromWire } from './task-wire.js';
import type { TaskOperationFailure } from './task-json.js';
import type { TasksResponse } from './tasks-response.js';

export interface NodeTasksTarget {
  /** `nodes` selectors; empty means every node. Ignored when `targetTaskId` is set. */
  readonly nodes: readonly string[];
  readonly targetTaskId: TaskId | undefined;
}

export interface NodeTasksResult {
  readonly tasks: readonly TaskInfo[];
  readonly taskFailures: readonly TaskOperationFailure[];
  /** The node's tasks already written as its `tasks` JSON object (list-tasks.ts `renderJson`); `tasks` is then empty. */
  readonly rendered?: RenderedTasks;
}

export interface RenderedTasks {
  readonly count: number;
  /** UTF-8 JSON; from another node, a view of the received frame (crossed as msgpack bin, never decoded). */
  readonly bytes: Uint8Array;
}

export async function executeOnTaskNodes(
  services: NodeServices,
  parentTask: Task,
  action: string,
  target: NodeTasksTarget,
  /** The node request's serializable arguments, the same for every node. */
  args: unknown,
  /** How long a node has to answer (BaseTasksRequest's `timeout`); its silence is a node failure. */
  timeoutMillis?: number,
): Promise<TasksResponse> {
  const state = services.clusterService.state();
  const nodeIds = resolveTaskNodes(state, services.localNode.id, target.nodes, target.targetTaskId);
  const outcomes = await Promise.all(
    nodeIds.map(async (nodeId): Promise<NodeTasksResult | EsError> => {
      try {
        const node = state.nodes.get(nodeId);
        if (!node) throw errors.noSuchNode(nodeId);
        return (await sendToNode(services, node, `${action}[n]`, args, parentTask, timeoutMillis, { decodeResponse: tasksResultFromWire })) as NodeTasksResult;
      } catch (err) {
        return errors.failedNode(nodeId, toEsError(err));
      }
    }),
  );
  const tasks: TaskInfo[] = [];
  const taskFailures: TaskOperationFailure[] = [];
  const nodeFailures: EsError[] = [];
  const rendered: Array<{ nodeId: string } & RenderedTasks> = [];
  outcomes.forEach((outcome, i) => {
    if ('tasks' in outcome) {
      tasks.push(...outcome.tasks);
      taskFailures.push(...outcome.taskFailures);
      if (outcome.rendered !== undefined) rendered.push({ nodeId: nodeIds[i]!, ...outcome.rendered });
    } else {
      nodeFailures.push(outcome);
    }
  });
  return { tasks, taskFailures, nodeFailures, ...(rendered.length > 0 && { rendered }) };
}
