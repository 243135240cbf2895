/**
 * Several Gannet nodes in this process, on an etcd of the test's own: each a real GannetNode with its own data
 * path, HTTP and transport ports (OS-assigned) and etcd coordination, talking over real sockets. Starting one
 * costs a few hundred milliseconds instead of a node process's seconds, so the many cluster tests that do not
 * need kill -9 or SIGSTOP use this; the ones that do use ClusterProcesses. Both give nodes the same shape
 * (`request`, `nodeId`, `url`, `name`), so a test body reads the same over either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Settings } from '../../src/common/settings.js';
import { GannetNode } from '../../src/node/node.js';
import { TestEtcd } from './etcd.js';
import { rawRequest, type HttpResult, type RequestOptions } from './node-process.js';
import { waitForAnswer } from './wait-for-answer.js';

/** What cluster tests need of a node, in process or not. */
export interface ClusterNode {
  readonly nodeId: string;
  readonly url: string;
  readonly name: string;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
}

export class InProcessNode implements ClusterNode {
  readonly logs: string[] = [];
  private stopped = false;

  constructor(
    readonly node: GannetNode,
    readonly name: string,
    readonly dataPath: string,
    logs: string[],
  ) {
    this.logs = logs;
  }

  get nodeId(): string {
    return this.node.nodeServices.localNode.id;
  }

  get port(): number {
    return this.node.httpPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    return rawRequest(this.port, method, path, options);
  }

  /**
   * Stops the node cleanly (its lease is revoked, so the others see it leave at once). With `keepData` its data
   * path stays, for a node started again on it (InProcessCluster.addNode's `dataPath`).
   */
  async stop(options: { keepData?: boolean } = {}): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.node.stop();
    if (options.keepData !== true) rmSync(this.dataPath, { recursive: true, force: true });
  }
}

/** A single node in this process with the default (embedded) coordination: the "one node" tests compare with. */
export async function startSingleNode(settings: Record<string, string> = {}): Promise<InProcessNode> {
  const name = settings['node.name'] ?? 'single';
  const dataPath = mkdtempSync(join(tmpdir(), 'gannet-inproc-'));
  const logs: string[] = [];
  const logger = pino({ level: process.env['GANNET_TEST_LOG_LEVEL'] ?? 'warn', base: { node: name } }, { write: (line: string) => void logs.push(line.trimEnd()) });
  const node = new GannetNode(new Settings({ 'path.data': dataPath, 'http.port': '0', 'transport.port': '0', 'node.name': name, ...settings }), logger);
  try {
    await node.start();
  } catch (err) {
    rmSync(dataPath, { recursive: true, force: true });
    throw err;
  }
  return new InProcessNode(node, name, dataPath, logs);
}

export class InProcessCluster {
  readonly nodes: InProcessNode[] = [];
  private counter = 0;

  private constructor(
    readonly etcd: TestEtcd,
    readonly clusterName: string,
    private readonly extraSettings: Record<string, string>,
  ) {}

  static async start(count: number, settings: Record<string, string> = {}): Promise<InProcessCluster> {
    // Shards stay where allocation first put them unless a test asks for rebalancing (it passes
    // `cluster.routing.rebalance.enable: all`): tests that read a shard's node and then act on that node would
    // otherwise race a relocation. Gannet's own default is ES's `all`.
    settings = { 'cluster.routing.rebalance.enable': 'none', ...settings };
    const etcd = await TestEtcd.start();
    const cluster = new InProcessCluster(etcd, `inproc-${Math.random().toString(36).slice(2, 8)}`, settings);
    try {
      for (let i = 0; i < count; i++) await cluster.addNode();
      for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === count);
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** Starts a node; on `dataPath` (a stopped node's, kept) it comes back with that node's id and shards. */
  async addNode(settings: Record<string, string> = {}, options: { dataPath?: string } = {}): Promise<InProcessNode> {
    const name = `node-${this.counter++}`;
    const dataPath = options.dataPath ?? mkdtempSync(join(tmpdir(), 'gannet-inproc-'));
    const logs: string[] = [];
    const logger = pino({ level: process.env['GANNET_TEST_LOG_LEVEL'] ?? 'warn', base: { node: name } }, { write: (line: string) => void logs.push(line.trimEnd()) });
    const node = new GannetNode(
      new Settings({
        'path.data': dataPath,
        'http.port': '0',
        'transport.port': '0',
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
      }),
      logger,
    );
    try {
      await node.start();
    } catch (err) {
      rmSync(dataPath, { recursive: true, force: true });
      throw err;
    }
    const started = new InProcessNode(node, name, dataPath, logs);
    this.nodes.push(started);
    return started;
  }

  /** Polls `check` on the node's answer to `GET path` until it holds. */
  async waitFor(node: ClusterNode, path: string, check: (response: HttpResult) => boolean, timeoutMillis = 30_000): Promise<HttpResult> {
    return waitForAnswer(node, path, check, timeoutMillis, 50);
  }

  /** Waits until every node has applied the same cluster state version (after a change made through one). */
  async settle(timeoutMillis = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMillis;
    for (;;) {
      const versions = this.nodes.map((node) => node.node.nodeServices.clusterService.state().version);
      if (new Set(versions).size === 1) return;
      if (Date.now() > deadline) throw new Error(`nodes did not settle on one state version: ${versions.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop(): Promise<void> {
    // One after another: the last node's stop must not race the others' lease revocations into a re-election.
    for (const node of [...this.nodes].reverse()) await node.stop().catch(() => undefined);
    await this.etcd.stop();
  }
}
