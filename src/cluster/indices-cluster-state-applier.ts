/**
 * Makes this node's shards follow the cluster state (ES's IndicesClusterStateService): for every applied state
 * it updates each index's settings and mapping in the indices service (synchronously, so a mapping change is
 * visible to the next document parse as soon as the update that made it resolves), tells every open copy its
 * replication group (copies, in-sync ids, primary term: the primary's tracker follows the master's in-sync set),
 * promotes a started replica the master made the primary under a newer term (indices/replication/primary-promotion.ts),
 * opens the engines of copies newly assigned here (from the store, or by peer recovery from the primary for
 * replicas and relocation targets) and reports them started to the master (INITIALIZING -> STARTED) or failed,
 * closes copies moved away, and removes deleted indices with their files.
 */
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { describeError, replicationErrors, toEsError, type EsError } from '../common/errors.js';
import { promoteToPrimary, type IndicesService, type PeerRecoveryTargetService, type ReplicationServices } from '../indices/index.js';
import type { ClusterService } from './cluster-service.js';
import { assignedCopiesWithTargets, type ClusterState, type ShardRouting } from './cluster-state.js';
import type { MetadataService } from './metadata/metadata-service.js';
import { recoveryNode, replicationGroupOf } from './replication-group-builder.js';

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
    /** Fills replicas and relocation targets from their primary (indices/recovery); absent on a single node. */
    private readonly peerRecovery?: PeerRecoveryTargetService,
    /** What a promoted replica uses to take over and resync the other copies (absent on a single node). */
    private readonly replication?: ReplicationServices,
  ) {}

  start(): void {
    this.unsubscribe = this.clusterService.onChange((state, previous) => this.apply(state, previous));
    this.indicesService.onShardFailed = (index, indexUuid, shardId, cause) => this.failShard(index, indexUuid, shardId, cause);
    this.indicesService.currentReplicationGroup = (index, shardId) => replicationGroupOf(this.clusterService.state(), index, shardId);
  }

  /**
   * An open copy's engine failed (ENOSPC or another I/O error on the write path): as ES's
   * IndicesClusterStateService does, the copy is closed here and reported failed with the failure, so it shows as
   * UNASSIGNED with the reason (health red for a primary) and the master can allocate it again, recovering from
   * its own store (the translog still holds every acknowledged operation).
   */
  private failShard(index: string, indexUuid: string, shardId: number, cause: EsError, reason = 'shard failure, reason [engine failed]'): void {
    if (this.stopped) return;
    const state = this.clusterService.state();
    if (state.indices.get(index)?.uuid !== indexUuid) return;
    const copy = state.routing.get(index)?.[shardId]?.find((candidate) => candidate.nodeId === this.localNodeId && candidate.state !== 'UNASSIGNED');
    const allocationId = copy?.allocationId;
    if (allocationId === undefined) return;
    let root = cause;
    while (root.causedBy !== undefined) root = root.causedBy;
    const failure = `${reason}, failure ${root.type}: ${root.reason}`;
    this.logger.warn({ err: cause, index, shard: shardId, event: 'shard_failed' }, `[${index}][${shardId}] marking and sending shard failed: ${failure}`);
    this.track(
      (async () => {
        await this.indicesService.closeShard(index, shardId);
        if (!this.stopped) await this.metadata().shardFailed({ index, shard: shardId, allocationId, indexUuid, message: failure });
      })(),
    );
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
    const assignedHere = new Map<string, string>();
    for (const shards of state.routing.values()) {
      for (const copies of shards) {
        for (const copy of assignedCopiesWithTargets(copies)) {
          if (copy.nodeId !== this.localNodeId) continue;
          assignedHere.set(`${copy.index}/${copy.shard}`, copy.allocationId!);
          if (copy.state !== 'INITIALIZING') continue;
          if (state.indices.get(copy.index)?.state === 'close') this.startClosedCopy(copy);
          else this.openCopy(state, copy);
        }
      }
    }
    for (const service of this.indicesService.indexServices()) {
      const closed = state.indices.get(service.name)?.state === 'close';
      for (const [shardId, shard] of service.shards) {
        const allocationId = assignedHere.get(`${service.name}/${shardId}`);
        // A closed index releases its engines (files closed, memory freed); its store stays for a reopen. A copy
        // here under another allocation id is a copy that failed and was allocated here again: it starts over.
        if (closed || allocationId === undefined || (allocationId !== shard.allocationId && !this.opening.has(allocationId))) {
          this.peerRecovery?.cancel(service.name, shardId);
          this.track(this.indicesService.closeShard(service.name, shardId));
          continue;
        }
        const group = replicationGroupOf(state, service.name, shardId);
        if (group === undefined) continue;
        const own = group.copies.find((copy) => copy.allocationId === shard.allocationId);
        // A primary that handed its context to its relocation target, told that this relocation is off (the target
        // failed or its node left, so the copy is STARTED again): it cannot take primary mode back without risking
        // two primaries (the target may still be running as one), so it fails, as ES's IndexShardRelocatedException
        // does, and the master promotes an in-sync replica under a new term (which fences the old target). Writes
        // the target acknowledged are on every in-sync copy (it replicated them), so nothing acknowledged is lost.
        if (shard.relocated && own !== undefined && !(own.state === 'RELOCATING' && group.copies.some((copy) => copy.relocationTarget && copy.allocationId === shard.relocatedTo))) {
          this.failShard(service.name, shard.indexUuid, shardId, replicationErrors.shardRelocated(service.name, shard.indexUuid, shardId, own.state), 'failed updating shard routing entry');
          continue;
        }
        // The primary this copy followed until now: when it is promoted, its former primary's node keeps a lease.
        const formerPrimaryNodeId = shard.replicationGroup?.copies.find((copy) => copy.primary && !copy.relocationTarget)?.nodeId;
        shard.applyReplicationGroup(group);
        // The master promoted this started replica (a newer primary term names it the primary): it takes over.
        if (own?.primary === true && !own.relocationTarget && shard.state === 'started' && !shard.isPrimaryMode && !shard.relocated && group.primaryTerm > shard.operationPrimaryTerm && this.replication !== undefined) {
          const { indexUuid, shardId: id } = shard;
          // A copy that cannot take over (its engine failed) is failed: the master promotes another or goes red.
          this.track(promoteToPrimary(shard, this.replication, group.primaryTerm, formerPrimaryNodeId).catch((err: unknown) => this.failShard(service.name, indexUuid, id, toEsError(err))));
        }
        // Leases of nodes that hold no copy any more go once every copy is started (ES's rule); the others stay.
        if (group.allStarted && shard.isPrimaryMode) {
          const nodes = new Set(group.copies.map((copy) => `peer_recovery/${copy.nodeId}`));
          shard.leases.retainOnly((id) => nodes.has(id));
        }
        shard.maintainLeases();
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
    if (open !== undefined && open.allocationId === allocationId) {
      // Already open (a state published before our report was applied): report again, idempotently.
      if (open.state === 'started') this.track(this.metadata().shardStarted(report));
      return;
    }
    this.opening.add(allocationId);
    const recovery = copy.recoverySource === 'EXISTING_STORE' ? 'EXISTING_STORE' : 'EMPTY_STORE';
    const work = (async () => {
      try {
        // The previous copy of this shard here (failed, now allocated again) closes first.
        if (open !== undefined) await this.indicesService.closeShard(copy.index, copy.shard);
        if (copy.recoverySource === 'PEER') {
          await this.recoverFromPrimary(state, copy);
        } else {
          if (recovery === 'EXISTING_STORE' && !existsSync(this.indicesService.shardPath(metadata.uuid, copy.shard))) {
            throw new Error(`no shard data on disk for [${copy.index}][${copy.shard}]`);
          }
          await this.indicesService.openShard(copy.index, copy.shard, copy.primary, metadata.primaryTerms[copy.shard] ?? 1, recovery, allocationId);
        }
        if (!this.stopped) await this.metadata().shardStarted(report);
      } catch (err) {
        this.logger.error({ err, index: copy.index, shard: copy.shard }, 'failed to open shard');
        if (!this.stopped) await this.metadata().shardFailed({ ...report, message: `failed recovery, failure ${describeError(err)}` }).catch(() => undefined);
      } finally {
        this.opening.delete(allocationId);
      }
    })();
    this.track(work);
  }

  /** A replica or relocation target filled from its shard's primary (indices/recovery). */
  private async recoverFromPrimary(state: ClusterState, copy: ShardRouting): Promise<void> {
    if (this.peerRecovery === undefined) throw new Error(`no peer recovery on this node for [${copy.index}][${copy.shard}]`);
    const copies = state.routing.get(copy.index)?.[copy.shard] ?? [];
    const primary = copies.find((candidate) => candidate.primary && (candidate.state === 'STARTED' || candidate.state === 'RELOCATING'));
    const sourceNode = primary?.nodeId === undefined ? undefined : state.nodes.get(primary.nodeId);
    const localNode = state.nodes.get(this.localNodeId);
    if (sourceNode === undefined || localNode === undefined) throw new Error(`[${copy.index}][${copy.shard}] no active primary to recover from`);
    await this.peerRecovery.recover({
      index: copy.index,
      shard: copy.shard,
      allocationId: copy.allocationId!,
      primary: copy.primary,
      primaryTerm: state.indices.get(copy.index)?.primaryTerms[copy.shard] ?? 1,
      source: recoveryNode(sourceNode),
      target: recoveryNode(localNode),
      primaryRelocation: copy.primary && copy.relocatingNodeId !== undefined,
    });
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
