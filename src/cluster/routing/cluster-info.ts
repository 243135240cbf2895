/**
 * What the master knows about its data nodes' disks and the copies on them (ES's ClusterInfo): each node's disk
 * threshold monitor reports its data path's figures and the store size of every copy it holds to the master every
 * `cluster.info.update.interval`, and the disk threshold decider reads them. Kept in memory on the master, never in
 * the cluster state (it changes far more often than placement); a new master starts empty and fills as the
 * reports arrive, deciding YES for a node it has not heard from yet, as ES does while its ClusterInfo is empty.
 */

/** One node's data path: total and available bytes (the monitor layer's FsStats). */
export interface DiskUsage {
  readonly path: string;
  readonly totalBytes: number;
  readonly availableBytes: number;
}

export interface ClusterInfo {
  /** Node id -> its disk, for the nodes that reported. */
  readonly diskUsages: ReadonlyMap<string, DiskUsage>;
  /** `[index][shard][p|r]` -> store bytes of that copy as its node last reported (ES's ClusterInfo.shardSizes). */
  readonly shardSizes?: ReadonlyMap<string, number>;
}

export const EMPTY_CLUSTER_INFO: ClusterInfo = Object.freeze({ diskUsages: new Map(), shardSizes: new Map() });

/** ES's ClusterInfo.shardIdentifierFromRouting: `[index][0][p]`, `[index][0][r]`. */
export function shardSizeKey(index: string, shard: number, primary: boolean): string {
  return `[${index}][${shard}][${primary ? 'p' : 'r'}]`;
}

/**
 * The bytes a copy will take on the node it goes to (ES's getExpectedShardSize): its own reported size, else the
 * primary's (a replica becomes a copy of it; ES keys replicas apart but a never-started replica has no figure of
 * its own), else 0 (a new shard, or sizes not reported yet).
 */
export function expectedShardSize(info: ClusterInfo, copy: { readonly index: string; readonly shard: number; readonly primary: boolean }): number {
  const sizes = info.shardSizes;
  if (sizes === undefined || sizes.size === 0) return 0;
  return sizes.get(shardSizeKey(copy.index, copy.shard, copy.primary)) ?? sizes.get(shardSizeKey(copy.index, copy.shard, true)) ?? 0;
}

/** The master's latest reports; `snapshot()` is what one allocation round decides with. */
export class ClusterInfoService {
  private usages = new Map<string, DiskUsage>();
  private readonly sizesByNode = new Map<string, ReadonlyMap<string, number>>();
  private sizes: ReadonlyMap<string, number> = new Map();

  /**
   * Records a node's report; returns whether its disk differs from the last one from that node (a watermark may
   * have been crossed). Shard sizes replace that node's previous ones.
   */
  report(nodeId: string, usage: DiskUsage, shardSizes?: ReadonlyMap<string, number>): boolean {
    const before = this.usages.get(nodeId);
    this.usages = new Map(this.usages).set(nodeId, usage);
    if (shardSizes !== undefined) {
      this.sizesByNode.set(nodeId, shardSizes);
      this.mergeSizes();
    }
    return before === undefined || before.availableBytes !== usage.availableBytes || before.totalBytes !== usage.totalBytes;
  }

  /** Forgets nodes that left (their next incarnation reports anew). */
  retainOnly(nodeIds: ReadonlySet<string>): void {
    if ([...this.usages.keys(), ...this.sizesByNode.keys()].every((id) => nodeIds.has(id))) return;
    this.usages = new Map([...this.usages].filter(([id]) => nodeIds.has(id)));
    for (const id of [...this.sizesByNode.keys()]) if (!nodeIds.has(id)) this.sizesByNode.delete(id);
    this.mergeSizes();
  }

  snapshot(): ClusterInfo {
    return { diskUsages: this.usages, shardSizes: this.sizes };
  }

  /** One map over every node's copies; two replicas of a shard on different nodes keep the larger figure. */
  private mergeSizes(): void {
    const merged = new Map<string, number>();
    for (const sizes of this.sizesByNode.values()) for (const [key, bytes] of sizes) merged.set(key, Math.max(bytes, merged.get(key) ?? 0));
    this.sizes = merged;
  }
}
