/**
 * Parity with real Lucene (not a timed test): the Debian corpus in one segment, the 200 Debian queries,
 * top 10 (and top 100), compared with what the Lucene 8 kit of ../shared/bench-peers returns for the same
 * data. Lucene there scores with plain BM25Similarity (no ES (k1 + 1) factor), so Gannet runs with
 * `legacyK1Factor: false` here; the ES flavour only multiplies the boost.
 *
 * A query matches when it returns the same number of hits, every score within 1e-5 relative of Lucene's,
 * and the same ids in the same order, where only hits with exactly equal scores may swap. The report
 * also counts scores that are bit-identical to Lucene's float.
 *
 *   npx tsc -p . --outDir /tmp/build-search && node /tmp/build-search/bench/micro/search-parity.js [lucene-prefix]
 *
 * Without an argument it runs the Lucene kit first (a minute or so); with a prefix it reads that run's
 * `<prefix>.top10.jsonl` / `.top100.jsonl`.
 */
import { IndexSearcher, BM25Similarity } from '../../src/search/index.js';
import { loadStoredHits } from '../../src/search/fetch/stored-hits.js';
import { debianSearcher, readDocs, readQueries, runLuceneKit, toQuery } from './search-debian.js';

const RELATIVE_TOLERANCE = 1e-5;

interface Hits {
  ids: string[];
  scores: number[];
}

interface Comparison {
  readonly matches: boolean;
  readonly maxRelativeDiff: number;
  readonly bitEqualScores: number;
  readonly scoreCount: number;
  readonly problem?: string;
}

/** Groups of equal scores may be in any order; everything else must line up. */
function compareHits(ours: Hits, lucene: Hits): Comparison {
  let maxRelativeDiff = 0;
  let bitEqualScores = 0;
  const count = Math.min(ours.scores.length, lucene.scores.length);
  for (let i = 0; i < count; i++) {
    const expected = Math.fround(lucene.scores[i]!);
    const actual = ours.scores[i]!;
    if (actual === expected) bitEqualScores++;
    const diff = Math.abs(actual - expected) / Math.max(Math.abs(expected), Number.MIN_VALUE);
    if (diff > maxRelativeDiff) maxRelativeDiff = diff;
  }
  const base = { maxRelativeDiff, bitEqualScores, scoreCount: count };
  if (ours.ids.length !== lucene.ids.length) return { ...base, matches: false, problem: `${ours.ids.length} hits, Lucene ${lucene.ids.length}` };
  if (maxRelativeDiff > RELATIVE_TOLERANCE) return { ...base, matches: false, problem: `score differs by ${maxRelativeDiff.toExponential(2)} relative` };
  let start = 0;
  while (start < count) {
    let end = start + 1;
    while (end < count && ours.scores[end] === ours.scores[start]) end++;
    const a = ours.ids.slice(start, end).sort();
    const b = lucene.ids.slice(start, end).sort();
    if (a.join('\u0000') !== b.join('\u0000')) {
      return { ...base, matches: false, problem: `rank ${start + 1}: ${ours.ids.slice(start, end).join(',')} vs ${lucene.ids.slice(start, end).join(',')}` };
    }
    start = end;
  }
  return { ...base, matches: true };
}

async function main(): Promise<void> {
  const lucene = await runLuceneKit(process.argv[2]);
  const docs = readDocs();
  const reader = await debianSearcher(docs);
  const searcher = new IndexSearcher(reader, { similarity: new BM25Similarity({ legacyK1Factor: false }) });
  const queries = readQueries();

  for (const depth of [10, 100] as const) {
    const expectedHits = depth === 10 ? lucene.top10 : lucene.top100;
    let matching = 0;
    let maxRelativeDiff = 0;
    let bitEqual = 0;
    let scores = 0;
    const failures: string[] = [];
    for (const query of queries) {
      // The kit uses IndexSearcher.search(query, n): exact counts up to 1,000 hits.
      const top = searcher.topDocs(toQuery(query), depth, { trackTotalHitsUpTo: 1000 });
      const stored = loadStoredHits(searcher, top.scoreDocs.map((hit) => hit.doc));
      const ours = { ids: stored.map((hit) => hit.id), scores: top.scoreDocs.map((hit) => hit.score) };
      const expected = expectedHits.get(query.qid);
      if (expected === undefined) throw new Error(`Lucene has no result for ${query.qid}`);
      const comparison = compareHits(ours, expected);
      if (comparison.matches) matching++;
      else failures.push(`${query.qid} ${query.type} [${query.terms.join(' ')}]: ${comparison.problem}`);
      maxRelativeDiff = Math.max(maxRelativeDiff, comparison.maxRelativeDiff);
      bitEqual += comparison.bitEqualScores;
      scores += comparison.scoreCount;
    }
    console.log(`top ${depth}: ${matching}/${queries.length} queries match Lucene; max relative score difference ${maxRelativeDiff.toExponential(3)}; ${bitEqual}/${scores} scores bit-identical`);
    for (const failure of failures.slice(0, 20)) console.log(`  mismatch ${failure}`);
    console.log(JSON.stringify({ depth, queries: queries.length, matching, maxRelativeDiff, bitEqualScores: bitEqual, scores }));
  }
}

await main();
