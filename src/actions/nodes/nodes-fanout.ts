/**
 * Runs a per-node operation on every node a request selects and merges the answers as ES's
 * TransportNodesAction and RestActions.NodesResponseRestListener do: `_nodes` {total, successful, failed,
 * failures}, `cluster_name`, then `nodes` keyed by node id in cluster order. The operation is a node-level
 * action (registered in node-actions.ts) sent to every selected node, this one included (the transport's local
 * shortcut runs it in-process, no socket); a node that cannot be reached, or does not answer within the
 * request's `timeout`, becomes a `failed_node_exception` in `failures` while the others still answer.
 */
import { errors, toEsError, type EsError } from '../../common/errors.js';
import { resolveNodeSelectors, type ClusterState } from '../../cluster/index.js';
import type { NodeServices } from '../context.js';
import type { Task } from '../../tasks/index.js';
import { sendToNode } from '../remote-node.js';
import { errorJson } from '../tasks/task-json.js';
import type { JsonObject } from './human-fields.js';
import type { RestRequest } from '../rest.js';

export interface NodesOutcome<T> {
  readonly state: ClusterState;
  /** Answers by node id, in cluster order. */
  readonly answers: Map<string, T>;
  readonly failures: EsError[];
}

/** The node-level action (registered in node-actions.ts) and its arguments, which every selected node answers. */
export interface NodeRequest {
  readonly action: string;
  readonly args: unknown;
  readonly task?: Task;
  readonly timeoutMillis?: number;
}

export async function onSelectedNodes<T>(services: NodeServices, selectors: readonly string[], request: NodeRequest): Promise<NodesOutcome<T>> {
  const state = services.clusterService.state();
  const wantsAll = selectors.length === 0 || (selectors.length === 1 && selectors[0] === '_all');
  const nodeIds = resolveNodeSelectors(state, services.localNode.id, wantsAll ? [] : selectors);
  const settled = await Promise.all(
    nodeIds.map(async (nodeId): Promise<[string, T | EsError]> => {
      try {
        const node = state.nodes.get(nodeId);
        if (!node) throw errors.noSuchNode(nodeId);
        return [nodeId, (await sendToNode(services, node, request.action, request.args, request.task, request.timeoutMillis)) as T];
      } catch (err) {
        return [nodeId, errors.failedNode(nodeId, toEsError(err))];
      }
    }),
  );
  const answers = new Map<string, T>();
  const failures: EsError[] = [];
  for (const [nodeId, outcome] of settled) {
    if (outcome instanceof Error) failures.push(outcome as EsError);
    else answers.set(nodeId, outcome);
  }
  return { state, answers, failures };
}

/** BaseNodesRequest's `timeout`: how long each node has to answer (no limit when not given). */
export function nodeTimeoutMillis(request: RestRequest): number | undefined {
  return request.hasParam('timeout') ? request.paramTimeMillis('timeout', 0) : undefined;
}

/** RestActions.buildNodesHeader. */
export function nodesHeader(total: number, successful: number, failures: readonly EsError[]): JsonObject {
  const header: JsonObject = { total, successful, failed: failures.length };
  if (failures.length > 0) header['failures'] = failures.map(errorJson);
  return header;
}

export function nodesResponseBody(outcome: NodesOutcome<JsonObject>): JsonObject {
  return {
    _nodes: nodesHeader(outcome.answers.size + outcome.failures.length, outcome.answers.size, outcome.failures),
    cluster_name: outcome.state.clusterName,
    nodes: Object.fromEntries(outcome.answers),
  };
}
