/**
 * Aggregations over a corpus: Gannet over HTTP (`size: 0` searches with terms, histogram, stats and
 * cardinality) and the server peers (`--peer opensearch`, same documents, mapping and requests), beside a
 * brute-force computation in this process over the same records. The brute force is both the correctness
 * check (bucket counts must agree exactly; cardinality within HLL error) and a speed reference for what a
 * plain JavaScript loop over parsed records costs. Requests alternate between the servers.
 */
import { corpusSpec, readCorpusLines } from '../lib/corpus.js';
import { newTrackResult, unavailableReason, type TrackResult } from '../lib/report.js';
import { percentile } from '../lib/stats.js';
import { call, type SearchServer } from '../peers/http-server.js';
import { serverLineup } from '../lib/servers.js';
import type { TrackOptions } from './ingest.js';

interface AggCase {
  name: string;
  body: unknown;
  /** Brute force over the parsed records: the expected buckets (key -> doc count) or value. */
  expected: (records: Array<Record<string, unknown>>) => Map<string, number> | number;
  /** Gannet's answer in the same form. */
  actual: (aggregations: any) => Map<string, number> | number;
  /** Relative tolerance (0 = exact). */
  tolerance: number;
}

function countBy(records: Array<Record<string, unknown>>, key: (r: Record<string, unknown>) => string | undefined, top = Infinity): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) {
    const k = key(record);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return new Map(sorted.slice(0, top));
}

const DEBIAN_CASES: AggCase[] = [
  {
    name: 'terms section (size 10)',
    body: { size: 0, aggs: { a: { terms: { field: 'section', size: 10 } } } },
    expected: (records) => countBy(records, (r) => r['section'] as string | undefined, 10),
    actual: (aggs) => new Map(aggs.a.buckets.map((b: any) => [String(b.key), b.doc_count])),
    tolerance: 0,
  },
  {
    name: 'histogram installed_size (interval 10000)',
    body: { size: 0, aggs: { a: { histogram: { field: 'installed_size', interval: 10000 } } } },
    expected: (records) =>
      new Map(
        [...countBy(records, (r) => (typeof r['installed_size'] === 'number' ? String(Math.floor((r['installed_size'] as number) / 10000) * 10000) : undefined))].sort(
          (a, b) => Number(a[0]) - Number(b[0]),
        ),
      ),
    actual: (aggs) => new Map(aggs.a.buckets.filter((b: any) => b.doc_count > 0).map((b: any) => [String(b.key), b.doc_count])),
    tolerance: 0,
  },
  {
    name: 'stats installed_size',
    body: { size: 0, aggs: { a: { stats: { field: 'installed_size' } } } },
    expected: (records) => records.reduce((sum, r) => sum + (typeof r['installed_size'] === 'number' ? (r['installed_size'] as number) : 0), 0),
    actual: (aggs) => aggs.a.sum,
    tolerance: 0,
  },
  {
    name: 'cardinality maintainer',
    body: { size: 0, aggs: { a: { cardinality: { field: 'maintainer' } } } },
    expected: (records) => new Set(records.map((r) => r['maintainer'])).size,
    actual: (aggs) => aggs.a.value,
    tolerance: 0.05,
  },
  {
    name: 'terms architecture > avg installed_size',
    body: { size: 0, aggs: { a: { terms: { field: 'architecture', size: 5 }, aggs: { s: { avg: { field: 'installed_size' } } } } } },
    expected: (records) => countBy(records, (r) => r['architecture'] as string | undefined, 5),
    actual: (aggs) => new Map(aggs.a.buckets.map((b: any) => [String(b.key), b.doc_count])),
    tolerance: 0,
  },
];

function agrees(expected: Map<string, number> | number, actual: Map<string, number> | number, tolerance: number): boolean {
  if (typeof expected === 'number' || typeof actual === 'number') {
    if (typeof expected !== 'number' || typeof actual !== 'number') return false;
    return Math.abs(expected - actual) <= tolerance * Math.abs(expected);
  }
  if (expected.size !== actual.size) return false;
  for (const [key, count] of expected) if (actual.get(key) !== count) return false;
  return true;
}

const MAPPINGS = {
  properties: { section: { type: 'keyword' }, architecture: { type: 'keyword' }, maintainer: { type: 'keyword' }, installed_size: { type: 'long' }, description: { type: 'text' } },
};

async function load(server: SearchServer, lines: string[]): Promise<void> {
  const port = server.port;
  const created = await call(port, 'PUT', '/bench', JSON.stringify({ settings: { number_of_shards: 2, number_of_replicas: 0 }, mappings: MAPPINGS }));
  if (created.status !== 200) throw new Error(`create index answered ${created.status}: ${JSON.stringify(created.body).slice(0, 200)}`);
  for (let i = 0; i < lines.length; i += 5000) {
    const body = lines.slice(i, i + 5000).map((line) => `{"index":{}}\n${line}\n`).join('');
    const reply = await call(port, 'POST', '/bench/_bulk', body, 'application/x-ndjson');
    if (reply.status !== 200 || reply.body.errors) throw new Error('bulk failed');
  }
  await call(port, 'POST', '/bench/_refresh');
}

export async function aggregationsTrack(options: TrackOptions): Promise<TrackResult> {
  const spec = corpusSpec(options.corpus);
  if (spec.name !== 'debian') throw new Error('the aggregations track runs on the debian corpus (it has keyword and numeric fields)');
  const lines = await readCorpusLines(spec, options.limit);
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const result = newTrackResult('aggregations', options.runs, ['req_per_s'], spec.name);
  const lineup = await serverLineup(options.serverPeers);
  const servers: SearchServer[] = [];
  try {
    for (const entry of lineup.servers) {
      try {
        const server = await entry.start();
        servers.push(server);
        await load(server, lines);
      } catch (err) {
        result.results.push({ engine: entry.name, metrics: {}, unavailable: unavailableReason(err, `${entry.name} start and data`) });
      }
    }
    for (const aggCase of DEBIAN_CASES) {
      const expected = aggCase.expected(records);
      const latencies = new Map<SearchServer, number[]>(servers.map((server) => [server, []]));
      const correct = new Map<SearchServer, boolean>(servers.map((server) => [server, true]));
      const passes = 5 * options.runs;
      for (let pass = 0; pass < passes + 2; pass++) {
        for (const server of servers) {
          const t0 = process.hrtime.bigint();
          const reply = await call(server.port, 'POST', '/bench/_search', JSON.stringify(aggCase.body));
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (reply.status !== 200) throw new Error(`${server.name} ${aggCase.name}: search answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 200)}`);
          if (pass >= 2) latencies.get(server)!.push(ms);
          correct.set(server, correct.get(server)! && agrees(expected, aggCase.actual(reply.body.aggregations), aggCase.tolerance));
        }
      }
      const bruteStart = process.hrtime.bigint();
      aggCase.expected(records);
      const bruteMs = Number(process.hrtime.bigint() - bruteStart) / 1e6;
      for (const server of servers) {
        const measured = latencies.get(server)!;
        result.results.push({
          engine: server.name,
          case: aggCase.name,
          metrics: {
            req_per_s: 1000 / percentile(measured, 50),
            p50_ms: percentile(measured, 50),
            p99_ms: percentile(measured, 99),
            // The brute force is the same loop for every server: shown once, on Gannet's row.
            ...(server.name === 'gannet' ? { brute_force_ms: bruteMs } : {}),
            agrees_with_brute_force: correct.get(server) ? 1 : 0,
            peak_rss_mb: (server.peakRssBytes() ?? 0) / 1e6,
          },
        });
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  result.results.push(...lineup.skipped);
  return result;
}
