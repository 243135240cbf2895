/**
 * ES's TransportBroadcastByNodeAction: a shard-level operation (stats, segments, recovery, refresh, flush, force
 * merge, cache clear) over a set of shard copies, sent as one `<action>[n]` request per node that holds some of
 * them (the local node through the transport's shortcut), each node running the operation on its copies and
 * answering per shard. The counts are ES's:
 *
 * - `total`: every copy asked about, unassigned ones (or ones on a node this node does not know) included;
 * - `successful`: copies whose operation ran;
 * - `failed` / failures: copies whose operation failed, and every copy of a node that failed as a whole
 *   (`failed_node_exception` caused by the transport's error). A copy that is simply not there any more on its
 *   node (closed, moved, deleted: ES's "shard not available" exceptions) counts in `total` only.
 *
 * Each action module exports its shard-level operation; node-actions.ts serves `<action>[n]` for each of them
 * through `runBroadcastOnNode`.
 */
import { errors, EsError, toEsError } from '../common/errors.js';
import type { ClusterState, ShardRouting } from '../cluster/index.js';
import type { IndexService, IndexShard } from '../indices/index.js';
import type { Task } from '../tasks/index.js';
import { fromWireError, toWireError, type WireError } from '../transport/index.js';
import type { NodeServices } from './context.js';
import { indicesOf } from './indices-services.js';
import type { ActionContext } from './rest.js';
import { sendToNode } from './remote-node.js';
import { isShardNotAvailable } from './copy-unavailable.js';

/** A shard copy as a node-level request names it. */
export interface ShardCopyRef {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly primary: boolean;
}

export interface BroadcastShardFailure {
  readonly index: string;
  readonly shard: number;
  readonly nodeId: string | undefined;
  readonly cause: EsError;
}

export interface BroadcastShardResult<R> {
  readonly copy: ShardCopyRef;
  readonly nodeId: string;
  readonly result: R;
}

export interface BroadcastByNodeOutcome<R> {
  readonly total: number;
  readonly successful: number;
  readonly failed: number;
  /** Per copy that succeeded, in the order the copies were given. */
  readonly results: BroadcastShardResult<R>[];
  readonly failures: BroadcastShardFailure[];
}

/** What an operation gets on the node that holds the copy. */
export interface LocalShardCopy {
  readonly service: IndexService;
  /** The open copy (undefined when the index is known here but the copy is not open: a closed index). */
  readonly shard: IndexShard | undefined;
  readonly copy: ShardCopyRef;
}

/** The open copy an operation runs on; a copy that is not open here is "not available" (total only). */
export function openShard(local: LocalShardCopy): IndexShard {
  if (local.shard === undefined || local.shard.state === 'closed') throw shardNotFound(local.copy);
  return local.shard;
}

export type BroadcastOperation = (services: NodeServices, args: never, local: LocalShardCopy, task: Task) => Promise<unknown>;

interface NodeRequest {
  readonly args: unknown;
  readonly shards: ShardCopyRef[];
}

interface NodeResponse {
  /** `[position in the request's shards, result]` for each copy that succeeded. */
  readonly results: Array<[number, unknown]>;
  readonly failures: Array<[number, WireError]>;
}

function shardNotFound(copy: ShardCopyRef): EsError {
  return errors.shardNotFound(copy.index, copy.indexUuid, copy.shard);
}

/** Runs on the node: the operation on each named copy it holds, one after another as ES's node request does. */
export async function runBroadcastOnNode(services: NodeServices, operation: BroadcastOperation, body: unknown, task: Task): Promise<unknown> {
  const request = body as NodeRequest;
  const indices = indicesOf(services).service;
  const results: Array<[number, unknown]> = [];
  const failures: Array<[number, WireError]> = [];
  for (let i = 0; i < request.shards.length; i++) {
    const copy = request.shards[i]!;
    try {
      task.ensureNotCancelled();
      const service = indices.indexService(copy.index);
      if (service === undefined || service.uuid !== copy.indexUuid) throw shardNotFound(copy);
      const shard = service.shards.get(copy.shard);
      results.push([i, await operation(services, request.args as never, { service, shard, copy }, task)]);
    } catch (err) {
      const error = toEsError(err);
      if (error.type === 'task_cancelled_exception') throw error;
      failures.push([i, toWireError(error)]);
    }
  }
  return { results, failures } satisfies NodeResponse;
}

/** The copies of `indices` in the routing table, in index then shard order (unassigned ones included). */
export function allShardCopies(state: ClusterState, indices: readonly string[]): ShardRouting[] {
  const copies: ShardRouting[] = [];
  for (const index of indices) for (const shard of state.routing.get(index) ?? []) copies.push(...shard);
  return copies;
}

/** Copies in a state the operation can run on: started (or relocating away, still serving). */
export function activeCopy(copy: ShardRouting): boolean {
  return copy.state === 'STARTED' || copy.state === 'RELOCATING';
}

/**
 * Sends the operation to every node holding one of `copies` and gathers the per-copy outcome. Copies that are
 * unassigned, on a node this node does not know, or not `eligible` count in `total` only.
 */
export async function broadcastByNode<R>(
  context: ActionContext,
  action: string,
  state: ClusterState,
  copies: readonly ShardRouting[],
  args: unknown,
  eligible: (copy: ShardRouting) => boolean = () => true,
): Promise<BroadcastByNodeOutcome<R>> {
  const byNode = new Map<string, ShardCopyRef[]>();
  for (const copy of copies) {
    const metadata = state.indices.get(copy.index);
    const assigned = copy.state !== 'UNASSIGNED' && copy.nodeId !== undefined && state.nodes.has(copy.nodeId);
    if (!assigned || metadata === undefined || !eligible(copy)) continue;
    const list = byNode.get(copy.nodeId!) ?? [];
    list.push({ index: copy.index, indexUuid: metadata.uuid, shard: copy.shard, primary: copy.primary });
    byNode.set(copy.nodeId!, list);
  }
  const perNode = await Promise.all(
    [...byNode].map(async ([nodeId, shards]) => {
      try {
        const response = (await sendToNode(context.services, state.nodes.get(nodeId)!, `${action}[n]`, { args, shards } satisfies NodeRequest, context.task)) as NodeResponse;
        return { nodeId, shards, response, error: undefined };
      } catch (err) {
        const error = toEsError(err);
        if (error.type === 'task_cancelled_exception') throw error;
        return { nodeId, shards, response: undefined, error };
      }
    }),
  );
  context.task.ensureNotCancelled();
  const results: BroadcastShardResult<R>[] = [];
  const failures: BroadcastShardFailure[] = [];
  let successful = 0;
  for (const { nodeId, shards, response, error } of perNode) {
    if (response === undefined) {
      const cause = errors.failedNode(nodeId, error!);
      for (const copy of shards) failures.push({ index: copy.index, shard: copy.shard, nodeId, cause });
      continue;
    }
    successful += response.results.length;
    for (const [position, result] of response.results) results.push({ copy: shards[position]!, nodeId, result: result as R });
    for (const [position, wire] of response.failures) {
      const cause = fromWireError(wire);
      if (isShardNotAvailable(cause)) continue;
      const copy = shards[position]!;
      failures.push({ index: copy.index, shard: copy.shard, nodeId, cause });
    }
  }
  const order = new Map(copies.map((copy, position) => [`${copy.index}/${copy.shard}/${copy.nodeId}`, position]));
  results.sort((a, b) => (order.get(`${a.copy.index}/${a.copy.shard}/${a.nodeId}`) ?? 0) - (order.get(`${b.copy.index}/${b.copy.shard}/${b.nodeId}`) ?? 0));
  return { total: copies.length, successful, failed: failures.length, results, failures };
}
