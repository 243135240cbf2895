/**
 * Bulk ingest of a corpus: Gannet through HTTP `_bulk` into one shard, beside Lucene 8 (in process, single
 * thread) and the JavaScript libraries, all in this invocation so the ratios compare like with like.
 */
import { corpusSpec, readCorpusLines, type CorpusSpec } from '../lib/corpus.js';
import { summarize } from '../lib/stats.js';
import { newTrackResult, type EngineResult, type TrackResult } from '../lib/report.js';
import { javaAvailable, runLucene } from '../peers/lucene.js';
import { flexSearchIndex, miniSearchIndex, type Document, type LibraryIndex } from '../peers/js-libraries.js';
import { GannetHttpPeer } from '../peers/gannet-http.js';
import { peakRssBytes } from '../lib/process-memory.js';

export interface TrackOptions {
  corpus: string;
  runs: number;
  limit: number;
  peers: boolean;
}

function toDocuments(spec: CorpusSpec, lines: string[]): Document[] {
  return lines.map((line, id) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    return { id, key: String(record[spec.idField] ?? ''), text: String(record[spec.textField] ?? '') };
  });
}

async function gannetIngest(spec: CorpusSpec, lines: string[], runs: number): Promise<EngineResult> {
  const docsPerSecond: number[] = [];
  const megabytesPerSecond: number[] = [];
  let last: Awaited<ReturnType<GannetHttpPeer['ingest']>> | undefined;
  let peakRss = 0;
  for (let run = 0; run < runs; run++) {
    const peer = await GannetHttpPeer.start();
    try {
      last = await peer.ingest(spec, lines);
      docsPerSecond.push(last.docsPerSecond);
      megabytesPerSecond.push(last.megabytesPerSecond);
      peakRss = Math.max(peakRss, last.peakRssBytes ?? 0);
    } finally {
      await peer.stop();
    }
  }
  const rate = summarize(docsPerSecond);
  return {
    engine: 'gannet (HTTP _bulk)',
    metrics: {
      docs_per_s: rate.median,
      docs_per_s_spread: rate.spread,
      mb_per_s: summarize(megabytesPerSecond).median,
      refresh_s: last?.refreshSeconds,
      flush_s: last?.flushSeconds,
      size_mb: last?.sizeBytes === undefined ? undefined : last.sizeBytes / 1e6,
      peak_rss_mb: peakRss / 1e6,
    },
  };
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
  try {
    result.results.push(await gannetIngest(spec, lines, options.runs));
  } catch (err) {
    result.results.push({ engine: 'gannet (HTTP _bulk)', metrics: {}, unavailable: (err as Error).message.split('\n')[0] });
  }
  const gannet = result.results[0]!;
  if (gannet.metrics['size_mb'] !== undefined) gannet.metrics['size_vs_raw_json'] = (gannet.metrics['size_mb']! * 1e6) / rawBytes;
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
