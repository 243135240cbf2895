/**
 * A cluster of real node processes on an etcd of the test's own: each node its own data path, OS-assigned
 * HTTP and transport ports, `cluster.coordination: etcd`. Helpers wait for the cluster to agree on something.
 */
import { NodeProcess, type HttpResult } from './node-process.js';
import { TestEtcd } from './etcd.js';

export class ClusterProcesses {
  readonly nodes: NodeProcess[] = [];
  private counter = 0;

  private constructor(
    readonly etcd: TestEtcd,
    readonly clusterName: string,
    private readonly extraSettings: Record<string, string>,
  ) {}

  static async start(count: number, settings: Record<string, string> = {}): Promise<ClusterProcesses> {
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
    const node = await NodeProcess.start({
      ...options,
      settings: {
        'node.name': name,
        'cluster.name': this.clusterName,
        'cluster.coordination': 'etcd',
        'cluster.etcd.endpoints': this.etcd.endpoint,
        'cluster.etcd.lease_ttl': '3s',
        ...this.extraSettings,
        ...settings,
      },
    });
    this.nodes.push(node);
    return node;
  }

  /** Polls `check` on the node's answer to `GET path` until it holds. */
  async waitFor(node: NodeProcess, path: string, check: (response: HttpResult) => boolean, timeoutMillis = 30_000): Promise<HttpResult> {
    const deadline = Date.now() + timeoutMillis;
    let last: HttpResult | undefined;
    while (Date.now() < deadline) {
      try {
        last = await node.request('GET', path);
        if (check(last)) return last;
      } catch {
        // node busy or restarting
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting on ${node.url}${path}; last answer: ${last?.text}`);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop().catch(() => undefined)));
    await this.etcd.stop();
  }
}
