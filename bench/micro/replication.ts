/**
 * Replication figures of issue 13, on node processes and an etcd of their own:
 *  1. `_bulk` of the npm corpus into 1 primary + 1 replica on 2 nodes vs 1 primary on 1 node, same run
 *     (goal: at least 0.6x);
 *  2. operations-based recovery after the replica's node restarts with `--missed` operations written meanwhile
 *     (goal < 2 s; no file copied);
 *  3. file-based peer recovery throughput: a new copy of that shard on a third node (bytes copied / recovery
 *     time, against the `indices.recovery.max_bytes_per_sec` limit, default 40mb).
 *
 * Usage: node dist/bench/micro/replication.js [--docs 50000] [--batch 1000] [--clients 2] [--missed 10000]
 *        [--parts bulk,ops,files] (a subset skips the single-node run without `bulk`, 2 without `ops`, 3 without
 *        `files`; with GANNET_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR" each node writes a CPU profile on exit)
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { ClusterProcesses } from '../../test/helpers/cluster-processes.js';
import type { NodeProcess } from '../../test/helpers/node-process.js';
import { readCorpusLines } from './corpus.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const NDJSON = { 'content-type': 'application/x-ndjson' };

function bulkBodies(lines: readonly Buffer[], index: string, batch: number, idOffset = 0): string[] {
  const bodies: string[] = [];
  for (let start = 0; start < lines.length; start += batch) {
    const parts: string[] = [];
    for (let i = start; i < Math.min(lines.length, start + batch); i++) parts.push(`{"index":{"_index":"${index}","_id":"${i + idOffset}"}}\n${lines[i]!.toString('utf8')}\n`);
    bodies.push(parts.join(''));
  }
  return bodies;
}

/** Sends the bodies with `clients` requests in flight; returns documents per second. */
async function ingest(node: NodeProcess, bodies: readonly string[], clients: number, docs: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const answer = await node.request('POST', '/_bulk', { raw: body, headers: NDJSON });
        if (answer.status !== 200 || answer.body.errors) throw new Error(`bulk failed: ${answer.text.slice(0, 500)}`);
      }
    }),
  );
  return docs / ((performance.now() - started) / 1000);
}

async function waitGreen(node: NodeProcess, index: string): Promise<void> {
  for (;;) {
    const health = await node.request('GET', `/_cluster/health/${index}?wait_for_status=green&timeout=120s`);
    if (health.body?.status === 'green') return;
  }
}

async function peerRecovery(node: NodeProcess, index: string): Promise<any> {
  const recovery = await node.request('GET', `/${index}/_recovery`);
  return recovery.body[index].shards.filter((shard: any) => shard.type === 'PEER').sort((a: any, b: any) => b.start_time_in_millis - a.start_time_in_millis)[0];
}

async function main(): Promise<void> {
  const docs = arg('docs', 50_000);
  const batch = arg('batch', 1000);
  const clients = arg('clients', 2);
  const missed = arg('missed', 10_000);
  const partsIndex = process.argv.indexOf('--parts');
  const parts = new Set(partsIndex >= 0 ? process.argv[partsIndex + 1]!.split(',') : ['bulk', 'ops', 'files']);
  const lines = readCorpusLines(docs, 'npm');
  const bodies = bulkBodies(lines, 'bench', batch);
  const sourceBytes = lines.reduce((sum, line) => sum + line.length, 0);
  console.log(`npm corpus: ${lines.length} documents, ${(sourceBytes / 1e6).toFixed(1)} MB of sources, bulk ${batch}, ${clients} clients`);

  // 1a. One node, one primary.
  let singleRate = NaN;
  if (parts.has('bulk')) {
    const single = await ClusterProcesses.start(1);
    try {
      const [node] = single.nodes as [NodeProcess];
      await node.request('PUT', '/bench', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
      await waitGreen(node, 'bench');
      singleRate = await ingest(node, bodies, clients, lines.length);
    } finally {
      await single.stop();
    }
    console.log(`1 primary on 1 node:             ${Math.round(singleRate)} docs/s`);
  }

  // 1b. Two nodes, primary + replica; then 2 and 3 on the same cluster.
  const cluster = await ClusterProcesses.start(1);
  let keptData: string | undefined;
  try {
    const [a] = cluster.nodes as [NodeProcess];
    const b = await cluster.addNode({}, { keepData: true });
    keptData = b.dataPath;
    // The primary on the first node, the replica on the second: the one whose data survives its stop (part 2).
    await a.request('PUT', '/bench', { body: { settings: { number_of_shards: 1, number_of_replicas: 0, 'routing.allocation.require._id': a.nodeId } } });
    await waitGreen(a, 'bench');
    await a.request('PUT', '/bench/_settings', { body: { index: { number_of_replicas: 1, 'routing.allocation.require._id': null } } });
    await waitGreen(a, 'bench');
    const replicatedRate = await ingest(a, bodies, clients, lines.length);
    console.log(`1 primary + 1 replica, 2 nodes:  ${Math.round(replicatedRate)} docs/s (${(replicatedRate / singleRate).toFixed(2)}x of one node; goal >= 0.6x)`);

    // 2. Operations-based recovery: the replica's node stops, `missed` operations are written, it comes back.
    if (parts.has('ops')) await opsBasedRecovery(cluster, batch, clients, missed);
    // 3. File-based recovery of a big index to a node that never held it, throttled and not.
    if (parts.has('files')) await fileBasedRecovery(cluster, arg('file-mb', 200));
  } finally {
    await cluster.stop();
    if (keptData !== undefined) rmSync(keptData, { recursive: true, force: true });
  }
}

async function opsBasedRecovery(cluster: ClusterProcesses, batch: number, clients: number, missed: number): Promise<void> {
  const [a] = cluster.nodes as [NodeProcess];
  const routing = await a.request('GET', '/_cluster/state/routing_table/bench');
  const replicaNode: string = routing.body.routing_table.indices.bench.shards['0'].find((copy: any) => !copy.primary).node;
  const replica = cluster.nodes.find((node) => node.nodeId === replicaNode)!;
  const primary = cluster.nodes.find((node) => node !== replica)!;
  await primary.request('POST', '/bench/_flush');
  // The replica's commit is safe (operations-based recovery) once the global checkpoint it persisted covers it:
  // the primary's sync after the last write brings it; under load that takes longer than a fixed pause.
  for (;;) {
    const stats = await primary.request('GET', '/bench/_stats?level=shards');
    const copies: any[] = stats.body.indices.bench.shards['0'];
    if (copies.length === 2 && copies.every((copy) => copy.seq_no.global_checkpoint === copy.seq_no.max_seq_no)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await replica.request('POST', '/bench/_flush');
  await replica.stop();
  cluster.nodes.splice(cluster.nodes.indexOf(replica), 1);
  const missedBodies = bulkBodies(readCorpusLines(missed, 'npm'), 'bench', batch, 1_000_000);
  await ingest(primary, missedBodies, clients, missed);
  const restartAt = performance.now();
  await cluster.addNode({}, { dataPath: replica.dataPath, keepData: true });
  await waitGreen(primary, 'bench');
  const opsWall = performance.now() - restartAt;
  const opsBased = await peerRecovery(primary, 'bench');
  console.log(
    `operations-based recovery:       ${opsBased.translog.recovered} operations, ${opsBased.index.files.recovered} files copied, ` +
      `${opsBased.total_time_in_millis} ms (translog stage ${opsBased.translog.total_time_in_millis} ms; goal < 2 s); node start to green ${Math.round(opsWall)} ms`,
  );
  // The primary's own words on its choice (a file copy where operations were hoped for says why) and phases.
  for (const event of ['peer_recovery_start', 'peer_recovery_done']) {
    const line = primary.logs.filter((logged) => logged.includes(event)).pop();
    if (line !== undefined) console.log(`  primary: ${(JSON.parse(line) as { msg: string }).msg}`);
  }
}

/**
 * An index of about `megabytes` of stored sources (random base64 in a `binary` field: stored, not indexed, so
 * loading it is cheap), one primary on the first node, flushed; then a replica on a node new to the cluster,
 * first with `indices.recovery.max_bytes_per_sec` unlimited (0; the copy's own speed), then at the 40mb default.
 */
async function fileBasedRecovery(cluster: ClusterProcesses, megabytes: number): Promise<void> {
  const [primary] = cluster.nodes as [NodeProcess];
  const created = await primary.request('PUT', '/big', {
    body: {
      settings: { number_of_shards: 1, number_of_replicas: 0, 'routing.allocation.require._id': primary.nodeId, refresh_interval: -1 },
      mappings: { properties: { blob: { type: 'binary' } } },
    },
  });
  if (created.status !== 200) throw new Error(created.text);
  const docBytes = 96 * 1024;
  const docs = Math.ceil((megabytes * 1e6) / docBytes);
  for (let start = 0; start < docs; start += 20) {
    const parts: string[] = [];
    for (let i = start; i < Math.min(docs, start + 20); i++) parts.push(`{"index":{"_index":"big","_id":"${i}"}}\n{"blob":"${randomBytes((docBytes * 3) / 4).toString('base64')}"}\n`);
    const answer = await primary.request('POST', '/_bulk', { raw: parts.join(''), headers: NDJSON });
    if (answer.status !== 200 || answer.body.errors) throw new Error(`bulk failed: ${answer.text.slice(0, 500)}`);
  }
  await primary.request('POST', '/big/_flush');
  for (const limit of ['0', '40mb']) {
    // A node that never held the index, so every file is copied (a node that held it recovers by operations).
    const target = await cluster.addNode();
    await primary.request('PUT', '/_cluster/settings', { body: { transient: { 'indices.recovery.max_bytes_per_sec': limit } } });
    const raisedAt = performance.now();
    await primary.request('PUT', '/big/_settings', {
      body: { index: { number_of_replicas: 1, 'routing.allocation.require._id': null, 'routing.allocation.include._id': `${primary.nodeId},${target.nodeId}` } },
    });
    await waitGreen(primary, 'big');
    const wall = performance.now() - raisedAt;
    const recoveries = (await primary.request('GET', '/big/_recovery')).body.big.shards;
    const copy = recoveries.find((shard: any) => shard.type === 'PEER' && shard.target.id === target.nodeId);
    const copied = copy.index.size.recovered_in_bytes as number;
    const indexMillis = copy.index.total_time_in_millis as number;
    console.log(
      `file-based recovery, limit ${limit === '0' ? 'none' : limit}: ${(copied / 1e6).toFixed(1)} MB in ${copy.index.files.recovered} files, index stage ${indexMillis} ms ` +
        `(${(copied / 1e6 / (indexMillis / 1000)).toFixed(1)} MB/s; 40mb = 41.9 MB/s), throttled ${copy.index.source_throttle_time_in_millis} ms, ` +
        `recovery ${copy.total_time_in_millis} ms, settings change to green ${Math.round(wall)} ms`,
    );
    // Back to the primary alone before the next round.
    await primary.request('PUT', '/big/_settings', { body: { index: { number_of_replicas: 0, 'routing.allocation.include._id': primary.nodeId } } });
    await waitGreen(primary, 'big');
  }
  await primary.request('PUT', '/_cluster/settings', { body: { transient: { 'indices.recovery.max_bytes_per_sec': null } } });
}

await main();
