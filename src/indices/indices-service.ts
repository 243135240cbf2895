/**
 * The indices and shard copies this node holds (ES's IndicesService): creates an IndexService per index it is
 * told about, opens each assigned shard copy's engine under `<data>/indices/<index_uuid>/<shard>/`, closes
 * them, deletes the files of indices that were deleted, and sums the shards' figures into the node's
 * statistics. It does not read the cluster state itself: the cluster layer's applier drives it.
 */
import { mkdirSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { EsError } from '../common/errors.js';
import type { Engine, EngineConfig, MergeReport } from '../engine/engine.js';
import { readCommitStoreInfo, trimToSafeCommit } from '../engine/index.js';
import { formatTimeValueMillis } from '../common/time-value.js';
import { formatByteSize } from '../common/byte-size.js';
import { directorySizeBytes, zeroIndicesStats, type NodeIndicesStats } from '../monitor/index.js';
import { IndexService, type IndexDescriptor } from './index-service.js';
import { IndexShard, type ShardSchedule } from './index-shard.js';
import { ShardRecoveryState } from './recovery-state.js';
import { readLeasesFile, RetentionLeases } from './replication/retention-leases.js';
import type { ShardStatsSnapshot } from './shard-stats.js';
import type { ReplicationGroupState } from './replication/replication-group.js';

export type EngineFactory = (config: EngineConfig) => Promise<Engine>;

export interface IndicesServiceOptions {
  readonly dataPath: string;
  readonly engineFactory: EngineFactory | undefined;
  readonly logger: Logger;
  /** Bytes of indexing buffer per shard before the engine writes a segment by itself. */
  readonly indexingBufferBytes?: number;
  /** Indexing worker threads per shard copy (common/thread-pools.ts, `indexingWorkersPerCopy`); default 2. */
  readonly indexingWorkersPerCopy?: 1 | 2;
}

export type ShardRecovery = 'EMPTY_STORE' | 'EXISTING_STORE';

/** ES's SequenceNumbers.UNASSIGNED_SEQ_NO as a starting seqNo: the copy has no safe commit (recover by files). */
export const UNASSIGNED_STARTING_SEQ_NO = -2;

export interface LocalRecovery {
  readonly startingSeqNo: number;
  readonly historyUUID: string | undefined;
  /** Operations replayed from the copy's own translog. */
  readonly localOperations: number;
}

export class IndicesService {
  private readonly byName = new Map<string, IndexService>();
  private readonly opening = new Map<string, Promise<IndexShard>>();
  /** Engines being closed, by `<uuid>/<shard>`: a reopen of the same files waits for them. */
  private readonly closing = new Map<string, Promise<void>>();
  /** The latest recovery of each copy this node holds, open or closed, by `<uuid>/<shard>`. */
  private readonly recoveries = new Map<string, ShardRecoveryState>();

  constructor(private readonly options: IndicesServiceOptions) {}

  get indicesPath(): string {
    return join(this.options.dataPath, 'indices');
  }

  shardPath(indexUuid: string, shard: number): string {
    return join(this.indicesPath, indexUuid, String(shard));
  }

  indexService(name: string): IndexService | undefined {
    return this.byName.get(name);
  }

  indexServices(): IndexService[] {
    return [...this.byName.values()];
  }

  shard(index: string, shard: number): IndexShard | undefined {
    return this.byName.get(index)?.shards.get(shard);
  }

  /** Creates or updates the service of an index; a new uuid under an existing name replaces the old index. */
  applyIndex(descriptor: IndexDescriptor): IndexService {
    const existing = this.byName.get(descriptor.name);
    if (existing !== undefined && existing.uuid === descriptor.uuid) {
      existing.update(descriptor);
      for (const shard of existing.shards.values()) shard.updateSchedule(scheduleOf(existing));
      return existing;
    }
    const service = new IndexService(descriptor);
    this.byName.set(descriptor.name, service);
    return service;
  }

  /**
   * Opens a shard copy's engine. EMPTY_STORE starts from an empty directory (a new index); EXISTING_STORE
   * reopens what is on disk, replaying the translog. Concurrent calls for the same copy share one open.
   */
  /** Told when an open shard's engine fails (the cluster-state applier fails the copy; ES's IndicesClusterStateService). */
  onShardFailed: ((index: string, indexUuid: string, shardId: number, cause: EsError) => void) | undefined;

  /**
   * The replication group of a shard in the cluster state applied last (the cluster-state applier sets this): a
   * copy created between two applied states starts with it (IndexShard.applyReplicationGroup says why).
   */
  currentReplicationGroup: ((index: string, shardId: number) => ReplicationGroupState | undefined) | undefined;

  openShard(index: string, shardId: number, primary: boolean, primaryTerm: number, recovery: ShardRecovery, allocationId?: string): Promise<IndexShard> {
    const service = this.byName.get(index);
    if (service === undefined) return Promise.reject(new Error(`index [${index}] is not known on this node`));
    const existing = service.shards.get(shardId);
    if (existing !== undefined) return Promise.resolve(existing);
    const key = `${service.uuid}/${shardId}`;
    const pending = this.opening.get(key);
    if (pending !== undefined) return pending;
    const opening = this.doOpenShard(service, shardId, primary, primaryTerm, recovery, allocationId).finally(() => this.opening.delete(key));
    this.opening.set(key, opening);
    return opening;
  }

  private async doOpenShard(service: IndexService, shardId: number, primary: boolean, primaryTerm: number, recovery: ShardRecovery, allocationId: string | undefined): Promise<IndexShard> {
    await this.closing.get(`${service.uuid}/${shardId}`);
    const path = this.shardPath(service.uuid, shardId);
    const recoveryState = new ShardRecoveryState(service.name, shardId, primary, recovery);
    this.recoveries.set(`${service.uuid}/${shardId}`, recoveryState);
    const recoveryStarted = performance.now();
    if (recovery === 'EMPTY_STORE') rmSync(path, { recursive: true, force: true });
    mkdirSync(path, { recursive: true });
    recoveryState.startIndexStage(path);
    // ES's TRANSLOG stage is "starting up the engine, replaying the translog": opening is that stage here.
    recoveryState.startTranslogStage();
    const { shard, engine } = await this.createShard(service, shardId, { primary, primaryTerm, allocationId, openMode: 'store', activatePrimaryMode: primary });
    recoveryState.finish(engine.translogRecovery?.operations ?? 0, new Set(filesIn(join(path, 'index'))));
    logRecovery(this.options.logger, service.name, shardId, recovery, performance.now() - recoveryStarted, engine.translogRecovery?.operations ?? 0);
    shard.state = 'started';
    service.shards.set(shardId, shard);
    this.applyCurrentReplicationGroup(shard);
    return shard;
  }

  /**
   * A copy being filled by peer recovery: its engine opens the files in its store (copied from the primary, or
   * kept for an operations-based recovery) with a new, empty translog, and the copy joins the index's shards in
   * state `recovering`, in replica mode, so live operations from the primary reach it while history replays.
   */
  async openRecoveringShard(index: string, shardId: number, spec: { primary: boolean; primaryTerm: number; allocationId: string; globalCheckpoint: number }): Promise<IndexShard> {
    const service = this.byName.get(index);
    if (service === undefined) throw new Error(`index [${index}] is not known on this node`);
    if (service.shards.has(shardId)) throw new EsError('illegal_state_exception', `[${index}][${shardId}] is already open on this node`);
    await this.closing.get(`${service.uuid}/${shardId}`);
    const { shard } = await this.createShard(service, shardId, { ...spec, openMode: 'recovery_target', activatePrimaryMode: false });
    shard.tracker.updateGlobalCheckpointOnReplica(spec.globalCheckpoint);
    shard.syncGlobalCheckpointToEngine();
    shard.state = 'recovering';
    service.shards.set(shardId, shard);
    this.applyCurrentReplicationGroup(shard);
    return shard;
  }

  private applyCurrentReplicationGroup(shard: IndexShard): void {
    const group = this.currentReplicationGroup?.(shard.indexName, shard.shardId);
    if (group !== undefined) shard.applyReplicationGroup(group);
  }

  /** The store size of every started copy on this node (what the master's disk decider counts a copy as; ES's ClusterInfo). */
  storeSizes(): Array<{ index: string; shard: number; primary: boolean; bytes: number }> {
    const sizes: Array<{ index: string; shard: number; primary: boolean; bytes: number }> = [];
    for (const service of this.byName.values()) {
      for (const [shardId, shard] of service.shards) {
        if (shard.state !== 'started') continue;
        sizes.push({ index: service.name, shard: shardId, primary: shard.primary, bytes: shard.storeSizeInBytes() });
      }
    }
    return sizes;
  }

  /** Records the recovery of a copy (peer recovery keeps its own state object up to date). */
  setRecoveryState(index: string, shardId: number, state: ShardRecoveryState): void {
    const service = this.byName.get(index);
    if (service !== undefined) this.recoveries.set(`${service.uuid}/${shardId}`, state);
  }

  /** Waits for a close of the copy's engine under way (its files are about to be reused). */
  async waitForClose(index: string, shardId: number): Promise<void> {
    const service = this.byName.get(index);
    if (service !== undefined) await this.closing.get(`${service.uuid}/${shardId}`);
  }

  /**
   * A returning copy's local recovery, before it asks its primary (ES's recoverLocallyUpToGlobalCheckpoint): the
   * store is trimmed to its safe commit, the copy's own translog is replayed on it up to the global checkpoint the
   * translog persisted (every in-sync copy had those operations), and the result committed. Returns the first seqNo
   * the primary must send (-2, UNASSIGNED: no safe commit, copy files) and how many operations were replayed here.
   */
  async recoverLocallyUpToGlobalCheckpoint(index: string, shardId: number, primaryTerm: number): Promise<LocalRecovery> {
    const service = this.byName.get(index);
    if (service === undefined) throw new Error(`index [${index}] is not known on this node`);
    await this.closing.get(`${service.uuid}/${shardId}`);
    const path = this.shardPath(service.uuid, shardId);
    const safe = await trimToSafeCommit(path);
    const log = (result: LocalRecovery, why: string): LocalRecovery => {
      this.options.logger.info(
        { event: 'local_recovery', index, shard: shardId, path, starting_seq_no: result.startingSeqNo, local_operations: result.localOperations, global_checkpoint: safe?.globalCheckpoint },
        `[${index}][${shardId}] recovered locally: ${why}; asking the primary from seqNo [${result.startingSeqNo}]`,
      );
      return result;
    };
    if (safe === undefined) {
      // Which commit and checkpoint ruled it out: a file copy where operations were hoped for says why.
      const last = await readCommitStoreInfo(path);
      const found = last === undefined ? 'no readable commit' : `last commit's max_seq_no [${last.userData.maxSeqNo}], persisted global checkpoint [${last.globalCheckpoint}]`;
      return log({ startingSeqNo: UNASSIGNED_STARTING_SEQ_NO, historyUUID: last?.userData.historyUUID, localOperations: 0 }, `no safe commit (${found})`);
    }
    const historyUUID = safe.userData.historyUUID;
    if (safe.userData.localCheckpoint >= safe.globalCheckpoint) {
      return log({ startingSeqNo: safe.userData.localCheckpoint + 1, historyUUID, localOperations: 0 }, `the safe commit reaches the global checkpoint [${safe.globalCheckpoint}]`);
    }
    const factory = this.options.engineFactory;
    if (factory === undefined) throw new EsError('illegal_state_exception', 'this node has no shard engine to open shards with');
    try {
      const engine = await factory({ ...this.engineConfig(service, shardId, primaryTerm, 'store'), replayUpToSeqNo: safe.globalCheckpoint, onFailed: undefined });
      const localOperations = engine.translogRecovery?.operations ?? 0;
      // The replay committed (when it replayed anything); nothing else was written.
      await engine.close({ flush: false });
      const replayed = await trimToSafeCommit(path);
      return log(
        { startingSeqNo: (replayed ?? safe).userData.localCheckpoint + 1, historyUUID, localOperations },
        `replayed [${localOperations}] operations of its translog above the safe commit's local checkpoint [${safe.userData.localCheckpoint}] up to the global checkpoint [${safe.globalCheckpoint}]`,
      );
    } catch (err) {
      // ES falls back to the safe commit itself: the primary then sends everything above it.
      this.options.logger.warn({ err, index, shard: shardId }, `[${index}][${shardId}] local recovery up to the global checkpoint failed; asking the primary for everything above the safe commit`);
      const after = await trimToSafeCommit(path);
      return { startingSeqNo: after === undefined ? UNASSIGNED_STARTING_SEQ_NO : after.userData.localCheckpoint + 1, historyUUID, localOperations: 0 };
    }
  }

  private async createShard(
    service: IndexService,
    shardId: number,
    spec: { primary: boolean; primaryTerm: number; allocationId: string | undefined; openMode: 'store' | 'recovery_target'; activatePrimaryMode: boolean },
  ): Promise<{ shard: IndexShard; engine: Engine }> {
    const factory = this.options.engineFactory;
    if (factory === undefined) throw new EsError('illegal_state_exception', 'this node has no shard engine to open shards with');
    const path = this.shardPath(service.uuid, shardId);
    mkdirSync(path, { recursive: true });
    const engine = await factory(this.engineConfig(service, shardId, spec.primaryTerm, spec.openMode));
    // The index may have been deleted while the engine opened.
    if (this.byName.get(service.name) !== service) {
      await engine.close();
      throw new EsError('index_not_found_exception', `no such index [${service.name}]`);
    }
    const leases = new RetentionLeases(readLeasesFile(path));
    const shard = new IndexShard(service.name, service.uuid, shardId, spec.primary, spec.primaryTerm, path, engine, scheduleOf(service), this.options.logger, spec.allocationId, leases, spec.activatePrimaryMode);
    return { shard, engine };
  }

  private engineConfig(service: IndexService, shardId: number, primaryTerm: number, openMode: 'store' | 'recovery_target'): EngineConfig {
    const path = this.shardPath(service.uuid, shardId);
    const settings = service.settings;
    return {
      openMode,
      path,
      shardLabel: { index: service.name, indexUuid: service.uuid, shard: shardId },
      primaryTerm,
      durability: settings.durability,
      translogSyncIntervalMillis: settings.syncIntervalMillis,
      analyzers: service.analysis,
      // Lets the engine rebuild the analyzers in its indexing workers, so text analysis runs off the event loop.
      analysisSettings: service.analysisSettings,
      indexingBufferBytes: this.options.indexingBufferBytes ?? 64 * 1024 * 1024,
      ...(this.options.indexingWorkersPerCopy !== undefined && { indexingWorkers: this.options.indexingWorkersPerCopy }),
      // Translog replay re-parses each operation with the index's mapping of the moment (which already holds
      // every field an acknowledged document introduced: mapping updates reach the master before indexing).
      parseDocument: (operation) => service.parseDocument(operation.source, operation.id, operation.routing),
      storedCompression: service.flatSettings['index.codec'] === 'best_compression' ? 'deflate_best' : 'deflate_fast',
      gcDeletesMillis: settings.gcDeletesMillis,
      onMergeFinished: (merge) => logMerge(this.options.logger, service.name, shardId, merge),
      onFailed: (cause) => this.onShardFailed?.(service.name, service.uuid, shardId, cause),
    };
  }

  async closeShard(index: string, shardId: number): Promise<void> {
    const service = this.byName.get(index);
    const shard = service?.shards.get(shardId);
    if (service === undefined || shard === undefined) {
      if (service !== undefined) await this.closing.get(`${service.uuid}/${shardId}`);
      return;
    }
    service.shards.delete(shardId);
    const key = `${service.uuid}/${shardId}`;
    const closing = shard.close().finally(() => {
      if (this.closing.get(key) === closing) this.closing.delete(key);
    });
    this.closing.set(key, closing);
    await closing;
  }

  /**
   * A copy of a closed index: its engine is closed (committing what it held) and its store stays on disk.
   * ES still recovers such a copy from its store (with a no-op engine); this records that recovery.
   */
  async startClosedCopy(index: string, shardId: number, primary: boolean): Promise<void> {
    await this.closeShard(index, shardId);
    const service = this.byName.get(index);
    if (service === undefined) throw new Error(`index [${index}] is not known on this node`);
    const recoveryState = new ShardRecoveryState(index, shardId, primary, 'EXISTING_STORE');
    this.recoveries.set(`${service.uuid}/${shardId}`, recoveryState);
    recoveryState.startIndexStage(this.shardPath(service.uuid, shardId));
    recoveryState.startTranslogStage();
    recoveryState.finish(0);
  }

  /** The recovery states of the copies this node holds (open or closed) of the named indices. */
  recoveryStates(index: string): ShardRecoveryState[] {
    const service = this.byName.get(index);
    if (service === undefined) return [];
    const states: ShardRecoveryState[] = [];
    for (const [key, state] of this.recoveries) if (key.startsWith(`${service.uuid}/`)) states.push(state);
    return states.sort((a, b) => a.shard - b.shard);
  }

  /** Forgets a copy's recovery when the copy leaves this node. */
  forgetRecovery(index: string, shardId: number): void {
    const service = this.byName.get(index);
    if (service !== undefined) this.recoveries.delete(`${service.uuid}/${shardId}`);
  }

  /** Closes the index's shards and forgets it; with `deleteData` its files go too (the index was deleted). */
  async removeIndex(name: string, deleteData: boolean): Promise<void> {
    const service = this.byName.get(name);
    if (service === undefined) return;
    this.byName.delete(name);
    const shards = [...service.shards.values()];
    service.shards.clear();
    for (const key of [...this.recoveries.keys()]) if (key.startsWith(`${service.uuid}/`)) this.recoveries.delete(key);
    await Promise.all(shards.map((shard) => shard.close().catch((err) => this.options.logger.warn({ err, shard: shard.label }, 'failed to close shard'))));
    if (deleteData) this.deleteIndexFiles(service.uuid);
  }

  deleteIndexFiles(uuid: string): void {
    rmSync(join(this.indicesPath, uuid), { recursive: true, force: true });
  }

  /** The close of a copy's engine under way, if one is. */
  closingShard(indexUuid: string, shardId: number): Promise<void> | undefined {
    return this.closing.get(`${indexUuid}/${shardId}`);
  }

  /** Whether a copy's files are in use here: open, being opened or being closed (its store must stay). */
  shardFilesInUse(indexUuid: string, shardId: number): boolean {
    const key = `${indexUuid}/${shardId}`;
    if (this.opening.has(key) || this.closing.has(key)) return true;
    for (const service of this.byName.values()) if (service.uuid === indexUuid && service.shards.has(shardId)) return true;
    return false;
  }

  /** Whether anything of an index is in use here (its service exists, or a copy of it opens or closes). */
  indexFilesInUse(indexUuid: string): boolean {
    for (const service of this.byName.values()) if (service.uuid === indexUuid) return true;
    for (const key of [...this.opening.keys(), ...this.closing.keys()]) if (key.startsWith(`${indexUuid}/`)) return true;
    return false;
  }

  /** Index directories on disk (by uuid), so the applier can delete those of indices no longer in the cluster. */
  indexDirectoriesOnDisk(): string[] {
    try {
      return readdirSync(this.indicesPath);
    } catch {
      return [];
    }
  }

  shardStats(): ShardStatsSnapshot[] {
    const out: ShardStatsSnapshot[] = [];
    for (const service of this.byName.values()) for (const shard of service.shards.values()) if (shard.state !== 'closed') out.push(shard.stats());
    return out;
  }

  /** The node's index statistics (what nodes stats and `_cat/nodes` print), summed over its shard copies. */
  async nodeStats(): Promise<NodeIndicesStats> {
    const stats = zeroIndicesStats();
    for (const shard of this.shardStats()) {
      const engine = shard.engine;
      stats.shardCount++;
      stats.flush.total += engine.flush.total;
      stats.flush.totalTimeMillis += engine.flush.totalTimeMillis;
      stats.get.current += shard.get.current;
      stats.get.timeMillis += shard.get.timeMillis;
      stats.get.total += shard.get.total;
      stats.get.existsTimeMillis += shard.get.existsTimeMillis;
      stats.get.existsTotal += shard.get.existsTotal;
      stats.get.missingTimeMillis += shard.get.missingTimeMillis;
      stats.get.missingTotal += shard.get.missingTotal;
      const indexing = stats.indexing;
      indexing.deleteCurrent += engine.indexing.deleteCurrent;
      indexing.deleteTimeMillis += engine.indexing.deleteTimeMillis;
      indexing.deleteTotal += engine.indexing.deleteTotal;
      indexing.indexCurrent += engine.indexing.indexCurrent;
      indexing.indexTimeMillis += engine.indexing.indexTimeMillis;
      indexing.indexTotal += engine.indexing.indexTotal;
      indexing.indexFailed += engine.indexing.indexFailed;
      indexing.indexFailedDueToVersionConflict += shard.indexFailedDueToVersionConflict;
      const merges = stats.merges;
      merges.current += engine.merges.current;
      merges.currentDocs += engine.merges.currentDocs;
      merges.currentSizeBytes += engine.merges.currentSizeInBytes;
      merges.total += engine.merges.total;
      merges.totalDocs += engine.merges.totalDocs;
      merges.totalSizeBytes += engine.merges.totalSizeInBytes;
      merges.totalTimeMillis += engine.merges.totalTimeMillis;
      stats.refresh.total += engine.refresh.total;
      stats.refresh.totalTimeMillis += engine.refresh.totalTimeMillis;
      stats.refresh.externalTotal += engine.refresh.externalTotal;
      stats.refresh.externalTotalTimeMillis += engine.refresh.externalTotalTimeMillis;
      stats.refresh.listeners += engine.refresh.listeners;
      const search = stats.search;
      search.fetchCurrent += shard.search.fetchCurrent;
      search.fetchTimeMillis += shard.search.fetchTimeMillis;
      search.fetchTotal += shard.search.fetchTotal;
      search.openContexts += shard.search.openContexts;
      search.queryCurrent += shard.search.queryCurrent;
      search.queryTimeMillis += shard.search.queryTimeMillis;
      search.queryTotal += shard.search.queryTotal;
      search.scrollCurrent += shard.search.scrollCurrent;
      search.scrollTimeMillis += shard.search.scrollTimeMillis;
      search.scrollTotal += shard.search.scrollTotal;
      search.suggestCurrent += shard.search.suggestCurrent;
      search.suggestTimeMillis += shard.search.suggestTimeMillis;
      search.suggestTotal += shard.search.suggestTotal;
      stats.segments.count += engine.segments.filter((segment) => segment.searchable || segment.committed).length;
      stats.bulk.totalOperations += shard.bulk.totalOperations;
      stats.bulk.totalTimeMillis += shard.bulk.totalTimeMillis;
      stats.bulk.totalSizeInBytes += shard.bulk.totalSizeInBytes;
    }
    const requests = this.shardStats().reduce((sum, shard) => sum + shard.bulk.requests, 0);
    if (requests > 0) {
      stats.bulk.avgTimeMillis = Math.trunc(stats.bulk.totalTimeMillis / requests);
      stats.bulk.avgSizeInBytes = Math.trunc(stats.bulk.totalSizeInBytes / requests);
    }
    stats.mappings.totalCount = this.byName.size;
    // ES's indices.store.size: the shards' stores (segment files), summed, not the translog beside them, so
    // `_cat/allocation` disk.indices agrees with the store sizes of `_stats` and `_cat/indices`.
    stats.storeSizeBytes = this.shardStats().reduce((sum, shard) => sum + shard.engine.store.sizeInBytes, 0);
    return stats;
  }

  async close(): Promise<void> {
    const names = [...this.byName.keys()];
    await Promise.all(names.map((name) => this.removeIndex(name, false)));
  }
}

function filesIn(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/** A recovery this long is an event worth an info line; shorter ones are at debug. */
const SLOW_RECOVERY_MILLIS = 5_000;
/** ES's merge scheduler marks merges over 20 s; Gannet logs them at info, the others at debug. */
const SLOW_MERGE_MILLIS = 20_000;

function logRecovery(logger: Logger, index: string, shard: number, source: ShardRecovery, tookMillis: number, replayed: number): void {
  const entry = { event: 'shard_recovered', index, shard, source, took_millis: Math.round(tookMillis), translog_operations: replayed };
  const message = `[${index}][${shard}] recovery completed from [${source}], took [${formatTimeValueMillis(Math.round(tookMillis))}], replayed [${replayed}] translog operations`;
  if (tookMillis >= SLOW_RECOVERY_MILLIS) logger.info(entry, message);
  else logger.debug(entry, message);
}

function logMerge(logger: Logger, index: string, shard: number, merge: MergeReport): void {
  const entry = { event: 'merge_done', index, shard, segments: merge.segments, docs: merge.docs, size_in_bytes: merge.sizeInBytes, took_millis: Math.round(merge.tookMillis) };
  const message = `[${index}][${shard}] merge segment [${merge.merged ?? 'none'}] done: took [${formatTimeValueMillis(Math.round(merge.tookMillis))}], [${formatByteSize(merge.sizeInBytes)}], [${merge.docs}] docs, from [${merge.segments}] segments`;
  if (merge.tookMillis >= SLOW_MERGE_MILLIS) logger.info(entry, message);
  else logger.debug(entry, message);
}

function scheduleOf(service: IndexService): ShardSchedule {
  return {
    refreshIntervalMillis: service.settings.refreshIntervalMillis,
    explicitRefreshInterval: service.settings.explicitRefreshInterval,
    searchIdleAfterMillis: service.settings.searchIdleAfterMillis,
    flushThresholdBytes: service.settings.flushThresholdBytes,
    retentionLeasePeriodMillis: service.settings.retentionLeasePeriodMillis,
  };
}
