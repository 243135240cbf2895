/**
 * The query mix of ../shared/corpus/queries-*.jsonl (terms, OR, AND, phrases; top 10 by BM25): Gannet over
 * HTTP, Lucene 8 as indexed and after force-merge, and the JavaScript libraries, with how often each engine's
 * top 10 agrees with Lucene's BM25 ranking.
 */
import { corpusSpec, readCorpusLines, readQueries } from '../lib/corpus.js';
import { newTrackResult, type TrackResult } from '../lib/report.js';
import { javaAvailable, runLucene, type LuceneFigures } from '../peers/lucene.js';
import { flexSearchIndex, miniSearchIndex, timeQueries, type Document } from '../peers/js-libraries.js';
import { GannetHttpPeer } from '../peers/gannet-http.js';
import { exactTop10Agreement, overlapAt10 } from '../lib/agreement.js';
import type { TrackOptions } from './ingest.js';
import { summarize } from '../lib/stats.js';
import { peakRssBytes } from '../lib/process-memory.js';

export async function searchTrack(options: TrackOptions): Promise<TrackResult> {
  const spec = corpusSpec(options.corpus);
  const lines = await readCorpusLines(spec);
  const queries = readQueries(spec);
  const result = newTrackResult('search', options.runs, ['qps', 'top10_exact', 'top10_overlap'], spec.name);

  let lucene: LuceneFigures | undefined;
  if (options.peers && javaAvailable()) lucene = await runLucene(spec);
  const reference = lucene ? new Map([...lucene.top10].map(([qid, entry]) => [qid, entry.ids])) : undefined;
  const agreement = (top10: Map<string, string[]>) =>
    reference ? { top10_exact: exactTop10Agreement(reference, top10), top10_overlap: overlapAt10(reference, top10) } : {};

  try {
    const peer = await GannetHttpPeer.start();
    try {
      await peer.ingest(spec, lines);
      // Each run is a full pass over the query set; medians and the spread across runs are reported.
      const measure = async (engine: string) => {
        const runs = [];
        for (let run = 0; run < options.runs; run++) runs.push(await peer.search(spec, queries));
        const qps = summarize(runs.map((r) => r.qps));
        result.results.push({
          engine,
          metrics: {
            qps: qps.median,
            qps_spread: qps.spread,
            p50_ms: summarize(runs.map((r) => r.p50Ms)).median,
            p99_ms: summarize(runs.map((r) => r.p99Ms)).median,
            ...agreement(runs[runs.length - 1]!.top10),
            peak_rss_mb: (peakRssBytes(peer.node.child.pid) ?? 0) / 1e6,
          },
        });
      };
      await measure('gannet (HTTP, as indexed)');
      await peer.forceMerge();
      await measure('gannet (HTTP, one segment)');
    } finally {
      await peer.stop();
    }
  } catch (err) {
    result.results.push({ engine: 'gannet (HTTP)', metrics: {}, unavailable: (err as Error).message.split('\n')[0] });
  }

  if (lucene) {
    result.results.push({ engine: 'lucene 8 (as indexed)', metrics: { qps: lucene.queryAsIndexed.qps, p50_ms: lucene.queryAsIndexed.p50_ms, p99_ms: lucene.queryAsIndexed.p99_ms, top10_exact: 1, top10_overlap: 1 } });
    result.results.push({ engine: 'lucene 8 (one segment)', metrics: { qps: lucene.queryMerged.qps, p50_ms: lucene.queryMerged.p50_ms, p99_ms: lucene.queryMerged.p99_ms, top10_exact: 1, top10_overlap: 1 } });
  } else if (options.peers) {
    result.results.push({ engine: 'lucene 8', metrics: {}, unavailable: 'javac not found (apt-get install default-jdk-headless)' });
  }
  if (options.peers) {
    const docs: Document[] = lines.map((line, id) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      return { id, key: String(record[spec.idField] ?? ''), text: String(record[spec.textField] ?? '') };
    });
    for (const make of [miniSearchIndex, flexSearchIndex]) {
      const index = make();
      index.add(docs);
      const run = timeQueries(queries, (query) => index.search(query));
      const keys = new Map([...run.top10].map(([qid, ids]) => [qid, ids.map((id) => docs[id]!.key)]));
      result.results.push({ engine: `${index.name} (in process)`, metrics: { qps: run.qps, p50_ms: run.p50Ms, p99_ms: run.p99Ms, ...agreement(keys) } });
    }
  }
  return result;
}
