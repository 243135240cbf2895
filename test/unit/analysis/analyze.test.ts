/** The _analyze API's token list and the indexer's position/offset accounting across multi-valued fields. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalysisRegistry, analyzeTexts, invertValues, standardAnalyzer, stopAnalyzer } from '../../../src/analysis/index.js';

test('_analyze output shape for the docs example', () => {
  assert.deepEqual(analyzeTexts(standardAnalyzer(), 'The 2 QUICK'), [
    { token: 'the', start_offset: 0, end_offset: 3, type: '<ALPHANUM>', position: 0 },
    { token: '2', start_offset: 4, end_offset: 5, type: '<NUM>', position: 1 },
    { token: 'quick', start_offset: 6, end_offset: 11, type: '<ALPHANUM>', position: 2 },
  ]);
});

test('several texts are one multi-valued field: position gap 100 and offset gap 1 for named analyzers', () => {
  const tokens = analyzeTexts(standardAnalyzer(), ['this is a test', 'the second text']);
  assert.deepEqual(
    tokens.map((t) => [t.token, t.position, t.start_offset, t.end_offset]),
    [
      ['this', 0, 0, 4], ['is', 1, 5, 7], ['a', 2, 8, 9], ['test', 3, 10, 14],
      ['the', 104, 15, 18], ['second', 105, 19, 25], ['text', 106, 26, 30],
    ],
  );
});

test('a transient analyzer has no position gap', () => {
  const analyzer = AnalysisRegistry.global().transientAnalyzer({ tokenizer: 'whitespace' });
  assert.deepEqual(analyzeTexts(analyzer, ['a b', 'c']).map((t) => t.position), [0, 1, 2]);
});

test('trailing removed tokens and empty values still advance positions', () => {
  const tokens = analyzeTexts(stopAnalyzer(), ['fox the', '', 'dog']);
  // fox=0; "the" removed: end increment 1 -> 1; gap 100 -> 101; empty value: gap 100 -> 201; dog = 202.
  assert.deepEqual(tokens.map((t) => [t.token, t.position, t.start_offset]), [['fox', 0, 0], ['dog', 202, 9]]);
});

test('invertValues reports Lucene field length and overlaps for norms', () => {
  const analyzer = AnalysisRegistry.forIndex({
    analyzer: { a: { tokenizer: 'whitespace', filter: ['fold'] } },
    filter: { fold: { type: 'asciifolding', preserve_original: true } },
  }).analyzer('a');
  const seen: [string, number][] = [];
  const stats = invertValues(analyzer, ['café au lait', 'crème'], (token, position) => seen.push([token.term, position]));
  assert.deepEqual(seen, [['cafe', 0], ['café', 0], ['au', 1], ['lait', 2], ['creme', 103], ['crème', 103]]);
  assert.deepEqual(stats, { length: 6, numOverlap: 2, lastPosition: 103 });
});
