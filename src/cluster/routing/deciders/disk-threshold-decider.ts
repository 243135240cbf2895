/**
 * disk_threshold (ES's DiskThresholdDecider) over the disks the data nodes reported (cluster-info.ts):
 * - allocate: no copy onto a node past the low watermark, except a new empty primary while the node is still
 *   under high; none past high;
 * - remain: a copy on a node past the high watermark may not stay: the allocation round moves it to a node under
 *   low (allocation.ts), which is how a filling disk is relieved before the flood stage.
 * A node that has not reported yet, or `cluster.routing.allocation.disk.threshold_enabled: false`, is a YES.
 * A copy counts with the store size its nodes reported (cluster-info.ts `expectedShardSize`): a copy that would
 * take the node past the high watermark is refused, and copies already on their way to the node (initializing
 * replicas, relocation targets: their bytes are not on its disk yet) count against its free space, as ES's
 * sizeOfUnaccountedShards, at their full size.
 */
import { formatByteSize } from '../../../common/byte-size.js';
import { DISK_THRESHOLD_ENABLED, FLOOD_STAGE_WATERMARK, freeBytesThreshold, HIGH_WATERMARK, LOW_WATERMARK, parseWatermark, WATERMARK_DEFAULTS, type Watermark } from '../disk-watermarks.js';
import { expectedShardSize, type ClusterInfo, type DiskUsage } from '../cluster-info.js';
import { clusterSetting, type RoutingAllocation } from '../routing-allocation.js';
import { decision, type Decision } from './decision.js';
import type { AllocationDecider } from './decider.js';

export interface MasterDiskThresholds {
  readonly enabled: boolean;
  readonly low: Watermark;
  readonly high: Watermark;
  readonly floodStage: Watermark;
}

/** The watermarks as the cluster settings have them (transient over persistent over node settings, then the defaults). */
export function masterDiskThresholds(allocation: RoutingAllocation): MasterDiskThresholds {
  const read = (key: string) => parseWatermark(clusterSetting(allocation, key) ?? WATERMARK_DEFAULTS[key]!, key);
  return {
    enabled: (clusterSetting(allocation, DISK_THRESHOLD_ENABLED) ?? 'true') !== 'false',
    low: read(LOW_WATERMARK),
    high: read(HIGH_WATERMARK),
    floodStage: read(FLOOD_STAGE_WATERMARK),
  };
}

/** Strings.format1Decimals: one decimal, dropped when it is 0 (`85%`, `85.3%`). */
function percent(value: number): string {
  const rounded = Math.floor(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}

function usedPercent(usage: DiskUsage): number {
  return usage.totalBytes > 0 ? (100 * (usage.totalBytes - usage.availableBytes)) / usage.totalBytes : 0;
}

/** `cluster.routing.allocation.disk.watermark.low=85%`, as describeLowThreshold prints it. */
function describe(key: string, watermark: Watermark): string {
  return `${key}=${watermark.raw}`;
}

function early(allocation: RoutingAllocation, nodeId: string): { decision: Decision } | { usage: DiskUsage; thresholds: MasterDiskThresholds } {
  const thresholds = masterDiskThresholds(allocation);
  if (!thresholds.enabled) return { decision: decision('disk_threshold', 'YES', 'the disk threshold decider is disabled') };
  const usage = allocation.info.diskUsages.get(nodeId);
  if (usage === undefined || !(usage.totalBytes > 0)) return { decision: decision('disk_threshold', 'YES', 'disk usages are unavailable') };
  return { usage, thresholds };
}

/** Bytes of the copies heading to `nodeId` (initializing peer recoveries, relocation targets) its disk does not show yet. */
function incomingBytes(allocation: RoutingAllocation, info: ClusterInfo, nodeId: string): number {
  if (info.shardSizes === undefined || info.shardSizes.size === 0) return 0;
  let bytes = 0;
  for (const shards of allocation.state.routing.values()) {
    for (const copies of shards) {
      for (const copy of copies) {
        const arriving = (copy.state === 'INITIALIZING' && copy.recoverySource === 'PEER' && copy.nodeId === nodeId) || (copy.state === 'RELOCATING' && copy.relocatingNodeId === nodeId);
        if (arriving) bytes += expectedShardSize(info, copy);
      }
    }
  }
  return bytes;
}

export const diskThresholdDecider: AllocationDecider = {
  name: 'disk_threshold',
  canAllocate(copy, node, allocation) {
    const known = early(allocation, node.id);
    if ('decision' in known) return known.decision;
    const { usage: reported, thresholds } = known;
    const usage = { ...reported, availableBytes: Math.max(0, reported.availableBytes - incomingBytes(allocation, allocation.info, node.id)) };
    const free = usage.availableBytes;
    const used = percent(usedPercent(usage));
    const lowFree = freeBytesThreshold(thresholds.low, usage.totalBytes);
    const highFree = freeBytesThreshold(thresholds.high, usage.totalBytes);
    const newPrimary = copy.primary && copy.state === 'UNASSIGNED' && copy.recoverySource === 'EMPTY_STORE';
    if (free < lowFree) {
      if (!newPrimary) {
        return decision(
          'disk_threshold',
          'NO',
          `the node is above the low watermark cluster setting [${describe(LOW_WATERMARK, thresholds.low)}], having less than the minimum required [${formatByteSize(lowFree)}] free space, actual free: [${formatByteSize(free)}], actual used: [${used}]`,
        );
      }
      if (free > highFree) return decision('disk_threshold', 'YES', 'the node is above the low watermark, but less than the high watermark, and this primary shard has never been allocated before');
      return decision(
        'disk_threshold',
        'NO',
        `the node is above the high watermark cluster setting [${describe(HIGH_WATERMARK, thresholds.high)}], having less than the minimum required [${formatByteSize(highFree)}] free space, actual free: [${formatByteSize(free)}], actual used: [${used}]`,
      );
    }
    // Then: would this copy itself take the node past high?
    const shardSize = expectedShardSize(allocation.info, copy);
    const freeAfter = free - shardSize;
    if (freeAfter < highFree) {
      return decision(
        'disk_threshold',
        'NO',
        `allocating the shard to this node will bring the node above the high watermark cluster setting [${describe(HIGH_WATERMARK, thresholds.high)}] and cause it to have less than the minimum required [${formatByteSize(highFree)}] of free space (free: [${formatByteSize(free)}], used: [${used}], estimated shard size: [${formatByteSize(shardSize)}])`,
      );
    }
    return decision('disk_threshold', 'YES', `enough disk for shard on node, free: [${formatByteSize(free)}], used: [${used}], shard size: [${formatByteSize(shardSize)}], free after allocating shard: [${formatByteSize(freeAfter)}]`);
  },
  canRemain(_copy, node, allocation) {
    const known = early(allocation, node.id);
    if ('decision' in known) return known.decision;
    const { usage, thresholds } = known;
    const highFree = freeBytesThreshold(thresholds.high, usage.totalBytes);
    if (usage.availableBytes < highFree) {
      return decision(
        'disk_threshold',
        'NO',
        `the shard cannot remain on this node because it is above the high watermark cluster setting [${describe(HIGH_WATERMARK, thresholds.high)}] and there is less than the required [${formatByteSize(highFree)}] free space on node, actual free: [${formatByteSize(usage.availableBytes)}], actual used: [${percent(usedPercent(usage))}]`,
      );
    }
    return decision('disk_threshold', 'YES', `there is enough disk on this node for the shard to remain, free: [${formatByteSize(usage.availableBytes)}]`);
  },
};

/** Whether a node's reported disk is past the high watermark (the flood stage release waits for every holder). */
export function aboveHighWatermark(allocation: RoutingAllocation, usage: DiskUsage): boolean {
  const thresholds = masterDiskThresholds(allocation);
  return usage.availableBytes < freeBytesThreshold(thresholds.high, usage.totalBytes);
}
