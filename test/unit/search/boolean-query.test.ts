/** Boolean queries: matching rules, coordination-free sums, Lucene's rewrites, explain. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BooleanQuery,
  BoostQuery,
  ConstantScoreQuery,
  MatchAllDocsQuery,
  MatchNoDocsQuery,
  TermQuery,
  type IndexSearcher,
  type Query,
} from '../../../src/search/index.js';
import { bool, smallSearcher, term } from './helpers/small-corpus.js';

function hits(searcher: IndexSearcher, query: Query): Array<[number, number]> {
  return searcher.topDocs(query, 20).scoreDocs.map((hit) => [hit.doc, hit.score]);
}

function scoreOf(searcher: IndexSearcher, query: Query, doc: number): number | undefined {
  return searcher.topDocs(query, 20).scoreDocs.find((hit) => hit.doc === doc)?.score;
}

test('should: union, scored by the double sum of the matching clauses rounded to float', async () => {
  const searcher = await smallSearcher();
  const query = bool([['should', term('fox')], ['should', term('quick')]]);
  const fox = scoreOf(searcher, term('fox'), 7)!;
  const quick = scoreOf(searcher, term('quick'), 7)!;
  assert.equal(scoreOf(searcher, query, 7), Math.fround(fox + quick));
  // A doc matching one clause scores that clause alone: no coordination factor.
  assert.equal(scoreOf(searcher, query, 3), scoreOf(searcher, term('fox'), 3));
  assert.deepEqual(
    hits(searcher, query).map(([doc]) => doc),
    [7, 1, 8, 0, 4, 3, 6, 2, 9],
  );
});

test('must intersects; filter restricts without scoring; must_not excludes', async () => {
  const searcher = await smallSearcher();
  assert.deepEqual(
    hits(searcher, bool([['must', term('fox')], ['must', term('quick')]])).map(([doc]) => doc),
    [7, 0, 4],
  );
  const filtered = hits(searcher, bool([['must', term('fox')], ['filter', term('quick')]]));
  assert.deepEqual(filtered, [7, 0, 4].map((doc) => [doc, scoreOf(searcher, term('fox'), doc)!]));
  const excluded = hits(searcher, bool([['should', term('fox')], ['must_not', term('dog')]]));
  assert.deepEqual(excluded.map(([doc]) => doc).sort(), [2, 3, 6, 7]);
});

test('minimumShouldMatch counts matching should clauses', async () => {
  const searcher = await smallSearcher();
  const clauses = [['should', term('fox')], ['should', term('quick')], ['should', term('lazy')]] as const;
  assert.deepEqual(hits(searcher, bool(clauses, 2)).map(([doc]) => doc), [7, 0, 2, 4]);
  assert.deepEqual(hits(searcher, bool(clauses, 3)).map(([doc]) => doc), [7, 0]);
  assert.deepEqual(hits(searcher, bool(clauses, 4)), []);
  // With a required clause, should clauses only add to the score unless a minimum is given.
  assert.equal(hits(searcher, bool([['must', term('brown')], ['should', term('fox')]])).length, 4);
  assert.deepEqual(hits(searcher, bool([['must', term('brown')], ['should', term('fox')], ['should', term('dogs')]], 1)).map(([doc]) => doc).sort(), [0, 1, 3, 9]);
});

test('a filter-only bool scores 0 and a constant_score of the same filter scores its boost', async () => {
  const searcher = await smallSearcher();
  const filters = bool([['filter', term('fox')], ['filter', term('brown')]]);
  assert.deepEqual(hits(searcher, filters), [[0, 0], [3, 0], [9, 0]]);
  assert.deepEqual(hits(searcher, new ConstantScoreQuery(bool([['must', term('fox')], ['must', term('brown')]]))), [[0, 1], [3, 1], [9, 1]]);
  assert.deepEqual(hits(searcher, bool([['filter', term('fox')]])).map(([, score]) => score), [0, 0, 0, 0, 0, 0, 0]);
});

test('rewrites: trivial shapes', async () => {
  const searcher = await smallSearcher();
  assert.ok(searcher.rewrite(new BooleanQuery([])) instanceof MatchNoDocsQuery);
  assert.ok(searcher.rewrite(bool([['must_not', term('fox')]])) instanceof MatchNoDocsQuery);
  assert.ok(searcher.rewrite(bool([['should', term('fox')]])).equals(term('fox')));
  assert.ok(searcher.rewrite(bool([['must', term('fox')]])).equals(term('fox')));
  assert.ok(searcher.rewrite(bool([['should', term('fox')]], 1)).equals(term('fox')));
  const lone = searcher.rewrite(bool([['filter', term('fox')]]));
  assert.ok(lone instanceof BoostQuery && lone.boost === 0 && lone.query instanceof ConstantScoreQuery);
  assert.ok(searcher.rewrite(bool([['must', term('fox')], ['must_not', term('fox')]])) instanceof MatchNoDocsQuery);
  assert.ok(searcher.rewrite(bool([['should', term('fox')], ['should', term('dog')]], 3)) instanceof MatchNoDocsQuery);
  // A should clause that matches nothing disappears; a required one empties the query.
  assert.ok(searcher.rewrite(bool([['must', term('fox')], ['must', new MatchNoDocsQuery()]])) instanceof MatchNoDocsQuery);
  assert.ok(searcher.rewrite(bool([['should', term('fox')], ['should', new MatchNoDocsQuery()]])).equals(term('fox')));
});

test('rewrites: duplicates merge with summed boosts; filters that are should clauses become must', async () => {
  const searcher = await smallSearcher();
  const merged = searcher.rewrite(bool([['should', term('fox')], ['should', new BoostQuery(term('fox'), 2)], ['should', term('dog')]]));
  assert.ok(merged instanceof BooleanQuery);
  assert.equal(merged.toString(), '(body:fox)^3.0 body:dog');
  const promoted = searcher.rewrite(bool([['should', term('fox')], ['should', term('dog')], ['filter', term('fox')]]));
  assert.equal(promoted.toString(), '+body:fox body:dog');
  const dedup = searcher.rewrite(bool([['must', term('fox')], ['filter', term('dog')], ['filter', term('dog')]]));
  assert.equal(dedup.toString(), '+body:fox #body:dog');
  // must match_all + filters: the filters, constant-scored.
  const constant = searcher.rewrite(bool([['must', new MatchAllDocsQuery()], ['filter', term('fox')]]));
  assert.equal(constant.toString(), 'ConstantScore(body:fox)');
  assert.deepEqual(hits(searcher, constant).map(([, score]) => score)[0], 1);
});

test('rewrites: nested plain disjunctions are flattened; results do not change', async () => {
  const searcher = await smallSearcher();
  const nested = bool([['should', term('fox')], ['should', bool([['should', term('quick')], ['should', term('dog')]])]]);
  assert.equal(searcher.rewrite(nested).toString(), 'body:fox body:quick body:dog');
  assert.deepEqual(
    hits(searcher, nested),
    hits(searcher, bool([['should', term('fox')], ['should', term('quick')], ['should', term('dog')]])),
  );
});

test('explain lists clause explanations and fails with Lucene wording', async () => {
  const searcher = await smallSearcher();
  const query = bool([['must', term('fox')], ['filter', term('quick')], ['must_not', term('cat')]]);
  const match = searcher.explain(query, 7);
  assert.equal(match.description, 'sum of:');
  assert.equal(match.details[1]!.description, 'match on required clause, product of:');
  assert.deepEqual(match.details[1]!.details.map((detail) => `${detail.valueString()} = ${detail.description}`), ['0.0 = # clause', '1.0 = body:quick']);
  const excluded = searcher.explain(query, 4);
  assert.equal(excluded.isMatch, false);
  assert.equal(excluded.description, 'Failure to meet condition(s) of required/prohibited clause(s)');
  assert.equal(excluded.details.at(-1)!.description, 'match on prohibited clause (body:cat)');
  const missing = searcher.explain(query, 2);
  assert.equal(missing.details.at(-1)!.description, 'no match on required clause (body:quick)');
  const msm = searcher.explain(bool([['should', term('fox')], ['should', term('quick')], ['should', term('lazy')]], 2), 3);
  assert.equal(msm.description, 'Failure to match minimum number of optional clauses: 2');
  assert.equal(searcher.explain(bool([['should', term('cat')], ['should', term('dogs')]]), 3).description, 'No matching clauses');
});

test('toString prints Lucene syntax; equality ignores clause order', () => {
  const query = bool([['must', term('a')], ['filter', term('b')], ['should', term('c')], ['must_not', term('d')]], 1);
  assert.equal(query.toString(), '(+body:a #body:b body:c -body:d)~1');
  assert.equal(query.toString('body'), '(+a #b c -d)~1');
  const reordered = bool([['must_not', term('d')], ['should', term('c')], ['filter', term('b')], ['must', term('a')]], 1);
  assert.ok(query.equals(reordered));
  assert.equal(query.hashCode(), reordered.hashCode());
  assert.ok(!query.equals(bool([['must', term('a')]], 1)));
  assert.ok(!new TermQuery('body', 'a').equals(new TermQuery('other', 'a')));
});

test('more clauses than maxClauseCount fail', async () => {
  const searcher = await smallSearcher();
  const many = BooleanQuery.of('should', Array.from({ length: 1025 }, (_, i) => term(`t${i}`)));
  // ES 8.16+ reports Lucene's TooManyClauses at rewrite as a 400 with the Lucene exception as its cause.
  assert.throws(
    () => searcher.topDocs(many, 10),
    (err: any) => err.type === 'illegal_argument_exception' && err.reason === 'Query rewrite failed: too many clauses' && err.causedBy?.type === 'too_many_clauses' && err.causedBy.reason === 'maxClauseCount is set to 1024',
  );
});
