/** Built-in analyzers: the chains Elasticsearch documents, with its examples. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  WordSet,
  englishAnalyzer,
  keywordAnalyzer,
  simpleAnalyzer,
  standardAnalyzer,
  stopAnalyzer,
  whitespaceAnalyzer,
} from '../../../src/analysis/index.js';
import { collect, terms } from './helpers.js';

const FOXES = "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.";

describe('built-in analyzers on the Elasticsearch docs sentence', () => {
  test('standard: lowercase, no stop words', () => {
    assert.deepEqual(terms(standardAnalyzer(), FOXES), ['the', '2', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone']);
  });
  test('standard with max_token_length 5 and _english_ stop words (docs example)', () => {
    const analyzer = standardAnalyzer('my', new WordSet(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with']), 5);
    assert.deepEqual(terms(analyzer, FOXES), ['2', 'quick', 'brown', 'foxes', 'jumpe', 'd', 'over', 'lazy', "dog's", 'bone']);
  });
  test('simple: letters only, lowercased', () => {
    assert.deepEqual(terms(simpleAnalyzer(), FOXES), ['the', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', 'dog', 's', 'bone']);
  });
  test('whitespace: no lowercasing', () => {
    assert.deepEqual(terms(whitespaceAnalyzer(), FOXES), ['The', '2', 'QUICK', 'Brown-Foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone.']);
  });
  test('stop: simple plus _english_ stop words, with position gaps', () => {
    const out = collect(stopAnalyzer().tokenStream(FOXES));
    assert.deepEqual(out.terms, ['quick', 'brown', 'foxes', 'jumped', 'over', 'lazy', 'dog', 's', 'bone']);
    assert.deepEqual(out.increments, [2, 1, 1, 1, 1, 2, 1, 1, 1]);
  });
  test('keyword: the whole text', () => {
    assert.deepEqual(terms(keywordAnalyzer(), FOXES), [FOXES]);
  });
  test('english: possessive, lowercase, stop, porter', () => {
    assert.deepEqual(terms(englishAnalyzer(), FOXES), ['2', 'quick', 'brown', 'fox', 'jump', 'over', 'lazi', 'dog', 'bone']);
    assert.deepEqual(terms(englishAnalyzer(), "JOHN'S Running Studies"), ['john', 'run', 'studi']);
  });
  test('english stem_exclusion keeps listed words unstemmed', () => {
    const analyzer = englishAnalyzer('e', undefined, new WordSet(['running']));
    assert.deepEqual(terms(analyzer, 'running jumping'), ['running', 'jump']);
  });
  test('named analyzers have Elasticsearch position_increment_gap 100 and offset gap 1', () => {
    for (const analyzer of [standardAnalyzer(), simpleAnalyzer(), whitespaceAnalyzer(), keywordAnalyzer(), stopAnalyzer(), englishAnalyzer()]) {
      assert.equal(analyzer.positionIncrementGap, 100, analyzer.name);
      assert.equal(analyzer.offsetGap, 1, analyzer.name);
    }
  });
});
