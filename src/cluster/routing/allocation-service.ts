/**
 * The master's allocation tools and disk view, as master operations (MasterRequests) any node can call:
 * - `disk-usage`: a node's disk threshold monitor reports its data path and its copies' store sizes; the master
 *   keeps them (cluster-info.ts),
 *   reroutes when a node crosses a watermark (copies leave a node past high, none arrive past low) and releases
 *   the flood stage block of every index whose copies all sit on nodes below the high watermark;
 * - `allocation-explain`: `_cluster/allocation/explain` (allocation-explain.ts) with the master's disk view;
 * - `cluster-reroute`: `_cluster/reroute` (reroute-commands.ts), published unless it is a dry run.
 * On a single embedded node the same operations run in-process. In a cluster the master also fetches the data
 * nodes' store listings for replicas to place (shard-store-fetch.ts) and reroutes when they arrived.
 */
import type { Logger } from 'pino';
import type { ClusterService } from '../cluster-service.js';
import type { ClusterState, IndexMetadata, ShardRouting } from '../cluster-state.js';
import type { Coordinator } from '../coordination/coordinator.js';
import type { MasterRequests } from '../master-requests.js';
import type { DiscoveryNode } from '../discovery-node.js';
import { explainAllocation, type AllocationExplanation, type ExplainRequest } from './allocation-explain.js';
import { reroute } from './allocation.js';
import { ClusterInfoService, type DiskUsage } from './cluster-info.js';
import { aboveHighWatermark, masterDiskThresholds } from './deciders/index.js';
import { freeBytesThreshold } from './disk-watermarks.js';
import { applyRerouteCommands, type RerouteExplanation, type RerouteRequest } from './reroute-commands.js';
import { routingAllocation, type AllocationOptions } from './routing-allocation.js';
import { READ_ONLY_ALLOW_DELETE } from './disk-threshold-monitor.js';
import { SINGLE_NODE_ACKS, type AckWaiter } from '../publication-acks.js';
import { ShardStoreFetcher, type ShardStoreFetchOptions } from './shard-store-fetch.js';

export interface RerouteOutcome {
  /** Whether every node applied the published state within the ack timeout (a dry run publishes nothing: true). */
  readonly acknowledged: boolean;
  readonly explanations: readonly RerouteExplanation[];
  /** The state the reroute produced: published (and applied here), or only computed for a dry run. */
  readonly state: ClusterState;
}

/** What crosses the transport for a dry run's state (Maps as entry lists). */
interface WireState extends Omit<ClusterState, 'nodes' | 'indices' | 'routing'> {
  readonly nodes: [string, DiscoveryNode][];
  readonly indices: [string, IndexMetadata][];
  readonly routing: [string, ReadonlyArray<ReadonlyArray<ShardRouting>>][];
}

type Level = 'ok' | 'low' | 'high';

/** What a node's monitor sends the master (entry lists cross the transport; Maps do not). */
interface DiskReport {
  readonly nodeId: string;
  readonly usage: DiskUsage;
  readonly shardSizes?: ReadonlyArray<readonly [string, number]>;
}

/** A disk report is worth little late: the next check sends a fresher one. */
const REPORT_TIMEOUT_MILLIS = 10_000;

export class AllocationService {
  readonly clusterInfo = new ClusterInfoService();
  private readonly levels = new Map<string, Level>();
  /** The master's store listings of replicas to place (a cluster only: a single node has nowhere else to put them). */
  private readonly shardStores: ShardStoreFetcher | undefined;

  constructor(
    private readonly clusterService: ClusterService,
    private readonly coordinator: Coordinator,
    private readonly master: MasterRequests | undefined,
    /** The node's own settings: cluster settings' values when no PUT set them. */
    private readonly nodeSettings: Readonly<Record<string, string>>,
    /** Sets (true) or removes (null) the flood stage block on indices, through the master. */
    private readonly updateBlock: (indices: readonly string[], value: 'true' | null) => Promise<void>,
    private readonly logger: Logger,
    private readonly acks: AckWaiter = SINGLE_NODE_ACKS,
    /** Asks a data node what it holds for a shard (`internal:cluster/nodes/indices/shard/store[n]`). */
    listShardStore?: ShardStoreFetchOptions['list'],
  ) {
    this.shardStores =
      master === undefined || listShardStore === undefined
        ? undefined
        : new ShardStoreFetcher({
            list: listShardStore,
            reroute: () => {
              this.coordinator.submitStateUpdate('reroute (shard store fetched)', (current) => this.reroute(current, current, Date.now())).catch((err: unknown) => {
                this.logger.debug({ err, event: 'shard_store_fetch' }, 'reroute after a shard store fetch did not run (no longer master?)');
              });
            },
            log: (message, err) => this.logger.warn({ err, event: 'shard_store_fetch' }, message),
            inFlight: (count) => {
              this.clusterService.inFlightFetches = count;
            },
          });
    master?.register('disk-usage', (args) => this.diskUsageOnMaster(args as DiskReport));
    master?.register('allocation-explain', (args) => this.explainOnMaster(args as ExplainRequest));
    master?.register('cluster-reroute', async (args) => {
      const { request, dryRun, ackTimeoutMillis } = args as { request: RerouteRequest; dryRun: boolean; ackTimeoutMillis?: number };
      const outcome = await this.rerouteOnMaster(request, dryRun, ackTimeoutMillis);
      return { acknowledged: outcome.acknowledged, explanations: outcome.explanations, state: dryRun ? toWire(outcome.state) : undefined };
    });
  }

  /** The options every allocation round on this (master) node uses. */
  allocationOptions(): AllocationOptions {
    return { info: this.clusterInfo.snapshot(), nodeSettings: this.nodeSettings, ...(this.shardStores !== undefined && { shardStores: this.shardStores }) };
  }

  /** The etcd master's round on every published batch (coordinator option). */
  reroute(previous: ClusterState, next: ClusterState, now: number): ClusterState {
    this.clusterInfo.retainOnly(new Set(next.nodes.keys()));
    this.shardStores?.beginRound(previous, next);
    const result = reroute(previous, next, now, this.allocationOptions());
    this.shardStores?.retainOnly(result);
    return result;
  }

  /** A node's disk and the store size of each copy it holds (`[index][shard][p|r]` -> bytes), for the master. */
  reportDiskUsage(nodeId: string, usage: DiskUsage, shardSizes: ReadonlyArray<readonly [string, number]> = []): Promise<void> {
    const report: DiskReport = { nodeId, usage, shardSizes };
    if (this.master === undefined) return this.diskUsageOnMaster(report);
    return this.master.run('disk-usage', report, REPORT_TIMEOUT_MILLIS);
  }

  explain(request: ExplainRequest, masterTimeoutMillis?: number): Promise<AllocationExplanation> {
    if (this.master === undefined) return this.explainOnMaster(request);
    return this.master.run('allocation-explain', request, masterTimeoutMillis);
  }

  /**
   * Runs reroute commands on the master. A published result answers once every node applied it, or with
   * `acknowledged: false` after `ackTimeoutMillis` (ES's AckedClusterStateUpdateTask, as every acked request).
   */
  async rerouteCommands(request: RerouteRequest, dryRun: boolean, masterTimeoutMillis?: number, ackTimeoutMillis?: number): Promise<RerouteOutcome> {
    if (this.master === undefined) return this.rerouteOnMaster(request, dryRun, ackTimeoutMillis);
    const reply = await this.master.run<{ acknowledged?: boolean; explanations: RerouteExplanation[]; state?: WireState }>('cluster-reroute', { request, dryRun, ackTimeoutMillis }, masterTimeoutMillis, undefined, ackTimeoutMillis);
    // A published reroute is applied here before run() returns: this node's state shows it.
    return { acknowledged: reply.acknowledged ?? true, explanations: reply.explanations, state: reply.state === undefined ? this.clusterService.state() : fromWire(reply.state) };
  }

  private async explainOnMaster(request: ExplainRequest): Promise<AllocationExplanation> {
    return explainAllocation(this.clusterService.state(), request, this.allocationOptions());
  }

  private async rerouteOnMaster(request: RerouteRequest, dryRun: boolean, ackTimeoutMillis?: number): Promise<RerouteOutcome> {
    if (dryRun) {
      const result = applyRerouteCommands(this.clusterService.state(), request, this.allocationOptions());
      return { acknowledged: true, explanations: result.explanations, state: result.state };
    }
    let explanations: readonly RerouteExplanation[] = [];
    const committed = await this.coordinator.submitStateUpdate('cluster_reroute (api)', (state) => {
      const result = applyRerouteCommands(state, request, this.allocationOptions());
      explanations = result.explanations;
      return result.state;
    });
    const acknowledged = ackTimeoutMillis === undefined ? true : await this.acks.waitForAcks(committed.version, ackTimeoutMillis);
    return { acknowledged, explanations, state: committed };
  }

  private async diskUsageOnMaster({ nodeId, usage, shardSizes }: DiskReport): Promise<void> {
    if (!this.clusterInfo.report(nodeId, usage, new Map(shardSizes ?? []))) return;
    const state = this.clusterService.state();
    const allocation = routingAllocation(state, this.allocationOptions());
    const thresholds = masterDiskThresholds(allocation);
    const level: Level = !thresholds.enabled
      ? 'ok'
      : usage.availableBytes < freeBytesThreshold(thresholds.high, usage.totalBytes)
        ? 'high'
        : usage.availableBytes < freeBytesThreshold(thresholds.low, usage.totalBytes)
          ? 'low'
          : 'ok';
    const previous = this.levels.get(nodeId);
    this.levels.set(nodeId, level);
    // A single embedded node has nowhere to move copies to; a cluster's master reroutes on every change of level.
    if (this.master !== undefined && previous !== level) {
      await this.coordinator.submitStateUpdate('reroute (disk usage)', (current) => reroute(current, current, Date.now(), this.allocationOptions()));
    }
    if (this.master !== undefined && thresholds.enabled) await this.releaseFloodStageBlocks(state);
  }

  /**
   * ES's DiskThresholdMonitor auto-release: an index with the flood stage block whose every assigned copy is on
   * a node that reported a disk below the high watermark gets its block removed (a node not heard from yet
   * keeps it).
   */
  private async releaseFloodStageBlocks(state: ClusterState): Promise<void> {
    const allocation = routingAllocation(state, this.allocationOptions());
    const release: string[] = [];
    for (const [index, metadata] of state.indices) {
      if (metadata.settings[READ_ONLY_ALLOW_DELETE] !== 'true') continue;
      const holders = new Set((state.routing.get(index) ?? []).flatMap((copies) => copies.flatMap((copy) => (copy.nodeId === undefined ? [] : [copy.nodeId]))));
      if (holders.size === 0) continue;
      const allBelowHigh = [...holders].every((nodeId) => {
        const usage = allocation.info.diskUsages.get(nodeId);
        return usage !== undefined && !aboveHighWatermark(allocation, usage);
      });
      if (allBelowHigh) release.push(index);
    }
    if (release.length === 0) return;
    this.logger.info({ event: 'disk_watermark', indices: release }, `releasing read-only block on indices [${release.join(', ')}] since they are now allocated to nodes with sufficient disk space`);
    await this.updateBlock(release, null);
  }
}

function toWire(state: ClusterState): WireState {
  return { ...state, nodes: [...state.nodes], indices: [...state.indices], routing: [...state.routing] };
}

function fromWire(wire: WireState): ClusterState {
  return { ...wire, nodes: new Map(wire.nodes), indices: new Map(wire.indices), routing: new Map(wire.routing) };
}
