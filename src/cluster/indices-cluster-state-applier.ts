/**
 * Makes this node's shards follow the cluster state (ES's IndicesClusterStateService): for every applied state
 * it updates each index's settings and mapping in the indices service (synchronously, so a mapping change is
 * visible to the next document parse as soon as the update that made it resolves), opens the engines of copies
 * newly assigned here and reports them started to the master (INITIALIZING -> STARTED) or failed, closes
 * copies moved away, and removes deleted indices with their files.
 */
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type { IndicesService } from '../indices/index.js';
import type { ClusterService } from './cluster-service.js';
import type { ClusterState, ShardRouting } from './cluster-state.js';
import type { MetadataService } from './metadata/metadata-service.js';

export class IndicesClusterStateApplier {
  private unsubscribe: (() => void) | undefined;
  /** Allocation ids being opened, so one copy is opened once. */
  private readonly opening = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly clusterService: ClusterService,
    private readonly indicesService: IndicesService,
    private readonly metadata: () => MetadataService,
    private readonly localNodeId: string,
    private readonly logger: Logger,
    /** Fills a replica from its primary's node before it opens (cluster/peer-recovery.ts); absent on a single node. */
    private readonly recoverReplica?: (state: ClusterState, copy: ShardRouting) => Promise<void>,
  ) {}

  start(): void {
    this.unsubscribe = this.clusterService.onChange((state, previous) => this.apply(state, previous));
  }

  /** Stops reacting to states and waits for shard opens under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    await Promise.allSettled([...this.pending]);
  }

  private apply(state: ClusterState, previous: ClusterState): void {
    this.removeDeletedIndices(state, previous);
    for (const metadata of state.indices.values()) {
      try {
        this.indicesService.applyIndex({ name: metadata.name, uuid: metadata.uuid, settings: metadata.settings, mappings: metadata.mappings });
      } catch (err) {
        this.logger.error({ err, index: metadata.name }, 'failed to apply index metadata');
      }
    }
    const assignedHere = new Set<string>();
    for (const shards of state.routing.values()) {
      for (const copies of shards) {
        for (const copy of copies) {
          if (copy.nodeId !== this.localNodeId || copy.state === 'UNASSIGNED') continue;
          assignedHere.add(`${copy.index}/${copy.shard}`);
          if (copy.state !== 'INITIALIZING') continue;
          if (state.indices.get(copy.index)?.state === 'close') this.startClosedCopy(copy);
          else this.openCopy(state, copy);
        }
      }
    }
    for (const service of this.indicesService.indexServices()) {
      const closed = state.indices.get(service.name)?.state === 'close';
      for (const shardId of service.shards.keys()) {
        // A closed index releases its engines (files closed, memory freed); its store stays for a reopen.
        if (closed || !assignedHere.has(`${service.name}/${shardId}`)) this.track(this.indicesService.closeShard(service.name, shardId));
      }
    }
  }

  /** A copy of a closed index "recovers" without an engine: its open engine is closed and its store checked. */
  private startClosedCopy(copy: ShardRouting): void {
    const allocationId = copy.allocationId;
    if (allocationId === undefined || this.opening.has(allocationId)) return;
    this.opening.add(allocationId);
    const report = { index: copy.index, shard: copy.shard, allocationId };
    const work = (async () => {
      try {
        await this.indicesService.startClosedCopy(copy.index, copy.shard, copy.primary);
        const uuid = this.clusterService.state().indices.get(copy.index)?.uuid;
        if (uuid !== undefined && !existsSync(this.indicesService.shardPath(uuid, copy.shard))) {
          throw new Error(`no shard data on disk for closed [${copy.index}][${copy.shard}]`);
        }
        if (!this.stopped) await this.metadata().shardStarted(report);
      } catch (err) {
        this.logger.error({ err, index: copy.index, shard: copy.shard }, 'failed to start closed shard');
        if (!this.stopped) await this.metadata().shardFailed(report).catch(() => undefined);
      } finally {
        this.opening.delete(allocationId);
      }
    })();
    this.track(work);
  }

  private removeDeletedIndices(state: ClusterState, previous: ClusterState): void {
    for (const before of previous.indices.values()) {
      const now = state.indices.get(before.name);
      if (now !== undefined && now.uuid === before.uuid) continue;
      this.track(this.indicesService.removeIndex(before.name, true).then(() => this.indicesService.deleteIndexFiles(before.uuid)));
    }
  }

  private openCopy(state: ClusterState, copy: ShardRouting): void {
    const allocationId = copy.allocationId;
    if (allocationId === undefined || this.opening.has(allocationId)) return;
    const open = this.indicesService.shard(copy.index, copy.shard);
    const metadata = state.indices.get(copy.index);
    if (metadata === undefined) return;
    const report = { index: copy.index, shard: copy.shard, allocationId };
    if (open !== undefined) {
      // Already open (a state published before our report was applied): report again, idempotently.
      this.track(this.metadata().shardStarted(report));
      return;
    }
    this.opening.add(allocationId);
    const recovery = copy.recoverySource === 'EXISTING_STORE' ? 'EXISTING_STORE' : 'EMPTY_STORE';
    const work = (async () => {
      try {
        if (copy.recoverySource === 'PEER') {
          if (this.recoverReplica === undefined) throw new Error(`no peer recovery on this node for [${copy.index}][${copy.shard}]`);
          await this.recoverReplica(state, copy);
        }
        if (recovery === 'EXISTING_STORE' && !existsSync(this.indicesService.shardPath(metadata.uuid, copy.shard))) {
          throw new Error(`no shard data on disk for [${copy.index}][${copy.shard}]`);
        }
        await this.indicesService.openShard(copy.index, copy.shard, copy.primary, metadata.primaryTerms[copy.shard] ?? 1, recovery);
        if (!this.stopped) await this.metadata().shardStarted(report);
      } catch (err) {
        this.logger.error({ err, index: copy.index, shard: copy.shard }, 'failed to open shard');
        if (!this.stopped) await this.metadata().shardFailed(report).catch(() => undefined);
      } finally {
        this.opening.delete(allocationId);
      }
    })();
    this.track(work);
  }

  private track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      (err) => this.logger.warn({ err }, 'shard state change failed'),
    );
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }
}
