/**
 * One fault-suite run: a cluster, an index, writers recording every acknowledged item, faults injected at
 * seeded random moments, then the checkers. The run's history (seed, faults with times, figures, the last
 * write records, the nodes' last log lines) is printed when a check fails, and its figures always.
 */
import { shardIdFor, defaultRoutingNumShards } from '../../src/indices/operation-routing.js';
import { BulkWriter, type WriteRecord } from './bulk-writer.js';
import { checkAcknowledged, checkDivergence, checkNoPrimaryMovedErrors, checkPublications, publicationsOf, type CopyView, type StoredDoc } from './checkers.js';
import { FaultCluster, sleep, type FaultNode } from './fault-cluster.js';
import type { NetnsLab } from './netns-lab.js';
import { Random } from './random.js';

export const INDEX = 'faults';
export const LEASE_TTL_SECONDS = 3;

export interface RunOptions {
  readonly nodes: number;
  readonly shards: number;
  readonly replicas: number;
  readonly lab?: NetnsLab;
}

export class FaultRun {
  readonly events: string[] = [];
  readonly figures = new Map<string, number[]>();
  readonly random = Random.fromEnvironment();
  private readonly startedAt = Date.now();
  writer!: BulkWriter;

  private constructor(
    readonly cluster: FaultCluster,
    readonly options: RunOptions,
  ) {}

  static async start(options: RunOptions): Promise<FaultRun> {
    const cluster = await FaultCluster.start({ nodes: options.nodes, lab: options.lab, settings: { 'cluster.etcd.lease_ttl': `${LEASE_TTL_SECONDS}s` } });
    const run = new FaultRun(cluster, options);
    run.log(`seed ${run.random.seed} (repeat with GANNET_FAULT_SEED=${run.random.seed}); ${options.nodes} nodes, ${options.shards} shards x ${options.replicas} replicas${options.lab === undefined ? '' : ', nodes in network namespaces'}`);
    const created = await cluster.request(cluster.reachable()[0]!, 'PUT', `/${INDEX}`, { settings: { number_of_shards: options.shards, number_of_replicas: options.replicas } }, 60_000);
    if (created.status !== 200) throw new Error(`create index: ${created.text}`);
    await run.waitGreen('index created');
    run.writer = new BulkWriter(cluster, run.random, { index: INDEX, writers: 3, idsPerWriter: 60, itemsPerBulk: 8, requestTimeoutMillis: 20_000 });
    run.writer.start();
    await run.writer.waitForAcks(50, 120_000);
    return run;
  }

  log(message: string): void {
    const line = `[+${((Date.now() - this.startedAt) / 1000).toFixed(1)}s] ${message}`;
    this.events.push(line);
    if (process.env['GANNET_FAULT_VERBOSE'] !== undefined) console.log(line);
  }

  figure(name: string, millis: number): void {
    (this.figures.get(name) ?? this.figures.set(name, []).get(name)!).push(millis);
  }

  /** Health green as a reachable node reports it (every copy started), with every node back in the cluster. */
  async waitGreen(why: string, timeoutMillis = 120_000): Promise<number> {
    const started = Date.now();
    await this.cluster.waitFor(`/_cluster/health/${INDEX}`, (r) => r.body?.status === 'green' && r.body?.number_of_nodes === this.options.nodes, timeoutMillis).catch((err: Error) => {
      throw new Error(`not green after ${why}: ${err.message}`);
    });
    return Date.now() - started;
  }

  /** Every primary of the index started, as a reachable node reports it. */
  async waitPrimariesActive(timeoutMillis = 120_000): Promise<void> {
    await this.cluster.waitFor(`/_cluster/health/${INDEX}`, (r) => r.body?.active_primary_shards === this.options.shards, timeoutMillis);
  }

  async nodesHoldingPrimaries(): Promise<FaultNode[]> {
    const primaries = await this.cluster.primaries(INDEX);
    const ids = new Set([...primaries.values()].filter((id): id is string => id !== undefined));
    return this.cluster.nodes.filter((node) => ids.has(node.id));
  }

  /** Writes are acknowledged again after a fault (the cluster recovered by itself). */
  async writesGoOn(after: string): Promise<void> {
    await this.writer.waitForAcks(20, 120_000).catch((err: Error) => {
      throw new Error(`after ${after}: ${err.message}`);
    });
  }

  /** Stops the writers, waits for green, reads every in-sync copy and runs the checkers. */
  async check(): Promise<void> {
    await this.writer.stop();
    await this.waitGreen('the last fault');
    const node = this.cluster.reachable()[0]!;
    await this.cluster.request(node, 'POST', `/${INDEX}/_refresh`);
    const copies = await this.readCopies();
    const shape = { numberOfShards: this.options.shards, routingNumShards: defaultRoutingNumShards(this.options.shards), routingPartitionSize: 1 };
    const shardOf = (id: string) => shardIdFor(shape, id, undefined);
    const publications = this.cluster.nodes.flatMap((n) => publicationsOf(n.name, n.logs));
    const problems = [...checkAcknowledged(this.writer.records, copies, shardOf), ...checkDivergence(copies), ...checkPublications(publications), ...checkNoPrimaryMovedErrors(this.writer.records)];
    const terms = new Set(publications.filter((p) => p.kind === 'published').map((p) => p.term));
    this.log(`checked: ${this.writer.count('ok')} items acknowledged, ${this.writer.count('fail')} failed, ${this.writer.count('unknown')} unanswered; ${copies.length} copies read; ${publications.length} publication records, ${terms.size} master terms`);
    if (publications.length === 0) problems.push('no publication record was logged: the publication checker saw nothing');
    if (problems.length > 0) throw new Error(`${problems.length} problems:\n${problems.slice(0, 40).join('\n')}\n\n${this.history()}`);
  }

  /**
   * Each started copy's documents, read on that copy alone (`preference=_only_nodes:<its node>`): with replicas,
   * every copy is checked for the acknowledged writes and against the others for divergence.
   */
  private async readCopies(): Promise<CopyView[]> {
    const all = [...new Set(this.writer.records.map((record) => record.id))];
    const shape = { numberOfShards: this.options.shards, routingNumShards: defaultRoutingNumShards(this.options.shards), routingPartitionSize: 1 };
    const node = this.cluster.reachable()[0]!;
    const copies: CopyView[] = [];
    for (const copy of await this.cluster.startedCopies(INDEX)) {
      const ids = all.filter((id) => shardIdFor(shape, id, undefined) === copy.shard);
      const docs = new Map<string, StoredDoc>();
      for (let i = 0; i < ids.length; i += 100) {
        const response = await this.cluster.request(node, 'POST', `/${INDEX}/_mget?preference=_only_nodes:${copy.nodeId}`, { ids: ids.slice(i, i + 100) }, 60_000);
        if (response.status !== 200) throw new Error(`mget on ${copy.nodeId}: ${response.text}`);
        for (const doc of response.body.docs as Array<{ _id: string; found: boolean; error?: unknown; _version: number; _seq_no: number; _primary_term: number; _source: { attempt: number } }>) {
          if (doc.error !== undefined) throw new Error(`mget on ${copy.nodeId}: ${JSON.stringify(doc.error)}`);
          if (doc.found) docs.set(doc._id, { version: doc._version, seqNo: doc._seq_no, term: doc._primary_term, attempt: doc._source.attempt });
        }
      }
      const role = copy.primary ? 'primary' : 'replica';
      copies.push({ label: `${role} of [${INDEX}][${copy.shard}] on ${this.cluster.byId(copy.nodeId)?.name ?? copy.nodeId}`, shard: copy.shard, docs });
    }
    return copies;
  }

  /** What a failing run prints: faults, figures, the last records and each node's last lines. */
  history(): string {
    const records = this.writer?.records ?? [];
    const lines = [
      '=== fault history',
      ...this.events,
      '=== figures (ms)',
      ...[...this.figures].map(([name, values]) => `${name}: ${values.join(', ')}`),
      `=== last write records (of ${records.length})`,
      ...records.slice(-40).map(formatRecord),
    ];
    for (const node of this.cluster.nodes) {
      const last = node.logs.flat().filter((line) => !line.includes('"state_applied"')).slice(-25);
      lines.push(`=== ${node.name} (${node.id}), ${node.logs.length} incarnations, last lines`, ...last);
    }
    return lines.join('\n');
  }

  summary(): string {
    const parts = [...this.figures].map(([name, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `${name}: n=${values.length} max=${sorted[sorted.length - 1]} p50=${sorted[Math.floor(sorted.length / 2)]}`;
    });
    return [`seed ${this.random.seed}`, ...parts, `writes: ${this.writer.count('ok')} ok, ${this.writer.count('fail')} failed, ${this.writer.count('unknown')} unanswered`].join('; ');
  }

  async stop(): Promise<void> {
    await this.writer?.stop();
    await this.cluster.stop();
  }

  // ---- faults -------------------------------------------------------------------------------------------------

  /**
   * kill -9 of a node holding primaries at a random moment under writes. With replicas, the master promotes an
   * in-sync replica of each lost primary: every primary is active again while the node is still down (measured),
   * then the node is started again and its copies come back as replicas (restart to green, measured). Without
   * replicas the primaries wait for the node.
   */
  async killPrimaryNode(cycle: number): Promise<void> {
    const holders = (await this.nodesHoldingPrimaries()).filter((node) => node.process !== undefined);
    const victim = this.random.pick(holders);
    await sleep(this.random.between(50, 1500));
    const acksBefore = this.writer.count('ok');
    const failedBefore = this.writer.count('fail') + this.writer.count('unknown');
    const killedAt = Date.now();
    await this.cluster.kill9(victim);
    this.log(`cycle ${cycle}: kill -9 ${victim.name}`);
    if (this.options.replicas > 0) {
      await this.cluster.waitFor(`/_cluster/health/${INDEX}`, (r) => r.body?.number_of_nodes === this.options.nodes - 1 && r.body?.active_primary_shards === this.options.shards, 120_000);
      this.figure('kill -9 to every primary active', Date.now() - killedAt);
      this.log(`cycle ${cycle}: every primary active ${Date.now() - killedAt} ms after the kill (${this.writer.count('ok') - acksBefore} writes acknowledged meanwhile)`);
      await sleep(this.random.between(0, 1000));
    } else {
      await sleep(this.random.between(0, 1000));
    }
    const startedAt = Date.now();
    await this.cluster.startNode(victim);
    this.log(`cycle ${cycle}: ${victim.name} started again (${Date.now() - killedAt} ms after the kill)`);
    if (this.options.replicas === 0) {
      await this.waitPrimariesActive();
      this.figure('kill -9 to every primary active', Date.now() - killedAt);
    }
    await this.waitGreen(`kill cycle ${cycle}`);
    this.figure('restart to green', Date.now() - startedAt);
    await this.writesGoOn(`kill cycle ${cycle}`);
    this.figure('writes failed or unanswered per kill cycle', this.writer.count('fail') + this.writer.count('unknown') - failedBefore);
  }

  /** kill -9 of the elected master: another node is elected and publishes; the old one comes back as a follower. */
  async killMaster(): Promise<void> {
    const master = await this.cluster.master();
    if (master === undefined) throw new Error('no master before the master kill');
    await sleep(this.random.between(50, 1000));
    const killedAt = Date.now();
    await this.cluster.kill9(master);
    this.log(`kill -9 the master ${master.name}`);
    const elected = await this.cluster.waitFor('/_cat/master?format=json', (r) => r.status === 200 && r.body?.[0]?.id !== undefined && r.body[0].id !== master.id, 120_000);
    this.figure('master kill -9 to a new master publishing', Date.now() - killedAt);
    this.log(`new master ${this.cluster.byId(elected.body[0].id)?.name} after ${Date.now() - killedAt} ms`);
    await this.cluster.startNode(master);
    await this.waitGreen('the master kill');
    await this.writesGoOn('the master kill');
  }

  /** SIGSTOP of a primary's node past its lease: it is removed; after SIGCONT it rejoins and nothing is lost. */
  async pausePrimaryNode(): Promise<void> {
    const holders = (await this.nodesHoldingPrimaries()).filter((node) => node.process !== undefined);
    const victim = this.random.pick(holders);
    await sleep(this.random.between(50, 1000));
    this.cluster.pause(victim);
    const pausedAt = Date.now();
    this.log(`SIGSTOP ${victim.name}`);
    await this.cluster.waitFor('/_cat/nodes?format=json&h=id&full_id=true', (r) => r.status === 200 && Array.isArray(r.body) && !r.body.some((row: { id: string }) => row.id === victim.id), 120_000);
    this.log(`${victim.name} left the cluster ${Date.now() - pausedAt} ms after its pause`);
    await sleep(this.random.between(0, 2000));
    this.cluster.resume(victim);
    this.log(`SIGCONT ${victim.name} after ${Date.now() - pausedAt} ms`);
    await this.waitGreen('the pause');
    await this.writesGoOn('the pause');
  }

  /** etcd killed (-9) and started again on the same data after a random while. */
  async killEtcd(): Promise<void> {
    const down = this.random.between(200, 3000);
    this.log(`kill -9 etcd, down for ${down} ms`);
    const killedAt = Date.now();
    await this.cluster.etcd.restart('SIGKILL', down);
    this.log(`etcd started again`);
    await this.waitGreen('the etcd restart');
    await this.writesGoOn('the etcd restart');
    this.figure('etcd kill -9 to writes acknowledged again', Date.now() - killedAt);
  }

  /** One node cut off from everything (netns), for longer than its lease, then healed. */
  async partitionNode(): Promise<void> {
    const victim = this.random.pick(this.cluster.nodes.filter((node) => node.process !== undefined));
    await sleep(this.random.between(50, 1000));
    this.cluster.partition(victim);
    const cutAt = Date.now();
    this.log(`partition ${victim.name} off`);
    await this.cluster.waitFor('/_cat/nodes?format=json&h=id&full_id=true', (r) => r.status === 200 && Array.isArray(r.body) && r.body.length === this.options.nodes - 1 && !r.body.some((row: { id: string }) => row.id === victim.id), 120_000);
    this.log(`${victim.name} left the cluster ${Date.now() - cutAt} ms after the partition`);
    await sleep(this.random.between(0, 2000));
    this.cluster.heal(victim);
    this.log(`healed ${victim.name} after ${Date.now() - cutAt} ms`);
    await this.waitGreen('the partition');
    await this.writesGoOn('the partition');
  }
}

function formatRecord(record: WriteRecord): string {
  const detail = record.outcome === 'ok' ? `v${record.version} seq ${record.seqNo} term ${record.term}` : record.error;
  return `${record.sentAt}..${record.doneAt} ${record.id}#${record.attempt} via ${record.via}: ${record.outcome} ${detail ?? ''}`;
}
