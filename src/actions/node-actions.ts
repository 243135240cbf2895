/**
 * The node-level actions other nodes call over the transport (ES's `<action>[n]` node requests): each rebuilds
 * its request from serializable arguments and runs the same function the coordinating node runs for itself,
 * as a child task of the caller's task. Also the ban messages of cross-node cancellation
 * (ES's `internal:admin/tasks/ban`): cancelling a parent bans and cancels its children on every node.
 */
import { transportNode } from '../cluster/transport-nodes.js';
import { TaskId, type Task } from '../tasks/index.js';
import type { RequestContext, TransportService } from '../transport/index.js';
import type { NodeServices } from './context.js';
import { localNodeInfo } from './nodes/node-info.js';
import { localNodeStats } from './nodes/node-stats.js';
import { NODES_INFO_NODE_ACTION, NODES_STATS_NODE_ACTION } from './nodes/nodes-routes.js';
import { CLUSTER_STATS_NODE_ACTION, localPart } from './cluster/cluster-stats.js';
import { localSnapshot, NODE_SNAPSHOT_ACTION, snapshotToWire } from './cat/node-snapshot.js';
import { GET_TASK_ACTION, getFromThisNode, getRequestFromWire, storedResultToWire } from './tasks/get-task.js';
import { RETHROTTLE_ACTION, rethrottleOnNode, type RethrottleNodeRequest } from './reindex/rethrottle-action.js';
import { LIST_TASKS_ACTION, listRequestFromWire, listTasksOnNode } from './tasks/list-tasks.js';
import { CANCEL_TASKS_ACTION, cancelRequestFromWire, cancelTasksOnNode } from './tasks/cancel-tasks.js';
import { tasksResultToWire } from './tasks/task-wire.js';
import { executeShardBulk, SHARD_BULK_ACTION, shardBulkRequestFromWire, shardBulkResponseToWire, type ShardBulkRequest } from './documents/write-executor.js';
import { documentReadToWire, GET_SHARD_ACTION, readDocumentOnShardNode } from './documents/document-reader.js';
import { executeRemoteShardSearch, type RemoteShardSearchRequest } from './search/remote-shard-search.js';
import {
  CAN_MATCH_ACTION,
  canMatchOnNode,
  CLEAR_SCROLL_CONTEXTS_ACTION,
  clearScrollContextsOnNode,
  DFS_ACTION,
  dfsOnShard,
  FETCH_CONTEXT_ACTION,
  fetchOnContext,
  FREE_CONTEXT_ACTION,
  FREE_CONTEXT_SCROLL_ACTION,
  FETCH_SCROLL_ACTION,
  freeContextOnNode,
  OPEN_READER_CONTEXT_ACTION,
  openReaderContext,
  QUERY_CONTEXT_ACTION,
  QUERY_FETCH_SCROLL_ACTION,
  QUERY_SCROLL_ACTION,
  queryFetchOnContext,
  queryFetchOnScroll,
  queryOnContext,
  type CanMatchNodeRequest,
  type ContextFetchRequest,
  type ContextQueryRequest,
  type DfsShardRequest,
  type OpenContextRequest,
  type RemoteContextRef,
} from './search/remote-contexts.js';
import { decodeTagged, encodeTagged } from './search/wire-values.js';
import { canMatchNodeDescription, fetchDescription, scrollQueryDescription, shardSearchDescription } from './search/shard-task-descriptions.js';
import { TERMS_ENUM_NODE_ACTION, termsEnumOnNode, type NodeTermsEnumRequest } from './search/terms-enum-node.js';
import { EXPLAIN_SHARD_ACTION, explainOnShard, type ExplainShardRequest } from './search/explain-action.js';
import { runBroadcastOnNode, type BroadcastOperation } from './broadcast-by-node.js';
import { FORCE_MERGE_ACTION, forceMergeOnShard } from './indices/broadcast-actions.js';
import { replicaActionOf, runOnPrimary, runOnReplica, type ReplicatedOperation, type ReplicatedShardRequest } from './indices/replicated-broadcast.js';
import { REFRESH_OPERATION } from './indices/replicated-refresh.js';
import { FLUSH_OPERATION } from './indices/replicated-flush.js';
import { CLEAR_CACHE_ACTION, clearCacheOnShard } from './indices/cache-clear-action.js';
import { INDICES_STATS_ACTION, shardStatsOnShard } from './indices/shard-stats-broadcast.js';
import { INDICES_SEGMENTS_ACTION, shardSegmentsOnShard } from './indices/segments-broadcast.js';
import { RECOVERY_ACTION, recoveryOnShard } from './indices/recovery-broadcast.js';
import { HOT_THREADS_NODE_ACTION, localHotThreads, type HotThreadsRequest } from './nodes/hot-threads-action.js';
import { localThreadPools, THREAD_POOL_NODE_ACTION } from './cat/thread-pool-action.js';
import { performOnReplica, REPLICA_ACTION, type ReplicaRequest } from '../indices/index.js';
import { indicesOf } from './indices-services.js';
import { queueTurn } from '../common/loop-turns.js';

export const BAN_ACTION = 'internal:admin/tasks/ban';

type NodeAction = (services: NodeServices, args: never, task: Task) => Promise<unknown>;

/**
 * A shard-level search phase runs on ES's `search` pool (at most its size at once, then a bounded queue, then 429),
 * and starts in a queued turn of the loop budget, not in the turn that received it, so the operator's commands
 * read in the same poll are answered first. This node's own searches come here through the local shortcut too.
 */
function onSearchPool<A>(phase: (services: NodeServices, args: A, task: Task) => Promise<unknown>): NodeAction {
  return (services, args: A, task) =>
    services.threadPools.execute('search', async () => {
      await queueTurn();
      return phase(services, args, task);
    });
}

const NODE_ACTIONS: Record<string, NodeAction> = {
  [NODES_INFO_NODE_ACTION]: (services, args: { metrics: string[]; options: { human: boolean; flatSettings: boolean } }) =>
    Promise.resolve(localNodeInfo(services, new Set(args.metrics) as Parameters<typeof localNodeInfo>[1], args.options)),
  [NODES_STATS_NODE_ACTION]: (services, args: { request: Record<string, unknown> & { sections: string[]; indexMetrics: string[] }; human: boolean }) =>
    Promise.resolve(
      localNodeStats(
        services,
        { ...args.request, sections: new Set(args.request.sections), indexMetrics: new Set(args.request.indexMetrics) } as unknown as Parameters<typeof localNodeStats>[1],
        args.human,
      ),
    ),
  [CLUSTER_STATS_NODE_ACTION]: (services) => localPart(services),
  [HOT_THREADS_NODE_ACTION]: (services, args: HotThreadsRequest, task) => localHotThreads(services, args, task),
  [THREAD_POOL_NODE_ACTION]: (services) => Promise.resolve(localThreadPools(services)),
  [NODE_SNAPSHOT_ACTION]: (services) => localSnapshot(services, services.clusterService.state()),
  [SHARD_BULK_ACTION]: (services, args: ShardBulkRequest, task) => executeShardBulk(args, { task, services }),
  // A replica's share of a shard bulk request (indices/replication/replica-apply.ts).
  [REPLICA_ACTION]: (services, args: ReplicaRequest) => performOnReplica(indicesOf(services).service, services.replication!, args),
  [OPEN_READER_CONTEXT_ACTION]: (services, args: OpenContextRequest) => openReaderContext(services, args),
  [CAN_MATCH_ACTION]: (services, args: CanMatchNodeRequest) => Promise.resolve(canMatchOnNode(services, args)),
  [DFS_ACTION]: onSearchPool((services, args: DfsShardRequest, task) => dfsOnShard(services, args, task)),
  // A search of one shard queries and fetches in this one request (ES's query-and-fetch); others open a context.
  [QUERY_CONTEXT_ACTION]: onSearchPool((services, args: ContextQueryRequest | RemoteShardSearchRequest, task) =>
    args.mode.kind === 'query-and-fetch'
      ? executeRemoteShardSearch(services, args as RemoteShardSearchRequest, task)
      : (args as ContextQueryRequest).fetchInQuery === true
        ? queryFetchOnContext(services, args as ContextQueryRequest, task)
        : queryOnContext(services, args as ContextQueryRequest, task),
  ),
  [FETCH_CONTEXT_ACTION]: onSearchPool((services, args: ContextFetchRequest, task) => fetchOnContext(services, args, task)),
  // A scroll's later pages (ES's SearchScrollQueryThenFetchAsyncAction and, for one shard, QueryAndFetch).
  [QUERY_SCROLL_ACTION]: onSearchPool((services, args: ContextQueryRequest, task) => queryOnContext(services, args, task)),
  [FETCH_SCROLL_ACTION]: onSearchPool((services, args: ContextFetchRequest, task) => fetchOnContext(services, args, task)),
  [QUERY_FETCH_SCROLL_ACTION]: onSearchPool((services, args: ContextQueryRequest, task) => queryFetchOnScroll(services, args, task)),
  [TERMS_ENUM_NODE_ACTION]: onSearchPool((services, args: NodeTermsEnumRequest, task) => termsEnumOnNode(services, args, task)),
  [FREE_CONTEXT_ACTION]: (services, args: RemoteContextRef & { kind: 'scroll' | 'pit' | 'search' }) => Promise.resolve(freeContextOnNode(services, args)),
  [FREE_CONTEXT_SCROLL_ACTION]: (services, args: RemoteContextRef & { kind: 'scroll' | 'pit' | 'search' }) => Promise.resolve(freeContextOnNode(services, args)),
  [CLEAR_SCROLL_CONTEXTS_ACTION]: (services) => Promise.resolve(clearScrollContextsOnNode(services)),
  [EXPLAIN_SHARD_ACTION]: (services, args: ExplainShardRequest, task) => explainOnShard(services, args, task),
  [GET_SHARD_ACTION]: (services, args: Parameters<typeof readDocumentOnShardNode>[1], task) => readDocumentOnShardNode({ task, services }, args),
  [`${LIST_TASKS_ACTION}[n]`]: (services, args: unknown) => listTasksOnNode(services, listRequestFromWire(args)),
  [`${CANCEL_TASKS_ACTION}[n]`]: (services, args: unknown, task) => cancelTasksOnNode(services, task, cancelRequestFromWire(args)),
  [`${RETHROTTLE_ACTION}[n]`]: (services, args: RethrottleNodeRequest) => Promise.resolve(rethrottleOnNode(services, args)),
  [GET_TASK_ACTION]: (services, args: unknown) => getFromThisNode(services, getRequestFromWire(args)),
};

/**
 * How an action's answer crosses a socket when its plain value would not do (TaskIds, or a form the receiver
 * parses faster); the caller decodes it. The transport never applies these on its local shortcut.
 */
const RESPONSE_ENCODERS: Record<string, (value: unknown) => unknown> = {
  // Shard search results hold RawJson sources, Maps of aggregation state, BigInts and explanations.
  [CAN_MATCH_ACTION]: encodeTagged,
  [DFS_ACTION]: encodeTagged,
  [QUERY_CONTEXT_ACTION]: encodeTagged,
  [FETCH_CONTEXT_ACTION]: encodeTagged,
  [QUERY_SCROLL_ACTION]: encodeTagged,
  [FETCH_SCROLL_ACTION]: encodeTagged,
  [QUERY_FETCH_SCROLL_ACTION]: encodeTagged,
  [NODE_SNAPSHOT_ACTION]: snapshotToWire,
  [SHARD_BULK_ACTION]: shardBulkResponseToWire,
  [GET_SHARD_ACTION]: documentReadToWire,
  [`${LIST_TASKS_ACTION}[n]`]: tasksResultToWire,
  [`${CANCEL_TASKS_ACTION}[n]`]: tasksResultToWire,
  [`${RETHROTTLE_ACTION}[n]`]: tasksResultToWire,
  [GET_TASK_ACTION]: storedResultToWire,
};

/** The shard-level operations of the broadcast-by-node actions (broadcast-by-node.ts), served as `<action>[n]`. */
const BROADCAST_OPERATIONS: Record<string, BroadcastOperation> = {
  [FORCE_MERGE_ACTION]: forceMergeOnShard,
  [CLEAR_CACHE_ACTION]: clearCacheOnShard,
  [INDICES_STATS_ACTION]: shardStatsOnShard,
  [INDICES_SEGMENTS_ACTION]: shardSegmentsOnShard,
  [RECOVERY_ACTION]: recoveryOnShard,
};

/** Refresh and flush as replication actions: the primary, then every copy it writes to (indices/replicated-broadcast.ts). */
const REPLICATED_OPERATIONS: ReadonlyArray<ReplicatedOperation<never>> = [REFRESH_OPERATION, FLUSH_OPERATION];

for (const operation of REPLICATED_OPERATIONS) {
  NODE_ACTIONS[operation.shardAction] = (services, args: ReplicatedShardRequest<never>, task) => runOnPrimary(services, operation, args, task);
  NODE_ACTIONS[replicaActionOf(operation as ReplicatedOperation<unknown>)] = (services, args: ReplicatedShardRequest<never> & { targetAllocationId: string }, task) =>
    runOnReplica(services, operation, args, task);
}

for (const [action, operation] of Object.entries(BROADCAST_OPERATIONS)) {
  NODE_ACTIONS[`${action}[n]`] = (services, args: unknown, task) => runBroadcastOnNode(services, operation, args, task);
}

/** How an action's request body is read when it crossed a socket (the sender encoded it); never on the local shortcut. */
const REQUEST_DECODERS: Record<string, (wire: unknown) => unknown> = {
  // Shard search requests hold queries and search_after values msgpack alone would alter.
  [OPEN_READER_CONTEXT_ACTION]: decodeTagged,
  [CAN_MATCH_ACTION]: decodeTagged,
  [DFS_ACTION]: decodeTagged,
  [QUERY_CONTEXT_ACTION]: decodeTagged,
  [FETCH_CONTEXT_ACTION]: decodeTagged,
  [QUERY_SCROLL_ACTION]: decodeTagged,
  [FETCH_SCROLL_ACTION]: decodeTagged,
  [QUERY_FETCH_SCROLL_ACTION]: decodeTagged,
  // A terms enum request's index_filter is a query.
  [TERMS_ENUM_NODE_ACTION]: decodeTagged,
  [SHARD_BULK_ACTION]: shardBulkRequestFromWire,
};

/** The description of a shard-level search task, as ES's request describes itself (shard-task-descriptions.ts). */
const DESCRIPTIONS: Record<string, (body: never) => string> = {
  [CAN_MATCH_ACTION]: (args: CanMatchNodeRequest) => canMatchNodeDescription(args.shards.map((shard) => shard.label)),
  [DFS_ACTION]: (args: DfsShardRequest) => shardSearchDescription(args.label.index, args.label.shard),
  [QUERY_CONTEXT_ACTION]: (args: ContextQueryRequest | RemoteShardSearchRequest) => {
    if (args.mode.kind === 'query-and-fetch') return shardSearchDescription((args as RemoteShardSearchRequest).index, (args as RemoteShardSearchRequest).shard);
    const request = args as ContextQueryRequest;
    if (request.mode.kind === 'scroll-next' && request.context !== undefined) return scrollQueryDescription(request.context, request.mode.keepAliveMillis);
    return shardSearchDescription(request.label.index, request.label.shard);
  },
  [FETCH_CONTEXT_ACTION]: (args: ContextFetchRequest) => fetchDescription(args.context, args.docs.length, args.shardIndex, args.lastEmitted),
  // ES's InternalScrollSearchRequest and ShardFetchRequest describe themselves the same under the scroll actions.
  [QUERY_SCROLL_ACTION]: (args: ContextQueryRequest) => scrollQueryDescription(args.context!, args.mode.kind === 'scroll-next' ? args.mode.keepAliveMillis : undefined),
  [QUERY_FETCH_SCROLL_ACTION]: (args: ContextQueryRequest) => scrollQueryDescription(args.context!, args.mode.kind === 'scroll-next' ? args.mode.keepAliveMillis : undefined),
  [FETCH_SCROLL_ACTION]: (args: ContextFetchRequest) => fetchDescription(args.context, args.docs.length, args.shardIndex, args.lastEmitted),
};

/** Registers every node action and the ban handler; wires this node's cancellations to ban children elsewhere. */
export function registerNodeActions(services: NodeServices, transport: TransportService): void {
  for (const [action, run] of Object.entries(NODE_ACTIONS)) {
    const encodeResponse = RESPONSE_ENCODERS[action];
    const decodeRequest = REQUEST_DECODERS[action];
    const describe = DESCRIPTIONS[action];
    transport.registerHandler(
      action,
      (body: unknown, context: RequestContext) =>
        services.taskManager.run(
          {
            // ES's channel types: `direct` for the local shortcut, `transport` for a request off the wire.
            type: context.local ? 'direct' : 'transport',
            action,
            description: describe === undefined ? '' : describe(body as never),
            parentTaskId: TaskId.parse(context.parentTaskId),
            cancellable: true,
            headers: { ...context.headers },
          },
          (task) => run(services, body as never, task),
        ),
      { ...(encodeResponse !== undefined && { encodeResponse }), ...(decodeRequest !== undefined && { decodeRequest }) },
    );
  }
  transport.registerHandler(BAN_ACTION, async (body: unknown) => {
    const request = body as { parent: string; reason: string; ban: boolean };
    const parent = TaskId.parse(request.parent)!;
    services.taskManager.applyBan(parent, request.reason, request.ban);
    if (request.ban) {
      // Answer once the banned parent's children here have stopped, so a cancel that waits means it.
      await Promise.all(services.taskManager.childrenOf(parent).map((child) => services.taskManager.waitForTaskAndDescendants(child)));
    }
    return {};
  });
  services.taskManager.banPropagator = async (parent, reason, ban) => {
    const state = services.clusterService.state();
    await Promise.all(
      [...state.nodes.values()]
        .filter((node) => node.id !== services.localNode.id)
        .map((node) =>
          transport.sendRequest(transportNode(node), BAN_ACTION, { parent: parent.toString(), reason, ban }, { timeoutMillis: 30_000 }).catch(() => undefined),
        ),
    );
  };
}
