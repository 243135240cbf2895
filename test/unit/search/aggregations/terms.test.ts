/**
 * terms against brute force: exact when every shard returns all its terms, and within ES's error bounds
 * (doc_count_error_upper_bound, sum_other_doc_count) when shard_size cuts them; orders, min_doc_count,
 * missing, include/exclude and the exact response shape.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAggregations } from '../../../../src/search/aggregations/index.js';
import { compareTerms } from '../../../../src/search/aggregations/support/order-path.js';
import { arbDocs, arbLayout, buildShards, runAggregations, valuesOf, type TestDoc } from './fixture.js';

type Key = string | number;

function counts(docs: readonly TestDoc[], field: string, missing?: Key): Map<Key, TestDoc[]> {
  const map = new Map<Key, TestDoc[]>();
  for (const doc of docs) {
    let values: Key[] = [...new Set(valuesOf(doc, field))];
    if (values.length === 0 && missing !== undefined) values = [missing];
    for (const v of values) map.set(v, [...(map.get(v) ?? []), doc]);
  }
  return map;
}

function compareKeys(a: Key, b: Key): number {
  return typeof a === 'string' ? compareTerms(a, b as string) : a - (b as number);
}

const ORDERS = [undefined, { _key: 'asc' }, { _key: 'desc' }, { _count: 'asc' }, { avg_price: 'desc' }, [{ _count: 'desc' }, { _key: 'desc' }]] as const;

function avgPrice(docs: readonly TestDoc[]): number {
  const prices = docs.flatMap((d) => (d.price === undefined ? [] : [d.price]));
  return prices.length === 0 ? NaN : prices.reduce((a, b) => a + b, 0) / prices.length;
}

function javaCompare(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) === Number.isNaN(b) ? 0 : Number.isNaN(a) ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function bruteOrder(order: (typeof ORDERS)[number]): (a: [Key, TestDoc[]], b: [Key, TestDoc[]]) => number {
  const elements: Array<[string, string]> = order === undefined ? [['_count', 'desc']] : Array.isArray(order) ? order.map((o) => Object.entries(o)[0]!) : [Object.entries(order)[0]!];
  const last = elements[elements.length - 1]![0];
  if (!(elements.length === 1 && last === '_key') && last !== '_key') elements.push(['_key', 'asc']);
  return (a, b) => {
    for (const [what, dir] of elements) {
      let r = 0;
      if (what === '_count') r = a[1].length - b[1].length;
      else if (what === '_key') r = compareKeys(a[0], b[0]);
      else r = javaCompare(avgPrice(a[1]), avgPrice(b[1]));
      if (r !== 0) return dir === 'asc' ? r : -r;
    }
    return 0;
  };
}

test('terms equal brute force when shards return every term', async () => {
  await fc.assert(
    fc.asyncProperty(
      arbDocs(),
      arbLayout,
      fc.constantFrom('tags', 'cat', 'n', 'price', 'ts', 'flag'),
      fc.integer({ min: 1, max: 8 }),
      fc.constantFrom(...ORDERS),
      fc.constantFrom(1, 2),
      async (docs, layout, field, size, order, minDocCount) => {
        const shards = await buildShards(docs, layout.shards, layout.segments);
        const body: Record<string, unknown> = { field, size, shard_size: 1000, min_doc_count: minDocCount };
        if (order !== undefined) body['order'] = order;
        const out = runAggregations(parseAggregations({ t: { terms: body, aggs: { avg_price: { avg: { field: 'price' } } } } }), shards);
        const all = [...counts(docs, field).entries()];
        const kept = all.filter(([, d]) => d.length >= minDocCount).sort(bruteOrder(order));
        const expected = kept.slice(0, size);
        assert.deepEqual(
          out.t.buckets.map((b: { key: Key; doc_count: number }) => [b.key, b.doc_count]),
          expected.map(([k, d]) => [k, d.length]),
        );
        const keyOrder = order !== undefined && !Array.isArray(order) && '_key' in order;
        const dropped = keyOrder && minDocCount <= 1 ? all.slice(0).filter(([k]) => !expected.some(([e]) => e === k)) : kept.slice(size);
        assert.equal(out.t.sum_other_doc_count, dropped.reduce((a, [, d]) => a + d.length, 0));
        assert.equal(out.t.doc_count_error_upper_bound, 0);
        for (const bucket of out.t.buckets) {
          const brute = avgPrice(counts(docs, field).get(bucket.key)!);
          if (Number.isNaN(brute)) assert.equal(bucket.avg_price.value, null);
          else assert.ok(Math.abs(bucket.avg_price.value - brute) < 1e-9 * Math.max(1, Math.abs(brute)));
        }
        if (field === 'ts') for (const b of out.t.buckets) assert.equal(b.key_as_string, new Date(b.key).toISOString());
        if (field === 'flag') for (const b of out.t.buckets) assert.equal(b.key_as_string, b.key === 1 ? 'true' : 'false');
        if (field === 'tags' || field === 'n' || field === 'price') for (const b of out.t.buckets) assert.equal('key_as_string' in b, false);
      },
    ),
    { numRuns: 40 },
  );
});

test('small shard_size: counts never overshoot, doc_count_error_upper_bound bounds the error, nothing is lost', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(80), fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), async (docs, shardCount, size, extra) => {
      const shards = await buildShards(docs, shardCount, 2);
      const out = runAggregations(
        parseAggregations({ t: { terms: { field: 'tags', size, shard_size: size + extra, show_term_doc_count_error: true } } }),
        shards,
      );
      const truth = counts(docs, 'tags');
      const total = [...truth.values()].reduce((a, d) => a + d.length, 0);
      const returned = out.t.buckets.reduce((a: number, b: { doc_count: number }) => a + b.doc_count, 0);
      assert.equal(out.t.sum_other_doc_count + returned, total);
      for (const bucket of out.t.buckets) {
        const actual = truth.get(bucket.key)!.length;
        assert.ok(bucket.doc_count <= actual);
        assert.ok(actual - bucket.doc_count <= out.t.doc_count_error_upper_bound, `error ${actual - bucket.doc_count} > bound ${out.t.doc_count_error_upper_bound}`);
        assert.ok(actual - bucket.doc_count <= bucket.doc_count_error_upper_bound);
      }
      // A term left out cannot have more documents than the last bucket plus the error bound.
      const last = out.t.buckets[out.t.buckets.length - 1];
      if (last !== undefined && out.t.buckets.length === size) {
        for (const [key, d] of truth) {
          if (out.t.buckets.some((b: { key: Key }) => b.key === key)) continue;
          assert.ok(d.length <= last.doc_count + out.t.doc_count_error_upper_bound);
        }
      }
    }),
    { numRuns: 40 },
  );
});

test('min_doc_count 0 returns every term of the shards with zero counts, missing fills empty docs', async () => {
  const docs: TestDoc[] = [
    { id: '1', cat: 'x', n: [1] },
    { id: '2', cat: 'y', n: [2] },
    { id: '3', n: [3] },
    { id: '4', cat: 'x' },
  ];
  const shards = await buildShards(docs, 2, 1);
  const onlyX = (d: TestDoc): boolean => d.cat === 'x';
  const out = runAggregations(
    parseAggregations({
      zero: { terms: { field: 'cat', min_doc_count: 0, order: { _key: 'asc' } } },
      nums: { terms: { field: 'n', min_doc_count: 0, order: { _key: 'asc' } } },
      miss: { terms: { field: 'cat', missing: 'none' } },
    }),
    shards,
    undefined,
    onlyX,
  );
  assert.deepEqual(out.zero.buckets, [
    { key: 'x', doc_count: 2 },
    { key: 'y', doc_count: 0 },
  ]);
  assert.deepEqual(out.nums.buckets, [
    { key: 1, doc_count: 1 },
    { key: 2, doc_count: 0 },
    { key: 3, doc_count: 0 },
  ]);
  assert.deepEqual(out.miss.buckets, [{ key: 'x', doc_count: 2 }]);
  const all = runAggregations(parseAggregations({ miss: { terms: { field: 'cat', missing: 'none' } }, unmapped: { terms: { field: 'nope' } }, um: { terms: { field: 'nope', missing: 'N/A' } } }), shards);
  assert.deepEqual(all.miss.buckets, [
    { key: 'x', doc_count: 2 },
    { key: 'none', doc_count: 1 },
    { key: 'y', doc_count: 1 },
  ]);
  assert.deepEqual(all.unmapped, { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] });
  assert.deepEqual(all.um.buckets, [{ key: 'N/A', doc_count: 4 }]);
});

test('include/exclude: regex, sets and partitions', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(40), fc.integer({ min: 1, max: 4 }), async (docs, numPartitions) => {
      const shards = await buildShards(docs, 2, 2);
      const terms = (extra: Record<string, unknown>) =>
        runAggregations(parseAggregations({ t: { terms: { field: 'tags', size: 100, ...extra } } }), shards).t.buckets.map((b: { key: string }) => b.key).sort();
      const all = [...counts(docs, 'tags').keys()].sort() as string[];
      assert.deepEqual(terms({ include: '[a-c]|z.*' }), all.filter((t) => /^(?:[a-c]|z.*)$/u.test(t)));
      assert.deepEqual(terms({ exclude: ['a', 'b'] }), all.filter((t) => t !== 'a' && t !== 'b'));
      assert.deepEqual(terms({ include: '.*', exclude: 'A|\u{1F600}' }), all.filter((t) => t !== 'A' && t !== '\u{1F600}'));
      const partitions = Array.from({ length: numPartitions }, (_, p) => terms({ include: { partition: p, num_partitions: numPartitions } }));
      assert.deepEqual(partitions.flat().sort(), all);
      const numeric = runAggregations(parseAggregations({ t: { terms: { field: 'n', size: 500, include: [1, 2, 3, 100] } } }), shards).t.buckets.map((b: { key: number }) => b.key);
      for (const key of numeric) assert.ok([1, 2, 3, 100].includes(key));
    }),
    { numRuns: 15 },
  );
});

test('terms response shape matches the ES documentation example', async () => {
  const docs: TestDoc[] = [
    { id: '1', cat: 'electronic', price: 10 },
    { id: '2', cat: 'rock', price: 20 },
    { id: '3', cat: 'rock', price: 30 },
    { id: '4', cat: 'jazz' },
    { id: '5', cat: 'electronic' },
    { id: '6', cat: 'electronic' },
  ];
  const out = runAggregations(parseAggregations({ genres: { terms: { field: 'cat' } } }), await buildShards(docs, 1, 2));
  assert.deepEqual(out, {
    genres: {
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
      buckets: [
        { key: 'electronic', doc_count: 3 },
        { key: 'rock', doc_count: 2 },
        { key: 'jazz', doc_count: 1 },
      ],
    },
  });
  const sized = runAggregations(parseAggregations({ genres: { terms: { field: 'cat', size: 1, show_term_doc_count_error: true } } }), await buildShards(docs, 2, 1));
  assert.deepEqual(sized.genres.buckets, [{ key: 'electronic', doc_count: 3, doc_count_error_upper_bound: 0 }]);
  assert.equal(sized.genres.sum_other_doc_count, 3);
});

test('ordering by a bad sub-aggregation path fails like ES', async () => {
  const shards = await buildShards([{ id: '1', cat: 'x', price: 1 }], 1, 1);
  const run = (order: unknown, aggs: unknown) => () => runAggregations(parseAggregations({ t: { terms: { field: 'cat', order }, aggs } }), shards);
  assert.throws(run({ nope: 'asc' }, { a: { avg: { field: 'price' } } }), {
    type: 'aggregation_execution_exception',
    status: 400,
    message: 'Invalid aggregation order path [nope]. The provided aggregation [nope] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.',
  });
  assert.throws(run({ s: 'asc' }, { s: { stats: { field: 'price' } } }), { message: /a metric name must be specified/ });
  assert.throws(run({ 's.nope': 'asc' }, { s: { stats: { field: 'price' } } }), { message: /Unknown metric name \[nope\] on multi-value metrics aggregation \[s\]/ });
  assert.throws(run({ 'inner>x': 'asc' }, { inner: { terms: { field: 'cat' } } }), { message: /\[inner\] is not single-bucket/ });
  const ok = runAggregations(parseAggregations({ t: { terms: { field: 'cat', order: { 'f>m': 'desc' } }, aggs: { f: { filter: { match_all: {} }, aggs: { m: { max: { field: 'price' } } } } } } }), shards);
  assert.equal(ok.t.buckets[0].f.m.value, 1);
});

test('min_doc_count 0 lists terms of segments no document matched when the context lists all segments', async () => {
  const { AggregationsCollector, finalReduceContext, reduceAggregations, renderAggregations } = await import('../../../../src/search/aggregations/index.js');
  const { testContext, plain, buildShard } = await import('./fixture.js');
  const shard = await buildShard([{ id: '1', cat: 'x' }, { id: '2', cat: 'y' }], 2);
  const specs = parseAggregations({ t: { terms: { field: 'cat', min_doc_count: 0 } } });
  const run = (segments: boolean) => {
    // Only the first segment has a match: a searcher never opens a leaf collector on the second.
    const collector = new AggregationsCollector(specs, testContext(segments ? { segments: shard.segments } : {}));
    collector.getLeafCollector(shard.segments[0]!).collect(0);
    return plain(renderAggregations(reduceAggregations([collector.buildShardResult()], finalReduceContext()))).t.buckets;
  };
  assert.deepEqual(run(true), [{ key: 'x', doc_count: 1 }, { key: 'y', doc_count: 0 }]);
  assert.deepEqual(run(false), [{ key: 'x', doc_count: 1 }]);
});
