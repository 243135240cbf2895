/**
 * The operational commands (DESIGN.md's seven) on Gannet and each server peer (`--peer opensearch`), on the same
 * data, with the same client code:
 *   1. throughput: autocannon against the five read endpoints (`--connections`, `--seconds`, `--runs`);
 *   2. latency of each of the seven commands, one request at a time, on an idle server and again while a worker
 *      thread keeps a steady `_bulk` load on it. The two cancel commands each cancel a real task: a reindex
 *      throttled to one batch a second, started just before and awaited just after (neither timed).
 * The servers run side by side; each phase measures them one after the other.
 */
import autocannon from 'autocannon';
import { corpusSpec, readCorpusLines } from '../lib/corpus.js';
import { newTrackResult, unavailableReason, type EngineResult, type TrackResult } from '../lib/report.js';
import { percentile, summarize } from '../lib/stats.js';
import { call, corpusMappings, expectOk, type SearchServer } from '../peers/http-server.js';
import { serverLineup } from '../lib/servers.js';
import { startBulkLoad } from '../lib/bulk-load.js';

const THROUGHPUT_ENDPOINTS = ['/_cluster/health', '/_cat/nodes?v', '/_cat/allocation?v', '/_tasks', '/_cat/tasks?v'];

/** The seven commands as DESIGN.md writes them; the cancels get their task id (or node id) per request. */
const READ_COMMANDS = [
  { name: '1 GET /_cluster/health?pretty=true', path: '/_cluster/health?pretty=true' },
  { name: '2 GET /_cat/allocation?v', path: '/_cat/allocation?v' },
  { name: '3 GET /_cat/nodes?v', path: '/_cat/nodes?v' },
  { name: '4 GET /_tasks?pretty=true', path: '/_tasks?pretty=true' },
  { name: '5 GET /_cat/tasks?v=true', path: '/_cat/tasks?v=true' },
];
const CANCEL_COMMANDS = [
  { name: '6 POST /_tasks/<task>/_cancel', path: (task: string) => `/_tasks/${task}/_cancel` },
  { name: '7 POST /_tasks/_cancel?nodes=<node>&actions=*reindex', path: (task: string) => `/_tasks/_cancel?nodes=${task.split(':')[0]}&actions=*reindex` },
];

const CORPUS = 'debian';
const SOURCE_DOCS = 5000;

export interface OpsOptions {
  runs: number;
  seconds: number;
  connections: number;
  /** Requests per read command per phase; the cancel commands take a third as many (each starts a task). */
  samples: number;
  serverPeers: string[];
}

export async function opsTrack(options: OpsOptions): Promise<TrackResult> {
  const result = newTrackResult('ops', options.runs, ['req_per_s', 'load_docs_per_s']);
  const lines = await readCorpusLines(corpusSpec(CORPUS), SOURCE_DOCS);
  const lineup = await serverLineup(options.serverPeers);
  const servers: SearchServer[] = [];
  try {
    for (const entry of lineup.servers) {
      try {
        const server = await entry.start();
        servers.push(server);
        await prepare(server, lines);
      } catch (err) {
        result.results.push({ engine: entry.name, metrics: {}, unavailable: unavailableReason(err, `${entry.name} start and data`) });
      }
    }
    for (const server of servers) result.results.push(...(await throughput(server, options)));
    for (const loaded of [false, true]) {
      for (const server of servers) result.results.push(...(await latencies(server, options.samples, loaded)));
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  result.results.push(...lineup.skipped);
  return result;
}

/** A three-shard index for the cat tables to show, and the source and destination of the reindexes to cancel. */
async function prepare(server: SearchServer, lines: string[]): Promise<void> {
  const mappings = corpusMappings(corpusSpec(CORPUS));
  for (const [index, shards] of [['ops-src', 3], ['ops-dst', 1]] as const) {
    await expectOk(call(server.port, 'PUT', `/${index}`, JSON.stringify({ settings: { number_of_shards: shards, number_of_replicas: 0 }, mappings })), `create ${index}`);
  }
  const body = lines.map((line) => `{"index":{}}\n${line}\n`).join('');
  const bulk = await expectOk(call(server.port, 'POST', '/ops-src/_bulk?refresh=true', body, 'application/x-ndjson'), 'bulk');
  if (bulk.errors) throw new Error('bulk into ops-src reported item errors');
}

async function throughput(server: SearchServer, options: OpsOptions): Promise<EngineResult[]> {
  const rows: EngineResult[] = [];
  for (const path of THROUGHPUT_ENDPOINTS) {
    const rates: number[] = [];
    const p50: number[] = [];
    const p99: number[] = [];
    let errors = 0;
    for (let run = 0; run < options.runs; run++) {
      const outcome = await autocannon({ url: `http://127.0.0.1:${server.port}${path}`, connections: options.connections, duration: options.seconds });
      rates.push(outcome.requests.average);
      p50.push(outcome.latency.p50);
      p99.push(outcome.latency.p99);
      errors += outcome.errors + outcome.non2xx;
    }
    rows.push({
      engine: server.name,
      case: `GET ${path}, ${options.connections} connections`,
      metrics: { req_per_s: summarize(rates).median, req_per_s_spread: summarize(rates).spread, p50_ms: summarize(p50).median, p99_ms: summarize(p99).median, failed_requests: errors },
    });
  }
  return rows;
}

function latencyMetrics(times: number[], failed: number): EngineResult['metrics'] {
  return { p50_ms: percentile(times, 50), p99_ms: percentile(times, 99), max_ms: Math.max(...times), requests: times.length, failed_requests: failed };
}

async function timed(port: number, method: string, path: string): Promise<{ ms: number; ok: boolean }> {
  const t0 = performance.now();
  const reply = await call(port, method, path);
  return { ms: performance.now() - t0, ok: reply.status < 300 };
}

/** A reindex that writes one batch of 100 documents, then waits ~100 s for its throttle: alive until cancelled. */
async function startThrottledReindex(port: number): Promise<string> {
  const body = JSON.stringify({ source: { index: 'ops-src', size: 100 }, dest: { index: 'ops-dst' } });
  const started = await expectOk(call(port, 'POST', '/_reindex?wait_for_completion=false&requests_per_second=1', body), 'start a throttled reindex');
  return started.task as string;
}

async function latencies(server: SearchServer, samples: number, loaded: boolean): Promise<EngineResult[]> {
  const phase = loaded ? 'under bulk load' : 'idle';
  const port = server.port;
  const load = loaded ? await startBulkLoad({ port, corpus: CORPUS, index: 'ops-load' }) : undefined;
  const rows: EngineResult[] = [];
  try {
    for (const command of READ_COMMANDS) {
      const times: number[] = [];
      let failed = 0;
      for (let i = 0; i < samples + 5; i++) {
        const { ms, ok } = await timed(port, 'GET', command.path);
        if (i >= 5) times.push(ms);
        if (!ok) failed++;
      }
      rows.push({ engine: server.name, case: `${command.name} (${phase})`, metrics: latencyMetrics(times, failed) });
    }
    for (const command of CANCEL_COMMANDS) {
      const times: number[] = [];
      let failed = 0;
      for (let i = 0; i < Math.max(3, Math.round(samples / 3)); i++) {
        const task = await startThrottledReindex(port);
        const { ms, ok } = await timed(port, 'POST', command.path(task));
        times.push(ms);
        if (!ok) failed++;
        // Untimed: wait until the cancelled reindex has ended, so that one task at a time runs.
        await call(port, 'GET', `/_tasks/${task}?wait_for_completion=true&timeout=30s`);
      }
      rows.push({ engine: server.name, case: `${command.name} (${phase})`, metrics: latencyMetrics(times, failed) });
    }
  } finally {
    const done = await load?.stop();
    if (done) rows.push({ engine: server.name, case: 'bulk load during the commands', metrics: { load_docs_per_s: done.docs / done.seconds, load_failed_bulks: done.failures, peak_rss_mb: (server.peakRssBytes() ?? 0) / 1e6 } });
  }
  return rows;
}
