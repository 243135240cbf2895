/**
 * The aggregations collector is a search Collector: IndexSearcher can drive it directly over a searcher's
 * segments, and it sees exactly the live matching documents.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Collector } from '../../../../src/search/collect/collector.js';
import { IndexSearcher } from '../../../../src/search/searcher/index-searcher.js';
import { MatchAllDocsQuery } from '../../../../src/search/query/match-all-docs-query.js';
import type { Searcher } from '../../../../src/engine/searcher.js';
import { AggregationsCollector, finalReduceContext, parseAggregations, reduceAggregations, renderAggregations } from '../../../../src/search/aggregations/index.js';
import { buildShard, plain, testContext, type TestDoc } from './fixture.js';

test('IndexSearcher drives AggregationsCollector over live documents of every segment', async () => {
  const docs: TestDoc[] = Array.from({ length: 20 }, (_, i) => ({ id: `doc${i}`, cat: i % 2 === 0 ? 'even' : 'odd', n: [i] }));
  const deleted = new Set(['doc0', 'doc3']);
  const shard = await buildShard(docs, 3, deleted);
  const searcher: Searcher = {
    segments: shard.segments.map((s) => ({ ...s, numDocs: s.maxDoc - (s.liveDocs?.deletedCount ?? 0) })),
    maxDoc: docs.length,
    numDocs: docs.length - deleted.size,
    generation: 1,
    release() {},
  };
  const collector: Collector = new AggregationsCollector(parseAggregations({ t: { terms: { field: 'cat' }, aggs: { s: { sum: { field: 'n' } } } } }), testContext());
  new IndexSearcher(searcher).search(new MatchAllDocsQuery(), collector);
  const result = (collector as AggregationsCollector).buildShardResult();
  const out = plain(renderAggregations(reduceAggregations([result], finalReduceContext())));
  assert.deepEqual(out.t.buckets, [
    { key: 'even', doc_count: 9, s: { value: 90 } },
    { key: 'odd', doc_count: 9, s: { value: 97 } },
  ]);
});
