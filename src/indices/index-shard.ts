/**
 * One shard copy on this node: its engine, its primary term, the counters stats report, and the periodic work
 * ES's IndexShard schedules (refresh every `index.refresh_interval` when something was written, flush when the
 * uncommitted translog passes `index.translog.flush_threshold_size`). Every read and write of the shard's data
 * goes through here, so the counters stay right.
 *
 * Search-idle shards (docs/decisions/0025, ES's scheduledRefresh / ensureShardSearchActive): a copy, primary or
 * replica, that nobody searched for `index.search.idle.after` skips its scheduled refreshes while it keeps being
 * written, unless the index sets `index.refresh_interval` explicitly or a `refresh=wait_for` write waits. A search
 * phase, a point in time or a non-realtime get on it first calls `ensureSearchActive`, which refreshes when a
 * scheduled refresh was skipped, so it sees every write acknowledged before it.
 *
 * Replication state (issue 13, docs/decisions/0012): the copy's allocation id, the term its operations run
 * under, its checkpoints tracker (primary mode on the primary), the operation permits every write holds, the
 * retention leases a primary keeps for its copies, and the replication group the cluster layer last pushed.
 * The flows that use them live in replication/ (primary fan-out, replica apply) and recovery/.
 */
import type { Logger } from 'pino';
import { EsError } from '../common/errors.js';
import { FixedDelayTask } from '../common/fixed-delay-task.js';
import type { BatchDurability, DeleteOperation, Engine, GetResult, IndexOperation, ReplicatedEngineOperation, WriteResult } from '../engine/engine.js';
import type { Searcher } from '../engine/searcher.js';
import { BulkStats, GetStats, SearchStats, type ShardStatsSnapshot } from './shard-stats.js';
import { ReplicationTracker } from './replication/replication-tracker.js';
import { OperationPermits } from './replication/operation-permits.js';
import { LEASE_RENEWAL_PERSIST_MILLIS, RetentionLeases, writeLeasesFile, type RetentionLeasesView } from './replication/retention-leases.js';
import type { ReplicationGroupState } from './replication/replication-group.js';
import { SearchIdleState } from './search-idle.js';

/** ES's indices.memory.shard_inactive_time: an idle shard with uncommitted operations is flushed. */
const INACTIVE_FLUSH_MILLIS = 5 * 60 * 1000;

/**
 * ES's IndexShardState, as far as Gannet needs it: a peer recovery's copy is `recovering` until its finalize, which
 * makes it `post_recovery` (reads allowed, scheduled refreshes run) and refreshes, until the primary answered its
 * start_recovery and it reports itself started.
 */
export type ShardLifecycle = 'recovering' | 'post_recovery' | 'started' | 'closed';

export interface ShardSchedule {
  refreshIntervalMillis: number;
  /** The index sets `index.refresh_interval` itself: scheduled refreshes then run even on a search-idle copy. */
  explicitRefreshInterval: boolean;
  /** `index.search.idle.after`. */
  searchIdleAfterMillis: number;
  flushThresholdBytes: number;
  /** How long a retention lease lives without renewal. */
  retentionLeasePeriodMillis: number;
}

export class IndexShard {
  state: ShardLifecycle = 'recovering';
  readonly getStats = new GetStats();
  readonly searchStats = new SearchStats();
  readonly bulkStats = new BulkStats();
  indexFailedDueToVersionConflict = 0;
  /** Updates that changed nothing (detect_noop): no engine operation, but ES counts them. */
  noopUpdates = 0;
  /** The term this copy's operations run under (the primary's term; a replica adopts newer ones it is sent). */
  operationPrimaryTerm: number;
  readonly tracker: ReplicationTracker;
  readonly permits = new OperationPermits();
  readonly leases: RetentionLeases;
  /** On a replica: the leases its primary last sent with a global checkpoint sync (for `_stats`). */
  syncedLeases: RetentionLeasesView | undefined;
  /** What the cluster layer last told this copy about its shard's copies (absent on a lone embedded copy). */
  replicationGroup: ReplicationGroupState | undefined;
  /** A primary whose primary context went to its relocation target: writes reaching it are forwarded there. */
  relocated = false;
  /** The allocation id of the relocation target that received this copy's primary context. */
  relocatedTo: string | undefined;
  /** Stale marks of in-sync copies without a routing entry under way, by allocation id (one request each). */
  readonly staleMarks = new Map<string, Promise<void>>();
  /** A promotion to primary under way (replication/primary-promotion.ts), until the copy is in primary mode. */
  promotion: Promise<void> | undefined;
  /** The primary-replica resync a promotion started (settles when every copy was resynced or failed). */
  resync: Promise<unknown> | undefined;
  /** A global checkpoint sync waiting to run (replication/global-checkpoint-sync.ts). */
  globalCheckpointSyncTimer: NodeJS.Timeout | undefined;
  /** When that sync runs at the latest, however many writes keep postponing it. */
  globalCheckpointSyncDeadline: number | undefined;
  private routingPrimary: boolean;
  private persistedLeasesVersion: number;
  private persistedMembershipVersion: number;
  private leasesPersistedAt = Date.now();
  private dirty = false;
  private lastWriteMillis = Date.now();
  private readonly timer = new FixedDelayTask(() => {
    this.runPeriodic();
    return this.periodicWork;
  });
  private periodicWork: Promise<void> = Promise.resolve();
  private readonly searchIdle = new SearchIdleState();
  /** `refresh=wait_for` requests waiting on this copy: a scheduled refresh runs for them even when search-idle. */
  private refreshWaiters = 0;
  /** The refresh a search that found a refresh pending started; later searches wait for the same one. */
  private searchActiveRefresh: Promise<void> | undefined;

  constructor(
    readonly indexName: string,
    readonly indexUuid: string,
    readonly shardId: number,
    primary: boolean,
    primaryTerm: number,
    readonly path: string,
    private readonly engine: Engine,
    private schedule: ShardSchedule,
    private readonly logger: Logger,
    readonly allocationId: string = `${indexUuid}/${shardId}`,
    leases: RetentionLeases = new RetentionLeases(),
    activatePrimaryMode = primary,
  ) {
    this.routingPrimary = primary;
    this.operationPrimaryTerm = primaryTerm;
    this.leases = leases;
    this.persistedLeasesVersion = leases.version;
    this.persistedMembershipVersion = leases.membershipVersion;
    this.tracker = new ReplicationTracker(allocationId, engine.globalCheckpoint);
    // A primary opened from its store (or empty) runs in primary mode at once; a replica, or a relocation target
    // until its handoff, stays in replica mode.
    if (activatePrimaryMode) this.tracker.activatePrimaryMode(engine.persistedLocalCheckpoint);
    this.syncGlobalCheckpointToEngine();
    this.startTimer();
  }

  /** Whether the routing table names this copy the primary. */
  get primary(): boolean {
    return this.routingPrimary;
  }

  /** The primary term operations run under (kept for the callers that read the shard's term). */
  get primaryTerm(): number {
    return this.operationPrimaryTerm;
  }

  /** Whether this copy sequences operations (the primary, unless it handed its context to a relocation target). */
  get isPrimaryMode(): boolean {
    return this.tracker.isPrimaryMode && !this.relocated;
  }

  /** The engine's sequence-number figures and history, for replication and recovery. */
  get replicationEngine(): Engine {
    return this.engine;
  }

  /** Copies the tracker's global checkpoint into the engine, where the translog persists it. */
  syncGlobalCheckpointToEngine(): void {
    const globalCheckpoint = this.tracker.knownGlobalCheckpoint;
    if (globalCheckpoint > this.engine.globalCheckpoint) this.engine.updateGlobalCheckpoint(globalCheckpoint);
  }

  /** On the primary: its own persisted local checkpoint moved (after a write's fsync). */
  updateOwnLocalCheckpoint(): void {
    if (!this.tracker.isPrimaryMode) return;
    this.tracker.updateLocalCheckpoint(this.allocationId, this.engine.persistedLocalCheckpoint);
    this.syncGlobalCheckpointToEngine();
  }

  /**
   * What the cluster layer says about this shard's copies: on every applied cluster state, and once when the copy
   * is created (indices-service.ts), so a copy opened between two states knows its group from the start, as ES
   * creates a shard with its routing table. A relocation target that took over primary mode before another state
   * reached it replicated to nobody without it (its writes were on that copy alone). An older state is ignored.
   */
  applyReplicationGroup(group: ReplicationGroupState): void {
    if (this.replicationGroup !== undefined && group.stateVersion < this.replicationGroup.stateVersion) return;
    const own = group.copies.find((copy) => copy.allocationId === this.allocationId);
    if (own !== undefined && !own.relocationTarget) this.setRoutingPrimary(own.primary);
    this.replicationGroup = group;
    this.tracker.updateFromMaster(
      group.stateVersion,
      group.inSyncAllocationIds,
      group.copies.map((copy) => copy.allocationId),
    );
  }

  /** The routing table changed this copy's role (a promoted replica: replication/primary-promotion.ts). */
  setRoutingPrimary(primary: boolean): void {
    this.routingPrimary = primary;
  }

  get label(): string {
    return `[${this.indexName}][${this.shardId}]`;
  }

  updateSchedule(schedule: ShardSchedule): void {
    const changed = schedule.refreshIntervalMillis !== this.schedule.refreshIntervalMillis;
    this.schedule = schedule;
    if (changed) {
      this.startTimer();
      // ES's IndexService runs a scheduled refresh at once when the interval changes (to or from -1 included), so
      // what was written becomes visible without waiting for the new interval.
      this.runPeriodic(true);
    }
  }

  /**
   * The next periodic run comes one interval after the last one *finished* (FixedDelayTask, as ES's refresh task):
   * a refresh that takes longer than the interval under a bulk is followed by a pause, not by the ticks that fired
   * meanwhile, which ran back to back and wrote a small segment each.
   */
  private startTimer(): void {
    const interval = this.schedule.refreshIntervalMillis;
    // A disabled refresh (-1) still flushes a growing translog, checked every second.
    this.timer.start(interval > 0 ? interval : 1000);
  }

  private runPeriodic(forceRefreshCheck = false): void {
    if (this.state === 'closed') return;
    this.periodicWork = this.periodicWork.then(async () => {
      try {
        if (this.schedule.refreshIntervalMillis > 0 || forceRefreshCheck) await this.scheduledRefresh();
        this.maintainLeases();
        const translog = this.engine.stats().translog;
        // ES flushes when the translog passes its threshold, and when a shard went idle (indices.memory.
        // shard_inactive_time, 5 minutes) with uncommitted operations, so restarts replay little.
        const idle = Date.now() - this.lastWriteMillis > INACTIVE_FLUSH_MILLIS && translog.uncommittedOperations > 0;
        if (translog.uncommittedSizeInBytes > this.schedule.flushThresholdBytes || idle) await this.engine.flush();
      } catch (err) {
        if (this.state !== 'closed') this.logger.warn({ err, shard: this.label }, 'periodic refresh/flush failed');
      }
    });
  }

  /** ES's isReadAllowed: a copy serves reads (and refreshes on schedule) from its recovery's finalize on. */
  get isReadAllowed(): boolean {
    return this.state === 'started' || this.state === 'post_recovery';
  }

  /**
   * ES's IndexShard.scheduledRefresh: refreshes when something was written or a `refresh=wait_for` waits, except on
   * a copy that does not serve reads yet (a peer recovery's target before its finalize, which refreshes once for
   * all it recovered: a segment written on schedule in the middle of the history is work the finalize then waits
   * behind), and except on a search-idle copy of an index without an explicit `index.refresh_interval` that is
   * still being written (ES's `active`: a write within `indices.memory.shard_inactive_time`), where the refresh is
   * skipped and left pending for the next search. A copy that stopped being written is refreshed, so it does not
   * hold its old segments.
   */
  private async scheduledRefresh(): Promise<void> {
    if (!this.isReadAllowed) return;
    const listenerNeedsRefresh = this.refreshWaiters > 0;
    if (!listenerNeedsRefresh && !this.dirty) return;
    const active = Date.now() - this.lastWriteMillis <= INACTIVE_FLUSH_MILLIS;
    if (!listenerNeedsRefresh && active && !this.schedule.explicitRefreshInterval && this.isSearchIdle) {
      this.searchIdle.setRefreshPending();
      return;
    }
    await this.refreshEngine('schedule');
  }

  /** Every refresh of the copy goes through here: it clears `dirty` and the search-idle pending mark. */
  private async refreshEngine(source: string): Promise<void> {
    this.dirty = false;
    const skipsBefore = this.searchIdle.beforeRefresh();
    await this.engine.refresh(source);
    this.searchIdle.refreshed(skipsBefore);
  }

  /** ES's isSearchIdle: no searcher acquired on this copy for `index.search.idle.after`. */
  get isSearchIdle(): boolean {
    return this.searchIdle.isSearchIdle(this.schedule.searchIdleAfterMillis);
  }

  /** Whether a scheduled refresh was skipped since the last refresh (a can_match then answers "can match"). */
  get hasRefreshPending(): boolean {
    return this.searchIdle.hasRefreshPending;
  }

  /**
   * ES's ensureShardSearchActive: the copy is searched now (no longer idle), and when a scheduled refresh was
   * skipped, a refresh runs before this resolves (one for all the searches that arrive meanwhile), so the caller's
   * searcher sees every write acknowledged before the call. Resolves true when it waited for that refresh.
   */
  async ensureSearchActive(): Promise<boolean> {
    this.ensureOpen();
    this.searchIdle.markSearcherAccessed();
    const mark = this.searchIdle.pendingMark();
    if (this.searchIdle.isVisible(mark)) return false;
    // A refresh already under way may have started before the last skip: then one more runs after it.
    while (!this.searchIdle.isVisible(mark)) {
      this.searchActiveRefresh ??= this.refreshEngine('ensure-shard-search-active').finally(() => (this.searchActiveRefresh = undefined));
      await this.searchActiveRefresh;
    }
    return true;
  }

  /**
   * Expires old retention leases, keeps the translog from the lowest seqNo a lease retains, and persists the
   * leases, so a restarted primary still retains its copies' history: an added, removed or reset lease at once, a
   * renewal at most every LEASE_RENEWAL_PERSIST_MILLIS (retention-leases.ts says why that is safe). A replica keeps its
   * operations above the global checkpoint: promoted, it resyncs exactly those to the other copies.
   */
  maintainLeases(): void {
    if (this.isPrimaryMode) this.leases.expire(Date.now(), this.schedule.retentionLeasePeriodMillis);
    this.engine.retainHistoryFrom(this.isPrimaryMode ? this.leases.minRetainingSeqNo() : Math.max(0, this.tracker.knownGlobalCheckpoint + 1));
    if (this.leases.version === this.persistedLeasesVersion) return;
    // A renewal (a lease moving up) waits for the next renewal write; anything else is written now.
    const now = Date.now();
    if (this.leases.membershipVersion === this.persistedMembershipVersion && now - this.leasesPersistedAt < LEASE_RENEWAL_PERSIST_MILLIS) return;
    this.persistedLeasesVersion = this.leases.version;
    this.persistedMembershipVersion = this.leases.membershipVersion;
    this.leasesPersistedAt = now;
    try {
      writeLeasesFile(this.path, this.leases.list());
    } catch (err) {
      this.logger.warn({ err, shard: this.label }, 'failed to persist retention leases');
    }
  }

  private ensureOpen(): void {
    if (this.state === 'closed') throw new EsError('already_closed_exception', `${this.label} shard is closed`);
  }

  async index(operation: Omit<IndexOperation, 'origin' | 'primaryTerm'>): Promise<WriteResult> {
    this.ensureOpen();
    try {
      const result = await this.engine.index({ ...operation, origin: 'primary', primaryTerm: this.primaryTerm });
      this.afterWrite();
      return result;
    } catch (err) {
      if (err instanceof EsError && err.type === 'version_conflict_engine_exception') this.indexFailedDueToVersionConflict++;
      throw err;
    }
  }

  /**
   * Primary index operations of one bulk shard request, in order, sharing one translog sync (Engine.indexBatch).
   * The caller builds them as this shard's primary operations (origin `primary`, this shard's primary term), so
   * they go to the engine as they are, without a copy per operation; one built otherwise is corrected here.
   * The array is consumed (its entries are cleared), so the parsed documents die young. See Engine.indexBatch
   * for `defer`.
   */
  indexBatch(operations: Array<IndexOperation | undefined>, durability: BatchDurability = 'wait'): Promise<Array<WriteResult | EsError>> {
    try {
      this.ensureOpen();
    } catch (err) {
      return Promise.reject(err);
    }
    const primaryTerm = this.primaryTerm;
    for (let i = 0; i < operations.length; i++) {
      const operation = operations[i]!;
      if (operation.origin !== 'primary' || operation.primaryTerm !== primaryTerm) operations[i] = { ...operation, origin: 'primary', primaryTerm };
    }
    return this.engine.indexBatch(operations, durability).then((results) => {
      for (const result of results) {
        if (result instanceof EsError && result.type === 'version_conflict_engine_exception') this.indexFailedDueToVersionConflict++;
      }
      this.afterWrite();
      return results;
    });
  }

  async delete(operation: Omit<DeleteOperation, 'origin' | 'primaryTerm'>): Promise<WriteResult> {
    this.ensureOpen();
    const result = await this.engine.delete({ ...operation, origin: 'primary', primaryTerm: this.primaryTerm });
    this.afterWrite();
    return result;
  }

  /**
   * Operations a primary sequenced, applied on this copy (replication or recovery; see Engine.applyReplicated).
   * Resolves once they are durable here.
   */
  async applyReplicated(
    operations: Array<ReplicatedEngineOperation | undefined>,
    origin: 'replica' | 'peer_recovery',
    maxSeqNoOfUpdatesOrDeletes?: number,
  ): Promise<Array<WriteResult | EsError>> {
    this.ensureOpen();
    const results = await this.engine.applyReplicated(operations, origin, maxSeqNoOfUpdatesOrDeletes);
    this.afterWrite();
    return results;
  }

  private afterWrite(): void {
    this.dirty = true;
    this.lastWriteMillis = Date.now();
    this.updateOwnLocalCheckpoint();
  }

  async get(id: string, realtime: boolean, storedFields?: readonly string[]): Promise<GetResult> {
    this.ensureOpen();
    const started = performance.now();
    this.getStats.current++;
    try {
      const result = await this.engine.get(id, { realtime, ...(storedFields !== undefined && { storedFields }) });
      this.getStats.record(result.found, Math.round(performance.now() - started));
      return result;
    } finally {
      this.getStats.current--;
    }
  }

  /** Reads without counting, for update's read-modify-write (ES counts those gets too, but as part of the update). */
  async getForUpdate(id: string): Promise<GetResult> {
    this.ensureOpen();
    return this.engine.get(id, { realtime: true });
  }

  async refresh(source: string): Promise<void> {
    this.ensureOpen();
    await this.refreshEngine(source);
  }

  /**
   * `refresh=wait_for`: resolves once a refresh made `seqNo` visible; the scheduled refresh runs for it even when
   * idle. A copy that does not serve reads yet answers at once, as ES's addRefreshListener ignores refresh cycles
   * before POST_RECOVERY: nothing searches it, and the refresh of its recovery's finalize, which runs once it is
   * `post_recovery`, writes every operation applied before (recovery-target.ts).
   */
  async waitForRefresh(seqNo: number): Promise<void> {
    this.ensureOpen();
    if (!this.isReadAllowed) return;
    this.refreshWaiters++;
    try {
      await this.engine.waitForRefresh(seqNo);
    } finally {
      this.refreshWaiters--;
    }
  }

  async flush(force: boolean): Promise<void> {
    this.ensureOpen();
    await this.engine.flush({ force });
  }

  async forceMerge(options: { maxNumSegments?: number; onlyExpungeDeletes?: boolean; flush?: boolean }): Promise<void> {
    this.ensureOpen();
    await this.engine.forceMerge(options);
  }

  /** A searcher over the last refresh; acquiring one marks the copy searched (ES's markSearcherAccessed). */
  acquireSearcher(): Searcher {
    this.ensureOpen();
    this.searchIdle.markSearcherAccessed();
    return this.engine.acquireSearcher();
  }

  /** `POST /_cache/clear`: the engine's per-segment read caches. */
  clearCaches(): void {
    this.ensureOpen();
    this.engine.clearCaches();
  }

  /** The primary's leases as they are now; a replica's as its primary last synced them (ES keeps a copy on each). */
  retentionLeasesView(): RetentionLeasesView {
    if (this.isPrimaryMode) return { primaryTerm: this.operationPrimaryTerm, version: this.leases.version, leases: this.leases.list() };
    return this.syncedLeases ?? { primaryTerm: this.operationPrimaryTerm, version: 0, leases: [] };
  }

  /** Bytes of the files this copy holds (segments, kept commits, files open searchers hold). */
  storeSizeInBytes(): number {
    return this.engine.stats().store.sizeInBytes;
  }

  stats(): ShardStatsSnapshot {
    this.syncGlobalCheckpointToEngine();
    return {
      index: this.indexName,
      indexUuid: this.indexUuid,
      shard: this.shardId,
      primary: this.primary,
      path: this.path,
      engine: this.engine.stats(),
      get: this.getStats,
      search: this.searchStats,
      bulk: this.bulkStats,
      indexFailedDueToVersionConflict: this.indexFailedDueToVersionConflict,
      noopUpdates: this.noopUpdates,
      retentionLeases: this.retentionLeasesView(),
      searchIdle: this.isSearchIdle,
      searchIdleTimeMillis: this.searchIdle.idleMillis(),
    };
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    const closed = new EsError('already_closed_exception', `${this.label} shard is closed`);
    this.tracker.close(closed);
    this.permits.close(closed);
    this.timer.close();
    await this.periodicWork.catch(() => undefined);
    await this.engine.close();
  }
}
