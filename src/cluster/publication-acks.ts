/**
 * Acknowledgements of published cluster states (ES's AckedClusterStateUpdateTask with its ack timeout): every
 * node, once it has applied a state version, tells that state's master (`internal:cluster/coordination/applied`,
 * or a direct record on the master itself); the master's acked operations wait until every node of the state
 * they published has applied it, up to the request's `timeout`, and answer `acknowledged: false` when one did
 * not in time or left the cluster first (ES counts a node that fails to ack as a failed ack).
 *
 * Acks decide only what `acknowledged` says, never safety: the state is committed in etcd before anyone waits
 * (docs/decisions/0006). On a single embedded node the master is the only node and every state is applied when
 * its update resolves, so there is nothing to wait for.
 */
import type { TransportService } from '../transport/index.js';
import type { ClusterService } from './cluster-service.js';
import type { ClusterState } from './cluster-state.js';
import { transportNode } from './transport-nodes.js';

export const APPLIED_STATE_ACTION = 'internal:cluster/coordination/applied';

/** What acked master operations use: resolves true once every node of the state applied `version`. */
export interface AckWaiter {
  waitForAcks(version: number, timeoutMillis: number): Promise<boolean>;
}

/** The embedded node: its own apply is the only one, done when the update resolved. */
export const SINGLE_NODE_ACKS: AckWaiter = { waitForAcks: () => Promise.resolve(true) };

interface Waiter {
  readonly version: number;
  readonly nodes: ReadonlySet<string>;
  readonly finish: (acknowledged: boolean) => void;
}

export class PublicationAcks implements AckWaiter {
  /** On the master: the highest version each node said it applied. */
  private readonly appliedVersions = new Map<string, number>();
  private readonly waiters = new Set<Waiter>();

  constructor(
    private readonly clusterService: ClusterService,
    private readonly transport: TransportService,
    private readonly localNodeId: string,
  ) {
    transport.registerHandler(APPLIED_STATE_ACTION, async (body, context) => {
      const { version } = body as { version: number };
      if (context.senderNodeId !== undefined && typeof version === 'number') this.record(context.senderNodeId, version);
      return {};
    });
    clusterService.onChange((state, previous) => {
      if (state.version > previous.version) this.announce(state);
      this.dropDeparted(state);
    });
  }

  /** Tells the state's master that this node applied it (the master records its own apply directly). */
  private announce(state: ClusterState): void {
    this.record(this.localNodeId, state.version);
    const masterId = state.masterNodeId;
    if (masterId === undefined || masterId === this.localNodeId) return;
    const master = state.nodes.get(masterId);
    if (master === undefined) return;
    // Best effort: an ack that does not arrive makes an acked request answer `acknowledged: false`, nothing more.
    this.transport.sendRequest(transportNode(master), APPLIED_STATE_ACTION, { version: state.version }, { timeoutMillis: 10_000 }).catch(() => undefined);
  }

  private record(nodeId: string, version: number): void {
    if ((this.appliedVersions.get(nodeId) ?? -1) >= version) return;
    this.appliedVersions.set(nodeId, version);
    for (const waiter of [...this.waiters]) if (this.allApplied(waiter)) waiter.finish(true);
  }

  private allApplied(waiter: Waiter): boolean {
    for (const node of waiter.nodes) if ((this.appliedVersions.get(node) ?? -1) < waiter.version) return false;
    return true;
  }

  /** A node that left before acking fails the wait; forget nodes that are gone. */
  private dropDeparted(state: ClusterState): void {
    for (const waiter of [...this.waiters]) {
      for (const node of waiter.nodes) {
        if (!state.nodes.has(node) && (this.appliedVersions.get(node) ?? -1) < waiter.version) {
          waiter.finish(false);
          break;
        }
      }
    }
    for (const node of [...this.appliedVersions.keys()]) if (!state.nodes.has(node) && node !== this.localNodeId) this.appliedVersions.delete(node);
  }

  /** The node is shutting down: every wait ends unacknowledged now (its timer, up to the ack timeout, held the process). */
  close(): void {
    for (const waiter of [...this.waiters]) waiter.finish(false);
  }

  waitForAcks(version: number, timeoutMillis: number): Promise<boolean> {
    const state = this.clusterService.state();
    const nodes = new Set(state.nodes.keys());
    nodes.add(this.localNodeId);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        version,
        nodes,
        finish: (acknowledged) => {
          if (!this.waiters.delete(waiter)) return;
          clearTimeout(timer);
          resolve(acknowledged);
        },
      };
      this.waiters.add(waiter);
      if (this.allApplied(waiter)) {
        waiter.finish(true);
        return;
      }
      // A negative timeout waits as long as it takes (ES's -1); setTimeout's longest delay stands in for that.
      timer = setTimeout(() => waiter.finish(false), timeoutMillis < 0 ? 2 ** 31 - 1 : Math.min(timeoutMillis, 2 ** 31 - 1));
    });
  }
}
