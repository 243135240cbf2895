/**
 * The query mix of ../shared/corpus/queries-*.jsonl (terms, OR, AND, phrases; top 10 by BM25): Gannet over HTTP,
 * the server peers (`--peer opensearch`) over the same HTTP client code, each as indexed and after a force-merge
 * to one segment, with 1 or more concurrent clients (`--clients 1,8`); Lucene 8 in process and the JavaScript
 * libraries; and how often each engine's top 10 agrees with Lucene's BM25 ranking (and, for a server peer,
 * with Gannet's). Servers run side by side and each measurement alternates between them, run by run.
 */
import { corpusSpec, readCorpusLines, readQueries } from '../lib/corpus.js';
import { newTrackResult, unavailableReason, type EngineResult, type TrackResult } from '../lib/report.js';
import { javaAvailable, runLucene, type LuceneFigures } from '../peers/lucene.js';
import { flexSearchIndex, miniSearchIndex, timeQueries, type Document } from '../peers/js-libraries.js';
import type { SearchFigures, SearchServer } from '../peers/http-server.js';
import { exactTop10Agreement, overlapAt10 } from '../lib/agreement.js';
import type { TrackOptions } from './ingest.js';
import { summarize } from '../lib/stats.js';
import { serverLineup } from '../lib/servers.js';

export async function searchTrack(options: TrackOptions): Promise<TrackResult> {
  const spec = corpusSpec(options.corpus);
  const lines = await readCorpusLines(spec, options.limit);
  const queries = readQueries(spec);
  const result = newTrackResult('search', options.runs, ['qps', 'top10_exact', 'top10_overlap', 'top10_same_as_gannet'], spec.name);

  // Lucene's kit indexes the whole corpus: its ranking is the reference only when the servers hold all of it too.
  let lucene: LuceneFigures | undefined;
  if (options.peers && javaAvailable() && options.limit === Infinity) lucene = await runLucene(spec);
  const reference = lucene ? new Map([...lucene.top10].map(([qid, entry]) => [qid, entry.ids])) : undefined;
  const agreement = (top10: Map<string, string[]>) =>
    reference ? { top10_exact: exactTop10Agreement(reference, top10), top10_overlap: overlapAt10(reference, top10) } : {};

  const lineup = await serverLineup(options.serverPeers);
  const servers: SearchServer[] = [];
  try {
    for (const entry of lineup.servers) {
      try {
        const server = await entry.start();
        servers.push(server);
        await server.ingest(spec, lines);
      } catch (err) {
        result.results.push({ engine: `${entry.name} (HTTP)`, metrics: {}, unavailable: unavailableReason(err, `${entry.name} start and ingest`) });
      }
    }
    for (const phase of ['as indexed', 'one segment']) {
      if (phase === 'one segment') for (const server of servers) await server.forceMerge();
      for (const clients of options.clients) {
        const label = `${phase}, ${clients} client${clients === 1 ? '' : 's'}`;
        // Each run is a full pass over the query set per server, servers alternating; medians and spread are reported.
        const runs = new Map<SearchServer, SearchFigures[]>(servers.map((server) => [server, []]));
        for (let run = 0; run < options.runs; run++) {
          for (const server of servers) runs.get(server)!.push(await server.search(spec, queries, { clients }));
        }
        const gannetTop10 = servers[0]?.name === 'gannet' ? runs.get(servers[0])!.at(-1)!.top10 : undefined;
        for (const server of servers) {
          const figures = runs.get(server)!;
          const qps = summarize(figures.map((r) => r.qps));
          const top10 = figures.at(-1)!.top10;
          const row: EngineResult = {
            engine: `${server.name} (HTTP)`,
            case: label,
            metrics: {
              qps: qps.median,
              qps_spread: qps.spread,
              p50_ms: summarize(figures.map((r) => r.p50Ms)).median,
              p99_ms: summarize(figures.map((r) => r.p99Ms)).median,
              ...agreement(top10),
              ...(server.name !== 'gannet' && gannetTop10 ? { top10_same_as_gannet: exactTop10Agreement(gannetTop10, top10) } : {}),
              peak_rss_mb: (server.peakRssBytes() ?? 0) / 1e6,
            },
          };
          result.results.push(row);
        }
      }
    }
  } catch (err) {
    result.results.push({ engine: 'servers (HTTP)', metrics: {}, unavailable: unavailableReason(err, 'search track') });
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  result.results.push(...lineup.skipped);

  if (lucene) {
    result.results.push({ engine: 'lucene 8 (as indexed)', metrics: { qps: lucene.queryAsIndexed.qps, p50_ms: lucene.queryAsIndexed.p50_ms, p99_ms: lucene.queryAsIndexed.p99_ms, top10_exact: 1, top10_overlap: 1 } });
    result.results.push({ engine: 'lucene 8 (one segment)', metrics: { qps: lucene.queryMerged.qps, p50_ms: lucene.queryMerged.p50_ms, p99_ms: lucene.queryMerged.p99_ms, top10_exact: 1, top10_overlap: 1 } });
  } else if (options.peers) {
    result.results.push({ engine: 'lucene 8', metrics: {}, unavailable: javaAvailable() ? 'runs on the full corpus only (drop --limit)' : 'javac not found (apt-get install default-jdk-headless)' });
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
