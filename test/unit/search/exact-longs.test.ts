/**
 * Exact 64-bit longs (date_nanos nanoseconds) in sorting and range queries, against a brute-force reference
 * over BigInts: segments whose spread fits 2^53 (the delta fast paths) and segments whose does not, several
 * values per document, missing values first or last, ties broken by doc id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IndexSearcher } from '../../../src/search/searcher/index-searcher.js';
import { MatchAllDocsQuery } from '../../../src/search/query/match-all-docs-query.js';
import { ExactLongRangeQuery } from '../../../src/search/query/exact-long-range-query.js';
import { buildSearcher, type TestDoc } from './helpers/test-indexer.js';

const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);
const BASE = 1_714_557_600_000_000_000n;

/** One regime per run: nanoseconds with many ties, of a few days (both spreads < 2^53: the delta paths), or far apart. */
const REGIMES = [
  fc.bigInt({ min: 0n, max: 5n }).map((n) => BASE + n),
  fc.bigInt({ min: 0n, max: 300_000_000_000n }).map((n) => BASE + n * 1000n),
  fc.bigInt({ min: 0n, max: 2n ** 62n }),
];
const valueOf = fc.oneof(...REGIMES);

const docsOf = fc.oneof(...REGIMES.map((regime) => fc.array(fc.array(regime, { maxLength: 3 }), { minLength: 1, maxLength: 40 })));

async function searcherOf(rows: bigint[][], segments: number): Promise<IndexSearcher> {
  const docs: TestDoc[] = rows.map((values, i) => ({ id: String(i), source: values.length === 0 ? {} : { ns: values } }));
  const size = Math.ceil(docs.length / segments);
  const parts: TestDoc[][] = [];
  for (let i = 0; i < docs.length; i += size) parts.push(docs.slice(i, i + size));
  return new IndexSearcher(await buildSearcher(parts, { ns: { type: 'date_nanos' } }));
}

test('property: sorting exact longs matches a BigInt reference (order, min/max per doc, missing first/last)', async () => {
  await fc.assert(
    fc.asyncProperty(docsOf, fc.integer({ min: 1, max: 3 }), fc.constantFrom('asc', 'desc'), fc.constantFrom('first', 'last'), fc.integer({ min: 1, max: 10 }), async (rows, segments, order, missing, size) => {
      const searcher = await searcherOf(rows, segments);
      const hits = searcher.topFieldDocs(new MatchAllDocsQuery(), size, [{ kind: 'numeric', field: 'ns', order, missing, exact: true }]).scoreDocs;
      const ascending = order === 'asc';
      const missingKey = (missing === 'last') === ascending ? LONG_MAX : LONG_MIN;
      const keyOf = (values: bigint[]): bigint => {
        if (values.length === 0) return missingKey;
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        return ascending ? sorted[0]! : sorted[sorted.length - 1]!;
      };
      const expected = rows
        .map((values, doc) => ({ doc, key: keyOf(values) }))
        .sort((a, b) => (a.key === b.key ? a.doc - b.doc : (a.key < b.key ? -1 : 1) * (ascending ? 1 : -1)))
        .slice(0, size);
      assert.deepEqual(
        hits.map((hit) => [hit.doc, BigInt(hit.sortValues[0] as bigint | number)]),
        expected.map((entry) => [entry.doc, entry.key]),
      );
    }),
    { numRuns: 150 },
  );
});

test('property: exact long ranges match a BigInt reference', async () => {
  await fc.assert(
    fc.asyncProperty(docsOf, fc.integer({ min: 1, max: 3 }), valueOf, valueOf, fc.nat(40), async (rows, segments, a, b, pick) => {
      const searcher = await searcherOf(rows, segments);
      // Bounds at real values half of the time, so both ends are hit exactly.
      const flat = rows.flat();
      const [lower, upper] = pick % 2 === 0 || flat.length === 0 ? (a < b ? [a, b] : [b, a]) : [flat[pick % flat.length]!, flat[pick % flat.length]! + (b % 7n)];
      const count = searcher.count(new ExactLongRangeQuery('ns', lower, upper));
      assert.equal(count, rows.filter((values) => values.some((value) => value >= lower && value <= upper)).length);
    }),
    { numRuns: 150 },
  );
});

test('property: aggregations read date_nanos values as the millisecond they fall in (DateUtils.toMilliSeconds)', async () => {
  const { buildSegment } = await import('./helpers/test-indexer.js');
  const { numericValues } = await import('../../../src/search/aggregations/support/values.js');
  const nanos = fc.oneof(
    fc.bigInt({ min: 0n, max: 86_400_000_000_000n }).map((n) => BASE + n),
    fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
    fc.bigInt({ min: 0n, max: 3n }).map((n) => BASE + n * 999_999n),
  );
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.array(fc.array(nanos, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 30 }), ...REGIMES.slice(0, 2).map((regime) => fc.array(fc.array(regime, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 30 }))), async (rows) => {
      const readers = await buildSegment('_0', rows.map((values, i) => ({ id: String(i), source: { ns: values } })), { ns: { type: 'date_nanos' } });
      const values = numericValues({ readers, docBase: 0, maxDoc: rows.length, liveDocs: null }, 'ns', 1, null, true);
      rows.forEach((row, doc) => {
        const expected = [...row].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((value) => Number(value / 1_000_000n));
        const count = values.read(doc);
        assert.deepEqual(Array.from({ length: count }, (_, i) => values.at(i)), expected);
      });
    }),
    { numRuns: 150 },
  );
});
