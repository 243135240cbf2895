/**
 * The one way actions reach a node, this one included: a named node-level action with serializable arguments,
 * sent through the transport, which runs it in-process when the node is this one (ES's TransportService local
 * shortcut: no socket, no encoding, the handler gets the same value and its answer comes back as it is). So an
 * action never asks "is this node local?": it names the node and sends. The receiving node runs the action as
 * a child task of the caller's task (`parent_task_id` and the caller's headers travel with the request), so it
 * shows in the task list and a cancelled parent cancels it there too. Handlers are registered by
 * `registerNodeActions` (node-actions.ts); test/unit/architecture.test.ts keeps the local-node comparisons out of
 * actions/.
 */
import { errors } from '../common/errors.js';
import { transportNode } from '../cluster/transport-nodes.js';
import type { DiscoveryNode } from '../cluster/index.js';
import type { Task } from '../tasks/index.js';
import type { NodeServices } from './context.js';

export async function sendToNode(
  services: NodeServices,
  node: DiscoveryNode,
  action: string,
  args: unknown,
  parentTask: Task | undefined,
  timeoutMillis?: number,
  /**
   * How the request and its answer cross a socket: `encodeRequest` for the body (the action's registered decoder
   * reads it), `decodeResponse` for the answer (its registered encoder made it). Neither runs for this node.
   */
  codec: { readonly encodeRequest?: (body: unknown) => unknown; readonly decodeResponse?: (wire: unknown) => unknown } = {},
): Promise<unknown> {
  const transport = services.transport;
  if (transport === undefined) throw errors.nodeNotConnected(node.name, `${node.ip}:${node.transportPort}`);
  return transport.sendRequest(transportNode(node), action, args, {
    parentTaskId: parentTask?.taskId.toString(),
    timeoutMillis,
    ...(parentTask !== undefined && { headers: parentTask.headers }),
    ...(codec.decodeResponse !== undefined && { decodeResponse: codec.decodeResponse }),
    ...(codec.encodeRequest !== undefined && { encodeRequest: codec.encodeRequest }),
  });
}
