/**
 * What the master knows about its data nodes' disks (ES's ClusterInfo): each node's disk threshold monitor reports
 * its data path's figures to the master every `cluster.info.update.interval`, and the disk threshold decider reads
 * them. Kept in memory on the master, never in the cluster state (it changes far more often than placement); a
 * new master starts empty and fills as the reports arrive, deciding YES for a node it has not heard from yet, as
 * ES does while its ClusterInfo is empty.
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
}

export const EMPTY_CLUSTER_INFO: ClusterInfo = Object.freeze({ diskUsages: new Map() });

/** The master's latest reports; `snapshot()` is what one allocation round decides with. */
export class ClusterInfoService {
  private usages = new Map<string, DiskUsage>();

  /** Records a node's report; returns whether it differs from the last one from that node. */
  report(nodeId: string, usage: DiskUsage): boolean {
    const before = this.usages.get(nodeId);
    this.usages = new Map(this.usages).set(nodeId, usage);
    return before === undefined || before.availableBytes !== usage.availableBytes || before.totalBytes !== usage.totalBytes;
  }

  /** Forgets nodes that left (their next incarnation reports anew). */
  retainOnly(nodeIds: ReadonlySet<string>): void {
    if ([...this.usages.keys()].every((id) => nodeIds.has(id))) return;
    this.usages = new Map([...this.usages].filter(([id]) => nodeIds.has(id)));
  }

  snapshot(): ClusterInfo {
    return { diskUsages: this.usages };
  }
}
