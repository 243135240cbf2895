/**
 * Coordination on etcd (docs/decisions/0006-coordination-on-etcd.md):
 *
 * - the node registers `nodes/<id>` on its lease (its liveness) and, if master-eligible, campaigns with a key
 *   on the same lease under `election/`; the first-created campaign key wins and its create revision is the
 *   master **term**;
 * - every node follows the published state through EtcdStateStore and applies it in order, refusing a state
 *   of a lower term than one it has seen;
 * - the master runs updates in batches and writes each batch as one fenced transaction: it commits only if the
 *   master's campaign key still has the create revision that is its term and the state header was not written
 *   since the state the batch was computed on. A failed compare means another master took over: this node
 *   steps down and its callers get not_master_exception (they retry with the next master);
 * - a node that knows no master (no campaign key, its watch or lease lost) puts ES's no-master block on its
 *   local view of the state: writes are refused, reads use the last state;
 * - stopping is final: from `prepareToStop` on the node is no candidate (its campaign key is deleted, so a master
 *   resigns and the next candidate takes over), a campaign that wins meanwhile resigns instead of taking over, and
 *   `stop` cancels every etcd watch before the client closes (etcd-watches.ts), whatever opened it and whenever.
 */
import { createEtcdClient, type EtcdClient, type Lease, type Namespace, type Watcher } from './etcd-client.js';
import { errors, toEsError } from '../../../common/errors.js';
import { randomBase64Uuid } from '../../../common/uuid.js';
import type { ClusterService } from '../../cluster-service.js';
import { hasNoMasterBlock, NO_MASTER_BLOCK, type ClusterState } from '../../cluster-state.js';
import { isMasterEligible, type DiscoveryNode } from '../../discovery-node.js';
import type { Coordinator } from '../coordinator.js';
import { campaignKey, clusterPrefix, ELECTION_PREFIX, NODES_PREFIX, nodeKey, indexKey, STATE_HEADER_KEY } from './etcd-keys.js';
import { EtcdStateStore, type StoredState } from './etcd-state-store.js';
import { EtcdWatches } from './etcd-watches.js';
import { encodeHeader, encodeIndices } from './state-codec.js';

/** A step of stopping this slow is named in a warning (each normally takes milliseconds; etcd's own waits 5 s). */
const STOP_STEP_WARN_MILLIS = 7_000;

export interface EtcdCoordinatorOptions {
  readonly endpoints: readonly string[];
  /** Lease TTL in seconds: how long a silent node stays a member (and a silent master stays master). */
  readonly leaseTtlSeconds: number;
  /** How long `start()` waits for a master before it resolves with the no-master block in place. */
  readonly joinTimeoutMillis: number;
  /**
   * The master's allocation round, run on every batch it publishes: `next` is the batch's result, `previous`
   * the state it started from (cluster/routing decides where copies go; departed nodes are told by the diff).
   */
  readonly reroute: (previous: ClusterState, next: ClusterState, now: number) => ClusterState;
  readonly log: (level: 'info' | 'warn' | 'debug', message: string, err?: unknown, fields?: Readonly<Record<string, unknown>>) => void;
}

interface PendingUpdate {
  readonly source: string;
  readonly update: (state: ClusterState) => ClusterState;
  readonly resolve: (state: ClusterState) => void;
  readonly reject: (err: unknown) => void;
}

interface Mastership {
  readonly term: number;
  readonly key: string;
  /** The last state this master wrote (or read when it took over), with its revision and index values. */
  base: StoredState;
}

export class EtcdCoordinator implements Coordinator {
  readonly kind = 'etcd';
  private client: EtcdClient | undefined;
  private namespace: Namespace | undefined;
  private lease: Lease | undefined;
  private leaseId = '';
  private store: EtcdStateStore | undefined;
  private electionWatcher: Watcher | undefined;
  private nodesWatcher: Watcher | undefined;
  /** Every watch this node opened; `stop` cancels them all before the client closes. */
  private readonly watches = new EtcdWatches();
  private stopped = false;
  /** Shutting down (prepareToStop): no candidacy any more, and a lost lease is not replaced. */
  private leaving = false;
  private highestTerm = 0;
  private mastership: Mastership | undefined;
  private campaigning: Promise<void> | undefined;
  /** The campaign key's deletion under way (prepareToStop). */
  private withdrawal: Promise<void> | undefined;
  private readonly pending: PendingUpdate[] = [];
  private draining = false;
  /** The last state published by a master and applied here (the local view may add the no-master block). */
  private published: StoredState | undefined;
  private watchConnected = true;
  /** Why this node applies the no-master block now (undefined: it knows a master); logged when it changes. */
  private noMasterReason: string | undefined = 'not started';
  private knewMaster = false;
  private leaseValid = false;
  private electionLeader: { nodeId: string; term: number } | undefined;
  private readonly registrations = new Map<string, DiscoveryNode>();

  constructor(
    private readonly clusterService: ClusterService,
    private readonly localNode: DiscoveryNode,
    private readonly options: EtcdCoordinatorOptions,
  ) {}

  isMaster(): boolean {
    return this.mastership !== undefined;
  }

  term(): number {
    return this.highestTerm;
  }

  /** The revision of the state this node applied last (tests and stats). */
  get appliedRevision(): number {
    return this.published?.revision ?? 0;
  }

  get resyncCount(): number {
    return this.store?.resyncs ?? 0;
  }

  /** Test hooks: lose the state watch for a while (as a network blip or a slow node does), then follow again. */
  pauseStateWatchForTest(): Promise<void> {
    return this.store!.pauseWatch();
  }

  resumeStateWatchForTest(): Promise<void> {
    return this.store!.resumeWatch();
  }

  async start(): Promise<void> {
    const clusterName = this.clusterService.state().clusterName;
    this.client = await createEtcdClient({ endpoints: this.options.endpoints });
    this.namespace = this.client.namespace(clusterPrefix(clusterName));
    this.applyLocalView();
    this.store = new EtcdStateStore(this.namespace, {
      onState: (stored) => this.onStoredState(stored),
      onConnection: (connected) => {
        this.watchConnected = connected;
        if (connected) void this.refreshElectionLeader();
        this.applyLocalView();
      },
    }, (message, err) => this.options.log('warn', message, err), this.watches);
    await this.register();
    await this.store.start();
    await this.watchElection();
    if (isMasterEligible(this.localNode)) this.campaigning = this.campaignLoop();
    // A stop during the start fails this wait (node closed): the start ends as it did when its join wait timed out.
    await this.clusterService.waitFor((state) => state.masterNodeId !== undefined && !hasNoMasterBlock(state), this.options.joinTimeoutMillis).catch(() => undefined);
  }

  /**
   * The node begins to shut down: it withdraws its candidacy now (a master resigns: the next candidate takes over
   * while this node still answers), and never campaigns or registers again. A node that became master during its
   * own shutdown ran master services nothing stopped any more, and opened a watch that outlived its stop.
   */
  prepareToStop(): void {
    if (this.leaving) return;
    this.leaving = true;
    this.withdrawal = this.withdrawCandidacy('node stopping');
  }

  async stop(): Promise<void> {
    this.prepareToStop();
    this.stopped = true;
    this.stepDown('node stopping');
    await this.stopStep('campaign key withdrawal', this.withdrawal);
    // Every watch (election, nodes, state, a campaign's wait, those still being opened) before the client closes:
    // a watch left open holds its stream, and the process, for ever (etcd-watches.ts).
    await this.stopStep('watches', this.watches.closeAll());
    await this.stopStep('state watch', this.store?.stop());
    // Revoking the lease deletes the registration and the campaign key at once: the others see this node leave now.
    await this.stopStep('lease revoke', this.lease?.revoke().catch(() => undefined));
    this.client?.close();
    await this.stopStep('campaign', this.campaigning?.catch(() => undefined));
  }

  /** One step of `stop`, named in a warning when it takes long (a stop that never ended named no step). */
  private async stopStep(name: string, step: Promise<unknown> | undefined): Promise<void> {
    this.options.log('debug', `stopping: [${name}] ...`);
    const slow = setTimeout(() => this.options.log('warn', `stopping: still waiting for [${name}] after [${STOP_STEP_WARN_MILLIS}ms]`), STOP_STEP_WARN_MILLIS);
    slow.unref();
    try {
      await step;
    } finally {
      clearTimeout(slow);
    }
  }

  /** Stopping or shutting down: no campaign, no takeover, no new watch of the nodes. */
  private get standingDown(): boolean {
    return this.stopped || this.leaving;
  }

  /** Deletes this node's campaign key (a master's means resigning: its fenced writes fail from then on). */
  private async withdrawCandidacy(reason: string): Promise<void> {
    this.stepDown(reason);
    if (this.namespace === undefined || this.leaseId === '' || !isMasterEligible(this.localNode)) return;
    await this.namespace
      .delete()
      .key(campaignKey(this.leaseId))
      .then(
        () => undefined,
        (err: unknown) => this.options.log('debug', 'withdrawing the campaign key failed (the lease revoke at stop deletes it)', err),
      );
  }

  submitStateUpdate(source: string, update: (state: ClusterState) => ClusterState): Promise<ClusterState> {
    return new Promise((resolve, reject) => {
      if (this.mastership === undefined) {
        reject(errors.notMaster(`node [${this.localNode.name}] is not the elected master`));
        return;
      }
      this.pending.push({ source, update, resolve, reject });
      this.clusterService.pendingTaskCount++;
      void this.drain();
    });
  }

  // ---- membership -------------------------------------------------------------------------------------------

  private async register(): Promise<void> {
    const lease = this.client!.lease(this.options.leaseTtlSeconds);
    this.lease = lease;
    this.leaseId = await lease.grant();
    this.leaseValid = true;
    let renewedAt = performance.now();
    lease.on('keepaliveSucceeded', () => {
      renewedAt = this.warnOfLateRenewal(renewedAt);
    });
    lease.on('lost', (err) => {
      if (this.lease !== lease || this.stopped) return;
      this.leaseValid = false;
      if (this.leaving) {
        this.options.log('info', 'lost the etcd lease while stopping; not registering again');
        this.stepDown('lease lost while stopping');
        this.applyLocalView();
        return;
      }
      this.options.log('warn', `lost the etcd lease (last renewed [${Math.round(performance.now() - renewedAt)}ms] ago, ttl [${this.options.leaseTtlSeconds}s]); stepping down and registering again`, err);
      this.stepDown('lease lost');
      this.applyLocalView();
      void this.reRegister();
    });
    await this.namespace!.put(nodeKey(this.localNode.id)).value(JSON.stringify(this.localNode)).lease(this.leaseId);
  }

  /**
   * A renewal is asked every third of the TTL; one that comes after two thirds of it means the lease nearly expired
   * (etcd expires it a TTL after the last renewal it received, and the others then see this node leave). Said at warn,
   * so that a node that did leave explains it: its event loop was held (an `event_loop_stall` line says so) or etcd
   * was slow to answer. Returns the time of this renewal.
   */
  private warnOfLateRenewal(previousRenewal: number): number {
    const now = performance.now();
    const sincePrevious = Math.round(now - previousRenewal);
    const ttlMillis = this.options.leaseTtlSeconds * 1000;
    if (sincePrevious > (ttlMillis * 2) / 3) {
      this.options.log('warn', `the etcd lease was renewed [${sincePrevious}ms] after the previous renewal, close to its ttl [${this.options.leaseTtlSeconds}s]: this node nearly left the cluster`, undefined, {
        event: 'lease_renewal_late',
        since_previous_millis: sincePrevious,
        lease_ttl_millis: ttlMillis,
      });
    }
    return now;
  }

  private async reRegister(): Promise<void> {
    for (let attempt = 0; !this.stopped && !this.leaving; attempt++) {
      try {
        this.lease?.release();
        await this.register();
        this.applyLocalView();
        if (isMasterEligible(this.localNode)) this.campaigning = this.campaignLoop();
        return;
      } catch (err) {
        this.options.log('warn', 'registering with etcd failed; retrying', err);
        await sleep(Math.min(2000, 100 * 2 ** attempt));
      }
    }
  }

  /**
   * Failure detection's fast path (docs/decisions/0011): revoking a gone node's lease deletes its registration
   * and, were it a candidate or the master, its campaign key, in one step, as the lease's expiry would later.
   * Every node follows through its watches (the master publishes the node's departure; candidates see the
   * election move on). Only the lease of the same incarnation is revoked.
   */
  async removeGoneNode(node: DiscoveryNode): Promise<void> {
    if (this.namespace === undefined || this.stopped || node.id === this.localNode.id) return;
    const response = await this.namespace.get(nodeKey(node.id)).exec();
    const kv = response.kvs[0];
    if (kv === undefined || kv.lease === '0' || kv.lease === '') return;
    let registered: DiscoveryNode;
    try {
      registered = JSON.parse(kv.value.toString()) as DiscoveryNode;
    } catch {
      return;
    }
    if (registered.ephemeralId !== node.ephemeralId) return;
    this.options.log('info', `revoking the etcd lease of gone node [${node.name}][${node.id}]`);
    await this.namespace.leaseClient.leaseRevoke({ ID: kv.lease }).catch((err: unknown) => this.options.log('debug', `revoking the lease of [${node.name}] failed`, err));
  }

  // ---- election ---------------------------------------------------------------------------------------------

  private async watchElection(): Promise<void> {
    this.electionWatcher = await this.watches.watch(this.namespace!.watch().prefix(ELECTION_PREFIX));
    this.electionWatcher.on('data', () => void this.refreshElectionLeader());
    this.electionWatcher.on('connected', () => void this.refreshElectionLeader());
    await this.refreshElectionLeader();
  }

  private async refreshElectionLeader(): Promise<void> {
    try {
      const response = await this.namespace!.getAll().prefix(ELECTION_PREFIX).sort('Create', 'Ascend').limit(1).exec();
      const first = response.kvs[0];
      this.electionLeader = first === undefined ? undefined : { nodeId: first.value.toString(), term: Number(first.create_revision) };
      if (this.electionLeader !== undefined) this.highestTerm = Math.max(this.highestTerm, this.electionLeader.term);
    } catch (err) {
      this.options.log('debug', 'reading the election failed', err);
    }
    this.applyLocalView();
  }

  /**
   * Campaigns until elected (or stopping, or the lease is lost), then takes over as master. A node that begins to
   * stop while it campaigns withdraws: its key goes (prepareToStop), and a key its campaign wrote meanwhile goes too.
   */
  private async campaignLoop(): Promise<void> {
    const leaseId = this.leaseId;
    const key = campaignKey(leaseId);
    while (!this.standingDown && this.leaseId === leaseId && this.leaseValid) {
      try {
        const result = await this.namespace!.if(key, 'Create', '==', 0)
          .then(this.namespace!.put(key).value(this.localNode.id).lease(leaseId))
          .else(this.namespace!.get(key))
          .commit();
        const term = result.succeeded ? Number(result.header.revision) : Number(result.responses[0]!.response_range!.kvs[0]!.create_revision);
        if (!this.standingDown) await this.waitForOlderCampaigns(term, leaseId);
        if (this.leaseId !== leaseId) return;
        if (this.standingDown) {
          await this.resign(term, key, false);
          return;
        }
        await this.takeOver(term, key);
        return;
      } catch (err) {
        if (this.standingDown) return;
        this.options.log('warn', 'campaign failed; retrying', err);
        await sleep(500);
      }
    }
  }

  /**
   * A master whose state write failed (etcd unreachable: outcome unknown) or was fenced off has stepped down, but its
   * campaign key lives on with its lease: left alone it stays first in the election, every node names it and waits
   * for a state it never publishes, until its lease runs out (never, once etcd is back and its renewals resume: seen
   * as a cluster without a master after a short etcd outage). Like an ES master that fails to publish and becomes a
   * candidate again, it withdraws its key (retrying while etcd is away) and campaigns anew: a new election, a higher
   * term, which it or another candidate wins. A key already gone (its lease expired) changes nothing: the lost lease
   * registers again (reRegister).
   */
  private campaignAgain(): void {
    if (this.standingDown || !this.leaseValid || this.namespace === undefined || !isMasterEligible(this.localNode)) return;
    const leaseId = this.leaseId;
    const previous = this.campaigning;
    const stillCandidate = () => !this.standingDown && this.leaseId === leaseId && this.leaseValid && this.mastership === undefined;
    this.campaigning = (async () => {
      await previous?.catch(() => undefined);
      for (let attempt = 0; stillCandidate(); attempt++) {
        try {
          await this.namespace!.delete().key(campaignKey(leaseId));
          break;
        } catch (err) {
          this.options.log('debug', 'withdrawing the campaign key after a failed state write failed; retrying', err);
          await sleep(Math.min(2000, 100 * 2 ** attempt));
        }
      }
      if (!stillCandidate()) return;
      this.options.log('info', 'campaigning again after stepping down');
      await this.campaignLoop();
    })();
  }

  /** A campaign that ended while this node stops: its key goes, so the next candidate is elected at once. */
  private async resign(term: number, key: string, elected: boolean): Promise<void> {
    if (elected) this.options.log('info', `elected as master, term [${term}], while stopping: resigning`);
    if (this.stopped) return; // stop() revokes the lease, which deletes the key
    await this.namespace!.delete().key(key).then(
      () => undefined,
      (err: unknown) => this.options.log('debug', 'resigning failed (the lease revoke at stop deletes the key)', err),
    );
  }

  /** etcd's waitDeletes: elected once no campaign key created before ours is left. */
  private async waitForOlderCampaigns(term: number, leaseId: string): Promise<void> {
    while (!this.stopped && this.leaseId === leaseId) {
      const older = await this.namespace!.getAll().prefix(ELECTION_PREFIX).maxCreateRevision(String(term - 1)).sort('Create', 'Descend').limit(1).exec();
      const blocker = older.kvs[0];
      if (blocker === undefined) return;
      const watcher = await this.watches.watch(this.namespace!.watch().key(blocker.key.toString()).startRevision(String(Number(older.header.revision) + 1)));
      let recheck: NodeJS.Timeout | undefined;
      try {
        await new Promise<void>((resolve) => {
          watcher.on('delete', () => resolve());
          watcher.on('error', () => resolve());
          // Cancelled: this node stops (EtcdWatches.closeAll).
          watcher.on('end', () => resolve());
          // Re-check now and then: a lease lost meanwhile (or a stop) must end this wait too.
          recheck = setInterval(() => {
            if (this.standingDown || this.leaseId !== leaseId) resolve();
          }, 500);
        });
      } finally {
        // Cleared however the wait ended: an interval left behind kept a stopped node's process alive.
        clearInterval(recheck);
        await this.watches.cancel(watcher);
      }
    }
  }

  /** Elected: read the state as it is in etcd and publish it under the new term, with this node as master. */
  private async takeOver(term: number, key: string): Promise<void> {
    this.highestTerm = Math.max(this.highestTerm, term);
    const base = await this.readBase();
    // Stopping began while the state was read: this node never becomes master (see prepareToStop).
    if (this.standingDown) {
      await this.resign(term, key, true);
      return;
    }
    this.mastership = { term, key, base };
    this.options.log('info', `elected as master, term [${term}]`);
    await this.watchNodes();
    if (this.mastership === undefined) return; // stepped down (or stopping) meanwhile
    try {
      await this.submitStateUpdate('elected-as-master', (state) => {
        const formed = state.clusterUuid === '_na_' ? { ...state, clusterUuid: randomBase64Uuid() } : state;
        return { ...formed, masterNodeId: this.localNode.id, nodes: this.memberNodes(), globalBlocks: [] };
      });
    } catch (err) {
      this.options.log('warn', 'publishing the first state as master failed', err);
    }
  }

  /** The state in etcd right now (linearizable), or an empty one for a new cluster. */
  private async readBase(): Promise<StoredState> {
    const stored = this.published;
    const response = await this.namespace!.get(STATE_HEADER_KEY).exec();
    const revision = Number(response.kvs[0]?.mod_revision ?? 0);
    if (stored !== undefined && stored.revision === revision) return stored;
    // Our view is behind the store: wait for the watch to deliver it (bounded), else fail the takeover loudly.
    const caughtUp = await this.clusterService.waitFor(() => (this.published?.revision ?? 0) >= revision, 10_000);
    if (revision === 0) return { state: { ...this.clusterService.state(), masterNodeId: undefined }, revision: 0, indexValues: new Map() };
    if (caughtUp.timedOut || this.published === undefined) throw new Error(`could not read the cluster state at revision [${revision}]`);
    return this.published;
  }

  private async watchNodes(): Promise<void> {
    const previous = this.nodesWatcher;
    this.nodesWatcher = undefined;
    await this.watches.cancel(previous);
    const response = await this.namespace!.getAll().prefix(NODES_PREFIX).exec();
    this.registrations.clear();
    for (const kv of response.kvs) this.recordRegistration(kv.key.toString(), kv.value.toString());
    const watcher = await this.watches.watch(this.namespace!.watch().prefix(NODES_PREFIX).startRevision(String(Number(response.header.revision) + 1)));
    // Only a master follows the registrations: one that stepped down meanwhile closes the watch it just opened.
    if (this.mastership === undefined || this.standingDown) {
      await this.watches.cancel(watcher);
      return;
    }
    await this.watches.cancel(this.nodesWatcher);
    this.nodesWatcher = watcher;
    watcher.on('put', (kv) => {
      this.recordRegistration(kv.key.toString(), kv.value.toString());
      this.publishMembership();
    });
    watcher.on('delete', (kv) => {
      const nodeId = kv.key.toString().slice(NODES_PREFIX.length);
      const gone = this.registrations.get(nodeId);
      this.registrations.delete(nodeId);
      // The master's word on why a node left (ES's "node-left[... reason: ...]"): etcd deletes a registration when
      // its lease expires (the node stopped renewing it: paused, partitioned, its loop held), is revoked (a refused
      // connect proved it gone, or it stopped).
      this.options.log('info', `node-left [${gone?.name ?? ''}][${nodeId}]: its etcd registration was deleted (its lease expired or was revoked)`, undefined, {
        event: 'node_left',
        node_id: nodeId,
      });
      this.publishMembership();
    });
    watcher.on('error', () => {
      if (this.mastership === undefined || this.standingDown || this.nodesWatcher !== watcher) return;
      this.watchNodes().then(
        () => this.publishMembership(),
        (err: unknown) => this.options.log('debug', 'watching the node registrations again failed', err),
      );
    });
  }

  private recordRegistration(key: string, value: string): void {
    try {
      const node = JSON.parse(value) as DiscoveryNode;
      this.registrations.set(key.slice(NODES_PREFIX.length), node);
    } catch (err) {
      this.options.log('warn', `ignoring an unreadable node registration [${key}]`, err);
    }
  }

  private memberNodes(): Map<string, DiscoveryNode> {
    const nodes = new Map<string, DiscoveryNode>();
    for (const id of [...this.registrations.keys()].sort()) nodes.set(id, this.registrations.get(id)!);
    // The master is a member even before its own registration event arrives.
    if (!nodes.has(this.localNode.id)) nodes.set(this.localNode.id, this.localNode);
    return nodes;
  }

  private publishMembership(): void {
    if (this.mastership === undefined) return;
    this.submitStateUpdate('node-join/left', (state) => {
      const nodes = this.memberNodes();
      if (sameMembers(nodes, state.nodes)) return state;
      return { ...state, nodes };
    }).catch((err) => this.options.log('debug', 'membership update failed', err));
  }

  private stepDown(reason: string): void {
    const mastership = this.mastership;
    if (mastership === undefined) return;
    this.mastership = undefined;
    this.options.log('info', `stepping down as master (term [${mastership.term}]): ${reason}`);
    void this.watches.cancel(this.nodesWatcher);
    this.nodesWatcher = undefined;
    const failed = this.pending.splice(0);
    for (const task of failed) {
      this.clusterService.pendingTaskCount--;
      task.reject(errors.notMaster(`node [${this.localNode.name}] stopped being master: ${reason}`));
    }
  }

  // ---- publication ------------------------------------------------------------------------------------------

  /** Runs every queued update on one working state, then writes the batch as one fenced transaction. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.pending.length > 0 && this.mastership !== undefined) {
        const mastership = this.mastership;
        const batch = this.pending.splice(0);
        const base = mastership.base.state;
        let working = base;
        const accepted: PendingUpdate[] = [];
        for (const task of batch) {
          try {
            working = task.update(working);
            accepted.push(task);
          } catch (err) {
            this.clusterService.pendingTaskCount--;
            task.reject(err);
          }
        }
        if (working !== base) working = this.options.reroute(base, working, Date.now());
        if (working === base) {
          for (const task of accepted) {
            this.clusterService.pendingTaskCount--;
            task.resolve(this.clusterService.state().version >= base.version ? this.clusterService.state() : base);
          }
          continue;
        }
        const next: ClusterState = { ...working, version: base.version + 1, stateUuid: randomBase64Uuid(), term: mastership.term, masterNodeId: this.localNode.id };
        try {
          const committed = await this.commit(mastership, next);
          mastership.base = committed;
          // The publication record the fault suite checks: one publisher per term, one state per version.
          this.options.log('info', `published cluster state version [${next.version}] in term [${next.term}]`, undefined, {
            event: 'state_published',
            term: next.term,
            version: next.version,
            state_uuid: next.stateUuid,
            revision: committed.revision,
          });
          this.store!.recordOwnWrite(committed.state, committed.revision, committed.indexValues);
          for (const task of accepted) {
            this.clusterService.pendingTaskCount--;
            task.resolve(committed.state);
          }
        } catch (err) {
          for (const task of accepted) {
            this.clusterService.pendingTaskCount--;
            task.reject(toEsError(err));
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** The fenced write: header plus changed index keys, only if this term still holds and nobody wrote since. */
  private async commit(mastership: Mastership, next: ClusterState): Promise<StoredState> {
    const namespace = this.namespace!;
    const values = encodeIndices(next);
    const operations = [namespace.put(STATE_HEADER_KEY).value(encodeHeader(next))];
    for (const [name, value] of values) {
      if (mastership.base.indexValues.get(name) !== value) operations.push(namespace.put(indexKey(name)).value(value));
    }
    const deletes = [...mastership.base.indexValues.keys()].filter((name) => !values.has(name)).map((name) => namespace.delete().key(indexKey(name)));
    let result;
    try {
      result = await namespace
        .if(mastership.key, 'Create', '==', mastership.term)
        .and(STATE_HEADER_KEY, 'Mod', '==', mastership.base.revision)
        .then(...operations, ...deletes)
        .commit();
    } catch (err) {
      // Unknown outcome (etcd unreachable mid-write): the next master reads whatever committed; we step down.
      this.stepDown('state write failed');
      this.campaignAgain();
      throw errors.failedToCommitState(`publishing cluster state version [${next.version}] failed: ${(err as Error).message}`);
    }
    if (!result.succeeded) {
      this.stepDown('fenced state write rejected');
      this.campaignAgain();
      throw errors.notMaster(`cluster state version [${next.version}] of term [${mastership.term}] was not committed: another master took over or the state moved`);
    }
    return { state: next, revision: Number(result.header.revision), indexValues: values };
  }

  private onStoredState(stored: StoredState): void {
    if (stored.state.term < this.highestTerm && stored.state.term < (this.published?.state.term ?? 0)) {
      this.options.log('warn', `ignoring cluster state of stale term [${stored.state.term}] (seen [${this.highestTerm}])`);
      return;
    }
    this.highestTerm = Math.max(this.highestTerm, stored.state.term);
    if (this.published !== undefined && stored.state.version <= this.published.state.version && stored.revision <= this.published.revision) return;
    this.published = stored;
    this.options.log('debug', `applying cluster state version [${stored.state.version}] of term [${stored.state.term}]`, undefined, {
      event: 'state_applied',
      term: stored.state.term,
      version: stored.state.version,
      state_uuid: stored.state.stateUuid,
      revision: stored.revision,
    });
    const mastership = this.mastership;
    // Another master published: we are not master any more (our fenced writes would fail anyway).
    if (mastership !== undefined && stored.state.term > mastership.term) this.stepDown(`a master of term [${stored.state.term}] published`);
    this.applyLocalView();
  }

  /** Says when this node starts and stops applying the no-master block, and why: writes are refused meanwhile. */
  private logNoMasterChange(reason: string | undefined): void {
    if (reason === this.noMasterReason) return;
    const previous = this.noMasterReason;
    this.noMasterReason = reason;
    // Joining is not losing: nothing is said until a master was known once (start() waits for one).
    if (!this.knewMaster) {
      this.knewMaster = reason === undefined;
      return;
    }
    if (this.standingDown) return;
    if (reason !== undefined) this.options.log('info', `no master: ${reason}; writes are blocked until one is known`, undefined, { event: 'no_master', reason });
    else if (previous !== undefined) this.options.log('info', `a master is known again (${previous} before); writes resume`, undefined, { event: 'master_known' });
  }

  /** The published state, plus the no-master block while this node knows no master. */
  private applyLocalView(): void {
    const current = this.clusterService.state();
    const base = this.published?.state;
    // A master elected but not published yet is no master either (ES: between an election and the first state).
    const noMasterReason = !this.watchConnected
      ? 'the etcd watch of the cluster state is disconnected'
      : !this.leaseValid
        ? 'this node lost its etcd lease'
        : this.electionLeader === undefined
          ? 'no master is elected'
          : base === undefined || base.masterNodeId === undefined || base.term < this.electionLeader.term
            ? 'the elected master has not published yet'
            : undefined;
    const noMaster = noMasterReason !== undefined;
    this.logNoMasterChange(noMasterReason);
    if (base === undefined) {
      if (!current.globalBlocks.some((block) => block.id === NO_MASTER_BLOCK.id)) {
        this.clusterService.applyLocal({ ...current, masterNodeId: undefined, globalBlocks: [...current.globalBlocks, NO_MASTER_BLOCK] });
      }
      return;
    }
    const view: ClusterState = noMaster
      ? { ...base, masterNodeId: undefined, globalBlocks: [...base.globalBlocks.filter((block) => block.id !== NO_MASTER_BLOCK.id), NO_MASTER_BLOCK] }
      : base;
    if (view.version > current.version) {
      this.clusterService.apply(view);
      return;
    }
    const currentBlocked = current.globalBlocks.some((block) => block.id === NO_MASTER_BLOCK.id);
    if (view.version === current.version && (currentBlocked !== noMaster || current.stateUuid !== view.stateUuid)) this.clusterService.applyLocal(view);
  }
}

function sameMembers(a: ReadonlyMap<string, DiscoveryNode>, b: ReadonlyMap<string, DiscoveryNode>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, node] of a) if (b.get(id)?.ephemeralId !== node.ephemeralId) return false;
  return true;
}

function sleep(millis: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, millis));
}
