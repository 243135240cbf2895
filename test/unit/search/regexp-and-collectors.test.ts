/** Regexp queries (Lucene syntax), counting and multi-collectors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  IndexSearcher,
  MultiCollector,
  RegexpQuery,
  TopScoreDocCollector,
  TotalHitCountCollector,
  type Query,
} from '../../../src/search/index.js';
import { LuceneRegexp } from '../../../src/search/query/multiterm/lucene-regexp.js';
import { bool, smallSearcher, term } from './helpers/small-corpus.js';
import { buildSearcher } from './helpers/test-indexer.js';

const sortedDocs = (searcher: IndexSearcher, query: Query): number[] =>
  searcher
    .topDocs(query, 50)
    .scoreDocs.map((hit) => hit.doc)
    .sort((a, b) => a - b);

test('Lucene regexp syntax: whole-term match, operators, classes, quotes, ^ and $ as plain characters', () => {
  const matches = (pattern: string, text: string) => new LuceneRegexp(pattern).matches(text);
  assert.ok(matches('qu.ck', 'quick'));
  assert.ok(!matches('qu', 'quick'), 'the whole term must match');
  assert.ok(matches('qu[ai]ck', 'quack'));
  assert.ok(!matches('qu[^ai]ck', 'quack'));
  assert.ok(matches('[a-c]+x?', 'abcab'));
  assert.ok(matches('(ab|cd){2}', 'abcd'));
  assert.ok(matches('a{2,3}', 'aaa') && !matches('a{2,3}', 'aaaa'));
  assert.ok(matches('"a.b"c', 'a.bc') && !matches('"a.b"c', 'axbc'));
  assert.ok(matches('a\\.b', 'a.b') && !matches('a\\.b', 'axb'));
  assert.ok(matches('@x', 'anythingx'));
  assert.ok(!matches('#', ''));
  assert.ok(matches('^a$', '^a$'));
  assert.ok(matches('a-b', 'a-b'));
  assert.ok(matches('[-a]+', '-a-'));
  assert.ok(new LuceneRegexp('QU.CK', undefined, true).matches('quick'));
  // Complement, intersection and numeric intervals are Lucene operators (ALL flags), not literal characters.
  assert.ok(matches('a~b', 'ac') && !matches('a~b', 'ab'));
  assert.ok(matches('a.*&.*b', 'axb') && !matches('a.*&.*b', 'ax'));
  assert.ok(matches('<1-10>', '7') && !matches('<1-10>', '11'));
  assert.throws(() => new LuceneRegexp('(ab'));
});

test('regexp queries match terms of the field, constant-scored', async () => {
  const searcher = await smallSearcher();
  assert.deepEqual(sortedDocs(searcher, new RegexpQuery('body', 'qu[ai]ck')), [0, 1, 4, 7, 8]);
  assert.deepEqual(sortedDocs(searcher, new RegexpQuery('body', 'do.*')), [0, 1, 4, 9]);
  assert.deepEqual(sortedDocs(searcher, new RegexpQuery('body', 'd')), []);
  assert.equal(new RegexpQuery('body', 'do.*').toString(), 'body:/do.*/');
  assert.ok(searcher.topDocs(new RegexpQuery('body', 'do.*'), 10).scoreDocs.every((hit) => hit.score === 1));
});

test('total hit count and multi-collector: one pass, every collector sees every hit', async () => {
  const searcher = await smallSearcher();
  const query = bool([['should', term('fox')], ['should', term('quick')]]);
  const count = new TotalHitCountCollector();
  searcher.search(query, count);
  assert.equal(count.totalHits, 9);
  const top = new TopScoreDocCollector(3, 0);
  const counted = new TotalHitCountCollector();
  const multi = new MultiCollector([top, counted]);
  assert.equal(multi.scoreMode, 'complete');
  searcher.search(query, multi);
  // The counting collector needs every doc, so the top collector's threshold cannot prune the pass.
  assert.equal(counted.totalHits, 9);
  assert.deepEqual(top.topDocs().scoreDocs, searcher.topDocs(query, 3).scoreDocs);
  assert.equal(new MultiCollector([new TotalHitCountCollector()]).scoreMode, 'complete_no_scores');
});

test('a large regexp over many terms', async () => {
  const docs = Array.from({ length: 300 }, (_, i) => ({ id: String(i), source: { tag: `item-${i.toString().padStart(3, '0')}` } }));
  const searcher = new IndexSearcher(await buildSearcher([docs], { tag: { type: 'keyword' } }));
  assert.equal(searcher.count(new RegexpQuery('tag', 'item-0[0-4][0-9]')), 50);
  assert.equal(searcher.count(new RegexpQuery('tag', 'item-(1|2)..')), 200);
});
