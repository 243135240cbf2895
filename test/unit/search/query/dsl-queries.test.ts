/**
 * term_range, regexp, match_phrase_prefix, boosting and cross_fields end to end through the DSL (parser ->
 * plan -> execution), with expected scores written out from BM25 (helpers/bm25-reference.ts) and ES's
 * formulas, and explanations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bm25 } from '../helpers/bm25-reference.js';
import { MultiPhrasePrefixQuery } from '../../../../src/search/query/phrase/multi-phrase-prefix-query.js';
import { thrown } from '../dsl/helpers.js';
import { smallSearcher } from '../helpers/small-corpus.js';
import { dslSearcher, executionQuery, scores } from './dsl-fixture.js';

const f = Math.fround;
/** Field statistics of the fixture: title lengths 2, 3, 3, 1, 1; nopos lengths 2, 2, 1, 2, 1. */
const TITLE = { docCount: 5, sumTotalTermFreq: 10, legacy: true };
const NOPOS = { docCount: 5, sumTotalTermFreq: 8, legacy: true };

const sorted = (map: Map<number, number>) => [...map.entries()].sort((a, b) => a[0] - b[0]);

test('range on a keyword field: terms in byte order, constant score, Lucene explain text', async () => {
  const searcher = await dslSearcher();
  assert.deepEqual(sorted(scores(searcher, { range: { tag: { gte: 'a', lt: 'c' } } })), [[0, 1], [1, 1], [2, 1]]);
  assert.deepEqual(sorted(scores(searcher, { range: { tag: { gt: 'a', boost: 2 } } })), [[1, 2], [2, 2], [4, 2]]);
  assert.deepEqual(sorted(scores(searcher, { range: { title: { gte: 'l', lte: 'quick' } } })), [[0, 1], [1, 1], [2, 1], [3, 1]]);
  const query = executionQuery({ range: { tag: { gte: 'a', lt: 'c' } } });
  assert.equal(query.toString(), 'tag:[a TO c}');
  assert.equal(searcher.explain(query, 0).toString(), '1.0 = tag:[a TO c}\n');
});

test('regexp: Lucene syntax, flags, case_insensitive, rewrite', async () => {
  const searcher = await dslSearcher();
  const hits = (body: object) => [...scores(searcher, body).keys()].sort();
  assert.deepEqual(hits({ regexp: { title: 'qu.*' } }), [0, 1, 3]);
  assert.deepEqual(hits({ regexp: { title: 'qu@' } }), [0, 1, 3], '@ is any string under the default flags (ALL)');
  assert.deepEqual(hits({ regexp: { title: { value: 'qu@', flags: 'NONE' } } }), [], 'with NONE it is a literal @');
  assert.deepEqual(hits({ regexp: { title: { value: '~(quick|fox|dog)&[a-z]+', flags: 'COMPLEMENT|INTERSECTION' } } }), [2], 'lazy, jumps');
  assert.deepEqual(hits({ regexp: { tag: { value: 'A|C', case_insensitive: true } } }), [0, 1, 4]);
  assert.deepEqual(hits({ regexp: { tag: { value: 'A|C' } } }), []);
  const scored = scores(searcher, { regexp: { title: { value: 'f.x', rewrite: 'scoring_boolean' } } });
  assert.equal(scored.get(0), bm25({ ...TITLE, freq: 1, length: 2, docFreqs: [2] }), 'scoring_boolean scores each term with BM25');
  assert.equal(executionQuery({ regexp: { title: 'f.x' } }).toString(), 'title:/f.x/');
});

test('match_phrase_prefix: the last term expands to the indexed terms it prefixes; scored as Lucene MultiPhraseQuery', async () => {
  const searcher = await dslSearcher();
  const got = scores(searcher, { match_phrase_prefix: { title: 'quick f' } });
  // The phrase "quick fox": idf of quick (df 3) plus idf of fox (df 2), phrase freq 1 in doc 0 (length 2).
  assert.deepEqual(sorted(got), [[0, bm25({ ...TITLE, freq: 1, length: 2, docFreqs: [3, 2] })]]);
  assert.deepEqual([...scores(searcher, { match_phrase_prefix: { title: 'quick x' } }).keys()], []);
  assert.deepEqual([...scores(searcher, { match_phrase_prefix: { title: { query: 'fox j', slop: 0 } } }).keys()], [2]);
  assert.deepEqual([...scores(searcher, { match_phrase_prefix: { title: { query: 'lazy j', slop: 1 } } }).keys()].sort(), [2]);
  const query = executionQuery({ match_phrase_prefix: { title: 'quick f' } });
  assert.equal(query.toString(), 'title:"quick f*"');
  const rewritten = searcher.rewrite(query);
  assert.equal(rewritten.toString(), 'title:"quick fox"');
  assert.match(searcher.explain(query, 0).toString(), /^[0-9.]+ = weight\(title:"quick fox" in 0\) \[PerFieldSimilarity\], result of:\n/);
  const multi = scores(searcher, { multi_match: { query: 'lazy f', type: 'phrase_prefix', fields: ['title'] } });
  assert.deepEqual([...multi.keys()], [2]);
  assert.deepEqual(thrown(() => executionQuery({ match_phrase_prefix: { nopos: 'fox d' } })), {
    type: 'query_shard_exception',
    reason: 'failed to create query: field:[nopos] was indexed without position data; cannot run PhraseQuery',
    index: 'test',
    index_uuid: 'uuid-1',
    caused_by: { type: 'illegal_state_exception', reason: 'field:[nopos] was indexed without position data; cannot run PhraseQuery' },
  });
});

test('match_phrase_prefix keeps at most max_expansions terms, in term order', async () => {
  const searcher = await smallSearcher(true);
  const two = new MultiPhrasePrefixQuery('body', [['quick'], ['qu']], [0, 1], { maxExpansions: 2 });
  assert.equal(two.toString(), 'body:"quick qu*"');
  assert.equal(searcher.rewrite(two).toString(), 'body:"quick (quack quick)"');
  const all = new MultiPhrasePrefixQuery('body', [['quick'], ['qu']], [0, 1]);
  assert.equal(searcher.rewrite(all).toString(), 'body:"quick (quack quick quirk)"');
  assert.equal(searcher.rewrite(new MultiPhrasePrefixQuery('body', [['quick'], ['zz']], [0, 1])).toString(), 'MatchNoDocsQuery("No terms supplied for org.elasticsearch.common.lucene.search.MultiPhrasePrefixQuery")');
});

test('boosting: matches of the negative query are scaled by negative_boost', async () => {
  const searcher = await dslSearcher();
  const positive = scores(searcher, { match: { title: 'fox' } });
  const got = scores(searcher, { boosting: { positive: { match: { title: 'fox' } }, negative: { term: { tag: 'b' } }, negative_boost: 0.25 } });
  assert.deepEqual([...got.keys()].sort(), [...positive.keys()].sort());
  assert.equal(got.get(0), positive.get(0));
  assert.equal(got.get(2), f(positive.get(2)! * f(0.25)));
  const query = executionQuery({ boosting: { positive: { match: { title: 'fox' } }, negative: { term: { tag: 'b' } }, negative_boost: 0.25 } });
  assert.equal(query.toString(), 'FunctionScoreQuery(title:fox, scored by boost(queryboost(score(tag:b))^0.25))');
  const explanation = searcher.explain(query, 2);
  assert.equal(explanation.description, 'weight(FunctionScoreQuery(title:fox, scored by boost(queryboost(score(tag:b))^0.25))), result of:');
  assert.equal(explanation.details[0]!.description, 'product of:');
  assert.equal(explanation.details[0]!.details[1]!.toString(), '0.25 = Matched boosting query score(tag:b)\n');
});

test('cross_fields: one term across fields scores with blended document frequencies (ES BlendedTermQuery.blend)', async () => {
  const searcher = await dslSearcher();
  // fox: title df 2 (docs 0, 2), nopos df 3 (docs 1, 2, 3); maxDoc 5, smallest sumTotalTermFreq 8.
  // Most frequent first: nopos keeps min(3, docCount 5, maxDoc 5) = 3; title, less frequent, gets 3 + 1 = 4.
  const title = (freq: number, length: number) => bm25({ ...TITLE, freq, length, docFreqs: [4] });
  const nopos = (freq: number, length: number) => bm25({ ...NOPOS, freq, length, docFreqs: [3] });
  const got = scores(searcher, { multi_match: { query: 'fox', type: 'cross_fields', fields: ['title', 'nopos'] } });
  assert.deepEqual(sorted(got), [
    [0, title(1, 2)],
    [1, nopos(2, 2)],
    [2, Math.max(title(1, 3), nopos(1, 1))],
    [3, nopos(1, 2)],
  ]);
  const withTie = scores(searcher, { multi_match: { query: 'fox', type: 'cross_fields', fields: ['title', 'nopos'], tie_breaker: 0.5 } });
  const best = Math.max(title(1, 3), nopos(1, 1));
  const other = Math.min(title(1, 3), nopos(1, 1));
  assert.equal(withTie.get(2), f(best + other * f(0.5)));
  const query = executionQuery({ multi_match: { query: 'fox', type: 'cross_fields', fields: ['title^2', 'nopos'] } });
  assert.equal(query.toString(), 'blended(terms:[title:fox^2.0, nopos:fox])');
  const explanation = searcher.explain(query, 0).toString();
  assert.match(explanation, /4 = n, number of documents containing term/);
});
