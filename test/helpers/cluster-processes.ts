/**
 * A cluster of real node processes on an etcd of the test's own: each node its own data path, OS-assigned
 * HTTP and transport ports, `cluster.coordination: etcd`. Helpers wait for the cluster to agree on something.
 */
import { NodeProcess, stopAll, type HttpResult } from './node-process.js';
import { waitForAnswer } from './wait-for-answer.js';
import { TestEtcd } from './etcd.js';

export class ClusterProcesses {
  readonly nodes: NodeProcess[] = [];
  private counter = 0;
  private readonly settingsOf = new Map<NodeProcess, Record<string, string>>();

  private constructor(
    readonly etcd: TestEtcd,
    readonly clusterName: string,
    private readonly extraSettings: Record<string, string>,
  ) {}

  static async start(count: number, settings: Record<string, string> = {}): Promise<ClusterProcesses> {
    // Shards stay where allocation first put them unless a test asks for rebalancing (it passes
    // `cluster.routing.rebalance.enable: all`): tests that read a shard's node and then act on that node would
    // otherwise race a relocation. Gannet's own default is ES's `all`.
    settings = { 'cluster.routing.rebalance.enable': 'none', ...settings };
    const etcd = await TestEtcd.start();
    const cluster = new ClusterProcesses(etcd, `test-${Math.random().toString(36).slice(2, 8)}`, settings);
    try {
      // One after another: several node processes compiling and starting at once can take longer than the
      // start timeout on a loaded two-core machine.
      for (let i = 0; i < count; i++) await cluster.addNode();
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /**
   * Starts a node; `options.dataPath` with `keepData` restarts a node stopped with its data kept (same node id:
   * it is kept in the data path).
   */
  async addNode(settings: Record<string, string> = {}, options: { dataPath?: string; keepData?: boolean } = {}): Promise<NodeProcess> {
    const name = `node-${this.counter++}`;
    const nodeSettings = {
      'node.name': name,
      'cluster.name': this.clusterName,
      'cluster.coordination': 'etcd',
      'cluster.etcd.endpoints': this.etcd.endpoint,
      // Gannet's default lease. A 3 s lease expired whenever a node's event loop was held ~2 s, which this shared
      // host does routinely (1-2 s stalls at load 16, ~7 s once at start-up): a primary failed over mid-bulk, a
      // restarted replica left during its replay. Tests of silent failures (SIGSTOP, partitions) set a short one.
      'cluster.etcd.lease_ttl': '10s',
      ...this.extraSettings,
      ...settings,
    };
    const node = await NodeProcess.start({ ...options, settings: nodeSettings, startTimeoutMillis: 60_000 });
    this.settingsOf.set(node, nodeSettings);
    this.nodes.push(node);
    return node;
  }

  /**
   * Starts a node that was killed (or stopped with its data kept) again on its data path: the same node id
   * and name, a new process (a new ephemeral id). It takes the old one's place in `nodes`. `keepData`: its data
   * stays when it stops (to start it once more).
   */
  async restart(old: NodeProcess, options: { keepData?: boolean } = {}): Promise<NodeProcess> {
    const settings = this.settingsOf.get(old);
    if (settings === undefined) throw new Error(`not a node of this cluster: ${old.nodeId}`);
    if (old.child.exitCode === null && old.child.signalCode === null) throw new Error(`node ${old.nodeId} still runs`);
    const node = await NodeProcess.start({ settings, dataPath: old.dataPath, startTimeoutMillis: 60_000, ...(options.keepData === true && { keepData: true }) });
    this.settingsOf.set(node, settings);
    const slot = this.nodes.indexOf(old);
    if (slot >= 0) this.nodes[slot] = node;
    else this.nodes.push(node);
    return node;
  }

  /** Polls `check` on the node's answer to `GET path` until it holds. */
  async waitFor(node: NodeProcess, path: string, check: (response: HttpResult) => boolean, timeoutMillis = 30_000): Promise<HttpResult> {
    return waitForAnswer(node, path, check, timeoutMillis, 100);
  }

  /** Stops every node and etcd; throws if a node did not exit by itself (node-process.ts). */
  async stop(): Promise<void> {
    try {
      await stopAll(this.nodes);
    } finally {
      await this.etcd.stop();
    }
  }
}
