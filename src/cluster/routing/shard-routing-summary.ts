/**
 * How ES prints a shard copy and its unassigned info inside messages (ShardRouting.shortSummary and
 * UnassignedInfo.shortSummary), for the deciders' explanations and reroute's errors.
 */
import type { ShardRouting, UnassignedInfo } from '../cluster-state.js';

const RECOVERY_SOURCE_NAMES: Readonly<Record<string, string>> = {
  EMPTY_STORE: 'new shard recovery',
  EXISTING_STORE: 'existing store recovery; bootstrap_history_uuid=false',
  PEER: 'peer recovery',
  SNAPSHOT: 'snapshot recovery',
  LOCAL_SHARDS: 'local shards recovery',
};

/** UnassignedInfo.AllocationStatus.value(). */
export function allocationStatusValue(status: UnassignedInfo['lastAllocationStatus']): string {
  return status.toLowerCase();
}

export function unassignedInfoSummary(info: UnassignedInfo): string {
  let out = `[reason=${info.reason}], at[${new Date(info.atMillis).toISOString()}]`;
  if (info.failedAllocations > 0) out += `, failed_attempts[${info.failedAllocations}]`;
  out += `, delayed=${info.delayed}`;
  if (info.lastNodeId !== undefined) out += `, last_node[${info.lastNodeId}]`;
  if (info.details !== undefined) out += `, details[${info.details}]`;
  return `${out}, allocation_status[${allocationStatusValue(info.lastAllocationStatus)}]`;
}

export function shardRoutingSummary(copy: ShardRouting): string {
  let out = `[${copy.index}][${copy.shard}], node[${copy.nodeId ?? 'null'}], `;
  if (copy.relocatingNodeId !== undefined) out += `relocating [${copy.relocatingNodeId}], `;
  out += copy.primary ? '[P]' : '[R]';
  if (copy.recoverySource !== undefined) out += `, recovery_source[${RECOVERY_SOURCE_NAMES[copy.recoverySource] ?? copy.recoverySource}]`;
  out += `, s[${copy.state}]`;
  if (copy.allocationId !== undefined) out += copy.relocationId === undefined ? `, a[id=${copy.allocationId}]` : `, a[id=${copy.allocationId}, rId=${copy.relocationId}]`;
  if (copy.unassignedInfo !== undefined) out += `, ${unassignedInfoSummary(copy.unassignedInfo)}`;
  return out;
}
