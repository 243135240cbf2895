/**
 * Checkpoints of every copy of one shard, as the primary sees them (ES's ReplicationTracker).
 *
 * - The master decides which copies are in sync (the in-sync allocation ids of the cluster state); the primary
 *   learns it through `updateFromMaster`, applied in cluster-state order (an older state is ignored, or it could
 *   drop an in-sync copy and let the global checkpoint pass it).
 * - A copy that is recovering is *tracked* once its recovery starts (`initiateTracking`): from then on it is sent
 *   every new operation, but it does not hold back the global checkpoint.
 * - Recovery finalises by `markInSync`: it waits until the copy's local checkpoint reaches the global checkpoint,
 *   then counts the copy in sync here, before the master hears of it (so the checkpoint never passes it).
 * - The global checkpoint is the lowest local checkpoint over the in-sync copies; while any of them has not
 *   reported yet it stays where it is. It never goes back.
 *
 * On a replica the tracker only holds the global checkpoint its primary sent. Checkpoints here are *persisted*
 * local checkpoints (fsynced operations), so the global checkpoint is history every in-sync copy has on disk.
 */
export const UNASSIGNED_SEQ_NO = -2;
export const NO_OPS_PERFORMED = -1;

export interface CopyCheckpoint {
  localCheckpoint: number;
  /** The global checkpoint this copy last reported knowing. */
  globalCheckpoint: number;
  inSync: boolean;
  tracked: boolean;
}

interface InSyncWaiter {
  readonly allocationId: string;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

export class ReplicationTracker {
  private primaryMode = false;
  private readonly checkpoints = new Map<string, CopyCheckpoint>();
  private globalCheckpoint: number;
  private appliedStateVersion = -1;
  private waiters: InSyncWaiter[] = [];
  private closedWith: Error | undefined;

  constructor(
    readonly allocationId: string,
    globalCheckpoint: number = UNASSIGNED_SEQ_NO,
  ) {
    this.globalCheckpoint = globalCheckpoint;
  }

  get isPrimaryMode(): boolean {
    return this.primaryMode;
  }

  get knownGlobalCheckpoint(): number {
    return this.globalCheckpoint;
  }

  /** This copy becomes the primary (a primary recovered from its store, or a relocation target's handoff). */
  activatePrimaryMode(localCheckpoint: number): void {
    this.primaryMode = true;
    const own = this.entry(this.allocationId);
    own.inSync = true;
    own.tracked = true;
    own.localCheckpoint = Math.max(own.localCheckpoint, localCheckpoint);
    this.recompute();
  }

  /**
   * A relocated primary hands its context over: checkpoints of every copy and the global checkpoint. The target
   * starts primary mode from it (ES's PrimaryContext).
   */
  primaryContext(): { readonly globalCheckpoint: number; readonly checkpoints: Array<[string, CopyCheckpoint]>; readonly appliedStateVersion: number } {
    return { globalCheckpoint: this.globalCheckpoint, checkpoints: [...this.checkpoints].map(([id, cp]) => [id, { ...cp }]), appliedStateVersion: this.appliedStateVersion };
  }

  activateWithPrimaryContext(context: ReturnType<ReplicationTracker['primaryContext']>, localCheckpoint: number): void {
    for (const [id, checkpoint] of context.checkpoints) {
      const existing = this.checkpoints.get(id);
      this.checkpoints.set(id, existing === undefined ? { ...checkpoint } : { ...checkpoint, localCheckpoint: Math.max(existing.localCheckpoint, checkpoint.localCheckpoint) });
    }
    this.appliedStateVersion = Math.max(this.appliedStateVersion, context.appliedStateVersion);
    this.globalCheckpoint = Math.max(this.globalCheckpoint, context.globalCheckpoint);
    this.activatePrimaryMode(localCheckpoint);
  }

  /** Back to replica mode (a relocated primary after its handoff). */
  deactivatePrimaryMode(): void {
    this.primaryMode = false;
    this.failWaiters(new Error('primary mode ended'));
  }

  /**
   * The master's view for cluster-state version `version`: the in-sync ids, and every copy with a routing entry
   * (started, initializing or a relocation target). Ids neither in sync nor routed are forgotten; a copy marked
   * in sync here that the master does not list yet stays in sync while it has a routing entry.
   */
  updateFromMaster(version: number, inSyncIds: readonly string[], routedIds: readonly string[]): void {
    if (version <= this.appliedStateVersion) return;
    this.appliedStateVersion = version;
    const inSync = new Set(inSyncIds);
    const routed = new Set(routedIds);
    for (const id of inSync) {
      const entry = this.entry(id);
      entry.inSync = true;
      entry.tracked = true;
    }
    for (const id of routed) this.entry(id);
    for (const id of [...this.checkpoints.keys()]) {
      if (id !== this.allocationId && !inSync.has(id) && !routed.has(id)) this.checkpoints.delete(id);
    }
    this.recompute();
    this.settleWaiters();
  }

  /** A recovering copy starts receiving live operations (it must have a routing entry already). */
  initiateTracking(allocationId: string): void {
    const entry = this.checkpoints.get(allocationId);
    if (entry === undefined) throw new Error(`allocation [${allocationId}] is not in the replication group`);
    entry.tracked = true;
  }

  isTracked(allocationId: string): boolean {
    return this.checkpoints.get(allocationId)?.tracked === true;
  }

  /**
   * Counts a recovered copy in sync once its local checkpoint reaches the global checkpoint; resolves then.
   * ES blocks the same way (markAllocationIdAsInSync), so the global checkpoint cannot pass a copy that lags.
   */
  markInSync(allocationId: string, localCheckpoint: number): Promise<void> {
    const entry = this.checkpoints.get(allocationId);
    if (entry === undefined) return Promise.reject(new Error(`allocation [${allocationId}] is not in the replication group`));
    if (this.closedWith !== undefined) return Promise.reject(this.closedWith);
    entry.tracked = true;
    entry.localCheckpoint = Math.max(entry.localCheckpoint, localCheckpoint);
    if (entry.localCheckpoint >= this.globalCheckpoint) {
      entry.inSync = true;
      this.recompute();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.waiters.push({ allocationId, resolve, reject }));
  }

  /** A copy reported its (persisted) local checkpoint. */
  updateLocalCheckpoint(allocationId: string, localCheckpoint: number): void {
    const entry = this.checkpoints.get(allocationId);
    if (entry === undefined || localCheckpoint <= entry.localCheckpoint) return;
    entry.localCheckpoint = localCheckpoint;
    this.settleWaiters();
    this.recompute();
  }

  /** A copy reported the global checkpoint it knows (decides whether it needs a sync). */
  updateGlobalCheckpointForShard(allocationId: string, globalCheckpoint: number): void {
    const entry = this.checkpoints.get(allocationId);
    if (entry !== undefined) entry.globalCheckpoint = Math.max(entry.globalCheckpoint, globalCheckpoint);
  }

  /** On a replica: the global checkpoint the primary sent (never backwards). */
  updateGlobalCheckpointOnReplica(globalCheckpoint: number): void {
    if (globalCheckpoint > this.globalCheckpoint) this.globalCheckpoint = globalCheckpoint;
  }

  /** The copies operations go to: tracked ones other than this one. */
  replicationTargets(): string[] {
    const out: string[] = [];
    for (const [id, entry] of this.checkpoints) if (id !== this.allocationId && entry.tracked) out.push(id);
    return out;
  }

  /** In-sync ids the primary holds, this one included. */
  inSyncAllocationIds(): string[] {
    const out: string[] = [];
    for (const [id, entry] of this.checkpoints) if (entry.inSync) out.push(id);
    return out;
  }

  /** Tracked copies whose known global checkpoint is behind the primary's (they need a sync). */
  copiesBehindGlobalCheckpoint(): string[] {
    const out: string[] = [];
    for (const [id, entry] of this.checkpoints) if (id !== this.allocationId && entry.tracked && entry.globalCheckpoint < this.globalCheckpoint) out.push(id);
    return out;
  }

  checkpoint(allocationId: string): Readonly<CopyCheckpoint> | undefined {
    return this.checkpoints.get(allocationId);
  }

  /** Fails the pending in-sync waits (the shard closes or stops being primary). */
  close(reason: Error): void {
    this.closedWith = reason;
    this.failWaiters(reason);
  }

  private entry(id: string): CopyCheckpoint {
    let entry = this.checkpoints.get(id);
    if (entry === undefined) {
      entry = { localCheckpoint: UNASSIGNED_SEQ_NO, globalCheckpoint: UNASSIGNED_SEQ_NO, inSync: false, tracked: false };
      this.checkpoints.set(id, entry);
    }
    return entry;
  }

  private recompute(): void {
    if (!this.primaryMode) return;
    let lowest = Infinity;
    for (const entry of this.checkpoints.values()) {
      if (!entry.inSync) continue;
      // A copy that has not reported yet holds the checkpoint where it is.
      if (entry.localCheckpoint === UNASSIGNED_SEQ_NO) return;
      lowest = Math.min(lowest, entry.localCheckpoint);
    }
    if (lowest !== Infinity && lowest > this.globalCheckpoint) this.globalCheckpoint = lowest;
    const own = this.checkpoints.get(this.allocationId);
    if (own !== undefined) own.globalCheckpoint = this.globalCheckpoint;
  }

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    const still: InSyncWaiter[] = [];
    for (const waiter of this.waiters) {
      const entry = this.checkpoints.get(waiter.allocationId);
      if (entry === undefined) waiter.reject(new Error(`allocation [${waiter.allocationId}] left the replication group while it was being marked in sync`));
      else if (entry.localCheckpoint >= this.globalCheckpoint) {
        entry.inSync = true;
        waiter.resolve();
      } else still.push(waiter);
    }
    this.waiters = still;
    this.recompute();
  }

  private failWaiters(reason: Error): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(reason);
  }
}
