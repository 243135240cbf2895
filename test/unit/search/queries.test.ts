/** The other query kinds: match all/none, constant score, boost, dis_max, terms, prefix, wildcard, fuzzy, range, exists. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BM25Similarity,
  BooleanQuery,
  BoostQuery,
  ConstantScoreQuery,
  IndexSearcher,
  MatchAllDocsQuery,
  MatchNoDocsQuery,
  type Query,
} from '../../../src/search/index.js';
import { DisjunctionMaxQuery } from '../../../src/search/query/dismax-query.js';
import { DocValuesRangeQuery } from '../../../src/search/query/doc-values-range-query.js';
import { ExistsQuery } from '../../../src/search/query/exists-query.js';
import { codePoints, editDistance } from '../../../src/search/query/multiterm/levenshtein.js';
import { autoFuzziness, FuzzyQuery } from '../../../src/search/query/multiterm/fuzzy-query.js';
import { PrefixQuery } from '../../../src/search/query/multiterm/prefix-query.js';
import { parseRewriteMethod } from '../../../src/search/query/multiterm/rewrite-method.js';
import { TermInSetQuery } from '../../../src/search/query/multiterm/term-in-set-query.js';
import { WildcardQuery } from '../../../src/search/query/multiterm/wildcard-query.js';
import { bm25 } from './helpers/bm25-reference.js';
import { bool, smallSearcher, term } from './helpers/small-corpus.js';
import { buildSearcher } from './helpers/test-indexer.js';

const docsOf = (searcher: IndexSearcher, query: Query): number[] => searcher.topDocs(query, 50).scoreDocs.map((hit) => hit.doc);
const sortedDocs = (searcher: IndexSearcher, query: Query): number[] => docsOf(searcher, query).sort((a, b) => a - b);

test('match_all scores the boost; match_none matches nothing and explains why', async () => {
  const searcher = await smallSearcher();
  const all = searcher.topDocs(new MatchAllDocsQuery(), 20);
  assert.equal(all.totalHits.value, 10);
  assert.ok(all.scoreDocs.every((hit) => hit.score === 1));
  assert.deepEqual(searcher.topDocs(new BoostQuery(new MatchAllDocsQuery(), 2), 1).scoreDocs[0], { doc: 0, score: 2 });
  assert.equal(searcher.count(new MatchAllDocsQuery()), 10);
  assert.equal(searcher.explain(new MatchAllDocsQuery(), 3).toString(), '1.0 = *:*\n');
  assert.equal(searcher.topDocs(new MatchNoDocsQuery('nothing'), 10).totalHits.value, 0);
  assert.equal(searcher.explain(new MatchNoDocsQuery('nothing here'), 0).description, 'nothing here');
});

test('constant_score gives every match the boost; boost multiplies BM25 in float', async () => {
  const searcher = await smallSearcher();
  const constant = searcher.topDocs(new BoostQuery(new ConstantScoreQuery(term('fox')), 2.5), 20);
  assert.deepEqual(constant.scoreDocs.map((hit) => hit.doc), [0, 2, 3, 4, 6, 7, 9]);
  assert.ok(constant.scoreDocs.every((hit) => hit.score === 2.5));
  assert.equal(searcher.explain(new BoostQuery(new ConstantScoreQuery(term('fox')), 2.5), 0).toString(), '2.5 = ConstantScore(body:fox)^2.5\n');
  const boosted = searcher.topDocs(new BoostQuery(term('fox'), 3), 1).scoreDocs[0]!;
  assert.equal(boosted.score, bm25({ freq: 3, length: 6, docCount: 9, sumTotalTermFreq: 47, docFreqs: [7], boost: 3 }));
  // Nested boosts multiply; a boost of 1 disappears; a boost of 0 turns scoring off.
  assert.equal(searcher.rewrite(new BoostQuery(new BoostQuery(term('fox'), 2), 3)).toString(), '(body:fox)^6.0');
  assert.ok(searcher.rewrite(new BoostQuery(term('fox'), 1)).equals(term('fox')));
  assert.equal(searcher.rewrite(new BoostQuery(term('fox'), 0)).toString(), '(ConstantScore(body:fox))^0.0');
  // Regression: a zero boost over a query that rewrites to nothing used to rewrite forever.
  assert.ok(searcher.rewrite(new BoostQuery(bool([['must_not', term('fox')]]), 0)) instanceof MatchNoDocsQuery);
  assert.ok(searcher.rewrite(bool([['filter', bool([['must_not', new BoostQuery(term('dog'), 2)]])]])) instanceof MatchNoDocsQuery);
});

test('dis_max: the best clause plus tie_breaker times the others', async () => {
  const searcher = await smallSearcher();
  const fox = searcher.topDocs(term('fox'), 20).scoreDocs.find((hit) => hit.doc === 7)!.score;
  const quick = searcher.topDocs(term('quick'), 20).scoreDocs.find((hit) => hit.doc === 7)!.score;
  const query = new DisjunctionMaxQuery([term('fox'), term('quick')], 0.3);
  assert.equal(searcher.topDocs(query, 20).scoreDocs.find((hit) => hit.doc === 7)!.score, Math.fround(Math.max(fox, quick) + Math.min(fox, quick) * Math.fround(0.3)));
  assert.equal(query.toString(), '(body:fox | body:quick)~0.3');
  assert.equal(searcher.explain(query, 7).description, 'max plus 0.3 times others of:');
  assert.equal(searcher.explain(new DisjunctionMaxQuery([term('fox'), term('quick')]), 7).description, 'max of:');
  assert.ok(searcher.rewrite(new DisjunctionMaxQuery([term('fox')])).equals(term('fox')));
  assert.ok(searcher.rewrite(new DisjunctionMaxQuery([term('fox'), term('dog')], 1)) instanceof BooleanQuery);
  assert.ok(searcher.rewrite(new DisjunctionMaxQuery([])) instanceof MatchNoDocsQuery);
});

test('terms: any of the terms, constant score', async () => {
  const searcher = await smallSearcher();
  const query = new TermInSetQuery('body', ['fox', 'dogs', 'zebra', 'fox']);
  assert.equal(query.toString(), 'body:(dogs fox zebra)');
  assert.deepEqual(sortedDocs(searcher, query), [0, 1, 2, 3, 4, 6, 7, 9]);
  assert.ok(searcher.topDocs(query, 20).scoreDocs.every((hit) => hit.score === 1));
  assert.deepEqual(sortedDocs(searcher, new TermInSetQuery('tag', ['b', 'c'])), [1, 2, 4, 7]);
  assert.ok(searcher.rewrite(new TermInSetQuery('body', [])) instanceof MatchNoDocsQuery);
});

test('prefix and wildcard: constant score by default, scoring boolean on request', async () => {
  const searcher = await smallSearcher();
  assert.deepEqual(sortedDocs(searcher, new PrefixQuery('body', 'qu')), [0, 1, 4, 7, 8]);
  assert.deepEqual(sortedDocs(searcher, new PrefixQuery('body', 'dog')), [0, 1, 4, 9]);
  assert.equal(new PrefixQuery('body', 'qu').toString(), 'body:qu*');
  assert.deepEqual(sortedDocs(searcher, new WildcardQuery('body', 'f?x')), [0, 2, 3, 4, 6, 7, 9]);
  assert.deepEqual(sortedDocs(searcher, new WildcardQuery('body', 'qu*k')), [0, 1, 4, 7, 8]);
  assert.deepEqual(sortedDocs(searcher, new WildcardQuery('body', '*o*')), [0, 1, 2, 3, 4, 6, 7, 9]);
  assert.deepEqual(sortedDocs(searcher, new WildcardQuery('body', 'QU?CK', { caseInsensitive: true })), [0, 1, 4, 7, 8]);
  assert.deepEqual(sortedDocs(searcher, new WildcardQuery('body', 'QU?CK')), []);
  // A scoring rewrite is the boolean of the matching terms.
  const scoring = new PrefixQuery('body', 'qu', parseRewriteMethod('scoring_boolean'));
  assert.equal(searcher.rewrite(scoring).toString(), 'body:quack body:quick body:quirk');
  const expected = searcher.topDocs(bool([['should', term('quack')], ['should', term('quick')], ['should', term('quirk')]]), 20).scoreDocs;
  assert.deepEqual(searcher.topDocs(scoring, 20).scoreDocs, expected);
  assert.deepEqual(searcher.topDocs(new PrefixQuery('body', 'qu', parseRewriteMethod('top_terms_1')), 20).scoreDocs.map((hit) => hit.doc), [8]);
  assert.equal(searcher.explain(new PrefixQuery('body', 'qu'), 0).toString(), '1.0 = body:qu*\n');
});

test('wildcard escapes and unicode', async () => {
  const reader = await buildSearcher([['a*b', 'axb', 'ab', 'été', 'ete'].map((tag, i) => ({ id: String(i), source: { tag } }))], { tag: { type: 'keyword' } });
  const searcher = new IndexSearcher(reader);
  assert.deepEqual(sortedDocs(searcher, new WildcardQuery('tag', 'a\\*b')), [0]);
  assert.deepEqual(sortedDocs(searcher, new WildcardQuery('tag', 'a*b')), [0, 1, 2]);
  assert.deepEqual(sortedDocs(searcher, new WildcardQuery('tag', '?t?')), [3, 4]);
});

test('edit distance: insertions, deletions, substitutions and adjacent transpositions, on code points', () => {
  const d = (a: string, b: string, max = 2, transpositions = true) => editDistance(codePoints(a), codePoints(b), max, transpositions);
  assert.equal(d('quick', 'quick'), 0);
  assert.equal(d('quick', 'quack'), 1);
  assert.equal(d('quick', 'quikc'), 1);
  assert.equal(d('quick', 'quikc', 2, false), 2);
  assert.equal(d('quick', 'qick'), 1);
  assert.equal(d('quick', 'quicker'), 2);
  assert.equal(d('quick', 'quickest'), 3);
  assert.equal(d('ab', 'ba'), 1);
  assert.equal(d('ca', 'abc'), 3); // optimal string alignment: no edit of a transposed pair
  assert.equal(d('😀a', 'a😀'), 1);
  assert.equal(autoFuzziness(2), 0);
  assert.equal(autoFuzziness(3), 1);
  assert.equal(autoFuzziness(5), 1);
  assert.equal(autoFuzziness(6), 2);
});

test('fuzzy: similar terms boosted by similarity, blended frequencies, prefix length', async () => {
  const searcher = await smallSearcher();
  assert.deepEqual(searcher.rewrite(new FuzzyQuery('body', 'quack', { maxEdits: 1 })).toString(), 'body:quack (body:quick)^0.8');
  // quick is one substitution from quack: boost 1 - 1/5 = 0.8, docFreq blended to the max over the terms (5).
  const top = searcher.topDocs(new FuzzyQuery('body', 'quack', { maxEdits: 1 }), 20).scoreDocs;
  const quickOnly = top.find((hit) => hit.doc === 1)!;
  assert.equal(quickOnly.score, bm25({ freq: 2, length: 4, docCount: 9, sumTotalTermFreq: 47, docFreqs: [5], boost: Math.fround(0.8) }));
  assert.deepEqual(searcher.rewrite(new FuzzyQuery('body', 'quikc', { maxEdits: 2 })).toString(), '(body:quack)^0.6 (body:quick)^0.8 (body:quirk)^0.6');
  assert.equal(new FuzzyQuery('body', 'quikc', { maxEdits: 1, transpositions: false }).toString(), 'body:quikc~1');
  assert.ok(searcher.rewrite(new FuzzyQuery('body', 'quikc', { maxEdits: 1, transpositions: false })) instanceof MatchNoDocsQuery);
  // The prefix must match exactly.
  assert.equal(searcher.rewrite(new FuzzyQuery('body', 'fox', { maxEdits: 1, prefixLength: 1 })).toString(), 'body:fox');
  assert.equal(searcher.rewrite(new FuzzyQuery('body', 'box', { maxEdits: 1, prefixLength: 1 })).toString(), 'MatchNoDocsQuery("no terms match body:box~1")');
  assert.throws(() => new FuzzyQuery('body', 'x', { maxEdits: 3 }), /maxEdits must be between 0 and 2/);
  // max_expansions keeps the most similar terms.
  assert.equal(searcher.rewrite(new FuzzyQuery('body', 'quikc', { maxEdits: 2, maxExpansions: 1 })).toString(), '(body:quick)^0.8');
  assert.throws(() => parseRewriteMethod('nope'), /unknown rewrite method \[nope\]/);
});

test('range over numeric and date doc values, and exists', async () => {
  const docs = [
    { price: 10.5, count: [3, 7], date: '2024-01-01T00:00:00Z', body: 'a' },
    { price: 20, count: [1], date: '2024-06-01T00:00:00Z', body: '' },
    { count: [10, 20, 30] },
    { price: -1.5, date: 1_000 },
    { body: 'x y' },
  ];
  const reader = await buildSearcher([docs.map((source, i) => ({ id: String(i), source }))], {
    price: { type: 'double' },
    count: { type: 'long' },
    date: { type: 'date' },
    body: { type: 'text' },
  });
  const searcher = new IndexSearcher(reader, { similarity: new BM25Similarity() });
  assert.deepEqual(sortedDocs(searcher, new DocValuesRangeQuery('price', 0, 20)), [0, 1]);
  assert.deepEqual(sortedDocs(searcher, DocValuesRangeQuery.fromBounds('price', 'double', { gt: 10.5 })), [1]);
  assert.deepEqual(sortedDocs(searcher, DocValuesRangeQuery.fromBounds('price', 'double', { lt: 10.5 })), [3]);
  // A multi-valued doc matches when any value is in range.
  assert.deepEqual(sortedDocs(searcher, DocValuesRangeQuery.fromBounds('count', 'long', { gte: 5, lte: 10 })), [0, 2]);
  assert.deepEqual(sortedDocs(searcher, DocValuesRangeQuery.fromBounds('count', 'long', { gt: 7, lt: 10 })), []);
  assert.deepEqual(sortedDocs(searcher, new DocValuesRangeQuery('date', Date.parse('2024-03-01T00:00:00Z'), Infinity)), [1]);
  assert.ok(searcher.topDocs(new DocValuesRangeQuery('price', -Infinity, Infinity), 10).scoreDocs.every((hit) => hit.score === 1));
  assert.ok(searcher.rewrite(new DocValuesRangeQuery('price', 5, 1)) instanceof MatchNoDocsQuery);
  assert.equal(new DocValuesRangeQuery('price', 0, Infinity).toString(), 'price:[0 TO Infinity]');

  assert.deepEqual(sortedDocs(searcher, new ExistsQuery('price')), [0, 1, 3]);
  assert.deepEqual(sortedDocs(searcher, new ExistsQuery('count')), [0, 1, 2]);
  // An empty text value has no tokens: it does not exist, as in Lucene and ES.
  assert.deepEqual(sortedDocs(searcher, new ExistsQuery('body')), [0, 4]);
  assert.deepEqual(sortedDocs(searcher, new ExistsQuery('missing')), []);
});
