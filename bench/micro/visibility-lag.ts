/**
 * Visibility lag under a sustained bulk (decision 0032): how long an acknowledged document stays invisible to search
 * while `_bulk` keeps coming, with `index.refresh_interval` 1s (ES's default; set explicitly, so search-idle never
 * skips a refresh). One node (or a primary and its replica on two with `--replicas 1`), `--clients` bulk clients
 * sending the npm corpus in `--batch` documents per request, and a poller counting the index every `--poll` ms.
 *
 * The lag of a poll: the poll saw `count` documents at time t; the documents acknowledged up to the moment the
 * `count + 1`-th acknowledgement arrived were not all visible at t, so one of them had waited at least t minus that
 * moment. The largest of these over the bulk is printed (a lower bound of the largest lag, to within a poll).
 * Each copy's refresh count during the bulk comes from `_stats` as in replication.ts.
 *
 * Usage: node dist/bench/micro/visibility-lag.js [--docs 226974] [--batch 1000] [--clients 8] [--poll 200] [--replicas 0]
 *        [--preference _primary|_replica] (which copy `_count` reads; default: any)
 */
import { ClusterProcesses } from '../../test/helpers/cluster-processes.js';
import type { NodeProcess } from '../../test/helpers/node-process.js';
import { readCorpusLines } from './corpus.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const NDJSON = { 'content-type': 'application/x-ndjson' };

interface Ack {
  readonly at: number;
  /** Documents acknowledged in all, this acknowledgement included. */
  readonly total: number;
}

async function main(): Promise<void> {
  const docs = arg('docs', 226_974);
  const batch = arg('batch', 1000);
  const clients = arg('clients', 8);
  const pollMillis = arg('poll', 200);
  const replicas = arg('replicas', 0);
  const preferenceAt = process.argv.indexOf('--preference');
  const preference = preferenceAt >= 0 ? `?preference=${process.argv[preferenceAt + 1]}` : '';
  const lines = readCorpusLines(docs, 'npm');
  const bodies: string[] = [];
  for (let start = 0; start < lines.length; start += batch) {
    const parts: string[] = [];
    for (let i = start; i < Math.min(lines.length, start + batch); i++) parts.push(`{"index":{"_index":"lag","_id":"${i}"}}\n${lines[i]!.toString('utf8')}\n`);
    bodies.push(parts.join(''));
  }
  const cluster = await ClusterProcesses.start(replicas + 1);
  try {
    const node = cluster.nodes[0] as NodeProcess;
    await node.request('PUT', '/lag', { body: { settings: { number_of_shards: 1, number_of_replicas: replicas, refresh_interval: '1s' } } });
    for (;;) {
      const health = await node.request('GET', '/_cluster/health/lag?wait_for_status=green&timeout=120s');
      if (health.body?.status === 'green') break;
    }
    const acks: Ack[] = [];
    let acknowledged = 0;
    let next = 0;
    let bulkDone = false;
    const started = performance.now();
    const bulk = Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const answer = await node.request('POST', '/_bulk', { raw: body, headers: NDJSON });
          if (answer.status !== 200 || answer.body.errors) throw new Error(`bulk failed: ${answer.text.slice(0, 500)}`);
          acknowledged += answer.body.items.length;
          acks.push({ at: performance.now() - started, total: acknowledged });
        }
      }),
    ).finally(() => (bulkDone = true));
    let worst = { lag: 0, at: 0, seen: 0, acknowledged: 0 };
    const polls: string[] = [];
    while (!bulkDone) {
      await new Promise((resolve) => setTimeout(resolve, pollMillis));
      const answer = await node.request('GET', `/lag/_count${preference}`);
      const at = performance.now() - started;
      const seen: number = answer.body.count;
      // The first acknowledgement past what the poll saw: a document acknowledged by then was still invisible.
      const firstUnseen = acks.find((ack) => ack.total > seen);
      const lag = firstUnseen === undefined ? 0 : at - firstUnseen.at;
      if (lag > worst.lag) worst = { lag, at, seen, acknowledged };
      polls.push(`${(at / 1000).toFixed(1)}s ${seen}/${acknowledged}`);
    }
    await bulk;
    const wall = (performance.now() - started) / 1000;
    const stats = await node.request('GET', '/lag/_stats/refresh?level=shards');
    const copies = (stats.body.indices.lag.shards['0'] as Array<{ routing: { primary: boolean }; refresh: { external_total: number } }>)
      .map((copy) => `${copy.routing.primary ? 'primary' : 'replica'} ${copy.refresh.external_total} refreshes`)
      .join(', ');
    console.log(`${docs} docs in ${wall.toFixed(1)} s (${Math.round(docs / wall)} docs/s), ${clients} clients; ${copies}`);
    console.log(`largest visibility lag ${(worst.lag / 1000).toFixed(1)} s (at ${(worst.at / 1000).toFixed(1)} s: ${worst.seen} visible of ${worst.acknowledged} acknowledged)`);
    console.log(`polls (time visible/acknowledged): ${polls.join(', ')}`);
  } finally {
    await cluster.stop();
  }
}

await main();
