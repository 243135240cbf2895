/**
 * Which nodes a tasks request (list, cancel, `_cat/tasks`) goes to, as ES's TransportTasksAction.resolveNodes:
 * the node of the target task id when there is one (even if that node is not in the cluster: the caller then
 * reports it as a failed node), otherwise the nodes the `nodes` selectors resolve to (all nodes when none).
 */
import type { TaskId } from '../tasks/task-id.js';
import type { ClusterState } from './cluster-state.js';
import { resolveNodeSelectors } from './node-selector.js';

export function resolveTaskNodes(
  state: ClusterState,
  localNodeId: string,
  selectors: readonly string[],
  targetTaskId: TaskId | undefined,
): string[] {
  if (targetTaskId) return [targetTaskId.nodeId];
  return resolveNodeSelectors(state, localNodeId, selectors);
}
