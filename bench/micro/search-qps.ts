/**
 * Micro-benchmark (not a test): in-process query throughput on the Debian set, one segment, beside the
 * Lucene 8 kit run in the same invocation. Same protocol as the kit: 40 untimed warm-up passes over the
 * 200 queries, then 5 timed passes; QPS from the median pass, p50/p99 over every timed query. Each query
 * is what the kit times: rewrite, weight, top 10 (exact counts up to 1,000 hits, as IndexSearcher.search
 * does), then the ids of the 10 hits from stored fields.
 *
 * Gannet is measured twice: with the id fetch (the kit's protocol, the figure compared with Lucene) and
 * without it (the query execution alone), to show what the fetch costs (stored fields format 2 decoded a
 * 128-doc LZ4 block per id, more than the query; format 3 decodes a 16-doc group). Also reports, for the OR queries, how many
 * documents were scored (handed to the collector) against how many matched, with Lucene's 1,000 threshold
 * and with ES's default 10,000. flexsearch (the fastest JavaScript library, not BM25) runs in the same process
 * on the same documents and queries, timed by the search track's protocol, for the issue's ">= 2x flexsearch".
 *
 *   npx tsc -p . --outDir /tmp/build-search && node /tmp/build-search/bench/micro/search-qps.js [--lucene-prefix P] [--no-lucene]
 */
import { IndexSearcher, type Query, type Scorable, type Collector, type LeafCollector, type LeafContext } from '../../src/search/index.js';
import { TopScoreDocCollector } from '../../src/search/collect/top-score-doc-collector.js';
import { loadStoredHits } from '../../src/search/fetch/stored-hits.js';
import { debianSearcher, readDocs, readQueries, runLuceneKit, toQuery, TEXT_FIELD, type DebianQuery } from './search-debian.js';
import { flexSearchIndex, timeQueries } from '../peers/js-libraries.js';

const WARMUP_PASSES = 40;
const TIMED_PASSES = 5;

function percentile(sorted: number[], p: number): number {
  const index = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.max(0, Math.min(sorted.length - 1, index))]!;
}

function runQuery(searcher: IndexSearcher, query: DebianQuery, fetchIds: boolean): void {
  const top = searcher.topDocs(toQuery(query), 10, { trackTotalHitsUpTo: 1000 });
  if (fetchIds) loadStoredHits(searcher, top.scoreDocs.map((hit) => hit.doc), { source: false });
}

interface PassFigures {
  qps: number;
  p50Ms: number;
  p99Ms: number;
  meanMsByType: Record<string, number>;
}

function measure(searcher: IndexSearcher, queries: readonly DebianQuery[], fetchIds: boolean): PassFigures {
  for (let pass = 0; pass < WARMUP_PASSES; pass++) for (const query of queries) runQuery(searcher, query, fetchIds);
  const latencies: number[] = [];
  const passSeconds: number[] = [];
  const byType = new Map<string, { total: number; count: number }>();
  for (let pass = 0; pass < TIMED_PASSES; pass++) {
    const passStart = process.hrtime.bigint();
    for (const query of queries) {
      const start = process.hrtime.bigint();
      runQuery(searcher, query, fetchIds);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      latencies.push(ms);
      const entry = byType.get(query.type) ?? { total: 0, count: 0 };
      entry.total += ms;
      entry.count++;
      byType.set(query.type, entry);
    }
    passSeconds.push(Number(process.hrtime.bigint() - passStart) / 1e9);
  }
  latencies.sort((a, b) => a - b);
  passSeconds.sort((a, b) => a - b);
  return {
    qps: queries.length / passSeconds[Math.floor(TIMED_PASSES / 2)]!,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    meanMsByType: Object.fromEntries([...byType].map(([type, { total, count }]) => [type, total / count])),
  };
}

/** Wraps a collector to count the documents handed to it (each one is fully scored). */
class CountingCollector implements Collector {
  collected = 0;
  constructor(private readonly inner: TopScoreDocCollector) {}
  get scoreMode() {
    return this.inner.scoreMode;
  }
  getLeafCollector(leaf: LeafContext): LeafCollector {
    const inner = this.inner.getLeafCollector(leaf);
    return {
      setScorer: (scorer: Scorable) => inner.setScorer(scorer),
      collect: (doc: number) => {
        this.collected++;
        inner.collect(doc);
      },
    };
  }
}

function scoredVersusMatched(searcher: IndexSearcher, queries: readonly DebianQuery[], threshold: number): { scored: number; matched: number } {
  let scored = 0;
  let matched = 0;
  for (const query of queries) {
    const built: Query = toQuery(query);
    const collector = new CountingCollector(new TopScoreDocCollector(10, threshold));
    searcher.search(built, collector);
    scored += collector.collected;
    matched += searcher.count(built);
  }
  return { scored, matched };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const prefixIndex = args.indexOf('--lucene-prefix');
  const withLucene = !args.includes('--no-lucene');
  const lucene = withLucene ? await runLuceneKit(prefixIndex >= 0 ? args[prefixIndex + 1] : undefined) : null;

  const docs = readDocs();
  const searcher = new IndexSearcher(await debianSearcher(docs));
  const queries = readQueries();
  const gannet = measure(searcher, queries, true);
  const searchOnly = measure(searcher, queries, false);

  const flex = flexSearchIndex();
  flex.add(docs.map((doc, id) => ({ id, key: doc.id, text: String(doc.source[TEXT_FIELD] ?? '') })));
  const flexRun = timeQueries(queries.map((query) => ({ ...query, terms: [...query.terms] })), (query) => flex.search(query), TIMED_PASSES, WARMUP_PASSES);

  const orQueries = queries.filter((query) => query.type === 'or');
  const pruned = scoredVersusMatched(searcher, orQueries, 1000);
  const esDefault = scoredVersusMatched(searcher, orQueries, 10_000);

  const merged = lucene?.summary['query_merged'] as { qps: number; p50_ms: number; p99_ms: number; mean_ms_by_type: Record<string, number> } | undefined;
  const row = (name: string, qps: number, p50: number, p99: number, byType: Record<string, number>): string =>
    `${name.padEnd(22)} ${qps.toFixed(0).padStart(8)} ${p50.toFixed(3).padStart(8)} ${p99.toFixed(3).padStart(8)}   ${Object.entries(byType)
      .map(([type, ms]) => `${type} ${ms.toFixed(3)}`)
      .join(', ')}`;
  console.log(`${'engine (1 segment)'.padEnd(22)} ${'QPS'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}   mean ms by type`);
  console.log(row('gannet', gannet.qps, gannet.p50Ms, gannet.p99Ms, gannet.meanMsByType));
  console.log(row('gannet, no id fetch', searchOnly.qps, searchOnly.p50Ms, searchOnly.p99Ms, searchOnly.meanMsByType));
  console.log(row('flexsearch (same run)', flexRun.qps, flexRun.p50Ms, flexRun.p99Ms, {}));
  if (merged !== undefined) {
    console.log(row('lucene 8 (same run)', merged.qps, merged.p50_ms, merged.p99_ms, merged.mean_ms_by_type));
    console.log(`gannet / lucene QPS: ${(gannet.qps / merged.qps).toFixed(2)}`);
  }
  console.log(`gannet / flexsearch QPS: ${(gannet.qps / flexRun.qps).toFixed(2)}`);
  console.log(`OR queries (${orQueries.length}): scored ${pruned.scored} of ${pruned.matched} matching docs with threshold 1,000 (${((100 * pruned.scored) / pruned.matched).toFixed(1)}%); ${esDefault.scored} with ES's 10,000`);
  console.log(
    JSON.stringify({
      gannet,
      gannetWithoutFetch: searchOnly,
      lucene: merged ?? null,
      flexsearch: { qps: flexRun.qps, p50Ms: flexRun.p50Ms, p99Ms: flexRun.p99Ms },
      ratio: merged === undefined ? null : gannet.qps / merged.qps,
      ratioToFlexsearch: gannet.qps / flexRun.qps,
      orQueries: { count: orQueries.length, matched: pruned.matched, scoredThreshold1000: pruned.scored, scoredThreshold10000: esDefault.scored },
    }),
  );
}

await main();
