/**
 * Numeric metrics (min, max, sum, avg, value_count, stats, extended_stats) against brute force over the
 * source documents, across segments and shards (reduce path), plus their exact JSON shapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAggregations } from '../../../../src/search/aggregations/index.js';
import { arbDocs, arbLayout, buildShards, runAggregations, valuesOf, type TestDoc } from './fixture.js';

const RUNS = 25;

function close(actual: number | null, expected: number | null, message: string): void {
  if (expected === null || actual === null) {
    assert.equal(actual, expected, message);
    return;
  }
  const tolerance = 1e-9 * Math.max(1, Math.abs(expected));
  assert.ok(Math.abs(actual - expected) <= tolerance, `${message}: ${actual} vs ${expected}`);
}

function numbers(docs: readonly TestDoc[], field: string): number[] {
  return docs.flatMap((d) => valuesOf(d, field) as number[]);
}

const METRIC_AGGS = (field: string) =>
  parseAggregations({
    min: { min: { field } },
    max: { max: { field } },
    sum: { sum: { field } },
    avg: { avg: { field } },
    count: { value_count: { field } },
    stats: { stats: { field } },
    ext: { extended_stats: { field, sigma: 1.5 } },
  });

test('numeric metrics equal brute force over segments and shards', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(), arbLayout, fc.constantFrom('n', 'price', 'ts', 'flag'), async (docs, layout, field) => {
      const shards = await buildShards(docs, layout.shards, layout.segments);
      const out = runAggregations(METRIC_AGGS(field), shards);
      const values = numbers(docs, field);
      const count = values.length;
      const sum = values.reduce((a, b) => a + b, 0);
      const min = count === 0 ? null : Math.min(...values);
      const max = count === 0 ? null : Math.max(...values);
      close(out.min.value, min, 'min');
      close(out.max.value, max, 'max');
      close(out.sum.value, sum, 'sum');
      close(out.avg.value, count === 0 ? null : sum / count, 'avg');
      assert.equal(out.count.value, count);
      assert.equal(out.stats.count, count);
      close(out.stats.min, min, 'stats.min');
      close(out.stats.max, max, 'stats.max');
      close(out.stats.sum, sum, 'stats.sum');
      if (count === 0) {
        assert.deepEqual(out.ext.std_deviation_bounds, { upper: null, lower: null, upper_population: null, lower_population: null, upper_sampling: null, lower_sampling: null });
        assert.equal(out.ext.variance, null);
      } else {
        const mean = sum / count;
        const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / count;
        const scale = Math.max(1, values.reduce((a, v) => a + v * v, 0) / count);
        assert.ok(Math.abs(out.ext.variance - variance) <= 1e-6 * scale, `variance ${out.ext.variance} vs ${variance}`);
        close(out.ext.sum_of_squares, values.reduce((a, v) => a + v * v, 0), 'sum_of_squares');
        assert.ok(Math.abs(out.ext.std_deviation_bounds.upper - (mean + 1.5 * Math.sqrt(out.ext.variance))) <= 1e-9 * Math.max(1, Math.abs(mean)));
      }
      // Dates print value_as_string with the field's format, booleans as true/false; plain numbers never.
      if (field === 'ts' && count > 0) assert.equal(out.min.value_as_string, new Date(min!).toISOString());
      if (field === 'flag' && count > 0) assert.equal(out.max.value_as_string, max === 1 ? 'true' : 'false');
      if (field === 'n' || field === 'price') assert.equal('value_as_string' in out.min, false);
    }),
    { numRuns: RUNS },
  );
});

test('metric JSON shapes match Elasticsearch for empty and non-empty input', async () => {
  const docs: TestDoc[] = [
    { id: '1', price: 10 },
    { id: '2', price: 20 },
    { id: '3', price: 30 },
  ];
  const specs = parseAggregations({
    min: { min: { field: 'price' } },
    avg: { avg: { field: 'price' } },
    sum: { sum: { field: 'price' } },
    count: { value_count: { field: 'price' } },
    stats: { stats: { field: 'price' } },
    fmt: { avg: { field: 'price', format: '0.00' } },
    withMeta: { max: { field: 'price' }, meta: { color: 'blue' } },
  });
  const out = runAggregations(specs, await buildShards(docs, 2, 1));
  assert.deepEqual(out, {
    min: { value: 10 },
    avg: { value: 20 },
    sum: { value: 60 },
    count: { value: 3 },
    stats: { count: 3, min: 10, max: 30, avg: 20, sum: 60 },
    fmt: { value: 20, value_as_string: '20.00' },
    withMeta: { meta: { color: 'blue' }, value: 30 },
  });
  const empty = runAggregations(parseAggregations({ min: { min: { field: 'price' } }, avg: { avg: { field: 'price' } }, sum: { sum: { field: 'price' } }, stats: { stats: { field: 'price' } }, count: { value_count: { field: 'price' } } }), await buildShards([], 1, 1));
  assert.deepEqual(empty, {
    min: { value: null },
    avg: { value: null },
    sum: { value: 0 },
    stats: { count: 0, min: null, max: null, avg: null, sum: 0 },
    count: { value: 0 },
  });
});

test('doubles print as Java doubles and extended_stats has ES field order', async () => {
  const { renderAggregations, reduceAggregations, finalReduceContext, AggregationsCollector } = await import('../../../../src/search/aggregations/index.js');
  const { javaDoubleString, JsonFloat } = await import('../../../../src/common/json-float.js');
  const shards = await buildShards([{ id: '1', price: 2 }, { id: '2', price: 4 }], 1, 1);
  const { testContext, collectShard } = await import('./fixture.js');
  void AggregationsCollector;
  const specs = parseAggregations({ e: { extended_stats: { field: 'price' } }, s: { sum: { field: 'price' } } });
  const rendered = renderAggregations(reduceAggregations([collectShard(specs, shards[0]!, testContext())], finalReduceContext()));
  const e = rendered['e'] as Record<string, unknown>;
  assert.deepEqual(Object.keys(e), [
    'count', 'min', 'max', 'avg', 'sum', 'sum_of_squares', 'variance', 'variance_population', 'variance_sampling',
    'std_deviation', 'std_deviation_population', 'std_deviation_sampling', 'std_deviation_bounds',
  ]);
  const sum = (rendered['s'] as Record<string, unknown>)['value'];
  assert.ok(sum instanceof JsonFloat);
  assert.equal(javaDoubleString((sum as InstanceType<typeof JsonFloat>).value), '6.0');
  assert.deepEqual(Object.keys(e['std_deviation_bounds'] as object), ['upper', 'lower', 'upper_population', 'lower_population', 'upper_sampling', 'lower_sampling']);
});

test('metrics over a filtered subset and deleted documents only see collected docs', async () => {
  await fc.assert(
    fc.asyncProperty(arbDocs(40), fc.integer({ min: 0, max: 4 }), async (docs, modulo) => {
      const deleted = new Set(docs.filter((_, i) => i % 5 === modulo).map((d) => d.id));
      const shards = await buildShards(docs, 2, 2, deleted);
      const keep = (d: TestDoc): boolean => (d.price ?? 0) > 0;
      const out = runAggregations(parseAggregations({ s: { sum: { field: 'price' } }, c: { value_count: { field: 'tags' } } }), shards, undefined, keep);
      const live = docs.filter((d) => !deleted.has(d.id) && keep(d));
      close(out.s.value, numbers(live, 'price').reduce((a, b) => a + b, 0), 'sum');
      assert.equal(out.c.value, live.reduce((a, d) => a + valuesOf(d, 'tags').length, 0));
    }),
    { numRuns: 15 },
  );
});
