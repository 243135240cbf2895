/**
 * Keeps a transport connection open to every node of the applied cluster state (ES's NodeConnectionsService)
 * and turns a closed connection into fast failure detection (docs/decisions/0011-failure-detection.md).
 *
 * When a connection to a node closes without this node closing it, one TCP connect asks the kernel whether
 * anything still listens on that node's transport address:
 * - `refused`: nothing listens, the process is gone (kill -9, crash, exit): the node is reported gone and the
 *   coordinator removes it from etcd at once instead of waiting for its lease to expire;
 * - `open`: something accepted; a paused or overloaded process's kernel still accepts connections, so a live but
 *   slow node is never declared dead here: reconnect and carry on;
 * - `unknown` (timeout, unreachable): a partition or a slow network; nothing is decided here, the lease does.
 *
 * Only liveness depends on this: safety never does (state writes are fenced on the master's term, replication
 * on the primary term), so a wrong guess could cost a needless recovery, never an acknowledged write.
 */
import type { TransportService } from '../transport/index.js';
import type { ClusterService } from './cluster-service.js';
import { transportAddress, type DiscoveryNode } from './discovery-node.js';
import { transportNode } from './transport-nodes.js';

export interface NodeConnectionsOptions {
  /** How often connections that failed or closed are tried again (ES's `cluster.nodes.reconnect_interval`). */
  readonly reconnectIntervalMillis: number;
  /** How long the probe's connect may take before the answer is `unknown`. */
  readonly probeTimeoutMillis: number;
  /** Told when a node is proven gone (its ephemeral incarnation): the coordinator removes it. */
  readonly nodeGone: (node: DiscoveryNode) => Promise<void>;
  readonly log: (level: 'info' | 'debug', message: string, err?: unknown) => void;
}

export class NodeConnectionsService {
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly probing = new Set<string>();

  constructor(
    private readonly clusterService: ClusterService,
    private readonly transport: TransportService,
    private readonly localNodeId: string,
    private readonly options: NodeConnectionsOptions,
  ) {}

  start(): void {
    this.transport.onNodeDisconnected((nodeId, address) => void this.disconnected(nodeId, address));
    this.unsubscribe = this.clusterService.onChange((state) => this.connectAll(state.nodes));
    this.connectAll(this.clusterService.state().nodes);
    // A connect that failed is tried again: a node this node never connected to would otherwise be detected
    // by its lease only (no connection, no close to notice).
    this.timer = setInterval(() => this.connectAll(this.clusterService.state().nodes), this.options.reconnectIntervalMillis);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
  }

  private connectAll(nodes: ReadonlyMap<string, DiscoveryNode>): void {
    if (this.stopped) return;
    for (const node of nodes.values()) {
      if (node.id === this.localNodeId || this.transport.isConnected(node.id)) continue;
      // A refused connect is the same proof as a closed connection's refused probe; any other failure is retried
      // on the next state or tick, and the lease decides whether the node is alive.
      this.transport.connectToNode(transportNode(node)).catch((err: unknown) => {
        this.options.log('debug', `could not connect to node [${node.name}]`, err);
        void this.disconnected(node.id, transportAddress(node), false);
      });
    }
  }

  private async disconnected(nodeId: string, address: string, reconnect = true): Promise<void> {
    const node = this.clusterService.state().nodes.get(nodeId);
    if (this.stopped || node === undefined || transportAddress(node) !== address || this.probing.has(node.ephemeralId)) return;
    this.probing.add(node.ephemeralId);
    try {
      const answer = await this.transport.probe(address, this.options.probeTimeoutMillis);
      if (this.stopped) return;
      if (answer === 'refused') {
        this.options.log('info', `node [${node.name}][${node.id}] is gone: its transport connection closed and [${address}] refuses connections`);
        await this.options.nodeGone(node);
        return;
      }
      // Alive as far as the kernel says, or unknown: reconnect if it is still in the state; the lease decides.
      const current = this.clusterService.state().nodes.get(nodeId);
      if (reconnect && current?.ephemeralId === node.ephemeralId) this.connectAll(new Map([[nodeId, current]]));
    } catch (err) {
      this.options.log('debug', `probing node [${node.name}] failed`, err);
    } finally {
      this.probing.delete(node.ephemeralId);
    }
  }
}
