/**
 * The coordinating node's merge (SearchPhaseController): Lucene's TopDocs.merge order (score or sort values,
 * then shard index, then doc), totals clamped by track_total_hits, max_score, terminated_early / timed_out,
 * and sort values compared, printed and read back (search_after) as ES does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonFloat } from '../../../../src/common/json-float.js';
import type { QueryPhaseResult } from '../../../../src/search/phase/query-phase.js';
import { mergeTotalHits, reduceQueryPhase } from '../../../../src/search/phase/reduce.js';
import { compareCodePoints, compareSortValue, formatSortValue, parseSearchAfter, shardDocValue } from '../../../../src/search/phase/sort-values.js';
import { RELEVANCE, type ResolvedSort, type ResolvedSortField } from '../../../../src/search/phase/sort.js';

function result(overrides: Partial<QueryPhaseResult>): QueryPhaseResult {
  return { totalHits: { value: 0, relation: 'eq' }, hits: [], maxScore: NaN, timedOut: false, ...overrides };
}

const OPTIONS = { from: 0, size: 10, sort: RELEVANCE, trackTotalHitsUpTo: 10_000, hasAggregations: false, maxBuckets: 65_536 };

test('relevance merge: score descending, then shard index, then doc', () => {
  const reduced = reduceQueryPhase(
    [
      { shardIndex: 1, result: result({ hits: [{ doc: 0, score: 2 }, { doc: 5, score: 1 }], maxScore: 2 }) },
      { shardIndex: 0, result: result({ hits: [{ doc: 9, score: 2 }, { doc: 3, score: 1 }, { doc: 4, score: 1 }], maxScore: 2 }) },
    ],
    OPTIONS,
  );
  assert.deepEqual(
    reduced.hits.map((hit) => [hit.shardIndex, hit.doc]),
    [[0, 9], [1, 0], [0, 3], [0, 4], [1, 5]],
  );
  assert.equal(reduced.maxScore, 2);
  const page = reduceQueryPhase([{ shardIndex: 0, result: result({ hits: [{ doc: 1, score: 3 }, { doc: 2, score: 2 }, { doc: 3, score: 1 }] }) }], { ...OPTIONS, from: 1, size: 1 });
  assert.deepEqual(page.hits.map((hit) => hit.doc), [2]);
  assert.deepEqual(reduceQueryPhase([{ shardIndex: 0, result: result({ hits: [{ doc: 1, score: 3 }] }) }], { ...OPTIONS, size: 0 }).hits, []);
});

test('field sort merge uses the sort values, ties by shard then doc', () => {
  const fields: ResolvedSortField[] = [
    { kind: 'long', order: 'desc', field: 'n', missing: 'last' },
    { kind: 'keyword', order: 'asc', field: 'k', missing: 'last' },
  ];
  const sort: ResolvedSort = { relevance: false, fields, core: [] };
  const reduced = reduceQueryPhase(
    [
      { shardIndex: 0, result: result({ hits: [{ doc: 1, score: NaN, sortValues: [5, 'b'] }, { doc: 2, score: NaN, sortValues: [5, null] }] }) },
      { shardIndex: 1, result: result({ hits: [{ doc: 0, score: NaN, sortValues: [5, 'a'] }, { doc: 7, score: NaN, sortValues: [5, 'b'] }, { doc: 8, score: NaN, sortValues: [7, 'z'] }] }) },
    ],
    { ...OPTIONS, sort },
  );
  assert.deepEqual(
    reduced.hits.map((hit) => [hit.shardIndex, hit.doc]),
    [[1, 8], [1, 0], [0, 1], [1, 7], [0, 2]],
  );
});

test('totals: sums, any lower bound wins, clamped to track_total_hits, absent when disabled', () => {
  assert.deepEqual(mergeTotalHits([{ value: 3, relation: 'eq' }, { value: 4, relation: 'eq' }], 10_000), { value: 7, relation: 'eq' });
  assert.deepEqual(mergeTotalHits([{ value: 6, relation: 'eq' }, { value: 6, relation: 'eq' }], 10), { value: 10, relation: 'gte' });
  assert.deepEqual(mergeTotalHits([{ value: 3, relation: 'gte' }, { value: 4, relation: 'eq' }], 10_000), { value: 7, relation: 'gte' });
  assert.deepEqual(mergeTotalHits([{ value: 30_000, relation: 'eq' }], 2147483647), { value: 30_000, relation: 'eq' });
  assert.equal(mergeTotalHits([{ value: 3, relation: 'eq' }], -1), undefined);
});

test('terminated_early and timed_out: any shard', () => {
  const reduced = reduceQueryPhase(
    [
      { shardIndex: 0, result: result({ terminatedEarly: false }) },
      { shardIndex: 1, result: result({ terminatedEarly: true, timedOut: true }) },
    ],
    OPTIONS,
  );
  assert.equal(reduced.terminatedEarly, true);
  assert.equal(reduced.timedOut, true);
  assert.equal(reduceQueryPhase([{ shardIndex: 0, result: result({}) }], OPTIONS).terminatedEarly, undefined);
});

test('sort values: printed as ES prints them, compared in UTF-8 order, read back from search_after', () => {
  const long: ResolvedSortField = { kind: 'long', order: 'asc', field: 'n', missing: 'last' };
  const double: ResolvedSortField = { kind: 'double', order: 'asc', field: 'd', missing: 'last' };
  const keyword: ResolvedSortField = { kind: 'keyword', order: 'desc', field: 'k', missing: 'last' };
  assert.equal(formatSortValue(Infinity, long), 9223372036854775807n);
  assert.equal(formatSortValue(12, long), 12);
  assert.deepEqual(formatSortValue(3, double), new JsonFloat(3));
  assert.equal(formatSortValue(Infinity, double), 'Infinity');
  assert.deepEqual(formatSortValue(0.1, { kind: 'score', order: 'desc', missing: 'last' }), new JsonFloat(0.1));
  assert.equal(formatSortValue(null, keyword), null);
  assert.equal(formatSortValue(shardDocValue(2, 7), { kind: 'shard_doc', order: 'asc', missing: 'last' }), 2 * 2 ** 32 + 7);
  // A missing keyword goes last in either order.
  assert.ok(compareSortValue(null, 'a', keyword) > 0);
  assert.ok(compareSortValue('b', 'a', keyword) < 0);
  // U+FFFD sorts before a supplementary character in UTF-8, unlike UTF-16.
  assert.ok(compareCodePoints('\uFFFD', '\u{1F600}') < 0);
  assert.deepEqual(parseSearchAfter([5, '7', null], [long, long, keyword]), [5, 7, null]);
  assert.throws(() => parseSearchAfter([1], [long, keyword]), /search_after has 1 value\(s\) but sort has 2\./);
  assert.throws(() => parseSearchAfter(['x'], [long]), /Failed to parse search_after value for field \[n\]\./);
});
