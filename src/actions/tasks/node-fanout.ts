/**
 * Runs one tasks operation on every node it targets, as ES's TransportTasksAction: the nodes come from the
 * target task id or the `nodes` selectors; on each node the work runs as a child task named
 * `<action>[n]` (cancellable, type `direct` on the coordinating node itself, carrying the request's
 * headers), so it shows up under its parent in the task list. A node that is not in the cluster, or that
 * fails, becomes a `failed_node_exception` in `node_failures`; the other nodes still answer.
 *
 * Other nodes run the same operation from its serializable arguments (`remoteArgs`) as the node-level action
 * `<action>[n]` over the transport (node-actions.ts registers it), as a child of the caller's task.
 */
import { errors, toEsError, type EsError } from '../../common/errors.js';
import { resolveTaskNodes } from '../../cluster/task-nodes.js';
import { transportAddress } from '../../cluster/index.js';
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
}

export type NodeOperation = (nodeTask: Task) => Promise<NodeTasksResult>;

export async function executeOnTaskNodes(
  services: NodeServices,
  parentTask: Task,
  action: string,
  target: NodeTasksTarget,
  nodeOperation: NodeOperation,
  remoteArgs?: unknown,
  /** How long another node has to answer (BaseTasksRequest's `timeout`); its silence is a node failure. */
  remoteTimeoutMillis?: number,
): Promise<TasksResponse> {
  const state = services.clusterService.state();
  const localNodeId = services.localNode.id;
  const nodeIds = resolveTaskNodes(state, localNodeId, target.nodes, target.targetTaskId);
  const outcomes = await Promise.all(
    nodeIds.map(async (nodeId): Promise<NodeTasksResult | EsError> => {
      try {
        const node = state.nodes.get(nodeId);
        if (!node) throw errors.noSuchNode(nodeId);
        if (nodeId !== localNodeId) {
          if (remoteArgs === undefined) throw errors.nodeNotConnected(node.name, transportAddress(node));
          return tasksResultFromWire(await sendToNode(services, node, `${action}[n]`, remoteArgs, parentTask, remoteTimeoutMillis));
        }
        return await services.taskManager.run(
          {
            type: 'direct',
            action: `${action}[n]`,
            description: '',
            parentTaskId: parentTask.taskId,
            cancellable: true,
            headers: parentTask.headers,
          },
          nodeOperation,
        );
      } catch (err) {
        return errors.failedNode(nodeId, toEsError(err));
      }
    }),
  );
  const tasks: TaskInfo[] = [];
  const taskFailures: TaskOperationFailure[] = [];
  const nodeFailures: EsError[] = [];
  for (const outcome of outcomes) {
    if ('tasks' in outcome) {
      tasks.push(...outcome.tasks);
      taskFailures.push(...outcome.taskFailures);
    } else {
      nodeFailures.push(outcome);
    }
  }
  return { tasks, taskFailures, nodeFailures };
}
