/**
 * Properties on random corpora (1-3 segments, random deletes) and random queries, every leaf wrapped in
 * AssertingQuery so each scorer checks its contract (doc ids only move forward, scores finite and within
 * the block maximum the scorer promised):
 * - top-k with skipping (WAND, block-max conjunctions, impacts) equals exhaustive top-k;
 * - top-k equals a brute force over every document's explanation, and count() equals the matches;
 * - equivalent queries (boolean rewrites, filter vs constant_score, terms vs constant-score disjunction)
 *   return the same hits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BM25Similarity,
  BooleanQuery,
  BoostQuery,
  ConstantScoreQuery,
  IndexSearcher,
  PhraseQuery,
  TermQuery,
  type Occur,
  type Query,
} from '../../../src/search/index.js';
import { DisjunctionMaxQuery } from '../../../src/search/query/dismax-query.js';
import { TermInSetQuery } from '../../../src/search/query/multiterm/term-in-set-query.js';
import { AssertingQuery, AssertingScorer } from './helpers/asserting-query.js';
import { buildSearcher, type TestDoc } from './helpers/test-indexer.js';

// Skewed vocabulary: "a" is in most docs, "f" in few, so blocks and max scores differ between terms.
const VOCABULARY = ['a', 'a', 'a', 'b', 'b', 'c', 'c', 'd', 'e', 'f'];
const WORDS = ['a', 'b', 'c', 'd', 'e', 'f'];

const corpusArbitrary = fc
  .record({
    // Fixed lengths drawn uniformly, so corpora are large enough for several 128-doc postings blocks.
    bodies: fc
      .integer({ min: 1, max: 400 })
      .chain((count) => fc.array(fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 14, size: 'max' }), { minLength: count, maxLength: count })),
    cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 2 }),
    deleteRate: fc.constantFrom(0, 0, 0.1, 0.3),
    seed: fc.integer(),
  })
  .map(({ bodies, cuts, deleteRate, seed }) => {
    const docs: TestDoc[] = bodies.map((words, i) => ({ id: String(i), source: { body: words.join(' ') } }));
    const bounds = [...new Set(cuts.map((cut) => Math.floor(cut * docs.length)))].filter((b) => b > 0 && b < docs.length).sort((a, b) => a - b);
    const segments: TestDoc[][] = [];
    let start = 0;
    for (const bound of [...bounds, docs.length]) {
      segments.push(docs.slice(start, bound));
      start = bound;
    }
    let state = seed >>> 0;
    const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const deletedIds = docs.filter(() => random() < deleteRate).map((doc) => doc.id);
    return { segments, deletedIds };
  });

const leafArbitrary: fc.Arbitrary<Query> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS).map((word) => new TermQuery('body', word)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 3 }), fc.constantFrom(0, 0, 1, 2))
      .map(([words, slop]) => new PhraseQuery('body', words, { slop })),
  },
);

const queryArbitrary: fc.Arbitrary<Query> = fc.letrec<{ query: Query }>((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: leafArbitrary },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.array(fc.tuple(fc.constantFrom<Occur>('must', 'should', 'should', 'filter', 'must_not'), tie('query')), { minLength: 1, maxLength: 4 }),
          fc.constantFrom(0, 0, 0, 1, 2),
        )
        .map(([clauses, msm]) => new BooleanQuery(clauses.map(([occur, query]) => ({ occur, query })), msm)),
    },
    { weight: 1, arbitrary: fc.tuple(tie('query'), fc.constantFrom(0.5, 2, 3)).map(([query, boost]) => new BoostQuery(query, boost)) },
    { weight: 1, arbitrary: tie('query').map((query) => new ConstantScoreQuery(query)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.array(tie('query'), { minLength: 1, maxLength: 3 }), fc.constantFrom(0, 0.3))
        .map(([queries, tie]) => new DisjunctionMaxQuery(queries, tie)),
    },
  ),
})).query;

/** Wraps every term and phrase in AssertingQuery. */
function asserting(query: Query): Query {
  if (query instanceof TermQuery || query instanceof PhraseQuery) return new AssertingQuery(query);
  if (query instanceof BooleanQuery) {
    return new BooleanQuery(
      query.clauses.map((clause) => ({ occur: clause.occur, query: asserting(clause.query) })),
      query.minimumShouldMatch,
    );
  }
  if (query instanceof BoostQuery) return new BoostQuery(asserting(query.query), query.boost);
  if (query instanceof ConstantScoreQuery) return new ConstantScoreQuery(asserting(query.query));
  if (query instanceof DisjunctionMaxQuery) return new DisjunctionMaxQuery(query.disjuncts.map(asserting), query.tieBreaker);
  return query;
}

async function searcherFor(corpus: { segments: TestDoc[][]; deletedIds: string[] }): Promise<IndexSearcher> {
  const reader = await buildSearcher(corpus.segments, { body: { type: 'text' } }, { deletedIds: corpus.deletedIds });
  return new IndexSearcher(reader, { similarity: new BM25Similarity() });
}

function bruteForce(searcher: IndexSearcher, query: Query): Array<{ doc: number; score: number }> {
  const matches: Array<{ doc: number; score: number }> = [];
  for (let doc = 0; doc < searcher.maxDoc; doc++) {
    const explanation = searcher.explain(query, doc);
    if (explanation.isMatch) matches.push({ doc, score: explanation.value });
  }
  return matches.sort((a, b) => b.score - a.score || a.doc - b.doc);
}

const RUNS = { numRuns: 40 };

test('top-k with skipping equals exhaustive top-k, and scorers keep their contract', async () => {
  const before = AssertingScorer.checks;
  await fc.assert(
    fc.asyncProperty(corpusArbitrary, queryArbitrary, fc.constantFrom(1, 3, 10), async (corpus, query, k) => {
      const searcher = await searcherFor(corpus);
      const wrapped = asserting(query);
      const exhaustive = searcher.topDocs(wrapped, k, { trackTotalHitsUpTo: Infinity });
      for (const threshold of [0, 5]) {
        const pruned = searcher.topDocs(wrapped, k, { trackTotalHitsUpTo: threshold });
        assert.deepEqual(pruned.scoreDocs, exhaustive.scoreDocs, `${query.toString()} k=${k} threshold=${threshold}`);
        assert.ok(pruned.totalHits.value <= exhaustive.totalHits.value);
        if (pruned.totalHits.relation === 'eq') assert.equal(pruned.totalHits.value, exhaustive.totalHits.value);
      }
    }),
    RUNS,
  );
  assert.ok(AssertingScorer.checks > before, 'the asserting scorers were never exercised');
});

test('WAND disjunctions and block-max conjunctions of terms: pruned top-k equals exhaustive top-k', async () => {
  const termsArbitrary = fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 5 });
  await fc.assert(
    fc.asyncProperty(corpusArbitrary, termsArbitrary, fc.constantFrom<Occur>('should', 'must'), fc.integer({ min: 1, max: 10 }), async (corpus, words, occur, k) => {
      const searcher = await searcherFor(corpus);
      const query = BooleanQuery.of(occur, words.map((word) => asserting(new TermQuery('body', word))));
      const exhaustive = searcher.topDocs(query, k, { trackTotalHitsUpTo: Infinity });
      const pruned = searcher.topDocs(query, k, { trackTotalHitsUpTo: 0 });
      assert.deepEqual(pruned.scoreDocs, exhaustive.scoreDocs, `${query.toString()} k=${k}`);
    }),
    { numRuns: 60 },
  );
});

test('top-k equals the brute force over every explanation; count equals the matches', async () => {
  await fc.assert(
    fc.asyncProperty(corpusArbitrary, queryArbitrary, async (corpus, query) => {
      const searcher = await searcherFor(corpus);
      const expected = bruteForce(searcher, query);
      const top = searcher.topDocs(asserting(query), 10, { trackTotalHitsUpTo: Infinity });
      assert.deepEqual(top.scoreDocs, expected.slice(0, 10), query.toString());
      assert.equal(top.totalHits.value, expected.length);
      assert.equal(searcher.count(query), expected.length);
    }),
    { numRuns: 25 },
  );
});

test('equivalent queries return the same hits', async () => {
  await fc.assert(
    fc.asyncProperty(corpusArbitrary, queryArbitrary, queryArbitrary, async (corpus, a, b) => {
      const searcher = await searcherFor(corpus);
      const hits = (query: Query) => searcher.topDocs(query, 1000, { trackTotalHitsUpTo: Infinity }).scoreDocs;
      const docs = (query: Query) => hits(query).map((hit) => hit.doc).sort((x, y) => x - y);
      // A one-clause bool is its clause.
      assert.deepEqual(hits(new BooleanQuery([{ occur: 'should', query: a }])), hits(a));
      assert.deepEqual(hits(new BooleanQuery([{ occur: 'must', query: a }])), hits(a));
      // Filters match what constant_score matches, scoring 0 instead of 1.
      const filters = new BooleanQuery([
        { occur: 'filter', query: a },
        { occur: 'filter', query: b },
      ]);
      const constant = new ConstantScoreQuery(new BooleanQuery([
        { occur: 'must', query: a },
        { occur: 'must', query: b },
      ]));
      assert.deepEqual(docs(filters), docs(constant));
      assert.ok(hits(filters).every((hit) => hit.score === 0));
      assert.ok(hits(constant).every((hit) => hit.score === 1));
      // must + filter scores the must clause alone.
      const filtered = hits(new BooleanQuery([
        { occur: 'must', query: a },
        { occur: 'filter', query: b },
      ]));
      const bDocs = new Set(docs(b));
      assert.deepEqual(filtered, hits(a).filter((hit) => bDocs.has(hit.doc)));
      // must_not removes exactly the excluded docs.
      const excluded = hits(new BooleanQuery([
        { occur: 'must', query: a },
        { occur: 'must_not', query: b },
      ]));
      assert.deepEqual(excluded, hits(a).filter((hit) => !bDocs.has(hit.doc)));
      // Should clauses of a plain disjunction: the union.
      const union = new Set([...docs(a), ...docs(b)]);
      assert.deepEqual(docs(BooleanQuery.of('should', [a, b])), [...union].sort((x, y) => x - y));
    }),
    { numRuns: 25 },
  );
});

test('terms equals a constant-score disjunction of its terms', async () => {
  await fc.assert(
    fc.asyncProperty(corpusArbitrary, fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), async (corpus, words) => {
      const searcher = await searcherFor(corpus);
      const terms = searcher.topDocs(new TermInSetQuery('body', words), 1000).scoreDocs;
      const disjunction = searcher.topDocs(new ConstantScoreQuery(BooleanQuery.of('should', words.map((word) => new TermQuery('body', word)))), 1000).scoreDocs;
      assert.deepEqual(terms, disjunction);
    }),
    { numRuns: 20 },
  );
});
