/**
 * Replication figures of issue 13, on node processes and an etcd of their own:
 *  1. `_bulk` of the npm corpus into 1 primary + 1 replica on 2 nodes vs 1 primary on 1 node, same run
 *     (goal: at least 0.6x);
 *  2. operations-based recovery after the replica's node restarts with `--missed` operations written meanwhile
 *     (goal < 2 s; no file copied);
 *  3. file-based peer recovery throughput: a new copy of that shard on a third node (bytes copied / recovery
 *     time, against the `indices.recovery.max_bytes_per_sec` limit, default 40mb).
 *
 * Usage: node dist/bench/micro/replication.js [--docs 50000] [--batch 1000] [--clients 2] [--missed 10000] [--runs 1]
 *        [--parts bulk,ops,files] [--kill] (a subset skips the single-node run without `bulk`, 2 without `ops`, 3 without
 *        `files`; `--kill`: part 2 kills the replica's node instead of stopping it after a flush; with
 *        GANNET_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR" each node writes a CPU profile on exit)
 *        [--pin] part 1 gives each node process one core of its own (taskset, Linux): the single node on core 0, the
 *        primary on core 0 and the replica on core 1. On this two-core host an unpinned pair indexes every document
 *        twice on the cores one node alone already fills, so its ratio cannot pass ~0.5 whatever replication costs;
 *        pinned, the pair stands in for two machines of one core each and the ratio measures what replication costs
 *        the primary's node. The bench client is not pinned in either run (it shares the cores in both).
 *        [--idle-after 30s] part 1 bulks into search-idle copies (decision 0025): the index gets
 *        `index.search.idle.after` and the bulk waits until every copy reports `refresh.is_search_idle`, as a bulk
 *        into an index nobody searched for that long would find it. Without it the bulk starts right after the index
 *        is created, when no copy is idle yet (a fresh copy counts as just searched).
 *        [--lease-ttl 3s] the nodes' etcd lease (the test clusters' 3 s until 2026-11-29 lost a primary mid-bulk on a
 *        loaded host). Part 1 prints each node's event-loop stalls over 1 s and late lease renewals, and on a failover
 *        (the primary no longer on the first node, or a copy missing) the nodes' lines on membership.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { ClusterProcesses } from '../../test/helpers/cluster-processes.js';
import type { NodeProcess } from '../../test/helpers/node-process.js';
import { readCorpusLines } from './corpus.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const PIN = process.argv.includes('--pin');
/** `--refresh-interval 30s`: the bench index's refresh_interval (default: ES's default, 1s). */
const REFRESH_INTERVAL = process.argv.includes('--refresh-interval') ? process.argv[process.argv.indexOf('--refresh-interval') + 1] : undefined;
/** `--idle-after 30s`: the bench index's `index.search.idle.after`, and the bulk waits for every copy to be idle. */
const IDLE_AFTER = process.argv.includes('--idle-after') ? process.argv[process.argv.indexOf('--idle-after') + 1] : undefined;
/** `--lease-ttl 3s`: the nodes' `cluster.etcd.lease_ttl` (default: the test clusters', Gannet's 10 s). */
const LEASE_SETTING: Record<string, string> = process.argv.includes('--lease-ttl') ? { 'cluster.etcd.lease_ttl': process.argv[process.argv.indexOf('--lease-ttl') + 1]! } : {};
const REFRESH_SETTING = {
  ...(REFRESH_INTERVAL === undefined ? {} : { refresh_interval: REFRESH_INTERVAL }),
  ...(IDLE_AFTER === undefined ? {} : { 'search.idle.after': IDLE_AFTER }),
};

/** With `--idle-after`: waits until every copy of the index is search-idle (nothing here acquires a searcher). */
async function waitSearchIdle(node: NodeProcess, index: string): Promise<void> {
  if (IDLE_AFTER === undefined) return;
  for (;;) {
    const cat = await node.request('GET', `/_cat/shards/${index}?h=rsi&format=json`);
    if (cat.body.length > 0 && cat.body.every((row: { rsi: string }) => row.rsi === 'true')) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** With `--pin`, binds every thread of the node's process (and the threads it starts later) to one core. */
function pin(node: NodeProcess, core: number): void {
  if (!PIN) return;
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(node.child.pid)], { stdio: 'ignore' });
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

/** CPU time (user + system, every thread) a process has used, in milliseconds, from /proc (Linux). */
function cpuMillis(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

/** CPU milliseconds per thread name of a process (main thread, workers, V8's and libuv's pools). */
function threadCpuMillis(pid: number | undefined): Map<string, number> {
  const byName = new Map<string, number>();
  if (pid === undefined) return byName;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main' : `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}/${tid}`;
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byName;
}

/**
 * The CPU each node process spent while `work` ran, per 1,000 documents: the host's load moves wall-clock rates
 * by 2-3x between runs, CPU per document far less, and it shows which side of the replication pays.
 */
async function withCpu<T>(nodes: readonly NodeProcess[], docs: number, work: () => Promise<T>): Promise<{ result: T; cpuPer1000: number[]; wallMs: number }> {
  const before = nodes.map((node) => cpuMillis(node.child.pid));
  const threadsBefore = nodes.map((node) => threadCpuMillis(node.child.pid));
  const started = performance.now();
  const result = await work();
  const wallMs = performance.now() - started;
  const cpuPer1000 = nodes.map((node, i) => ((cpuMillis(node.child.pid) - before[i]!) * 1000) / docs);
  if (process.env['BENCH_THREADS'] !== undefined) {
    nodes.forEach((node, i) => {
      const after = threadCpuMillis(node.child.pid);
      const parts = [...after].map(([name, ms]) => [name, ((ms - (threadsBefore[i]!.get(name) ?? 0)) * 1000) / docs] as const).filter(([, ms]) => ms >= 1);
      console.log(`  node ${i} threads, CPU ms per 1,000 docs: ${parts.map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ')}`);
    });
  }
  return { result, cpuPer1000, wallMs };
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
  console.log(`npm corpus: ${lines.length} documents, ${(sourceBytes / 1e6).toFixed(1)} MB of sources, bulk ${batch}, ${clients} clients${PIN ? '; part 1 pinned: one core per node process' : ''}`);

  // 1. `--runs` pairs (one node, then the two-node cluster; the host's load falls on both); the last pair's cluster
  // goes on to parts 2 and 3. The ratio printed at the end is the median of the pairs' ratios.
  const runs = parts.has('bulk') ? arg('runs', 1) : 1;
  const ratios: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const singleRate = parts.has('bulk') ? await singleNodeRun(bodies, clients, lines.length) : NaN;
    const last = run === runs;
    await replicatedRun(bodies, clients, lines.length, singleRate, ratios, last ? async (cluster) => {
      // 2. Operations-based recovery: the replica's node stops, `missed` operations are written, it comes back.
      if (parts.has('ops')) await opsBasedRecovery(cluster, batch, clients, missed);
      // 3. File-based recovery of a big index to a node that never held it, throttled and not.
      if (parts.has('files')) await fileBasedRecovery(cluster, arg('file-mb', 200));
    } : undefined);
  }
  if (ratios.length > 1) {
    const sorted = [...ratios].sort((x, y) => x - y);
    console.log(`ratio over ${ratios.length} pairs: ${sorted.map((r) => r.toFixed(2)).join(', ')}; median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}x (goal >= 0.6x)`);
  }
}

/** Refreshes each copy ran during the bulk, as `_stats` counts them (external: made documents visible). */
async function refreshText(node: NodeProcess, index: string): Promise<string> {
  const stats = await node.request('GET', `/${index}/_stats/refresh,merge?level=shards`);
  const copies: any[] = stats.body?.indices?.[index]?.shards?.['0'] ?? [];
  return copies
    .sort((x, y) => Number(y.routing.primary) - Number(x.routing.primary))
    .map(
      (copy) =>
        `${copy.routing.primary ? 'primary' : 'replica'} ${copy.refresh.external_total} refreshes (${copy.refresh.total_time_in_millis} ms in all), ${copy.merges?.total ?? 0} merges` +
        `${copy.search_idle === undefined ? '' : copy.search_idle ? ' (search-idle)' : ' (searched)'}`,
    )
    .join(', ');
}

/**
 * After the bulk: the first search on every copy (its wall time, and how many documents it saw), then `_refresh`
 * of what is still buffered; the CPU of both per 1,000 documents, per node. A search-idle copy's first search pays
 * the refresh its bulk skipped (decision 0025), and the refresh leaves no build with unwritten documents, so bulk
 * CPU + this is what compares between a build that refreshes every second and one that skips.
 */
async function afterBulkText(coordinator: NodeProcess, nodes: readonly NodeProcess[], docs: number): Promise<string> {
  const { result: searches, cpuPer1000 } = await withCpu(nodes, docs, async () => {
    const searches: string[] = [];
    for (const node of nodes) {
      const started = performance.now();
      const answer = await coordinator.request('GET', `/bench/_search?size=0&track_total_hits=true&preference=_only_nodes:${node.nodeId}`);
      searches.push(`${Math.round(performance.now() - started)} ms (${answer.body?.hits?.total?.value} docs)`);
    }
    await coordinator.request('POST', '/bench/_refresh');
    return searches;
  });
  return `first search per copy ${searches.join(' + ')}; search + _refresh CPU ms per 1,000 docs ${cpuPer1000.map((ms) => ms.toFixed(0)).join(' + ')}`;
}

function cpuText(cpuPer1000: readonly number[]): string {
  return `CPU ms per 1,000 docs ${cpuPer1000.map((ms) => ms.toFixed(0)).join(' + ')}`;
}

/** 1a. One node, one primary. */
async function singleNodeRun(bodies: readonly string[], clients: number, docs: number): Promise<number> {
  const single = await ClusterProcesses.start(1);
  try {
    const [node] = single.nodes as [NodeProcess];
    await node.request('PUT', '/bench', { body: { settings: { number_of_shards: 1, number_of_replicas: 0, ...REFRESH_SETTING } } });
    await waitGreen(node, 'bench');
    await waitSearchIdle(node, 'bench');
    pin(node, 0);
    const { result: rate, cpuPer1000 } = await withCpu([node], docs, () => ingest(node, bodies, clients, docs));
    console.log(`1 primary on 1 node:             ${Math.round(rate)} docs/s; ${cpuText(cpuPer1000)}; ${await refreshText(node, 'bench')}`);
    console.log(`  then ${await afterBulkText(node, [node], docs)}`);
    return rate;
  } finally {
    await single.stop();
  }
}

/** What the nodes logged about their membership and their event loops: why a copy moved, when one did. */
const MEMBERSHIP_EVENTS = ['event_loop_stall', 'lease_renewal_late', 'node_left', 'no_master', 'shard_failed', 'lost the etcd lease', 'stepping down', 'elected as master'];

/**
 * After the bulk: if the primary is not on the first node any more, or a copy is missing, the nodes' own lines on
 * membership, lease renewals and event-loop stalls (a failover seen once at load 16-22 left no trace); in any case how
 * many stalls above the threshold each node logged, and the longest.
 */
async function reportFailover(primaryNode: NodeProcess, nodes: readonly NodeProcess[]): Promise<void> {
  const routing = await primaryNode.request('GET', '/_cluster/state/routing_table/bench?local=true');
  const copies: any[] = routing.body?.routing_table?.indices?.bench?.shards?.['0'] ?? [];
  const primaryHere = copies.some((copy) => copy.primary && copy.node === primaryNode.nodeId && copy.state === 'STARTED');
  const started = copies.filter((copy) => copy.state === 'STARTED').length;
  nodes.forEach((node, i) => {
    const stalls = node.logs.filter((line) => line.includes('"event_loop_stall"')).map((line) => Number((JSON.parse(line) as { stalled_millis: number }).stalled_millis));
    const late = node.logs.filter((line) => line.includes('"lease_renewal_late"')).length;
    console.log(`  node ${i}: ${stalls.length} event-loop stalls above the threshold${stalls.length > 0 ? ` (longest ${Math.max(...stalls)} ms)` : ''}, ${late} late lease renewals`);
  });
  if (primaryHere && started === 2) return;
  console.log(`  FAILOVER during the bulk: ${started} started copies, primary ${primaryHere ? 'still' : 'no longer'} on node 0; the nodes' lines:`);
  nodes.forEach((node, i) => {
    for (const line of node.logs.filter((logged) => MEMBERSHIP_EVENTS.some((event) => logged.includes(event)))) console.log(`  node ${i}: ${line.slice(0, 400)}`);
  });
}

/** 1b. Two nodes, the primary on the first and its replica on the second; then `more` on the same cluster. */
async function replicatedRun(bodies: readonly string[], clients: number, docs: number, singleRate: number, ratios: number[], more?: (cluster: ClusterProcesses) => Promise<void>): Promise<void> {
  // Stalls of the event loop longer than a second are logged (the default threshold is 5 s), to be counted above.
  const cluster = await ClusterProcesses.start(1, { 'thread_pool.estimated_time_interval.warn_threshold': '1s', ...LEASE_SETTING });
  let keptData: string | undefined;
  try {
    const [a] = cluster.nodes as [NodeProcess];
    const b = await cluster.addNode({}, { keepData: true });
    keptData = b.dataPath;
    // The primary on the first node, the replica on the second: the one whose data survives its stop (part 2).
    await a.request('PUT', '/bench', { body: { settings: { number_of_shards: 1, number_of_replicas: 0, 'routing.allocation.require._id': a.nodeId, ...REFRESH_SETTING } } });
    await waitGreen(a, 'bench');
    await a.request('PUT', '/bench/_settings', { body: { index: { number_of_replicas: 1, 'routing.allocation.require._id': null } } });
    await waitGreen(a, 'bench');
    await waitSearchIdle(a, 'bench');
    pin(a, 0);
    pin(b, 1);
    const { result: rate, cpuPer1000 } = await withCpu([a, b], docs, () => ingest(a, bodies, clients, docs));
    await reportFailover(a, [a, b]);
    ratios.push(rate / singleRate);
    console.log(`1 primary + 1 replica, 2 nodes:  ${Math.round(rate)} docs/s (${(rate / singleRate).toFixed(2)}x of one node; goal >= 0.6x); ${cpuText(cpuPer1000)} (primary + replica); ${await refreshText(a, 'bench')}`);
    console.log(`  then ${await afterBulkText(a, [a, b], docs)}`);
    if (more !== undefined) await more(cluster);
  } finally {
    await cluster.stop();
    if (keptData !== undefined) rmSync(keptData, { recursive: true, force: true });
  }
}

/**
 * The replica's node stops cleanly after a flush of both copies (or, with `--kill`, is killed with kill -9 and no
 * commit since its recovery: it then replays its own translog up to its global checkpoint first, decision 0021),
 * `missed` operations are written, and it comes back.
 */
async function opsBasedRecovery(cluster: ClusterProcesses, batch: number, clients: number, missed: number): Promise<void> {
  const kill = process.argv.includes('--kill');
  const [a] = cluster.nodes as [NodeProcess];
  const routing = await a.request('GET', '/_cluster/state/routing_table/bench');
  const replicaNode: string = routing.body.routing_table.indices.bench.shards['0'].find((copy: any) => !copy.primary).node;
  const replica = cluster.nodes.find((node) => node.nodeId === replicaNode)!;
  const primary = cluster.nodes.find((node) => node !== replica)!;
  if (!kill) await primary.request('POST', '/bench/_flush');
  // The replica's commit is safe (operations-based recovery) once the global checkpoint it persisted covers it:
  // the primary's sync after the last write brings it; under load that takes longer than a fixed pause.
  for (;;) {
    const stats = await primary.request('GET', '/bench/_stats?level=shards');
    const copies: any[] = stats.body.indices.bench.shards['0'];
    if (copies.length === 2 && copies.every((copy) => copy.seq_no.global_checkpoint === copy.seq_no.max_seq_no)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (kill) {
    await replica.kill9();
  } else {
    await replica.request('POST', '/bench/_flush');
    await replica.stop();
  }
  cluster.nodes.splice(cluster.nodes.indexOf(replica), 1);
  const missedBodies = bulkBodies(readCorpusLines(missed, 'npm'), 'bench', batch, 1_000_000);
  await ingest(primary, missedBodies, clients, missed);
  const restartAt = performance.now();
  const primaryCpuBefore = cpuMillis(primary.child.pid);
  const primaryThreadsBefore = threadCpuMillis(primary.child.pid);
  const restarted = await cluster.addNode({}, { dataPath: replica.dataPath, keepData: true });
  await waitGreen(primary, 'bench');
  const opsWall = performance.now() - restartAt;
  // CPU from the node's start to green (the restarted node's whole life so far: start-up included) and the primary's.
  console.log(`  CPU during the recovery: restarted node ${cpuMillis(restarted.child.pid).toFixed(0)} ms (from its start), primary ${(cpuMillis(primary.child.pid) - primaryCpuBefore).toFixed(0)} ms`);
  if (process.env['BENCH_THREADS'] !== undefined) {
    const threadText = (after: Map<string, number>, before: Map<string, number>): string =>
      [...after].map(([name, ms]) => [name, ms - (before.get(name) ?? 0)] as const).filter(([, ms]) => ms >= 10).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ');
    console.log(`  restarted node threads, CPU ms: ${threadText(threadCpuMillis(restarted.child.pid), new Map())}`);
    console.log(`  primary threads, CPU ms: ${threadText(threadCpuMillis(primary.child.pid), primaryThreadsBefore)}`);
  }
  const opsBased = await peerRecovery(primary, 'bench');
  console.log(
    `operations-based recovery${kill ? ' (kill -9)' : ''}: ${opsBased.translog.recovered} operations (own translog included), ${opsBased.index.files.recovered} files copied, ` +
      `${opsBased.total_time_in_millis} ms (translog stage ${opsBased.translog.total_time_in_millis} ms; goal < 2 s); node start to green ${Math.round(opsWall)} ms`,
  );
  // The primary's own words on its choice (a file copy where operations were hoped for says why) and phases.
  for (const event of ['peer_recovery_start', 'peer_recovery_done']) {
    const line = primary.logs.filter((logged) => logged.includes(event)).pop();
    if (line !== undefined) console.log(`  primary: ${(JSON.parse(line) as { msg: string }).msg}`);
  }
  // The copy's own words on its local recovery (and why it failed, when it did).
  // With GANNET_NODE_OPTIONS=--trace-gc: the restarted node's collector pauses (every isolate's) since its start.
  const pauses = restarted.logs.map((logged) => /ms: ([A-Za-z-]+).*?MB, ([0-9.]+) \/ [0-9.]+ ms/.exec(logged)).filter((match) => match !== null);
  if (pauses.length > 0) console.log(`  replica: ${pauses.length} GC pauses, ${pauses.reduce((sum, match) => sum + Number(match[2]), 0).toFixed(0)} ms`);
  for (const line of restarted.logs.filter((logged) => logged.includes('"local_recovery"') || logged.includes('local recovery up to') || logged.includes('"recovery_finalize"'))) {
    const logged = JSON.parse(line) as { msg: string; err?: { message?: string } };
    console.log(`  replica: ${logged.msg}${logged.err === undefined ? '' : ` (${JSON.stringify(logged.err).slice(0, 600)})`}`);
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
