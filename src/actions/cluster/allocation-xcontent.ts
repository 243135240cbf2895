/**
 * Allocation decisions printed as ES prints them (AbstractAllocationDecision, NodeAllocationResult, Decision.Multi,
 * AllocateUnassignedDecision, MoveDecision, RerouteExplanation), shared by `_cluster/allocation/explain` and
 * `_cluster/reroute?explain`. The shapes, field names and enum values are ES's; the sentences in `*_explanation`
 * are Gannet's own words for the same situations.
 */
import { transportAddress, type DiscoveryNode } from '../../cluster/index.js';
import { formatTimeValueMillis } from '../../common/time-value.js';
import { formatByteSize } from '../../common/byte-size.js';
import type { Decisions } from '../../cluster/routing/deciders/index.js';
import type { NodeAllocationResult, UnassignedDecision } from '../../cluster/routing/unassigned-decision.js';
import type { MoveDecision, RebalanceDecision } from '../../cluster/routing/move-decision.js';
import type { RerouteCommand, RerouteExplanation } from '../../cluster/routing/reroute-commands.js';

type Json = Record<string, unknown>;

/** AllocationDecision values, in ES's enum order (node decisions sort by it). */
const ALLOCATION_DECISION_ORDER = ['yes', 'throttled', 'no', 'worse_balance', 'awaiting_info', 'allocation_delayed', 'no_valid_shard_copy', 'no_attempt'];

/** AbstractAllocationDecision.discoveryNodeToXContent: `id`/`name` inside an object of its own, `node_id`/`node_name` in a list. */
export function nodeFields(node: DiscoveryNode, ownObject: boolean): Json {
  const out: Json = { [ownObject ? 'id' : 'node_id']: node.id, [ownObject ? 'name' : 'node_name']: node.name, transport_address: transportAddress(node) };
  if (Object.keys(node.attributes).length > 0) out[ownObject ? 'attributes' : 'node_attributes'] = { ...node.attributes };
  out.roles = [...node.roles].sort();
  return out;
}

/** Decision.Multi: each decider's `{decider, decision, explanation}`; YES ones only when asked for. */
export function decidersXContent(decisions: Decisions, includeYes: boolean): Json[] {
  return decisions.decisions.filter((d) => includeYes || d.type !== 'YES').map((d) => ({ decider: d.decider, decision: d.type, explanation: d.explanation }));
}

function decisionValue(type: Decisions['type']): string {
  return type === 'YES' ? 'yes' : type === 'THROTTLE' ? 'throttled' : 'no';
}

function nodeDecisionValue(result: NodeAllocationResult): string {
  if (result.outcome !== undefined) return result.outcome;
  return result.store?.found === false ? 'no' : decisionValue(result.decisions.type);
}

/** NodeAllocationResult.ShardStoreInfo: a known primary's copy (found / in sync), or a replica's matching bytes. */
function storeXContent(store: NonNullable<NodeAllocationResult['store']>, human: boolean): Json {
  if (store.matchingBytes !== undefined) return { ...(human && { matching_size: formatByteSize(store.matchingBytes) }), matching_size_in_bytes: store.matchingBytes };
  return store.found ? { in_sync: store.inSync ?? false, ...(store.allocationId !== undefined && { allocation_id: store.allocationId }) } : { found: false };
}

function nodeDecisionsXContent(results: readonly NodeAllocationResult[], includeYes: boolean, human = false): Json[] {
  const sorted = [...results].sort(
    (a, b) =>
      ALLOCATION_DECISION_ORDER.indexOf(nodeDecisionValue(a)) - ALLOCATION_DECISION_ORDER.indexOf(nodeDecisionValue(b)) ||
      a.weightRanking - b.weightRanking ||
      a.node.id.localeCompare(b.node.id),
  );
  return sorted.map((result) => {
    const out: Json = { ...nodeFields(result.node, false), node_decision: nodeDecisionValue(result) };
    if (result.store !== undefined) out.store = storeXContent(result.store, human);
    if (result.weightRanking > 0) out.weight_ranking = result.weightRanking;
    const deciders = decidersXContent(result.decisions, includeYes);
    if (deciders.length > 0) out.deciders = deciders;
    return out;
  });
}

const ALLOCATE_EXPLANATIONS = {
  yes: 'Gannet can allocate the shard.',
  throttled: 'The nodes involved are busy recovering or moving other shards. Gannet will allocate this shard once that work ends; please wait.',
  no_valid_shard_copy:
    'No node in the cluster holds a copy of this shard\'s data. Gannet will allocate it when a node with a good copy joins; if none will, _cluster/reroute can allocate a stale or an empty primary, accepting the data loss.',
  no_with_store:
    'The deciders refuse every node that holds an in-sync copy of this shard\'s data. Pick the node you expect it on in node_allocation_decisions and fix what its deciders report.',
  no: 'The deciders refuse every node in the cluster for this shard. Pick the node you expect it on in node_allocation_decisions and fix what its deciders report.',
  awaiting_info: 'Gannet is still asking the data nodes which of them hold data for this shard, and allocates it once they have answered. Please wait.',
};

/** AllocateUnassignedDecision.toXContent. */
export function unassignedDecisionXContent(decided: UnassignedDecision, includeYes: boolean, human: boolean): Json {
  const explanation =
    decided.outcome === 'allocation_delayed'
      ? delayedExplanation(decided)
      : decided.outcome === 'no'
        ? decided.reuseStore
          ? ALLOCATE_EXPLANATIONS.no_with_store
          : ALLOCATE_EXPLANATIONS.no
        : ALLOCATE_EXPLANATIONS[decided.outcome];
  const out: Json = { can_allocate: decided.outcome, allocate_explanation: explanation };
  if (decided.targetNode !== undefined) out.target_node = nodeFields(decided.targetNode, true);
  if (decided.delay !== undefined) {
    if (human) out.configured_delay = formatTimeValueMillis(decided.delay.configuredMillis);
    out.configured_delay_in_millis = decided.delay.configuredMillis;
    if (human) out.remaining_delay = formatTimeValueMillis(decided.delay.remainingMillis);
    out.remaining_delay_in_millis = decided.delay.remainingMillis;
  }
  const nodes = nodeDecisionsXContent(decided.nodeDecisions, includeYes, human);
  if (nodes.length > 0) out.node_allocation_decisions = nodes;
  return out;
}

function delayedExplanation(decided: UnassignedDecision): string {
  const remaining = formatTimeValueMillis(decided.delay?.remainingMillis ?? 0);
  const alternative = decided.nodeDecisions.some((result) => result.decisions.type === 'YES');
  return alternative
    ? `The node that held this copy left the cluster a moment ago, and Gannet waits for it to come back. If it is not back within [${remaining}], the copy is allocated to another node. Please wait.`
    : `The node that held this copy left the cluster a moment ago, and Gannet waits for it to come back. If it is not back within [${remaining}], Gannet will try another node, but no other node may take it now: find the node you expect it on in node_allocation_decisions and fix what its deciders report.`;
}

const MOVE_EXPLANATIONS = {
  yes: 'This shard may not stay on its current node, so Gannet moves it to another node.',
  throttled: 'This shard may not stay on its current node. Gannet will move it once the nodes involved finish other recoveries or moves; please wait.',
  no: 'This shard may not stay on its current node, and the deciders refuse every other node. Pick the node you expect it on in node_allocation_decisions and fix what its deciders report.',
};

const REBALANCE_EXPLANATIONS = {
  yes: 'Gannet can move this shard to another node for a better balance.',
  balanced: 'This shard is well placed and every rule allows it here: moving it would not improve the balance of the cluster.',
  clusterThrottled: 'Gannet is busy with other moves and will rebalance this shard when they finish; please wait.',
  nodeThrottled: 'Gannet would move this shard for balance, but the nodes involved are busy with other recoveries or moves; please wait.',
  canAllocate: 'Another node may take this shard, but rebalancing is not allowed to move it there now (see can_rebalance_cluster_decisions).',
  cannotAllocate: 'Rebalancing may not move this shard, and no other node may take it. Pick the node you expect it on in node_allocation_decisions and fix what its deciders report.',
};

function rebalanceExplanation(rebalance: RebalanceDecision): string {
  if (rebalance.cluster.type === 'NO') return rebalance.nodeDecisions.some((result) => result.outcome === undefined && result.decisions.type === 'YES') ? REBALANCE_EXPLANATIONS.canAllocate : REBALANCE_EXPLANATIONS.cannotAllocate;
  if (rebalance.cluster.type === 'THROTTLE') return REBALANCE_EXPLANATIONS.clusterThrottled;
  if (rebalance.outcome === 'yes') return REBALANCE_EXPLANATIONS.yes;
  if (rebalance.outcome === 'throttled') return REBALANCE_EXPLANATIONS.nodeThrottled;
  return REBALANCE_EXPLANATIONS.balanced;
}

/** MoveDecision.toXContent (current_node's weight_ranking is printed by the caller). */
export function moveDecisionXContent(decided: MoveDecision, includeYes: boolean): Json {
  const out: Json = {};
  const canRemain = decided.canRemain.type !== 'NO';
  const target = decided.move?.targetNode ?? decided.rebalance?.targetNode;
  if (target !== undefined) out.target_node = nodeFields(target, true);
  out.can_remain_on_current_node = canRemain ? 'yes' : 'no';
  if (!canRemain) out.can_remain_decisions = decidersXContent(decided.canRemain, includeYes);
  if (decided.rebalance !== undefined) {
    const cluster = decisionValue(decided.rebalance.cluster.type);
    out.can_rebalance_cluster = cluster;
    if (cluster !== 'yes') out.can_rebalance_cluster_decisions = decidersXContent(decided.rebalance.cluster, includeYes);
    out.can_rebalance_to_other_node = decided.rebalance.outcome;
    out.rebalance_explanation = rebalanceExplanation(decided.rebalance);
    const nodes = nodeDecisionsXContent(decided.rebalance.nodeDecisions, includeYes);
    if (nodes.length > 0) out.node_allocation_decisions = nodes;
  } else if (decided.move !== undefined) {
    out.can_move_to_other_node = decided.move.outcome === 'yes' ? 'yes' : 'no';
    out.move_explanation = MOVE_EXPLANATIONS[decided.move.outcome];
    const nodes = nodeDecisionsXContent(decided.move.nodeDecisions, includeYes);
    if (nodes.length > 0) out.node_allocation_decisions = nodes;
  }
  return out;
}

/** The command's own toXContent (its `parameters`). */
export function commandParameters(command: RerouteCommand): Json {
  switch (command.kind) {
    case 'move':
      return { index: command.index, shard: command.shard, from_node: command.fromNode, to_node: command.toNode };
    case 'cancel':
      return { index: command.index, shard: command.shard, node: command.node, allow_primary: command.allowPrimary };
    case 'allocate_replica':
      return { index: command.index, shard: command.shard, node: command.node };
    default:
      return { index: command.index, shard: command.shard, node: command.node, accept_data_loss: command.acceptDataLoss };
  }
}

/** RerouteExplanation.toXContent: every decision the command met, YES ones included. */
export function rerouteExplanationXContent(explanation: RerouteExplanation): Json {
  return { command: explanation.command.kind, parameters: commandParameters(explanation.command), decisions: decidersXContent(explanation.decisions, true) };
}
