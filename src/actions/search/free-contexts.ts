/**
 * Frees scroll and point-in-time contexts wherever they live (ES's ClearScrollController and the point in time's
 * close): each context's node is sent `indices:data/read/search[free_context/scroll]` (a plain search's contexts
 * `[free_context]`, as ES's SearchTransportService names them; this node's own contexts go through the transport's
 * local shortcut); `_all` asks every node of the cluster to free its scroll contexts. A node that is gone or does
 * not answer frees nothing (its contexts went with it or lapse with their keep-alive), as in ES.
 */
import type { Task } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { sendToNode } from '../remote-node.js';
import type { ContextRef } from './context-ids.js';
import { CLEAR_SCROLL_CONTEXTS_ACTION, FREE_CONTEXT_ACTION, FREE_CONTEXT_SCROLL_ACTION } from './remote-contexts.js';
import type { ReaderContext } from './reader-contexts.js';

/** Frees the contexts; resolves with how many existed and were freed. */
export async function freeContexts(
  services: NodeServices,
  refs: readonly ContextRef[],
  kind: ReaderContext['kind'],
  parent: Task | undefined,
  action: string = kind === 'search' ? FREE_CONTEXT_ACTION : FREE_CONTEXT_SCROLL_ACTION,
): Promise<number> {
  const state = services.clusterService.state();
  const outcomes = await Promise.all(
    refs.map(async (ref) => {
      const args = { sessionId: ref.sessionId, contextId: ref.contextId, kind };
      const node = state.nodes.get(ref.nodeId);
      if (node === undefined) return false;
      try {
        return ((await sendToNode(services, node, action, args, parent, 30_000)) as { freed: boolean }).freed === true;
      } catch {
        return false;
      }
    }),
  );
  return outcomes.filter(Boolean).length;
}

/** Clear scroll `_all`: every node frees every scroll context it holds. */
export async function clearAllScrollContexts(services: NodeServices, parent: Task | undefined): Promise<number> {
  const state = services.clusterService.state();
  const counts = await Promise.all(
    [...state.nodes.values()].map(async (node) => {
      try {
        return ((await sendToNode(services, node, CLEAR_SCROLL_CONTEXTS_ACTION, {}, parent, 30_000)) as { freed: number }).freed ?? 0;
      } catch {
        return 0;
      }
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}
