/** The _analyze API's token list and the indexer's position/offset accounting across multi-valued fields. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalysisRegistry, analyzeTexts, explainTexts, invertValues, standardAnalyzer, stopAnalyzer } from '../../../src/analysis/index.js';

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

test('explain: tokens after the tokenizer and after each filter, names as configured', () => {
  const registry = AnalysisRegistry.forIndex({
    analyzer: { mine: { tokenizer: 'standard', filter: ['lowercase', 'my_stop', 'porter_stem'] } },
    filter: { my_stop: { type: 'stop', stopwords: ['the'] } },
  });
  const detail = explainTexts(registry.analyzer('mine'), 'The Jumping fox');
  assert.equal(detail.custom_analyzer, true);
  if (!detail.custom_analyzer) return;
  assert.equal(detail.tokenizer.name, 'standard');
  assert.deepEqual(detail.tokenizer.tokens.map((t) => t.token), ['The', 'Jumping', 'fox']);
  assert.deepEqual(detail.tokenfilters.map((f) => f.name), ['lowercase', 'my_stop', 'porter_stem']);
  assert.deepEqual(detail.tokenfilters.map((f) => f.tokens.map((t) => `${t.token}@${t.position}`)), [
    ['the@0', 'jumping@1', 'fox@2'],
    ['jumping@1', 'fox@2'],
    ['jump@1', 'fox@2'],
  ]);
  const inline = explainTexts(AnalysisRegistry.global().transientAnalyzer({ tokenizer: 'whitespace', filter: [{ type: 'stop', stopwords: ['a'] }] }), 'a b');
  assert.ok(inline.custom_analyzer && inline.tokenfilters[0]!.name === '__anonymous__stop');
});

test('explain for a built-in analyzer shows its final tokens only', () => {
  const detail = explainTexts(standardAnalyzer(), 'Hello World');
  assert.deepEqual(detail.custom_analyzer ? null : detail.analyzer.tokens.map((t) => t.token), ['hello', 'world']);
  assert.equal(detail.custom_analyzer ? '' : detail.analyzer.name, 'standard');
});

test('index.analyze.max_token_count', () => {
  assert.throws(
    () => analyzeTexts(standardAnalyzer(), 'a b c', { maxTokenCount: 2 }),
    /The number of tokens produced by calling _analyze has exceeded the allowed maximum of \[2\]\. This limit can be set by changing the \[index\.analyze\.max_token_count\] index level setting\./,
  );
  assert.equal(analyzeTexts(standardAnalyzer(), 'a b', { maxTokenCount: 2 }).length, 2);
});

test('explain prints Lucene extended attributes as Elasticsearch does, filtered by attributes', () => {
  const registry = AnalysisRegistry.forIndex({ analyzer: { mine: { tokenizer: 'standard', filter: ['lowercase', 'porter_stem'] } } });
  const detail = explainTexts(registry.analyzer('mine'), 'Foxé');
  assert.ok(detail.custom_analyzer);
  if (!detail.custom_analyzer) return;
  assert.deepEqual(detail.tokenizer.tokens, [
    { token: 'Foxé', start_offset: 0, end_offset: 4, type: '<ALPHANUM>', position: 0, bytes: '[46 6f 78 c3 a9]', positionLength: 1, termFrequency: 1 },
  ]);
  assert.deepEqual(Object.keys(detail.tokenfilters[1]!.tokens[0]!), ['token', 'start_offset', 'end_offset', 'type', 'position', 'bytes', 'keyword', 'positionLength', 'termFrequency']);
  const onlyKeyword = explainTexts(registry.analyzer('mine'), 'Foxes', { attributes: ['keyword'] });
  assert.ok(onlyKeyword.custom_analyzer);
  if (!onlyKeyword.custom_analyzer) return;
  assert.deepEqual(onlyKeyword.tokenizer.tokens[0], { token: 'Foxes', start_offset: 0, end_offset: 5, type: '<ALPHANUM>', position: 0 });
  assert.deepEqual(onlyKeyword.tokenfilters[1]!.tokens[0], { token: 'fox', start_offset: 0, end_offset: 5, type: '<ALPHANUM>', position: 0, keyword: false });
});
