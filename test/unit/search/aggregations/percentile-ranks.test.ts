/**
 * percentile_ranks: ES's parsing rules and errors (PercentileRanksAggregationBuilder), the JSON shapes of
 * InternalTDigestPercentileRanks (keyed, list, empty, formatted, typed keys) and bucket orders on a rank.
 * Exact ranks against ES's own code are in tdigest-cdf-es-oracle.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsError } from '../../../../src/common/errors.js';
import { parseAggregations, reduceAggregations, finalReduceContext, renderAggregations } from '../../../../src/search/aggregations/index.js';
import { buildShards, collectShard, runAggregations, testContext, type TestDoc } from './fixture.js';

function fails(aggs: unknown, type: string, message: string, causedBy?: string): void {
  assert.throws(
    () => parseAggregations(aggs),
    (err: unknown) => {
      assert.ok(err instanceof EsError, String(err));
      assert.equal(err.type, type);
      assert.equal(err.message, message);
      if (causedBy !== undefined) assert.equal(err.causedBy?.message, causedBy);
      return true;
    },
  );
}

test('percentile_ranks parsing: values required, non-empty, numeric; sorted; one bare value is an array', () => {
  const failedToBuild = 'Failed to build [percentile_ranks] after last required field arrived';
  fails({ a: { percentile_ranks: { field: 'n' } } }, 'x_content_parse_exception', failedToBuild, '[values] must not be null: [a]');
  fails({ a: { percentile_ranks: { field: 'n', values: [] } } }, 'x_content_parse_exception', failedToBuild, '[values] must not be an empty array: [a]');
  fails({ a: { percentile_ranks: { field: 'n', values: null } } }, 'x_content_parse_exception', "[percentile_ranks] values doesn't support values of type: VALUE_NULL");
  fails({ a: { percentile_ranks: { field: 'n', values: ['foo'] } } }, 'x_content_parse_exception', '[percentile_ranks] failed to parse field [values]', 'For input string: "foo"');
  fails({ a: { percentile_ranks: { field: 'n', values: [1], percents: [1] } } }, 'x_content_parse_exception', '[percentile_ranks] unknown field [percents]');
  fails({ a: { percentile_ranks: { field: 'n', tdigest: {}, hdr: {} } } }, 'x_content_parse_exception', failedToBuild, 'Only one percentiles method should be declared.');
  fails({ a: { percentile_ranks: { field: 'n', values: [1], hdr: {} } } }, 'illegal_argument_exception', "[hdr] percentile ranks is not supported by Gannet's aggregations");
  fails({ a: { percentile_ranks: { field: 'n', values: [1], script: 'doc.n' } } }, 'illegal_argument_exception', "[script] in aggregations is not supported by Gannet's aggregations");
  fails({ a: { percentile_ranks: { values: [1] } } }, 'illegal_argument_exception', 'Required one of fields [field, script], but none were specified. ');
  fails({ a: { percentile_ranks: { field: 'n', values: [1] }, aggs: { b: { max: { field: 'n' } } } } }, 'aggregation_initialization_exception', 'Aggregator [a] of type [percentile_ranks] cannot accept sub-aggregations');
  const [spec] = parseAggregations({ a: { percentile_ranks: { field: 'n', values: [200, '-3', 1.5], keyed: false, tdigest: { compression: 50 } } } });
  assert.ok(spec !== undefined && spec.type === 'percentile_ranks');
  assert.deepEqual(spec.values, [-3, 1.5, 200]);
  assert.equal(spec.keyed, false);
  assert.equal(spec.compression, 50);
  const [single] = parseAggregations({ a: { percentile_ranks: { field: 'n', values: 7 } } });
  assert.ok(single !== undefined && single.type === 'percentile_ranks');
  assert.deepEqual(single.values, [7]);
});

test('percentile_ranks JSON shapes: keyed by String.valueOf(value), list form, null when empty, missing', async () => {
  const docs: TestDoc[] = [1, 2, 3, 4, 5].map((n) => ({ id: String(n), n: [n], cat: n % 2 === 0 ? 'even' : 'odd' }));
  const out = runAggregations(
    parseAggregations({
      r: { percentile_ranks: { field: 'n', values: [4.5, 3, -1, 10] } },
      arr: { percentile_ranks: { field: 'n', values: [3], keyed: false } },
      none: { percentile_ranks: { field: 'price', values: [1, 2] } },
      unmapped: { percentile_ranks: { field: 'nope', values: [50] } },
      withMissing: { percentile_ranks: { field: 'nope', values: [0.5, 1, 2], missing: 1 } },
      formatted: { percentile_ranks: { field: 'n', values: [3], format: '0.0' } },
    }),
    await buildShards(docs, 2, 1),
  );
  assert.deepEqual(out, {
    // Dist.cdf over [1, 2, 3, 4, 5]: 3 counts half, 4.5 half-way between 4 and 5.
    r: { values: { '-1.0': 0, '3.0': 40, '4.5': 80, '10.0': 100 } },
    arr: { values: [{ key: 3, value: 40 }] },
    none: { values: { '1.0': null, '2.0': null } },
    unmapped: { values: { '50.0': null } },
    // Five samples all equal to 1: Dist.cdf counts the first as half below, the other four as half: 3/5.
    withMissing: { values: { '0.5': 0, '1.0': 60, '2.0': 100 } },
    formatted: { values: { '3.0': 40, '3.0_as_string': '40.0' } },
  });
});

test("ES's YAML test 420_percentile_ranks_tdigest_metric: ranks 37 and 61.5 of [1, 51, 101, 151]", async () => {
  const docs: TestDoc[] = [1, 51, 101, 151].map((n) => ({ id: String(n), n: [n], price: n }));
  const out = runAggregations(
    parseAggregations({ i: { percentile_ranks: { field: 'n', values: [50, 99] } }, d: { percentile_ranks: { field: 'price', values: [50, 99] } } }),
    await buildShards(docs, 1, 2),
  );
  assert.deepEqual(out, { i: { values: { '50.0': 37, '99.0': 61.5 } }, d: { values: { '50.0': 37, '99.0': 61.5 } } });
});

test('terms ordered by a percentile rank, and the typed_keys name', async () => {
  const docs: TestDoc[] = [];
  for (let i = 0; i < 30; i++) docs.push({ id: String(i), cat: ['low', 'mid', 'high'][i % 3]!, n: [(i % 3) * 100 + i] });
  const specs = parseAggregations({ t: { terms: { field: 'cat', order: { 'r.150': 'desc' } }, aggs: { r: { percentile_ranks: { field: 'n', values: [150] } } } } });
  const shards = await buildShards(docs, 3, 2);
  const out = runAggregations(specs, shards);
  assert.deepEqual(out.t.buckets.map((b: { key: string }) => b.key), ['low', 'mid', 'high']);
  const reduced = reduceAggregations(shards.map((shard) => collectShard(specs, shard, testContext())), finalReduceContext(65536));
  const typed = renderAggregations(reduced, { typedKeys: true }) as Record<string, Record<string, Array<Record<string, unknown>>>>;
  assert.ok('tdigest_percentile_ranks#r' in typed['sterms#t']!['buckets']![0]!);
});
