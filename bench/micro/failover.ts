/**
 * Failover figures of issue 14 (decision 0013), on three node processes and an etcd of their own, with the
 * production lease (`cluster.etcd.lease_ttl` 10 s: a killed process is detected by its closed connection, 0011):
 *
 * - kill -9 of a non-master node holding primaries, under a `_bulk` writer, to every primary active again (the
 *   master promoted their in-sync replicas), polled every 20 ms on a surviving node;
 * - the killed node started again (its process start, then from serving to green: its copies come back as replicas
 *   and recover from the new primaries);
 * - what the writer saw during the run: items acknowledged, failed (an item error or no answer) and delayed (a
 *   bulk that took over a second), counted.
 *
 * The victim is a non-master node holding a primary; when every primary sits on the master (it can, after the
 * promotions of earlier cycles), a non-master node holding replicas only, and the cycle's line says which.
 * `--stop-under-writes` stops the cluster after the last cycle with the writer still writing (the path on which a
 * node once never finished its stop).
 *
 * Usage: node dist/bench/micro/failover.js [--cycles 10] [--docs 20000] [--stop-under-writes]
 */
import { loadavg } from 'node:os';
import { ClusterProcesses } from '../../test/helpers/cluster-processes.js';
import type { NodeProcess } from '../../test/helpers/node-process.js';

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}

const cycles = Number(arg('cycles', '10'));
const docs = Number(arg('docs', '20000'));
const stopUnderWrites = process.argv.includes('--stop-under-writes');
const INDEX = 'failover';

const cluster = await ClusterProcesses.start(3, { 'cluster.etcd.lease_ttl': '10s' });
// Stopped from outside (Ctrl-C, a kill): the node processes and etcd go with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cluster.stop().finally(() => process.exit(130)));
const writes = { acknowledged: 0, failed: 0, delayed: 0 };
let writing = true;
try {
  const first = cluster.nodes[0]!;
  await cluster.waitFor(first, '/_cluster/health', (r) => r.body?.number_of_nodes === 3, 60_000);
  const created = await first.request('PUT', `/${INDEX}`, { body: { settings: { number_of_shards: 3, number_of_replicas: 1 } } });
  if (created.status !== 200) throw new Error(created.text);
  await cluster.waitFor(first, `/_cluster/health/${INDEX}`, (r) => r.body?.status === 'green', 60_000);
  for (let i = 0; i < docs; i += 1000) {
    const lines = Array.from({ length: Math.min(1000, docs - i) }, (_, j) => `{"index":{"_id":"load-${i + j}"}}\n{"n":${i + j},"text":"document number ${i + j} of the failover bench"}\n`).join('');
    const loaded = await first.request('POST', `/${INDEX}/_bulk`, { raw: lines, headers: { 'content-type': 'application/x-ndjson' } });
    if (loaded.body?.errors !== false) throw new Error(loaded.text.slice(0, 500));
  }
  let victim: NodeProcess | undefined;
  const writer = (async () => {
    let n = 0;
    while (writing) {
      const targets = cluster.nodes.filter((node) => node !== victim && node.child.exitCode === null && node.child.signalCode === null);
      const node = targets[n % targets.length]!;
      const body = Array.from({ length: 8 }, (_, j) => `{"index":{"_id":"w-${(n * 8 + j) % 5000}"}}\n{"n":${n}}\n`).join('');
      n++;
      const started = Date.now();
      try {
        const response = await node.request('POST', `/${INDEX}/_bulk`, { raw: body, headers: { 'content-type': 'application/x-ndjson' }, timeoutMillis: 30_000 });
        const items = (response.body?.items ?? []) as Array<{ index: { status: number } }>;
        for (const item of items) if (item.index.status < 300) writes.acknowledged++;
        else writes.failed++;
        if (items.length === 0) writes.failed += 8;
      } catch {
        writes.failed += 8;
      }
      if (Date.now() - started > 1000) writes.delayed++;
    }
  })();

  const toActive: number[] = [];
  const toGreen: number[] = [];
  const nodeStart: number[] = [];
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const master = (await cluster.waitFor(first, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string')).body.master_node as string;
    const rows = (await cluster.nodes.find((node) => node.nodeId === master)!.request('GET', `/_cat/shards/${INDEX}?format=json&h=prirep,id`)).body as Array<{ prirep: string; id: string }>;
    victim = cluster.nodes.find((node) => node.nodeId !== master && rows.some((row) => row.prirep === 'p' && row.id === node.nodeId));
    // Every primary on the master: a node with replicas only goes instead (no promotion then: "every primary
    // active" is its drop from the cluster, the rest is its replicas' recovery).
    const holds = victim === undefined ? 'replicas only' : 'a primary';
    victim ??= cluster.nodes.find((node) => node.nodeId !== master && rows.some((row) => row.id === node.nodeId));
    if (victim === undefined) throw new Error(`no non-master node holds a copy: ${JSON.stringify(rows)}`);
    const observer = cluster.nodes.find((node) => node.nodeId === master)!;
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
    const killedAt = Date.now();
    await victim.kill9();
    await poll(observer, (body) => body.number_of_nodes === 2 && body.active_primary_shards === 3);
    toActive.push(Date.now() - killedAt);
    const restartedAt = Date.now();
    await cluster.restart(victim);
    const startedAt = Date.now();
    nodeStart.push(startedAt - restartedAt);
    await poll(observer, (body) => body.number_of_nodes === 3 && body.status === 'green');
    toGreen.push(Date.now() - startedAt);
    console.log(
      `cycle ${cycle}: kill -9 ${victim.nodeId.slice(0, 6)} (holding ${holds}) -> every primary active ${toActive.at(-1)} ms; node process start ${nodeStart.at(-1)} ms; started -> green ${toGreen.at(-1)} ms; load ${loadavg()[0]!.toFixed(1)}`,
    );
    victim = undefined;
  }
  if (stopUnderWrites) throw new Error('--stop-under-writes: stopping the cluster with the writer writing');
  writing = false;
  await writer;
  console.log(`kill -9 to every primary active (ms): ${describe(toActive)}`);
  console.log(`node process start (ms, not Gannet's recovery): ${describe(nodeStart)}`);
  console.log(`restarted node serving to green (ms): ${describe(toGreen)}`);
  console.log(`writes: ${writes.acknowledged} items acknowledged, ${writes.failed} failed or unanswered, ${writes.delayed} bulks delayed over 1 s; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} catch (err) {
  // Said before the cluster stops: a stop that fails too (a node that does not exit) must not hide why the run ended.
  console.error('the run failed, stopping the cluster:', err);
  throw err;
} finally {
  writing = false;
  await cluster.stop();
}

async function poll(node: NodeProcess, check: (body: { number_of_nodes: number; active_primary_shards: number; status: string }) => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const response = await node.request('GET', `/_cluster/health/${INDEX}`, { timeoutMillis: 5000 });
      if (response.status === 200 && check(response.body)) return;
    } catch {
      // not answering this moment; poll again
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out waiting for the cluster');
}

function describe(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return `n=${sorted.length} p50=${at(0.5)} p99=${at(0.99)} max=${sorted[sorted.length - 1]} (${values.join(', ')})`;
}
