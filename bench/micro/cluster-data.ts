/**
 * Cluster data-path figures of issue 12, each beside one node in the same run (same client code, same host load):
 *  1. `_bulk` of the npm corpus through one node into 3 primary shards, on one node vs on a three-node cluster on
 *     etcd (one primary per node: two thirds of every bulk crosses the transport to the other nodes);
 *  2. search QPS and p50/p99 of the Debian query set (3 shards) through a coordinating node of the cluster vs one
 *     node, with 1 and 8 clients; the top-10 ids must agree.
 * Runs alternate (one node, cluster, one node, cluster, ...) so that a change in the host's load falls on both.
 *
 * Usage: node dist/bench/micro/cluster-data.js [--runs 2] [--limit all|<docs>] [--warmup 5000] [--clients 1,8] [--tracks ingest,search]
 */
import { loadavg } from 'node:os';
import { corpusSpec, readCorpusLines, readQueries } from '../lib/corpus.js';
import { summarize } from '../lib/stats.js';
import { cpuText } from '../lib/process-cpu.js';
import { call, SearchServer, type SearchFigures } from '../peers/http-server.js';
import { NodeProcess } from '../../test/helpers/node-process.js';
import { ClusterProcesses } from '../../test/helpers/cluster-processes.js';

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}

interface Entry {
  readonly name: string;
  start(): Promise<SearchServer>;
}

const single: Entry = {
  name: 'one node',
  async start() {
    const node = await NodeProcess.start({ settings: { 'node.name': 'bench-single' } });
    return new SearchServer('one node', { port: node.port, pid: node.child.pid, stop: async () => void (await node.stop()) });
  },
};

const cluster: Entry = {
  name: '3-node cluster',
  async start() {
    // The default lease (10 s): the tests' 3 s drops a node whose event loop a large bulk blocks on a loaded host.
    const processes = await ClusterProcesses.start(3, { 'cluster.etcd.lease_ttl': '10s' });
    await processes.waitFor(processes.nodes[0]!, '/_cluster/health', (r) => r.body?.number_of_nodes === 3);
    const first = processes.nodes[0]!;
    const pids = processes.nodes.map((node) => node.child.pid!);
    return new SearchServer('3-node cluster', { port: first.port, pid: first.child.pid, pids, stop: () => processes.stop() });
  },
};

const runs = Number(arg('runs', '2'));
// The whole npm corpus by default (issue 12: "`_bulk` throughput of the npm corpus"). Its first 50,000 documents, the
// default until 2026-11-29, take ~3 s on a quiet host, a run in which V8 compiling the fresh isolates (TurboFan on
// its own threads: every node's event loop and each new shard's indexing worker) was 26-30% of all the CPU in
// `perf`, so the ratio measured JIT warm-up as much as the per-document cost of the coordinating node and the
// transport (bench/BENCHMARKS.md). `--limit 50000` gives the old figure.
const limitText = arg('limit', 'all');
const limit = limitText === 'all' ? Infinity : Number(limitText);
// Documents of the warm-up before each timed ingest (the same number for one node and the cluster).
const warmupDocs = Number(arg('warmup', '5000'));
const clientCounts = arg('clients', '1,8').split(',').map(Number);
const entries = [single, cluster];
const tracks = new Set(arg('tracks', 'ingest,search').split(','));

// 1. Bulk ingest into three primaries.
if (tracks.has('ingest')) await ingestTrack();

async function ingestTrack(): Promise<void> {
  const npm = corpusSpec('npm');
  const npmLines = await readCorpusLines(npm, limit);
  const ingestRates = new Map<string, number[]>(entries.map((entry) => [entry.name, []]));
  for (let run = 0; run < runs; run++) {
    for (const entry of entries) {
      const server = await entry.start();
      try {
        // The warm-up index has the timed index's 3 shards: with one shard, only the one node holding it ran
        // (and compiled) the indexing path before the timed run, and the coordinating node never forwarded a group.
        await server.warmUp(npm, npmLines, 3, warmupDocs);
        const figures = await server.ingest(npm, npmLines, { shards: 3, batchSize: 1000 });
        ingestRates.get(entry.name)!.push(figures.docsPerSecond);
        // The comparison holds only with one primary per node on the cluster (two thirds of every bulk forwarded).
        if (run === 0) console.log(`  primaries: ${String((await call(server.port, 'GET', '/_cat/shards/bench?h=shard,prirep,node&s=shard')).body).trim().split('\n').join('; ')}`);
        const cpuTotal = figures.cpuPer1000.reduce((sum, cpu) => sum + cpu.main + cpu.threads, 0);
        console.log(
          `ingest run ${run + 1} ${entry.name}: ${figures.docsPerSecond.toFixed(0)} docs/s (${figures.seconds.toFixed(1)} s); ` +
            `CPU ms per 1,000 docs ${cpuText(figures.cpuPer1000)}${figures.cpuPer1000.length > 1 ? `, total ${cpuTotal.toFixed(0)}` : ''}; load ${loadavg()[0]!.toFixed(1)}`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  const singleRate = summarize(ingestRates.get(single.name)!).median;
  const clusterRate = summarize(ingestRates.get(cluster.name)!).median;
  console.log(`_bulk npm x${npmLines.length} into 3 primaries: one node ${singleRate.toFixed(0)} docs/s, cluster ${clusterRate.toFixed(0)} docs/s, ratio ${(clusterRate / singleRate).toFixed(2)} (medians of ${runs})`);
}

// 2. Search through a coordinating node.
if (tracks.has('search')) await searchTrack();

async function searchTrack(): Promise<void> {
  const debian = corpusSpec('debian');
  const debianLines = await readCorpusLines(debian);
  const queries = readQueries(debian);
  const searchFigures = new Map<string, SearchFigures[]>();
  for (let run = 0; run < runs; run++) {
    for (const entry of entries) {
      const server = await entry.start();
      try {
        // Explicit ids: every document lands on the same shard in both, so scores and top 10 must agree.
        await server.ingest(debian, debianLines, { shards: 3, batchSize: 2000, explicitIds: true });
        for (const clients of clientCounts) {
          const figures = await server.search(debian, queries, { clients, passes: 3, warmupPasses: 1 });
          const key = `${entry.name}|${clients}`;
          searchFigures.set(key, [...(searchFigures.get(key) ?? []), figures]);
          console.log(`search run ${run + 1} ${entry.name}, ${clients} client(s): ${figures.qps.toFixed(0)} qps, p50 ${figures.p50Ms.toFixed(1)} ms, p99 ${figures.p99Ms.toFixed(1)} ms`);
        }
      } finally {
        await server.stop();
      }
    }
  }
  for (const clients of clientCounts) {
    const one = searchFigures.get(`${single.name}|${clients}`)!;
    const three = searchFigures.get(`${cluster.name}|${clients}`)!;
    let differing = 0;
    for (const [qid, ids] of one[one.length - 1]!.top10) if (JSON.stringify(three[three.length - 1]!.top10.get(qid)) !== JSON.stringify(ids)) differing++;
    const median = (list: SearchFigures[], pick: (f: SearchFigures) => number) => summarize(list.map(pick)).median;
    console.log(
      `Debian queries, 3 shards, ${clients} client(s): one node ${median(one, (f) => f.qps).toFixed(0)} qps p99 ${median(one, (f) => f.p99Ms).toFixed(1)} ms; ` +
        `through a coordinating node ${median(three, (f) => f.qps).toFixed(0)} qps p99 ${median(three, (f) => f.p99Ms).toFixed(1)} ms; top-10 differing on ${differing} of ${queries.length} queries`,
    );
  }
}
