/**
 * range, date_range, filter, filters, missing and nested sub-aggregations against brute force over
 * segments and shards, plus their exact JSON shapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAggregations } from '../../../../src/search/aggregations/index.js';
import { arbDocs, arbLayout, buildShards, matchesQuery, runAggregations, valuesOf, type TestDoc } from './fixture.js';

const arbRange = fc
  .tuple(fc.option(fc.integer({ min: -60, max: 220 }), { nil: null }), fc.option(fc.integer({ min: -60, max: 220 }), { nil: null }))
  .map(([from, to]) => ({ from, to }));

test('range equals brute force: each doc once per range, ranges sorted by from/to', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(), arbLayout, fc.array(arbRange, { minLength: 1, maxLength: 4 }), async (docs, layout, ranges) => {
      const shards = await buildShards(docs, layout.shards, layout.segments);
      const body = ranges.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)));
      const out = runAggregations(parseAggregations({ r: { range: { field: 'n', ranges: body }, aggs: { c: { value_count: { field: 'n' } } } } }), shards);
      const sorted = ranges
        .map((r) => ({ from: r.from ?? -Infinity, to: r.to ?? Infinity }))
        .sort((a, b) => a.from - b.from || a.to - b.to);
      const expected = sorted.map(({ from, to }) => {
        const inRange = docs.filter((d) => (valuesOf(d, 'n') as number[]).some((v) => v >= from && v < to));
        const key = `${Number.isFinite(from) ? from.toFixed(1) : '*'}-${Number.isFinite(to) ? to.toFixed(1) : '*'}`;
        const bucket: Record<string, unknown> = { key };
        if (Number.isFinite(from)) bucket['from'] = from;
        if (Number.isFinite(to)) bucket['to'] = to;
        bucket['doc_count'] = inRange.length;
        bucket['c'] = { value: inRange.reduce((a, d) => a + valuesOf(d, 'n').length, 0) };
        return bucket;
      });
      assert.deepEqual(out.r.buckets, expected);
    }),
    { numRuns: 40 },
  );
});

test('date_range parses date math and formats keys; keyed ranges', async () => {
  const docs: TestDoc[] = [
    { id: '1', ts: Date.UTC(2015, 0, 1) },
    { id: '2', ts: Date.UTC(2015, 5, 1) },
    { id: '3', ts: Date.UTC(2016, 0, 1) },
  ];
  const out = runAggregations(
    parseAggregations({
      r: { date_range: { field: 'ts', format: 'yyyy-MM', ranges: [{ to: '2015-03' }, { from: '2015-03', to: '2015-12' }, { from: 'now-10y/y' }] } },
      k: { date_range: { field: 'ts', keyed: true, ranges: [{ key: 'early', to: 1420070400001 }] } },
    }),
    await buildShards(docs, 2, 1),
  );
  // now is 2024-01-15, so now-10y/y is 2014-01-01; buckets come sorted by from, then to.
  assert.deepEqual(out.r.buckets, [
    { key: '*-2015-03', to: 1425168000000, to_as_string: '2015-03', doc_count: 1 },
    { key: '2014-01-*', from: Date.UTC(2014, 0, 1), from_as_string: '2014-01', doc_count: 3 },
    { key: '2015-03-2015-12', from: 1425168000000, from_as_string: '2015-03', to: 1448928000000, to_as_string: '2015-12', doc_count: 1 },
  ]);
  assert.deepEqual(out.k.buckets, { early: { to: 1420070400001, to_as_string: '2015-01-01T00:00:00.001Z', doc_count: 1 } });
});

test('filter, filters (keyed, anonymous, other bucket) and missing equal brute force', async () => {
  const queries = [{ term: { cat: 'x' } }, { range: { n: { gte: 0, lt: 100 } } }, { exists: { field: 'price' } }, { bool: { must_not: [{ term: { tags: 'a' } }] } }];
  await fc.assert(
    fc.asyncProperty(arbDocs(), arbLayout, fc.constantFrom(...queries), fc.boolean(), async (docs, layout, query, keyed) => {
      const shards = await buildShards(docs, layout.shards, layout.segments);
      const filters = keyed ? { one: queries[0], two: query } : [queries[0], query];
      const out = runAggregations(
        parseAggregations({
          f: { filter: query, aggs: { m: { missing: { field: 'price' } } } },
          fs: { filters: { filters, other_bucket_key: 'rest' } },
          miss: { missing: { field: 'tags' } },
        }),
        shards,
      );
      const matching = docs.filter((d) => matchesQuery(query, d));
      assert.deepEqual(out.f, { doc_count: matching.length, m: { doc_count: matching.filter((d) => d.price === undefined).length } });
      const c0 = docs.filter((d) => matchesQuery(queries[0], d)).length;
      const c1 = matching.length;
      const rest = docs.filter((d) => !matchesQuery(queries[0], d) && !matchesQuery(query, d)).length;
      if (keyed) assert.deepEqual(out.fs.buckets, { one: { doc_count: c0 }, two: { doc_count: c1 }, rest: { doc_count: rest } });
      else assert.deepEqual(out.fs.buckets, [{ doc_count: c0 }, { doc_count: c1 }, { doc_count: rest }]);
      assert.deepEqual(out.miss, { doc_count: docs.filter((d) => valuesOf(d, 'tags').length === 0).length });
    }),
    { numRuns: 30 },
  );
});

test('nested bucket aggregations reduce like a single shard', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(), arbLayout, async (docs, layout) => {
      const specs = parseAggregations({
        cats: {
          terms: { field: 'cat', size: 10, shard_size: 100 },
          aggs: {
            per_year: { date_histogram: { field: 'ts', calendar_interval: 'year', min_doc_count: 1 }, aggs: { tags: { terms: { field: 'tags', size: 20, shard_size: 100 } } } },
            prices: { range: { field: 'price', ranges: [{ to: 0 }, { from: 0 }] }, aggs: { s: { sum: { field: 'price' } } } },
          },
        },
      });
      const multi = runAggregations(specs, await buildShards(docs, layout.shards, layout.segments));
      const single = runAggregations(specs, await buildShards(docs, 1, 1));
      // Sums may differ in the last bits between summation orders; compare them apart.
      const strip = (v: any): any => JSON.parse(JSON.stringify(v, (k, x) => (k === 's' ? Math.round(x.value * 100) : x)));
      assert.deepEqual(strip(multi), strip(single));
    }),
    { numRuns: 25 },
  );
});

test('filters reject an empty filter list; anonymous filters keep request order, named ones key order', async () => {
  assert.throws(() => parseAggregations({ f: { filters: { filters: {} } } }), { type: 'illegal_argument_exception', message: '[filters] cannot be empty.' });
  const shards = await buildShards([{ id: '1', cat: 'x' }], 1, 1);
  const out = runAggregations(parseAggregations({ f: { filters: { filters: { zeta: { match_all: {} }, alpha: { term: { cat: 'y' } } } } } }), shards);
  assert.deepEqual(Object.keys(out.f.buckets), ['alpha', 'zeta']);
});
