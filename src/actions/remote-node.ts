/**
 * The one way actions reach another node: a named node-level action with serializable arguments, sent through
 * the transport (which runs it in-process when the node is this one). The receiving node runs it as a child
 * task of the caller's task (`parent_task_id` travels with the request), so it shows in the task list and a
 * cancelled parent cancels it there too. Handlers are registered by `registerNodeActions` (node-actions.ts).
 */
import { errors } from '../common/errors.js';
import { transportNode } from '../cluster/transport-nodes.js';
import type { DiscoveryNode } from '../cluster/index.js';
import type { Task } from '../tasks/index.js';
import type { NodeServices } from './context.js';

export async function sendToNode(services: NodeServices, node: DiscoveryNode, action: string, args: unknown, parentTask: Task | undefined, timeoutMillis?: number): Promise<unknown> {
  const transport = services.transport;
  if (transport === undefined) throw errors.nodeNotConnected(node.name, `${node.ip}:${node.transportPort}`);
  return transport.sendRequest(transportNode(node), action, args, { parentTaskId: parentTask?.taskId.toString(), timeoutMillis });
}
