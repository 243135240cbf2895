/**
 * Bulk ingest of a corpus: Gannet through HTTP `_bulk` into one shard (or `--shards N`), beside the server peers
 * (`--peer opensearch`: the same documents, mapping and client code), Lucene 8 (in process, single thread) and the
 * JavaScript libraries, all in this invocation so the ratios compare like with like. Server runs alternate
 * (Gannet, peer, Gannet, peer, ...) so that a change in the host's load falls on both; each server is warmed up
 * the same way before its timed ingest (SearchServer.warmUp).
 */
import { corpusSpec, readCorpusLines, type CorpusSpec } from '../lib/corpus.js';
import { summarize } from '../lib/stats.js';
import { newTrackResult, unavailableReason, type EngineResult, type TrackResult } from '../lib/report.js';
import { javaAvailable, runLucene } from '../peers/lucene.js';
import { flexSearchIndex, miniSearchIndex, type Document, type LibraryIndex } from '../peers/js-libraries.js';
import type { IngestFigures } from '../peers/http-server.js';
import { peakRssBytes } from '../lib/process-memory.js';
import { serverLineup, type ServerEntry } from '../lib/servers.js';

export interface TrackOptions {
  corpus: string;
  runs: number;
  limit: number;
  /** The in-process peers (Lucene, the JavaScript libraries); `--no-peers` turns them off. */
  peers: boolean;
  /** Server peers (`--peer opensearch`), measured with the same client code as Gannet. */
  serverPeers: string[];
  shards: number;
  /** Concurrent search clients, one measurement per entry (search track). */
  clients: number[];
}

function toDocuments(spec: CorpusSpec, lines: string[]): Document[] {
  return lines.map((line, id) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    return { id, key: String(record[spec.idField] ?? ''), text: String(record[spec.textField] ?? '') };
  });
}

/** Every server's ingest runs, alternating between servers run by run; one row per server. */
async function serverIngest(servers: ServerEntry[], spec: CorpusSpec, lines: string[], options: TrackOptions, rawBytes: number): Promise<EngineResult[]> {
  const runs = new Map<string, IngestFigures[]>(servers.map((server) => [server.name, []]));
  const failures = new Map<string, string>();
  for (let run = 0; run < options.runs; run++) {
    for (const entry of servers) {
      if (failures.has(entry.name)) continue;
      try {
        const server = await entry.start();
        try {
          await server.warmUp(spec, lines);
          runs.get(entry.name)!.push(await server.ingest(spec, lines, { shards: options.shards }));
        } finally {
          await server.stop();
        }
      } catch (err) {
        failures.set(entry.name, unavailableReason(err, `${entry.name} ingest run ${run + 1}`));
      }
    }
  }
  const shardCase = `${options.shards} shard${options.shards === 1 ? '' : 's'}`;
  return servers.map((entry): EngineResult => {
    const engine = `${entry.name} (HTTP _bulk)`;
    const figures = runs.get(entry.name)!;
    if (failures.has(entry.name)) return { engine, case: shardCase, metrics: {}, unavailable: failures.get(entry.name) };
    const rate = summarize(figures.map((f) => f.docsPerSecond));
    const last = figures[figures.length - 1]!;
    return {
      engine,
      case: shardCase,
      metrics: {
        docs_per_s: rate.median,
        docs_per_s_spread: rate.spread,
        mb_per_s: summarize(figures.map((f) => f.megabytesPerSecond)).median,
        refresh_s: last.refreshSeconds,
        flush_s: last.flushSeconds,
        size_mb: last.sizeBytes === undefined ? undefined : last.sizeBytes / 1e6,
        size_vs_raw_json: last.sizeBytes === undefined ? undefined : last.sizeBytes / rawBytes,
        peak_rss_mb: Math.max(...figures.map((f) => f.peakRssBytes ?? 0)) / 1e6,
      },
    };
  });
}

function libraryIngest(make: () => LibraryIndex, docs: Document[], runs: number): EngineResult {
  const rates: number[] = [];
  let name = '';
  for (let run = 0; run < runs; run++) {
    const index = make();
    name = index.name;
    const start = process.hrtime.bigint();
    index.add(docs);
    rates.push(docs.length / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  const rate = summarize(rates);
  return { engine: `${name} (in process)`, metrics: { docs_per_s: rate.median, docs_per_s_spread: rate.spread }, notes: ['no persistence, no _source'] };
}

export async function ingestTrack(options: TrackOptions): Promise<TrackResult> {
  const spec = corpusSpec(options.corpus);
  const lines = await readCorpusLines(spec, options.limit);
  const result = newTrackResult('ingest', options.runs, ['docs_per_s', 'mb_per_s'], spec.name);
  const rawBytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  const lineup = await serverLineup(options.serverPeers);
  result.results.push(...(await serverIngest(lineup.servers, spec, lines, options, rawBytes)), ...lineup.skipped);
  if (options.peers) {
    if (javaAvailable() && options.limit === Infinity) {
      const rates: number[] = [];
      let size = 0;
      for (let run = 0; run < options.runs; run++) {
        const figures = await runLucene(spec);
        rates.push(figures.docsPerSecond);
        size = figures.sizeBytes;
      }
      const rate = summarize(rates);
      result.results.push({ engine: 'lucene 8 (in process)', metrics: { docs_per_s: rate.median, docs_per_s_spread: rate.spread, size_mb: size / 1e6 }, notes: ['no _source stored'] });
    } else {
      result.results.push({ engine: 'lucene 8 (in process)', metrics: {}, unavailable: javaAvailable() ? 'runs on the full corpus only (drop --limit)' : 'javac not found (apt-get install default-jdk-headless)' });
    }
    const docs = toDocuments(spec, lines);
    result.results.push(libraryIngest(miniSearchIndex, docs, options.runs));
    result.results.push(libraryIngest(flexSearchIndex, docs, options.runs));
    result.results.push({ engine: 'bench process', metrics: { peak_rss_mb: (peakRssBytes() ?? 0) / 1e6 } });
  }
  return result;
}
