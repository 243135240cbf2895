/**
 * Lucene's near spans over positions, the matching the plain highlighter runs a phrase with: ordered spans
 * with the slop as total gap, and unordered spans over a sliding window, each yielding every match in turn.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ListSpans, nearOrdered, nearUnordered } from '../../../../src/search/highlight/spans.js';

const spans = (...positions: number[]) => ListSpans.ofPositions(positions);

test('ordered, no slop: exact phrase occurrences', () => {
  // "a b x a b": a at 0 and 3, b at 1 and 4.
  assert.deepEqual(nearOrdered([spans(0, 3), spans(1, 4)], 0), [
    { start: 0, end: 2 },
    { start: 3, end: 5 },
  ]);
  // b before a never matches in order.
  assert.deepEqual(nearOrdered([spans(1), spans(0)], 0), []);
});

test('ordered with slop: gaps up to the slop', () => {
  assert.deepEqual(nearOrdered([spans(0), spans(2)], 1), [{ start: 0, end: 3 }]);
  assert.deepEqual(nearOrdered([spans(0), spans(3)], 1), []);
  // Every start of the first clause is tried; later clauses only move forward.
  assert.deepEqual(nearOrdered([spans(0, 1), spans(2)], 1), [
    { start: 0, end: 3 },
    { start: 1, end: 3 },
  ]);
  assert.deepEqual(nearOrdered([spans(0, 3), spans(1)], 0), [{ start: 0, end: 2 }]);
});

test('unordered: either order within the window', () => {
  assert.deepEqual(nearUnordered([spans(1), spans(0)], 0), [{ start: 0, end: 2 }]);
  assert.deepEqual(nearUnordered([spans(1, 4), spans(0, 6)], 1), [
    { start: 0, end: 2 },
    { start: 4, end: 7 },
  ]);
  assert.deepEqual(nearUnordered([spans(0), spans(5)], 2), []);
});

test('span or: the union of several terms at one position, in position order', () => {
  const union = ListSpans.union([
    [{ start: 3, end: 4 }],
    [
      { start: 1, end: 2 },
      { start: 3, end: 4 },
    ],
  ]);
  const seen: number[] = [];
  while (union.nextStartPosition() !== 2147483647) seen.push(union.startPosition());
  assert.deepEqual(seen, [1, 3, 3]);
});
