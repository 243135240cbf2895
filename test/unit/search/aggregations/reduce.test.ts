/**
 * The reduce path on its own: partial then final reduces equal one final reduce, unmapped shards, long and
 * double terms mixing, type conflicts, shard-level and reduce-level max_buckets, typed_keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  finalReduceContext,
  PARTIAL_REDUCE,
  parseAggregations,
  reduceAggregations,
  renderAggregations,
  type InternalAggregation,
} from '../../../../src/search/aggregations/index.js';
import { arbDocs, buildShards, collectShard, plain, testContext, type TestDoc } from './fixture.js';

const SPECS = parseAggregations({
  t: { terms: { field: 'tags', size: 5 }, aggs: { c: { cardinality: { field: 'n' } }, p: { percentiles: { field: 'price', percents: [50] } } } },
  h: { histogram: { field: 'n', interval: 10, min_doc_count: 0 }, aggs: { s: { stats: { field: 'price' } } } },
  d: { date_histogram: { field: 'ts', calendar_interval: 'month' } },
  r: { range: { field: 'price', ranges: [{ to: 0 }, { from: 0 }] } },
  top: { top_hits: { size: 2, sort: [{ n: 'desc' }], _source: false } },
});

test('partial reduces followed by a final reduce equal a single final reduce', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(40), fc.integer({ min: 2, max: 4 }), async (docs, shardCount) => {
      const ctx = testContext();
      const results = (await buildShards(docs, shardCount, 2)).map((shard) => collectShard(SPECS, shard, ctx));
      const direct = renderAggregations(reduceAggregations(results, finalReduceContext()));
      const half = Math.ceil(results.length / 2);
      const partials = [reduceAggregations(results.slice(0, half), PARTIAL_REDUCE), reduceAggregations(results.slice(half), PARTIAL_REDUCE)];
      const staged = renderAggregations(reduceAggregations(partials, finalReduceContext()));
      // Summation order may move the last bits of double sums; compare those rounded. Hits that tie on the
      // sort may come in either order after a partial reduce (as in ES, ties break by position in the reduce),
      // so top_hits compare by their sort values.
      const round = (v: unknown): unknown =>
        JSON.parse(
          JSON.stringify(plain(v), (k, x) => {
            if (typeof x === 'number') return Math.round(x * 1e6) / 1e6;
            if (k === 'hits' && Array.isArray(x)) return x.map((hit: { sort: unknown }) => hit.sort);
            return x;
          }),
        );
      assert.deepEqual(round(staged), round(direct));
    }),
    { numRuns: 20 },
  );
});

test('unmapped shards reduce with mapped ones; long terms meet double terms; strings never meet numbers', async () => {
  const docs: TestDoc[] = [{ id: '1', n: [1, 2], price: 1.5, cat: 'x' }];
  const shard = (await buildShards(docs, 1, 1))[0]!;
  const mapped = collectShard(parseAggregations({ t: { terms: { field: 'n' } } }), shard, testContext());
  const unmapped = collectShard(parseAggregations({ t: { terms: { field: 'nope' } } }), shard, testContext());
  assert.deepEqual(plain(renderAggregations(reduceAggregations([unmapped, mapped], finalReduceContext()))).t.buckets, [
    { key: 1, doc_count: 1 },
    { key: 2, doc_count: 1 },
  ]);
  assert.deepEqual(plain(renderAggregations(reduceAggregations([unmapped, unmapped], finalReduceContext()))), {
    t: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] },
  });
  const doubles = collectShard(parseAggregations({ t: { terms: { field: 'price' } } }), shard, testContext());
  const mixed = reduceAggregations([mapped, doubles], finalReduceContext());
  assert.equal((mixed[0] as Extract<InternalAggregation, { type: 'terms' }>).valueType, 'double');
  const strings = collectShard(parseAggregations({ t: { terms: { field: 'cat' } } }), shard, testContext());
  assert.throws(() => reduceAggregations([mapped, strings], finalReduceContext()), {
    type: 'aggregation_execution_exception',
    message:
      'Merging/Reducing the aggregations failed when computing the aggregation [t] because the field you gave in the aggregation query existed as two different types in two different indices',
  });
});

test('search.max_buckets counts buckets on shards and in the final reduce', async () => {
  const docs: TestDoc[] = Array.from({ length: 30 }, (_, i) => ({ id: `doc${i}`, n: [i] }));
  const shards = await buildShards(docs, 2, 1);
  const specs = parseAggregations({ t: { terms: { field: 'n', size: 30 } } });
  // Each shard builds 15 buckets: fine with a limit of 20; the final reduce builds 30: too many.
  const ctx = testContext({ maxBuckets: 20 });
  const results = shards.map((s) => collectShard(specs, s, ctx));
  assert.throws(() => reduceAggregations(results, finalReduceContext(20)), { type: 'too_many_buckets_exception', status: 400, metadata: { max_buckets: 20 } });
  assert.doesNotThrow(() => reduceAggregations(results, finalReduceContext(30)));
  // A single shard building more buckets than allowed fails on the shard.
  assert.throws(() => collectShard(specs, shards[0]!, testContext({ maxBuckets: 10 })), { type: 'too_many_buckets_exception' });
  // Partial reduces do not count.
  assert.doesNotThrow(() => reduceAggregations(results, PARTIAL_REDUCE));
  // Sub-aggregation buckets count too.
  const nested = parseAggregations({ h: { histogram: { field: 'n', interval: 10 }, aggs: { t: { terms: { field: 'n' } } } } });
  const nestedResults = shards.map((s) => collectShard(nested, s, testContext()));
  assert.throws(() => reduceAggregations(nestedResults, finalReduceContext(32)), { type: 'too_many_buckets_exception' });
  assert.doesNotThrow(() => reduceAggregations(nestedResults, finalReduceContext(33)));
});

test('typed_keys prefixes names with ES type names', async () => {
  const shard = (await buildShards([{ id: '1', n: [1], price: 1, cat: 'x', ts: 0 }], 1, 1))[0]!;
  const specs = parseAggregations({
    a: { terms: { field: 'cat' } },
    b: { terms: { field: 'n' } },
    c: { terms: { field: 'price' } },
    d: { percentiles: { field: 'n' } },
    e: { date_histogram: { field: 'ts', calendar_interval: 'year' } },
    f: { filter: { match_all: {} } },
    g: { value_count: { field: 'n' } },
  });
  const rendered = renderAggregations(reduceAggregations([collectShard(specs, shard, testContext())], finalReduceContext()), { typedKeys: true });
  assert.deepEqual(Object.keys(rendered), ['sterms#a', 'lterms#b', 'dterms#c', 'tdigest_percentiles#d', 'date_histogram#e', 'filter#f', 'value_count#g']);
});

test('a reduce checks for cancellation as it produces buckets', async () => {
  const { partialReduceContext } = await import('../../../../src/search/aggregations/index.js');
  const shards = await buildShards([{ id: '1', n: [1] }, { id: '2', n: [2] }], 2, 1);
  const specs = parseAggregations({ t: { terms: { field: 'n' } } });
  const results = shards.map((s) => collectShard(specs, s, testContext()));
  const cancel = (): void => {
    throw new Error('cancelled');
  };
  assert.throws(() => reduceAggregations(results, finalReduceContext(100, cancel)), { message: 'cancelled' });
  assert.throws(() => reduceAggregations(results, partialReduceContext(cancel)), { message: 'cancelled' });
});
