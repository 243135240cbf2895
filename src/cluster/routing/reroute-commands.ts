/**
 * `_cluster/reroute` on the master (ES's AllocationService.reroute with AllocationCommands): `retry_failed` resets
 * the failure counts, each command runs in order against the deciders (with `cluster.routing.allocation.enable`
 * ignored: commands are explicit), then the normal allocation round runs on the result. A refused command throws
 * ES's error, or with `explain` becomes a NO explanation and is skipped. The caller publishes the result unless it
 * is a dry run.
 */
import { randomBase64Uuid } from '../../common/uuid.js';
import { allocationErrors, errors } from '../../common/errors.js';
import type { ClusterState, IndexMetadata, ShardRouting } from '../cluster-state.js';
import { describeDiscoveryNode, isDataNode, type DiscoveryNode } from '../discovery-node.js';
import { resolveNode } from './allocation-explain.js';
import { allocate } from './allocation.js';
import { canAllocate, combine, decision, decisionsToString, type Decisions } from './deciders/index.js';
import { replaceCopy, startRelocation } from './relocation.js';
import { copyMadeUnassigned } from './shard-allocation.js';
import { promoteInSyncReplicaOf } from './primary-promotion.js';
import { add, perIndexOf, routingAllocation, type AllocationOptions, type RoutingAllocation } from './routing-allocation.js';

export type RerouteCommand =
  | { readonly kind: 'move'; readonly index: string; readonly shard: number; readonly fromNode: string; readonly toNode: string }
  | { readonly kind: 'cancel'; readonly index: string; readonly shard: number; readonly node: string; readonly allowPrimary: boolean }
  | { readonly kind: 'allocate_replica'; readonly index: string; readonly shard: number; readonly node: string }
  | { readonly kind: 'allocate_stale_primary' | 'allocate_empty_primary'; readonly index: string; readonly shard: number; readonly node: string; readonly acceptDataLoss: boolean };

export interface RerouteExplanation {
  readonly command: RerouteCommand;
  readonly decisions: Decisions;
}

export interface RerouteRequest {
  readonly commands: readonly RerouteCommand[];
  readonly explain: boolean;
  readonly retryFailed: boolean;
}

export interface RerouteResult {
  readonly state: ClusterState;
  readonly explanations: readonly RerouteExplanation[];
}

/** A command refused: thrown without `explain`, a NO explanation with it. */
class Rejected extends Error {
  constructor(
    readonly error: Error,
    readonly decisions: Decisions,
  ) {
    super(error.message);
  }
}

function reject(label: string, message: string, error: Error = allocationErrors.commandRejected(message)): never {
  throw new Rejected(error, combine([decision(label, 'NO', error === undefined ? message : errorReason(error, message))]));
}

function errorReason(error: Error, fallback: string): string {
  return (error as { reason?: string }).reason ?? error.message ?? fallback;
}

export function applyRerouteCommands(state: ClusterState, request: RerouteRequest, options: AllocationOptions): RerouteResult {
  let working = request.retryFailed ? resetFailedAllocations(state) : state;
  const allocation = routingAllocation(working, { ...options, ignoreDisable: true });
  const explanations: RerouteExplanation[] = [];
  for (const command of request.commands) {
    try {
      explanations.push({ command, decisions: execute(command, allocation) });
    } catch (err) {
      if (!(err instanceof Rejected)) throw err;
      if (!request.explain) throw err.error;
      explanations.push({ command, decisions: err.decisions });
    }
  }
  working = allocation.state;
  // The normal round, with the settings as they are (ES reverts ignoreDisable before it).
  const round = routingAllocation(working, options);
  const enabled = ((working.transientSettings['cluster.routing.allocation.enable'] ?? working.persistentSettings['cluster.routing.allocation.enable'] ?? round.nodeSettings['cluster.routing.allocation.enable'] ?? 'all').toLowerCase() !== 'none');
  return { state: enabled ? allocate(round) : working, explanations };
}

/** `retry_failed`: every unassigned copy's failure count back to 0 (max_retry lets it try again). */
function resetFailedAllocations(state: ClusterState): ClusterState {
  let routing: Map<string, ReadonlyArray<ReadonlyArray<ShardRouting>>> | undefined;
  for (const [index, shards] of state.routing) {
    if (!shards.some((copies) => copies.some((copy) => (copy.unassignedInfo?.failedAllocations ?? 0) > 0 && copy.state === 'UNASSIGNED'))) continue;
    (routing ??= new Map(state.routing)).set(
      index,
      shards.map((copies) => copies.map((copy) => (copy.state === 'UNASSIGNED' && copy.unassignedInfo !== undefined && copy.unassignedInfo.failedAllocations > 0 ? { ...copy, unassignedInfo: { ...copy.unassignedInfo, failedAllocations: 0 } } : copy))),
    );
  }
  return routing === undefined ? state : { ...state, routing };
}

function execute(command: RerouteCommand, allocation: RoutingAllocation): Decisions {
  switch (command.kind) {
    case 'move':
      return move(command, allocation);
    case 'cancel':
      return cancel(command, allocation);
    case 'allocate_replica':
      return allocateReplica(command, allocation);
    default:
      return allocatePrimary(command, allocation);
  }
}

/** DiscoveryNodes.resolveNode inside a command: its failure is the command's rejection. */
function node(label: string, allocation: RoutingAllocation, selector: string): DiscoveryNode {
  try {
    return resolveNode(allocation.state, selector);
  } catch (err) {
    return reject(label, (err as Error).message, err as Error);
  }
}

function shardCopies(label: string, allocation: RoutingAllocation, index: string, shard: number): { metadata: IndexMetadata; copies: readonly ShardRouting[] } {
  const metadata = allocation.state.indices.get(index);
  const shards = allocation.state.routing.get(index);
  if (metadata === undefined || shards === undefined) {
    const error = errors.indexNotFound(index);
    return reject(label, error.message, error);
  }
  const copies = shards[shard];
  if (copies === undefined) {
    const error = errors.shardNotFound(index, metadata.uuid, shard);
    return reject(label, error.message, error);
  }
  return { metadata, copies };
}

function move(command: Extract<RerouteCommand, { kind: 'move' }>, allocation: RoutingAllocation): Decisions {
  const from = node('move_allocation_command', allocation, command.fromNode);
  const to = node('move_allocation_command', allocation, command.toNode);
  const what = `[move_allocation] can't move [${command.index}][${command.shard}] from ${describeDiscoveryNode(from)} to ${describeDiscoveryNode(to)}`;
  if (!isDataNode(from)) reject('move_allocation_command', `${what}: source [${from.name}] is not a data node.`);
  if (!isDataNode(to)) reject('move_allocation_command', `${what}: source [${to.name}] is not a data node.`);
  const copy = (allocation.state.routing.get(command.index)?.[command.shard] ?? []).find((candidate) => candidate.nodeId === from.id);
  if (copy === undefined) {
    throw new Rejected(
      allocationErrors.commandRejected(`[move_allocation] can't move ${command.shard}, failed to find it on node ${describeDiscoveryNode(from)}`),
      combine([decision('move_allocation_command', 'NO', `shard ${command.shard} not found`)]),
    );
  }
  if (copy.state !== 'STARTED') {
    throw new Rejected(
      allocationErrors.commandRejected(`[move_allocation] can't move ${command.shard}, shard is not started (state = ${copy.state}]`),
      combine([decision('move_allocation_command', 'NO', `shard ${command.shard} has not been started`)]),
    );
  }
  const decisions = canAllocate(copy, to, allocation);
  if (decisions.type === 'NO') {
    throw new Rejected(
      allocationErrors.commandRejected(
        `[move_allocation] can't move ${command.shard}, from ${describeDiscoveryNode(from)}, to ${describeDiscoveryNode(to)}, since its not allowed, reason: ${decisionsToString(decisions)}`,
      ),
      decisions,
    );
  }
  // A THROTTLE does not stop an operator's move (ES: "the user wants it").
  startRelocation(allocation, copy, to.id);
  return decisions;
}

function cancel(command: Extract<RerouteCommand, { kind: 'cancel' }>, allocation: RoutingAllocation): Decisions {
  const target = node('cancel_allocation_command', allocation, command.node);
  const label = 'cancel_allocation_command';
  const where = `${describeDiscoveryNode(target)}`;
  if (!allocation.state.indices.has(command.index) && isDataNode(target)) {
    const error = errors.indexNotFound(command.index);
    reject(label, error.message, error);
  }
  const copies = allocation.state.routing.get(command.index)?.[command.shard] ?? [];
  const onNode = copies.find((copy) => copy.nodeId === target.id && copy.state !== 'UNASSIGNED');
  // A relocation's target lives only through its source's relocating node (cluster-state.ts relocationTarget).
  const relocatingHere = copies.find((copy) => copy.state === 'RELOCATING' && copy.relocatingNodeId === target.id);
  if (onNode === undefined && relocatingHere === undefined) {
    throw new Rejected(
      allocationErrors.commandRejected(`[cancel_allocation] can't cancel ${command.shard}, failed to find it on node ${where}`),
      combine([decision(label, 'NO', `can't cancel ${command.shard}, failed to find it on node ${where}`)]),
    );
  }
  if (onNode === undefined) {
    // Cancelling a relocation target (allowed for a primary's too): the source stays where it is.
    allocation.state = replaceCopy(allocation.state, relocatingHere!, { ...relocatingHere!, state: 'STARTED', relocatingNodeId: undefined, relocationId: undefined });
  } else {
    if (onNode.primary && !command.allowPrimary) {
      const stateName = onNode.state.toLowerCase();
      throw new Rejected(
        allocationErrors.commandRejected(`[cancel_allocation] can't cancel ${command.shard} on node ${where}, shard is primary and ${stateName}`),
        combine([decision(label, 'NO', `can't cancel ${command.shard} on node ${where}, shard is primary and ${stateName}`)]),
      );
    }
    cancelCopy(allocation, onNode);
  }
  return combine([decision(label, 'YES', `shard ${command.shard} on node ${where} can be cancelled`)]);
}

/**
 * ES's failShard with REROUTE_CANCELLED: the copy goes back to UNASSIGNED and leaves the in-sync set (never
 * emptied). It keeps no last node, so the next round may place it anywhere, not straight back where it was.
 * A primary's place is taken at once by an in-sync active replica under primary term + 1 (its old entry becomes
 * an unassigned replica that recovers from the new primary); with none, it is unassigned and the round places it
 * again on its store. Before, the round always put the cancelled primary back on its own store.
 */
function cancelCopy(allocation: RoutingAllocation, copy: ShardRouting): void {
  const unassigned = copyMadeUnassigned(copy, { reason: 'REROUTE_CANCELLED', atMillis: allocation.now, delayed: false, failedAllocations: copy.unassignedInfo?.failedAllocations ?? 0, lastAllocationStatus: 'NO_ATTEMPT', ...(copy.primary && { lastNodeId: copy.nodeId }) });
  let state = replaceCopy(allocation.state, copy, unassigned);
  const metadata = state.indices.get(copy.index);
  const inSync = metadata?.inSyncAllocationIds[copy.shard] ?? [];
  if (metadata !== undefined && copy.allocationId !== undefined && inSync.includes(copy.allocationId) && inSync.length > 1) {
    const inSyncAllocationIds = metadata.inSyncAllocationIds.map((ids, shard) => (shard === copy.shard ? ids.filter((id) => id !== copy.allocationId) : ids));
    state = { ...state, indices: new Map(state.indices).set(copy.index, { ...metadata, inSyncAllocationIds }) };
  }
  allocation.state = copy.primary ? promoteInSyncReplicaOf(state, copy.index, copy.shard, allocation.now) : state;
}

function dataNode(label: string, name: string, allocation: RoutingAllocation, selector: string): DiscoveryNode {
  const target = node(label, allocation, selector);
  if (!isDataNode(target)) reject(label, `[${name}] allocation can only be done on data nodes, not [${selector}]`);
  return target;
}

function allocateReplica(command: Extract<RerouteCommand, { kind: 'allocate_replica' }>, allocation: RoutingAllocation): Decisions {
  const label = 'allocate_replica (allocation command)';
  const target = dataNode(label, command.kind, allocation, command.node);
  const { copies } = shardCopies(label, allocation, command.index, command.shard);
  const shardName = `[${command.index}][${command.shard}]`;
  if (copies.find((copy) => copy.primary)?.state === 'UNASSIGNED') {
    reject(label, `[allocate_replica] trying to allocate a replica shard ${shardName}, while corresponding primary shard is still unassigned`);
  }
  const replica = copies.find((copy) => !copy.primary && copy.state === 'UNASSIGNED');
  if (replica === undefined) reject(label, `[allocate_replica] all copies of ${shardName} are already assigned. Use the move allocation command instead`);
  const decisions = canAllocate(replica, target, allocation);
  if (decisions.type === 'NO') {
    throw new Rejected(
      allocationErrors.commandRejected(`[allocate_replica] allocation of ${shardName} on node ${describeDiscoveryNode(target)} is not allowed, reason: ${decisionsToString(decisions)}`),
      decisions,
    );
  }
  add(allocation.loads.perNode, target.id);
  add(perIndexOf(allocation.loads, command.index), target.id);
  add(allocation.loads.incoming, target.id);
  allocation.state = replaceCopy(allocation.state, replica, { ...replica, state: 'INITIALIZING', nodeId: target.id, allocationId: randomBase64Uuid(), recoverySource: 'PEER' });
  return decisions;
}

function allocatePrimary(command: Extract<RerouteCommand, { kind: 'allocate_stale_primary' | 'allocate_empty_primary' }>, allocation: RoutingAllocation): Decisions {
  const label = `${command.kind} (allocation command)`;
  const target = dataNode(label, command.kind, allocation, command.node);
  const { metadata, copies } = shardCopies(label, allocation, command.index, command.shard);
  const shardName = `[${command.index}][${command.shard}]`;
  const primary = copies.find((copy) => copy.primary && copy.state === 'UNASSIGNED');
  if (primary === undefined) reject(label, `[${command.kind}] primary ${shardName} is already assigned`);
  const empty = command.kind === 'allocate_empty_primary';
  const lossWarning = `[${command.kind}] allocating an empty primary for ${shardName} can result in data loss. Please confirm by setting the accept_data_loss parameter to true`;
  if (empty && primary.recoverySource !== 'EMPTY_STORE' && !command.acceptDataLoss) reject(label, lossWarning);
  if (!empty && !command.acceptDataLoss) reject(label, lossWarning);
  if (!empty && primary.recoverySource !== 'EXISTING_STORE') {
    reject(label, `[${command.kind}] trying to allocate an existing primary shard ${shardName}, while no such shard has ever been active`);
  }
  const info = primary.unassignedInfo;
  const forcedInfo = empty && info !== undefined && info.reason !== 'FORCED_EMPTY_PRIMARY'
    ? { ...info, reason: 'FORCED_EMPTY_PRIMARY', details: `force empty allocation from previous reason ${info.reason}, ${info.details ?? 'null'}`, failedAllocations: 0 }
    : info;
  const primaryTerms = metadata.primaryTerms.map((term, shard) => (shard === command.shard ? term + 1 : term));
  // A forced empty primary starts a history of its own: no old copy is in sync with it (ES empties the set).
  const inSyncAllocationIds = empty ? metadata.inSyncAllocationIds.map((ids, shard) => (shard === command.shard ? [] : ids)) : metadata.inSyncAllocationIds;
  allocation.state = { ...allocation.state, indices: new Map(allocation.state.indices).set(command.index, { ...metadata, primaryTerms, inSyncAllocationIds }) };
  add(allocation.loads.perNode, target.id);
  add(perIndexOf(allocation.loads, command.index), target.id);
  add(allocation.loads.initialPrimaries, target.id);
  allocation.state = replaceCopy(allocation.state, primary, {
    ...primary,
    state: 'INITIALIZING',
    nodeId: target.id,
    allocationId: randomBase64Uuid(),
    recoverySource: empty ? 'EMPTY_STORE' : 'EXISTING_STORE',
    unassignedInfo: forcedInfo,
  });
  return combine([decision(label, 'YES', 'ignore deciders')]);
}
