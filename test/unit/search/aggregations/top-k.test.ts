/**
 * firstK keeps exactly what a stable sort and slice(0, k) keep, in that order (the terms aggregation's shard-side
 * selection relied on the sort; the heap must not change which tied buckets are returned).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { firstK } from '../../../../src/search/aggregations/support/top-k.js';

test('firstK equals a stable sort then slice, ties included', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), fc.integer({ min: 0, max: 320 }), fc.boolean(), (counts, k, descending) => {
      // Items are positions; the order looks only at a count with many ties (as doc counts are).
      const items = counts.map((_, i) => i);
      const compare = (a: number, b: number): number => (descending ? counts[b]! - counts[a]! : counts[a]! - counts[b]!);
      assert.deepEqual(firstK(items, k, compare), [...items].sort(compare).slice(0, k));
    }),
    { numRuns: 300 },
  );
});
