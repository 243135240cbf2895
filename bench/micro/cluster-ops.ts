/**
 * Cluster figures of issue 12 that need no corpus:
 *  1. cluster-state publication latency with 100 indices x 3 shards: three etcd coordinators in this process
 *     (the state store and the watch are the real ones); from the master's commit to the last node applying;
 *  2. p50/p99 of `_cat/nodes`, `_cluster/health` and `_tasks` under 50 concurrent clients on a three-node
 *     cluster of real processes on etcd (each request fans out to all three nodes where ES's does), with the CPU
 *     time each node spent per request (from /proc; a loaded host moves latencies far more than this).
 *
 * Usage: node dist/bench/micro/cluster-ops.js [--seconds 10] [--updates 50] [--rate N] [--rounds 1] [--paths a,b]
 *
 * `--rate N` holds the 50 clients to N requests per second in all (autocannon's overallRate) instead of as many as
 * the cluster answers: CPU per request then compares across builds at one load (under saturation each build batches
 * transport writes differently). To compare two builds at one host load, run each build's copy of this bench at the
 * same time with the same `--rate` (bench/BENCHMARKS.md, "ops fan-out allocations"). `--updates 0` skips the
 * publication figure; `--rounds` repeats each measurement; `--paths` picks the commands.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { ClusterState, IndexMetadata, ShardRouting } from '../../src/cluster/index.js';
import { TestEtcd } from '../../test/helpers/etcd.js';
import { ClusterProcesses } from '../../test/helpers/cluster-processes.js';
import { etcdKind } from '../../test/cluster/coordinator-harness.js';
import { summarize } from '../lib/stats.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function indexMetadata(name: string): IndexMetadata {
  return {
    name,
    uuid: `uuid-${name}`,
    state: 'open',
    numberOfShards: 3,
    numberOfReplicas: 0,
    creationDateMillis: Date.now(),
    settings: { 'index.number_of_shards': '3', 'index.number_of_replicas': '0', 'index.uuid': `uuid-${name}` },
    mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' } } },
    aliases: {},
    primaryTerms: [1, 1, 1],
    inSyncAllocationIds: [[`${name}-0`], [`${name}-1`], [`${name}-2`]],
  };
}

function shards(name: string, nodes: string[]): ShardRouting[][] {
  return [0, 1, 2].map((shard) => [
    { index: name, shard, primary: true, state: 'STARTED', nodeId: nodes[shard % nodes.length], relocatingNodeId: undefined, allocationId: `${name}-${shard}`, recoverySource: undefined, unassignedInfo: undefined },
  ]);
}

async function publicationLatency(updates: number): Promise<number[]> {
  const etcd = await TestEtcd.start();
  const kind = etcdKind(() => etcd, 5);
  const nodes = [await kind.startNode('p1'), await kind.startNode('p2', ['data']), await kind.startNode('p3', ['data'])];
  try {
    const master = nodes[0]!;
    await master.coordinator.submitStateUpdate('100 indices x 3 shards', (state) => {
      const indices = new Map(state.indices);
      const routing = new Map(state.routing);
      for (let i = 0; i < 100; i++) {
        const name = `index-${i}`;
        indices.set(name, indexMetadata(name));
        routing.set(name, shards(name, ['p1', 'p2', 'p3']));
      }
      return { ...state, indices, routing };
    });
    const latencies: number[] = [];
    for (let i = 0; i < updates; i++) {
      const applied = nodes.map(
        (node) =>
          new Promise<number>((resolve) => {
            const off = node.clusterService.onChange((state: ClusterState) => {
              if (state.persistentSettings['bench.step'] === String(i)) {
                off();
                resolve(performance.now());
              }
            });
          }),
      );
      // A routing change of one index and a setting: what a shard-started update publishes.
      const committed = master.coordinator.submitStateUpdate(`step ${i}`, (state) => ({ ...state, persistentSettings: { ...state.persistentSettings, 'bench.step': String(i) } }));
      const start = performance.now();
      await committed;
      const commitAt = performance.now();
      const last = Math.max(...(await Promise.all(applied)));
      latencies.push(Math.max(0, last - Math.min(commitAt, start)));
    }
    return latencies;
  } finally {
    for (const node of nodes) await node.coordinator.stop();
    await etcd.stop();
  }
}

/** CPU time (user + system) a process has used, in milliseconds, from /proc (Linux). */
function cpuMillis(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

interface OpsRow {
  path: string;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  /** CPU milliseconds per request on each node (the coordinating node first): what a loaded host does not change much. */
  cpuPerRequest: number[];
}

async function opsUnderLoad(seconds: number, rate: number, rounds: number, paths: readonly string[]): Promise<OpsRow[]> {
  const cluster = await ClusterProcesses.start(3);
  try {
    await cluster.waitFor(cluster.nodes[0]!, '/_cluster/health', (r) => r.body?.number_of_nodes === 3);
    const out: OpsRow[] = [];
    for (const path of paths) {
      // Warmed up first, so the figures are not the JIT compiling the path and the first connections opening.
      await autocannon({ url: `${cluster.nodes[0]!.url}${path}`, connections: 10, amount: 500 });
      for (let round = 0; round < rounds; round++) {
        const before = cluster.nodes.map((node) => cpuMillis(node.child.pid));
        const result = await autocannon({ url: `${cluster.nodes[0]!.url}${path}`, connections: 50, duration: seconds, ...(rate > 0 && { overallRate: rate }) });
        const requests = result.requests.total;
        const cpuPerRequest = cluster.nodes.map((node, i) => (cpuMillis(node.child.pid) - before[i]!) / Math.max(1, requests));
        out.push({ path, p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, errors: result.errors + result.non2xx, cpuPerRequest });
      }
    }
    return out;
  } finally {
    await cluster.stop();
  }
}

const updates = arg('updates', 50);
if (updates > 0) {
  const latencies = await publicationLatency(updates);
  const summary = summarize(latencies);
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `publication, 100 indices x 3 shards, 3 nodes: median ${summary.median.toFixed(1)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms over ${latencies.length} updates`,
  );
}
const pathsIndex = process.argv.indexOf('--paths');
const paths = pathsIndex >= 0 ? process.argv[pathsIndex + 1]!.split(',') : ['/_cat/nodes', '/_cluster/health', '/_tasks'];
for (const row of await opsUnderLoad(arg('seconds', 10), arg('rate', 0), arg('rounds', 1), paths)) {
  const cpu = row.cpuPerRequest.map((millis) => millis.toFixed(2)).join(' / ');
  const total = row.cpuPerRequest.reduce((sum, millis) => sum + millis, 0);
  console.log(
    `${row.path.padEnd(18)} 50 clients: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors}; CPU ms per request (nodes 0/1/2) ${cpu} (total ${total.toFixed(2)})`,
  );
}
