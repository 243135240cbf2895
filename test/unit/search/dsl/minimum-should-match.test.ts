import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calculateMinShouldMatch } from '../../../../src/search/dsl/index.js';
import { thrown } from './helpers.js';

/**
 * Queries.calculateMinShouldMatch: [optional clauses, spec, expected]. Percentages are computed in Java float
 * arithmetic and truncated towards zero; conditional specs apply only above their bound.
 */
const TABLE: Array<[number, string, number]> = [
  [5, '2', 2],
  [5, '-2', 3],
  [3, '5', 5],
  [1, '-5', 0],
  [0, '1', 1],
  [5, '75%', 3],
  [5, '-25%', 4],
  [7, '60%', 4],
  [4, '50%', 2],
  [3, '100%', 3],
  [3, '-100%', 0],
  [0, '75%', 0],
  // 100 * 29 = 2900 * 0.01f rounds up to 29.0 in float; a double computation would give 28.
  [100, '29%', 29],
  [3, '3<90%', 3],
  [4, '3<90%', 3],
  [10, '3<90%', 9],
  [2, '2<-25% 9<-3', 2],
  [3, '2<-25% 9<-3', 3],
  [9, '2<-25% 9<-3', 7],
  [10, '2<-25% 9<-3', 7],
  [12, '2<-25% 9<-3', 9],
  [4, ' 3 < 90% ', 3],
  [4, '3 <90%', 3],
  [6, '1<-1 3<-2', 4],
];

for (const [clauses, spec, expected] of TABLE) {
  test(`minimum_should_match ${JSON.stringify(spec)} of ${clauses} optional clauses is ${expected}`, () => {
    assert.equal(calculateMinShouldMatch(clauses, spec), expected);
  });
}

test('malformed specs fail as Integer.parseInt does', () => {
  assert.deepEqual(thrown(() => calculateMinShouldMatch(3, 'abc')), { type: 'number_format_exception', reason: 'For input string: "abc"' });
  assert.deepEqual(thrown(() => calculateMinShouldMatch(3, '75.5%')), { type: 'number_format_exception', reason: 'For input string: "75.5"' });
  assert.deepEqual(thrown(() => calculateMinShouldMatch(3, 'x<2')), { type: 'number_format_exception', reason: 'For input string: "x"' });
});
