/**
 * top_hits: the best documents per bucket by score or by field sort, merged across shards, with totals,
 * max_score, _source filtering and the inner result window limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AggregationsCollector, parseAggregations } from '../../../../src/search/aggregations/index.js';
import { arbDocs, arbLayout, buildShards, runAggregations, testContext, type TestDoc } from './fixture.js';

/** A score per doc that ties often, so tie-breaks matter. */
const scoreOf = (doc: TestDoc): number => ((Number(doc.id.slice(3)) * 7) % 5) + 0.5;

test('top_hits by field sort equals brute force per terms bucket, across shards', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(), arbLayout, fc.integer({ min: 0, max: 4 }), fc.boolean(), async (docs, layout, size, asc) => {
      const out = runAggregations(
        parseAggregations({ c: { terms: { field: 'cat', size: 10 }, aggs: { top: { top_hits: { size, sort: [{ price: asc ? 'asc' : 'desc' }], _source: ['price', 'id'] } } } } }),
        await buildShards(docs, layout.shards, layout.segments),
      );
      for (const bucket of out.c.buckets) {
        const inBucket = docs.filter((d) => d.cat === bucket.key);
        const withPrice = inBucket.filter((d) => d.price !== undefined).sort((a, b) => (asc ? a.price! - b.price! : b.price! - a.price!));
        const expectedPrices = [...withPrice.map((d) => d.price!), ...inBucket.filter((d) => d.price === undefined).map(() => null)].slice(0, size);
        assert.deepEqual(bucket.top.hits.hits.map((h: { sort: [number | null] }) => h.sort[0]), JSON.parse(JSON.stringify(expectedPrices)));
        assert.deepEqual(bucket.top.hits.total, { value: inBucket.length, relation: 'eq' });
        assert.equal(bucket.top.hits.max_score, null);
        for (const hit of bucket.top.hits.hits) {
          assert.equal(hit._score, null);
          assert.deepEqual(Object.keys(hit._source).sort(), hit._source.price === undefined ? ['id'] : ['id', 'price']);
        }
      }
    }),
    { numRuns: 30 },
  );
});

test('top_hits by score: best scores first, max_score, deterministic ties', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(), arbLayout, async (docs, layout) => {
      const shards = await buildShards(docs, layout.shards, layout.segments);
      const out = runAggregations(parseAggregations({ top: { top_hits: { size: 3 } } }), shards, undefined, undefined, scoreOf);
      const scores = docs.map(scoreOf).sort((a, b) => b - a);
      assert.deepEqual(out.top.hits.hits.map((h: { _score: number }) => h._score), scores.slice(0, 3));
      assert.equal(out.top.hits.max_score, docs.length === 0 ? null : scores[0]);
      assert.equal(out.top.hits.total.value, docs.length);
      for (const hit of out.top.hits.hits) {
        assert.equal(hit._index, 'test');
        assert.equal(typeof hit._id, 'string');
        assert.equal(hit._source.id, hit._id);
      }
    }),
    { numRuns: 25 },
  );
});

test('top_hits needs scores only when sorting by score; from + size is capped by the inner result window', async () => {
  assert.equal(new AggregationsCollector(parseAggregations({ t: { top_hits: {} } }), testContext()).scoreMode, 'complete');
  assert.equal(new AggregationsCollector(parseAggregations({ t: { top_hits: { sort: ['price'] } } }), testContext()).scoreMode, 'complete_no_scores');
  assert.equal(new AggregationsCollector(parseAggregations({ t: { terms: { field: 'cat' } } }), testContext()).scoreMode, 'complete_no_scores');
  assert.throws(() => new AggregationsCollector(parseAggregations({ t: { top_hits: { from: 90, size: 20 } } }), testContext()), {
    type: 'illegal_argument_exception',
    message:
      "Top hits result window is too large, the top hits aggregator [t]'s from + size must be less than or equal to: [100] but was [110]. This limit can be set by changing the [index.max_inner_result_window] index level setting.",
  });
  assert.throws(() => new AggregationsCollector(parseAggregations({ t: { top_hits: { sort: ['nope'] } } }), testContext()), {
    type: 'query_shard_exception',
    message: 'No mapping found for [nope] in order to sort on',
  });
});

test('top_hits from skips the best hits of the merged result', async () => {
  const docs: TestDoc[] = [5, 1, 4, 2, 3].map((price, i) => ({ id: `doc${i}`, price }));
  const out = runAggregations(parseAggregations({ t: { top_hits: { from: 1, size: 2, sort: [{ price: { order: 'desc' } }], _source: false } } }), await buildShards(docs, 2, 1));
  assert.deepEqual(out.t.hits.hits, [
    { _index: 'test', _id: 'doc2', _score: null, sort: [4] },
    { _index: 'test', _id: 'doc4', _score: null, sort: [3] },
  ]);
});
