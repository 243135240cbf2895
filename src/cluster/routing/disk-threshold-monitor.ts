/**
 * Keeps a full disk survivable (ES's DiskThresholdMonitor, for this node's data path). Every
 * `cluster.info.update.interval` (default 30s) it reads the disk's free space and:
 * - past the flood stage watermark (default 95% used), puts `index.blocks.read_only_allow_delete: true` on every
 *   index with a copy on this node: writes are refused with ES's 429 cluster_block_exception before the disk is
 *   full, reads and index deletes still work;
 * - reports the disk to the master (allocation-service.ts), whose disk_threshold decider keeps copies off a node
 *   past low and moves them away past high, and which releases the block of an index spread over several nodes
 *   once every node holding it is below high (ES's release rule);
 * - below the high watermark (default 90%), releases that block itself from the indices whose copies are all here
 *   (a single node has no master elsewhere to do it), and, where it is given a way to, has the master retry the
 *   allocations of copies that failed;
 * - logs each watermark as it is crossed either way, with ES's wording.
 * `cluster.routing.allocation.disk.threshold_enabled: false` turns all of it off (blocks already set stay).
 */
import type { Logger } from 'pino';
import type { Settings } from '../../common/settings.js';
import { formatByteSize } from '../../common/byte-size.js';
import type { ClusterService } from '../cluster-service.js';
import type { ClusterState } from '../cluster-state.js';
import { DISK_THRESHOLD_ENABLED, diskThresholds, FLOOD_STAGE_WATERMARK, freeBytesThreshold, HIGH_WATERMARK, INFO_UPDATE_INTERVAL, LOW_WATERMARK, type Watermark } from './disk-watermarks.js';
import type { DiskUsage } from './cluster-info.js';

export const READ_ONLY_ALLOW_DELETE = 'index.blocks.read_only_allow_delete';

export type { DiskUsage } from './cluster-info.js';

export interface DiskThresholdMonitorOptions {
  readonly settings: Settings;
  readonly clusterService: ClusterService;
  readonly localNodeId: string;
  readonly localNodeName: string;
  readonly probe: () => Promise<DiskUsage>;
  /** Sets (true) or removes (null) the block on the named indices, through the master. */
  readonly updateBlock: (indices: readonly string[], value: 'true' | null) => Promise<void>;
  /** Tells the master this node's disk figures (its disk threshold decider and cluster-wide block release). */
  readonly reportUsage?: (usage: DiskUsage) => Promise<void>;
  /** Has the master allocate copies that failed again (reroute?retry_failed); absent where nothing can. */
  readonly retryFailedAllocations?: () => Promise<void>;
  readonly logger: Logger;
}

type Level = 'ok' | 'low' | 'high' | 'flood';

const WATCHED_SETTINGS = [DISK_THRESHOLD_ENABLED, LOW_WATERMARK, HIGH_WATERMARK, FLOOD_STAGE_WATERMARK];

export class DiskThresholdMonitor {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private level: Level = 'ok';
  private running: Promise<void> | undefined;
  private stopWatching: (() => void) | undefined;

  constructor(private readonly options: DiskThresholdMonitorOptions) {}

  start(): void {
    this.schedule(0);
    // New watermarks apply now, not at the next interval (an operator raising one wants the block gone).
    this.stopWatching = this.options.clusterService.onChange((state, previous) => {
      const changed = WATCHED_SETTINGS.some(
        (key) => (state.transientSettings[key] ?? state.persistentSettings[key]) !== (previous.transientSettings[key] ?? previous.persistentSettings[key]),
      );
      if (changed && this.running === undefined) {
        clearTimeout(this.timer);
        this.schedule(0);
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopWatching?.();
    clearTimeout(this.timer);
    await this.running;
  }

  /** One check now (tests and the timer). */
  async check(): Promise<void> {
    const thresholds = diskThresholds(this.options.settings);
    if (!thresholds.enabled) return;
    const disk = await this.options.probe();
    if (!(disk.totalBytes > 0) || disk.availableBytes < 0) return;
    // The master's view first: its deciders keep copies off (and move them away from) a filling disk.
    await this.options.reportUsage?.(disk).catch((err: unknown) => this.options.logger.debug({ err, event: 'disk_watermark' }, 'reporting disk usage to the master failed'));
    const exceeds = (watermark: Watermark) => disk.availableBytes < freeBytesThreshold(watermark, disk.totalBytes);
    const level: Level = exceeds(thresholds.floodStage) ? 'flood' : exceeds(thresholds.high) ? 'high' : exceeds(thresholds.low) ? 'low' : 'ok';
    this.logTransition(level, disk, level === 'flood' ? thresholds.floodStage : level === 'high' ? thresholds.high : thresholds.low);
    const wasAboveHigh = this.level === 'high' || this.level === 'flood';
    this.level = level;
    const state = this.options.clusterService.state();
    if (level === 'flood') {
      const toBlock = this.localIndices(state).filter((index) => state.indices.get(index)?.settings[READ_ONLY_ALLOW_DELETE] !== 'true');
      if (toBlock.length > 0) await this.options.updateBlock(toBlock, 'true');
      return;
    }
    if (level === 'high') return;
    const toRelease = this.localIndices(state).filter(
      (index) => state.indices.get(index)?.settings[READ_ONLY_ALLOW_DELETE] === 'true' && this.allCopiesHere(state, index),
    );
    if (toRelease.length > 0) {
      this.options.logger.info({ event: 'disk_watermark', indices: toRelease }, `releasing read-only block on indices [${toRelease.join(', ')}] since they are now allocated to nodes with sufficient disk space`);
      await this.options.updateBlock(toRelease, null);
    }
    if (this.options.retryFailedAllocations !== undefined && (wasAboveHigh || this.hasFailedCopies(state))) await this.options.retryFailedAllocations();
  }

  private schedule(delayMillis: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.check()
        .catch((err) => this.options.logger.warn({ err, event: 'disk_watermark' }, 'disk threshold check failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.settings.getTimeMillis(INFO_UPDATE_INTERVAL, 30_000));
        });
    }, delayMillis);
    this.timer.unref();
  }

  /** Indices with a copy assigned to this node (any state but unassigned). */
  private localIndices(state: ClusterState): string[] {
    const names: string[] = [];
    for (const [index, shards] of state.routing) {
      if (shards.some((copies) => copies.some((copy) => copy.nodeId === this.options.localNodeId))) names.push(index);
    }
    // An index whose copies failed here (unassigned now) still lives on this disk: a single node owns every index.
    if (state.nodes.size === 1) for (const index of state.indices.keys()) if (!names.includes(index)) names.push(index);
    return names;
  }

  private allCopiesHere(state: ClusterState, index: string): boolean {
    const shards = state.routing.get(index) ?? [];
    return shards.every((copies) => copies.every((copy) => copy.nodeId === undefined || copy.nodeId === this.options.localNodeId));
  }

  private hasFailedCopies(state: ClusterState): boolean {
    for (const shards of state.routing.values()) {
      if (shards.some((copies) => copies.some((copy) => copy.state === 'UNASSIGNED' && (copy.unassignedInfo?.failedAllocations ?? 0) > 0))) return true;
    }
    return false;
  }

  /** ES's DiskThresholdMonitor messages, logged when the level changes (not on every check). */
  private logTransition(level: Level, disk: DiskUsage, watermark: Watermark): void {
    if (level === this.level) return;
    const node = `[${this.options.localNodeId}][${this.options.localNodeName}][${disk.path}]`;
    const percentFree = ((100 * disk.availableBytes) / disk.totalBytes).toFixed(1);
    const free = `free: ${formatByteSize(disk.availableBytes)}[${percentFree}%]`;
    const logger = this.options.logger;
    if (level === 'flood') {
      logger.warn({ event: 'disk_watermark' }, `flood stage disk watermark [${watermark.raw}] exceeded on ${node} ${free}, all indices on this node will be marked read-only`);
    } else if (level === 'high') {
      logger.warn({ event: 'disk_watermark' }, `high disk watermark [${watermark.raw}] exceeded on ${node} ${free}, shards will be relocated away from this node`);
    } else if (level === 'low') {
      logger.info({ event: 'disk_watermark' }, `low disk watermark [${watermark.raw}] exceeded on ${node} ${free}, replicas will not be assigned to this node`);
    } else {
      logger.info({ event: 'disk_watermark' }, `disk usage on ${node} is below the low watermark again, ${free}`);
    }
  }
}
