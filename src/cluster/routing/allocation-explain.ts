/**
 * `_cluster/allocation/explain` on the master (ES's TransportClusterAllocationExplainAction): finds the copy the
 * request names (or the first unassigned one) and asks the same decisions the allocation round acts on
 * (unassigned-decision.ts, move-decision.ts). Returns Gannet's typed answer; actions/ prints it in ES's shape.
 */
import { allocationErrors, errors } from '../../common/errors.js';
import type { ClusterState, ShardRouting } from '../cluster-state.js';
import { resolveNodeSelectors } from '../node-selector.js';
import type { DiscoveryNode } from '../discovery-node.js';
import { decideMove, type MoveDecision } from './move-decision.js';
import { routingAllocation, type AllocationOptions } from './routing-allocation.js';
import type { DiskUsage } from './cluster-info.js';
import { decideUnassigned, type UnassignedDecision } from './unassigned-decision.js';

export interface ExplainRequest {
  readonly index?: string;
  readonly shard?: number;
  readonly primary?: boolean;
  readonly currentNode?: string;
  readonly includeYesDecisions: boolean;
}

export interface AllocationExplanation {
  /** No shard named: the first unassigned one was picked (ES's `note`). */
  readonly anyUnassigned: boolean;
  readonly copy: ShardRouting;
  readonly currentNode?: DiscoveryNode;
  readonly relocationTargetNode?: DiscoveryNode;
  readonly unassigned?: UnassignedDecision;
  readonly move?: MoveDecision;
  /** The master's disk view (for `include_disk_info`), as node id -> usage entries. */
  readonly diskUsages?: ReadonlyArray<readonly [string, DiskUsage]>;
  /** The copies' store sizes the master knows (`[index][shard][p|r]` -> bytes entries). */
  readonly shardSizes?: ReadonlyArray<readonly [string, number]>;
}

function requestString(request: ExplainRequest): string {
  const any = request.index === undefined && request.shard === undefined && request.primary === undefined && request.currentNode === undefined;
  const target = any
    ? 'useAnyUnassignedShard=true'
    : `index=${request.index},shard=${request.shard},primary?=${request.primary}${request.currentNode === undefined ? '' : `,currentNode=${request.currentNode}`}`;
  return `ClusterAllocationExplainRequest[${target},includeYesDecisions?=${request.includeYesDecisions}]`;
}

/** ClusterAllocationExplainRequest.validate: all of index, shard and primary, or none of them (nor current_node). */
export function validateExplainRequest(request: ExplainRequest): void {
  const any = request.index === undefined && request.shard === undefined && request.primary === undefined && request.currentNode === undefined;
  if (any) return;
  const problems: string[] = [];
  if (request.index === undefined) problems.push('index must be specified');
  if (request.shard === undefined) problems.push('shard must be specified');
  if (request.primary === undefined) problems.push('primary must be specified');
  if (problems.length > 0) throw errors.requestValidation(problems);
}

/** DiscoveryNodes.resolveNode: one node by id, name, address or attribute (resolved as the master sees it). */
export function resolveNode(state: ClusterState, selector: string): DiscoveryNode {
  const ids = resolveNodeSelectors(state, state.masterNodeId ?? '', [selector]);
  if (ids.length === 0) throw allocationErrors.nodeNotResolved(selector);
  if (ids.length > 1) throw allocationErrors.nodeAmbiguous(selector);
  return state.nodes.get(ids[0]!)!;
}

export function findShardToExplain(state: ClusterState, request: ExplainRequest): { copy: ShardRouting; anyUnassigned: boolean } {
  validateExplainRequest(request);
  if (request.index === undefined) {
    // Primaries first: an unassigned primary is the likelier cause of the trouble.
    const unassigned = [...state.routing.values()].flatMap((shards) => shards.flatMap((copies) => copies.filter((copy) => copy.state === 'UNASSIGNED')));
    const copy = unassigned.find((candidate) => candidate.primary) ?? unassigned[0];
    if (copy === undefined) throw allocationErrors.noUnassignedShards();
    return { copy, anyUnassigned: true };
  }
  const metadata = state.indices.get(request.index);
  const shards = state.routing.get(request.index);
  if (metadata === undefined || shards === undefined) throw errors.indexNotFound(request.index);
  const copies = shards[request.shard!];
  if (copies === undefined) throw errors.shardNotFound(request.index, metadata.uuid, request.shard!);
  const node = request.currentNode === undefined ? undefined : resolveNode(state, request.currentNode);
  if (request.primary === true) {
    const primary = copies.find((copy) => copy.primary)!;
    if (node !== undefined && primary.nodeId !== node.id) throw allocationErrors.primaryNotOnNode(request.currentNode!);
    return { copy: primary, anyUnassigned: false };
  }
  const replicas = copies.filter((copy) => !copy.primary);
  if (node !== undefined) {
    const onNode = replicas.find((copy) => copy.nodeId === node.id);
    if (onNode === undefined) throw allocationErrors.replicaNotOnNode(request.currentNode!);
    return { copy: onNode, anyUnassigned: false };
  }
  // An unassigned replica first, else a started one (it can be explained), else any.
  const copy = replicas.find((candidate) => candidate.state === 'UNASSIGNED') ?? replicas.find((candidate) => candidate.state === 'STARTED') ?? replicas[0];
  if (copy === undefined) throw allocationErrors.noShardsToExplain(requestString(request));
  return { copy, anyUnassigned: false };
}

export function explainAllocation(state: ClusterState, request: ExplainRequest, options: AllocationOptions): AllocationExplanation {
  const { copy, anyUnassigned } = findShardToExplain(state, request);
  const allocation = routingAllocation(state, options);
  const currentNode = copy.nodeId === undefined ? undefined : state.nodes.get(copy.nodeId);
  const relocationTargetNode = copy.relocatingNodeId === undefined ? undefined : state.nodes.get(copy.relocatingNodeId);
  const diskUsages = [...(options.info?.diskUsages ?? new Map<string, DiskUsage>())];
  const shardSizes = [...(options.info?.shardSizes ?? new Map<string, number>())];
  const base = { anyUnassigned, copy, diskUsages, shardSizes, ...(currentNode !== undefined && { currentNode }), ...(relocationTargetNode !== undefined && { relocationTargetNode }) };
  if (copy.state === 'UNASSIGNED') return { ...base, unassigned: decideUnassigned(copy, allocation) };
  if (copy.state === 'STARTED') return { ...base, move: decideMove(copy, allocation) };
  return base;
}
