/**
 * The JavaScript search libraries users would otherwise reach for, as peers: minisearch (BM25-like scoring)
 * and flexsearch (fast, not BM25). Both run in this process on the same documents and queries.
 */
import MiniSearch from 'minisearch';
import FlexSearch from 'flexsearch';
import type { Query } from '../lib/corpus.js';
import { percentile } from '../lib/stats.js';

export interface Document {
  id: number;
  key: string;
  text: string;
}

export interface LibraryIndex {
  name: string;
  add(docs: Document[]): void;
  /** Top-10 document numbers for a query. */
  search(query: Query): number[];
}

export function miniSearchIndex(): LibraryIndex {
  const index = new MiniSearch<Document>({ fields: ['text'], idField: 'id', storeFields: [] });
  return {
    name: 'minisearch',
    add: (docs) => index.addAll(docs),
    search: (query) =>
      index
        .search(query.terms.join(' '), { combineWith: query.type === 'or' || query.type === 'term' ? 'OR' : 'AND', prefix: false, fuzzy: false })
        .slice(0, 10)
        .map((hit) => hit.id as number),
  };
}

export function flexSearchIndex(): LibraryIndex {
  const index = new FlexSearch.Index({ tokenize: 'strict' });
  return {
    name: 'flexsearch',
    add: (docs) => {
      for (const doc of docs) index.add(doc.id, doc.text);
    },
    search: (query) => {
      const text = query.terms.join(' ');
      const hits = query.type === 'or' ? index.search(text, { limit: 10, suggest: true }) : index.search(text, { limit: 10 });
      return hits as number[];
    },
  };
}

export interface QueryRun {
  qps: number;
  p50Ms: number;
  p99Ms: number;
  /** qid -> top-10 doc numbers from the last pass. */
  top10: Map<string, number[]>;
}

/** Runs every query `passes` times after `warmupPasses`, one at a time, and reports throughput and latency. */
export function timeQueries(queries: Query[], run: (query: Query) => number[], passes = 5, warmupPasses = 2): QueryRun {
  for (let pass = 0; pass < warmupPasses; pass++) for (const query of queries) run(query);
  const latencies: number[] = [];
  const top10 = new Map<string, number[]>();
  const start = process.hrtime.bigint();
  for (let pass = 0; pass < passes; pass++) {
    for (const query of queries) {
      const t0 = process.hrtime.bigint();
      const hits = run(query);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (pass === passes - 1) top10.set(query.qid, hits);
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { qps: (queries.length * passes) / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), top10 };
}
