/**
 * The fault suite's cluster: an etcd and N node processes whose data paths and names survive a kill, so a node
 * can be killed (-9), paused (SIGSTOP), cut off (a NetnsLab partition) and brought back as the same node. Every
 * line every incarnation of a node logged is kept for the checkers (publications) and for the history printed
 * when a check fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeProcess, stopAll, type HttpResult } from '../helpers/node-process.js';
import { TestEtcd } from '../helpers/etcd.js';
import type { NetnsLab } from './netns-lab.js';

export interface FaultNode {
  readonly slot: number;
  readonly name: string;
  readonly dataPath: string;
  /** The running process, or undefined while the node is down. */
  process: NodeProcess | undefined;
  /** The node id (persistent across restarts: it lives in the data path). */
  id: string;
  /** Log lines of every incarnation, the current one included. */
  readonly logs: string[][];
  paused: boolean;
  partitioned: boolean;
}

export interface FaultClusterOptions {
  readonly nodes: number;
  readonly settings?: Record<string, string>;
  /** Run each node in its own network namespace (for partitions). */
  readonly lab?: NetnsLab;
}

const START_TIMEOUT_MILLIS = 120_000;

export class FaultCluster {
  readonly nodes: FaultNode[] = [];
  private readonly root: string;

  private constructor(
    readonly etcd: TestEtcd,
    private readonly clusterName: string,
    private readonly settings: Record<string, string>,
    readonly lab: NetnsLab | undefined,
  ) {
    this.root = mkdtempSync(join(tmpdir(), 'gannet-faults-'));
  }

  static async start(options: FaultClusterOptions): Promise<FaultCluster> {
    const etcd = await TestEtcd.start({ host: options.lab?.bridgeAddress });
    const cluster = new FaultCluster(etcd, `faults-${Math.random().toString(36).slice(2, 8)}`, options.settings ?? {}, options.lab);
    try {
      for (let slot = 0; slot < options.nodes; slot++) {
        const node: FaultNode = { slot, name: `node-${slot}`, dataPath: join(cluster.root, `node-${slot}`), process: undefined, id: '', logs: [], paused: false, partitioned: false };
        cluster.nodes.push(node);
        // One after another: several processes starting at once on a loaded two-core host time out.
        await cluster.startNode(node);
      }
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** Starts (or restarts) the node on its own data path. */
  async startNode(node: FaultNode): Promise<void> {
    const settings: Record<string, string> = {
      'node.name': node.name,
      'cluster.name': this.clusterName,
      'cluster.coordination': 'etcd',
      'cluster.etcd.endpoints': this.etcd.endpoint,
      'cluster.etcd.lease_ttl': '3s',
      // The publication record (state_applied) is logged at debug.
      'logger.level': 'debug',
      ...(this.lab === undefined ? {} : { 'network.host': this.lab.nodeAddress(node.slot) }),
      ...this.settings,
    };
    const started = await NodeProcess.start({
      dataPath: node.dataPath,
      keepData: true,
      settings,
      wrapper: this.lab?.wrapper(node.slot),
      startTimeoutMillis: START_TIMEOUT_MILLIS,
    });
    node.process = started;
    node.id = started.nodeId;
    node.paused = false;
    node.logs.push(started.logs);
  }

  /** kill -9: the process dies at once, nothing of it runs again (no shutdown, no lease revoke). */
  async kill9(node: FaultNode): Promise<void> {
    const process = node.process;
    if (process === undefined) return;
    process.child.kill('SIGCONT');
    await process.kill9();
    node.process = undefined;
    node.paused = false;
  }

  pause(node: FaultNode): void {
    node.process?.child.kill('SIGSTOP');
    node.paused = true;
  }

  resume(node: FaultNode): void {
    node.process?.child.kill('SIGCONT');
    node.paused = false;
  }

  partition(node: FaultNode): void {
    this.lab!.partition(node.slot);
    node.partitioned = true;
  }

  heal(node: FaultNode): void {
    this.lab!.heal(node.slot);
    node.partitioned = false;
  }

  /** Nodes a client can reach now (running, not paused, not cut off). */
  reachable(): FaultNode[] {
    return this.nodes.filter((node) => node.process !== undefined && !node.paused && !node.partitioned);
  }

  byId(id: string): FaultNode | undefined {
    return this.nodes.find((node) => node.id === id);
  }

  async request(node: FaultNode, method: string, path: string, body?: unknown, timeoutMillis = 15_000): Promise<HttpResult> {
    if (node.process === undefined) throw new Error(`${node.name} is down`);
    return node.process.request(method, path, { body, timeoutMillis });
  }

  /** Polls `GET path` on any reachable node until `check` holds. */
  async waitFor(path: string, check: (response: HttpResult) => boolean, timeoutMillis = 60_000, only?: FaultNode): Promise<HttpResult> {
    const deadline = Date.now() + timeoutMillis;
    let last: HttpResult | undefined;
    let lastError: unknown;
    while (Date.now() < deadline) {
      for (const node of only === undefined ? this.reachable() : [only]) {
        try {
          last = await this.request(node, 'GET', path, undefined, 5_000);
          if (check(last)) return last;
        } catch (err) {
          lastError = err;
        }
      }
      await sleep(100);
    }
    throw new Error(`timed out after ${timeoutMillis} ms waiting on ${path}; last answer: ${last?.text ?? String(lastError)}`);
  }

  /** The elected master's node as a reachable node sees it (undefined while there is none). */
  async master(): Promise<FaultNode | undefined> {
    const response = await this.waitFor('/_cat/master?format=json', (r) => r.status === 200 || r.status === 503);
    const id = (response.body as Array<{ id?: string }> | undefined)?.[0]?.id;
    return id === undefined ? undefined : this.byId(id);
  }

  /** Node id of each started primary of `index`, by shard. */
  async primaries(index: string): Promise<Map<number, string | undefined>> {
    const response = await this.waitFor(`/_cluster/state/routing_table/${index}`, (r) => r.status === 200);
    const shards = response.body.routing_table.indices[index].shards as Record<string, Array<{ primary: boolean; state: string; node: string | null }>>;
    const out = new Map<number, string | undefined>();
    for (const [shard, copies] of Object.entries(shards)) {
      const primary = copies.find((copy) => copy.primary);
      out.set(Number(shard), primary?.state === 'STARTED' ? (primary.node ?? undefined) : undefined);
    }
    return out;
  }

  /** Every started copy of `index` (primaries and replicas) with its node, by shard. */
  async startedCopies(index: string): Promise<Array<{ shard: number; nodeId: string; primary: boolean }>> {
    const response = await this.waitFor(`/_cluster/state/routing_table/${index}`, (r) => r.status === 200);
    const shards = response.body.routing_table.indices[index].shards as Record<string, Array<{ primary: boolean; state: string; node: string | null }>>;
    const out: Array<{ shard: number; nodeId: string; primary: boolean }> = [];
    for (const [shard, copies] of Object.entries(shards)) {
      for (const copy of copies) if (copy.state === 'STARTED' && copy.node !== null) out.push({ shard: Number(shard), nodeId: copy.node, primary: copy.primary });
    }
    return out;
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) node.process?.child.kill('SIGCONT');
    if (this.lab !== undefined) for (const node of this.nodes) if (node.partitioned) this.heal(node);
    try {
      // A node that does not exit by itself fails the run (node-process.ts), after everything is cleaned up.
      await stopAll(this.nodes.flatMap((node) => (node.process === undefined ? [] : [node.process])));
    } finally {
      await this.etcd.stop().catch(() => undefined);
      rmSync(this.root, { recursive: true, force: true });
    }
  }
}

export function sleep(millis: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, millis));
}
