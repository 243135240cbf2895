/** Collectors: top-k by score with Lucene's total-hits semantics, terminate_after, cancellation, sorting by fields. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CANCELLATION_WINDOW,
  esTotalHits,
  IndexSearcher,
  MatchAllDocsQuery,
  TopScoreDocCollector,
  type SortSpec,
} from '../../../src/search/index.js';
import { bool, smallSearcher, term } from './helpers/small-corpus.js';
import { buildSearcher, type Mappings, type TestDoc } from './helpers/test-indexer.js';

test('ties keep the lower doc id; asking for more hits than exist returns them all', async () => {
  const searcher = await smallSearcher();
  const top = searcher.topDocs(new MatchAllDocsQuery(), 100);
  assert.deepEqual(top.scoreDocs.map((hit) => hit.doc), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(top.maxScore, 1);
  assert.deepEqual(searcher.topDocs(new MatchAllDocsQuery(), 3).scoreDocs.map((hit) => hit.doc), [0, 1, 2]);
  assert.ok(Number.isNaN(searcher.topDocs(term('zebra'), 3).maxScore));
});

test('total hits are exact up to the threshold, then a lower bound once skipping starts', async () => {
  const docs: TestDoc[] = Array.from({ length: 2000 }, (_, i) => ({ id: String(i), source: { body: i % 10 === 0 ? 'common rare' : `common ${'x '.repeat(i % 30)}` } }));
  const searcher = new IndexSearcher(await buildSearcher([docs], { body: { type: 'text' } }));
  const query = bool([['should', term('common')], ['should', term('rare')]]);
  const exact = searcher.topDocs(query, 10, { trackTotalHitsUpTo: Infinity });
  assert.deepEqual(exact.totalHits, { value: 2000, relation: 'eq' });
  assert.deepEqual(searcher.topDocs(query, 10, { trackTotalHitsUpTo: 2000 }).totalHits, { value: 2000, relation: 'eq' });
  const pruned = searcher.topDocs(query, 10, { trackTotalHitsUpTo: 100 });
  assert.equal(pruned.totalHits.relation, 'gte');
  assert.ok(pruned.totalHits.value > 100 && pruned.totalHits.value < 2000, `counted ${pruned.totalHits.value}`);
  assert.deepEqual(pruned.scoreDocs, exact.scoreDocs);
  // ES reports a lower bound beyond track_total_hits as exactly that many.
  assert.deepEqual(esTotalHits({ value: 2000, relation: 'eq' }, 1000), { value: 1000, relation: 'gte' });
  assert.deepEqual(esTotalHits({ value: 999, relation: 'eq' }, 1000), { value: 999, relation: 'eq' });
  assert.deepEqual(esTotalHits({ value: 5000, relation: 'eq' }, Infinity), { value: 5000, relation: 'eq' });
  // ES's default tracks 10,000 exactly.
  assert.deepEqual(searcher.topDocs(query, 10).totalHits, { value: 2000, relation: 'eq' });
  assert.equal(new TopScoreDocCollector(10, Infinity).scoreMode, 'complete');
  assert.equal(new TopScoreDocCollector(10, 10).scoreMode, 'top_scores');
});

test('terminate_after stops collecting after that many hits, across segments', async () => {
  const reader = await buildSearcher(
    [0, 1, 2].map((segment) => Array.from({ length: 5 }, (_, i) => ({ id: `${segment}-${i}`, source: { body: 'fox' } }))),
    { body: { type: 'text' } },
  );
  const searcher = new IndexSearcher(reader);
  const top = searcher.topDocs(term('fox'), 100, { terminateAfter: 7, trackTotalHitsUpTo: Infinity });
  assert.equal(top.terminatedEarly, true);
  assert.deepEqual(top.totalHits, { value: 7, relation: 'eq' });
  assert.deepEqual(top.scoreDocs.map((hit) => hit.doc), [0, 1, 2, 3, 4, 5, 6]);
  assert.equal(searcher.topDocs(term('fox'), 100, { terminateAfter: 100 }).terminatedEarly, false);
});

test('the cancellation check runs at least once per 4096 docs and stops the search within one window', async () => {
  const count = 5 * CANCELLATION_WINDOW + 17;
  const docs: TestDoc[] = Array.from({ length: count }, (_, i) => ({ id: String(i), source: { tag: 'x' } }));
  const searcher = new IndexSearcher(await buildSearcher([docs], { tag: { type: 'keyword' } }));
  let checks = 0;
  searcher.topDocs(term('x', 'tag'), 10, { checkCancelled: () => void checks++, trackTotalHitsUpTo: Infinity });
  assert.ok(checks >= Math.ceil(count / CANCELLATION_WINDOW), `only ${checks} checks for ${count} docs`);

  let collected = 0;
  let cancelledAt = -1;
  const collector = new TopScoreDocCollector(10, Infinity);
  const counting = {
    scoreMode: collector.scoreMode,
    getLeafCollector: (leaf: Parameters<typeof collector.getLeafCollector>[0]) => {
      const inner = collector.getLeafCollector(leaf);
      return { setScorer: inner.setScorer.bind(inner), collect: (doc: number) => void (collected++, inner.collect(doc)) };
    },
  };
  assert.throws(
    () =>
      searcher.search(term('x', 'tag'), counting, {
        checkCancelled: () => {
          if (collected >= 2 * CANCELLATION_WINDOW) {
            cancelledAt = collected;
            throw new Error('cancelled');
          }
        },
      }),
    /cancelled/,
  );
  assert.ok(cancelledAt >= 0 && collected - 2 * CANCELLATION_WINDOW <= CANCELLATION_WINDOW, `collected ${collected} after cancelling`);
});

test("scorers' own loops (scoreRange) skip deleted docs, honour cancellation windows and match the generic loop", async () => {
  const count = 3 * CANCELLATION_WINDOW + 5;
  const docs: TestDoc[] = Array.from({ length: count }, (_, i) => ({ id: String(i), source: { body: i % 3 === 0 ? 'fox fox dog' : i % 3 === 1 ? 'fox' : 'dog cat' } }));
  const deletedIds = docs.filter((_, i) => i % 7 === 0).map((doc) => doc.id);
  const searcher = new IndexSearcher(await buildSearcher([docs], { body: { type: 'text' } }, { deletedIds }));
  // A collector without collectScored takes the generic loop: the reference.
  const generic = (query: Parameters<typeof searcher.search>[0], threshold: number) => {
    const collector = new TopScoreDocCollector(10, threshold);
    searcher.search(query, {
      scoreMode: collector.scoreMode,
      getLeafCollector: (leaf) => {
        const inner = collector.getLeafCollector(leaf);
        return { setScorer: inner.setScorer.bind(inner), collect: inner.collect.bind(inner) };
      },
    });
    return collector.topDocs();
  };
  const queries = [term('fox'), bool([['should', term('fox')], ['should', term('dog')]]), bool([['must', term('fox')], ['must', term('dog')]])];
  // Infinity: every hit scored; 0: top_scores (WAND, block-max skipping).
  for (const threshold of [Infinity, 0]) {
    for (const query of queries) {
      let checks = 0;
      const own = searcher.topDocs(query, 10, { trackTotalHitsUpTo: threshold, checkCancelled: () => void checks++ });
      assert.deepEqual(own, generic(query, threshold), `${query.toString()} threshold ${threshold}`);
      assert.ok(own.scoreDocs.length === 10 && own.scoreDocs.every((hit) => hit.doc % 7 !== 0), 'a deleted doc was collected');
      assert.ok(checks >= (threshold === 0 ? 1 : 3), `${checks} cancellation checks`);
    }
  }
  let calls = 0;
  assert.throws(
    () =>
      searcher.topDocs(term('fox'), 10, {
        trackTotalHitsUpTo: Infinity,
        checkCancelled: () => {
          if (++calls === 2) throw new Error('cancelled');
        },
      }),
    /cancelled/,
  );
  assert.equal(calls, 2, 'the second window was not reached through a check');
});

async function sortSearcher(): Promise<IndexSearcher> {
  const mappings: Mappings = { n: { type: 'long' }, d: { type: 'double' }, k: { type: 'keyword' }, body: { type: 'text' } };
  const rows: Array<Record<string, unknown>> = [
    { n: [5, 1], d: 2.5, k: ['pear', 'apple'], body: 'fox' },
    { n: 3, d: -1, k: 'banana', body: 'fox fox' },
    { d: 7, body: 'fox a b c' },
    { n: [2, 9, 4], k: 'cherry', body: 'fox a' },
    { n: 3, d: 2.5, k: 'banana', body: 'fox' },
  ];
  const docs = rows.map((source, i) => ({ id: String(i), source }));
  // Two segments, so keyword order is compared by bytes across them.
  return new IndexSearcher(await buildSearcher([docs.slice(0, 2), docs.slice(2)], mappings));
}

function sorted(searcher: IndexSearcher, sort: SortSpec, size = 10): Array<[number, readonly unknown[]]> {
  return searcher.topFieldDocs(new MatchAllDocsQuery(), size, sort).scoreDocs.map((hit) => [hit.doc, hit.sortValues]);
}

test('sort by a numeric field: order, missing last by default, ES sort values, ties by doc', async () => {
  const searcher = await sortSearcher();
  // asc uses each doc's min: 1, 3, (none), 2, 3
  assert.deepEqual(sorted(searcher, [{ kind: 'numeric', field: 'n' }]), [
    [0, [1]],
    [3, [2]],
    [1, [3]],
    [4, [3]],
    [2, [9223372036854775807n]],
  ]);
  // desc uses the max: 5, 3, -, 9, 3; missing still last (Long.MIN_VALUE)
  assert.deepEqual(sorted(searcher, [{ kind: 'numeric', field: 'n', order: 'desc' }]), [
    [3, [9]],
    [0, [5]],
    [1, [3]],
    [4, [3]],
    [2, [-9223372036854775808n]],
  ]);
  assert.deepEqual(
    sorted(searcher, [{ kind: 'numeric', field: 'n', missing: 'first' }]).map(([doc]) => doc),
    [2, 0, 3, 1, 4],
  );
  assert.deepEqual(sorted(searcher, [{ kind: 'numeric', field: 'n', missing: 4 }]).map(([doc, values]) => [doc, values[0]]), [
    [0, 1],
    [3, 2],
    [1, 3],
    [4, 3],
    [2, 4],
  ]);
  assert.deepEqual(sorted(searcher, [{ kind: 'numeric', field: 'd', order: 'desc' }]), [
    [2, [7]],
    [0, [2.5]],
    [4, [2.5]],
    [1, [-1]],
    [3, [-Infinity]],
  ]);
});

test('multi-valued modes: sum, avg (longs rounded as ES does), median', async () => {
  const searcher = await sortSearcher();
  const values = (mode: 'sum' | 'avg' | 'median') =>
    Object.fromEntries(sorted(searcher, [{ kind: 'numeric', field: 'n', mode }]).map(([doc, sortValues]) => [doc, sortValues[0]]));
  assert.deepEqual(values('sum'), { 0: 6, 1: 3, 3: 15, 4: 3, 2: 9223372036854775807n });
  assert.deepEqual(values('avg'), { 0: 3, 1: 3, 3: 5, 4: 3, 2: 9223372036854775807n });
  assert.deepEqual(values('median'), { 0: 3, 1: 3, 3: 4, 4: 3, 2: 9223372036854775807n });
});

test('sort by a keyword field across segments, with missing values and modes', async () => {
  const searcher = await sortSearcher();
  assert.deepEqual(sorted(searcher, [{ kind: 'keyword', field: 'k' }]), [
    [0, ['apple']],
    [1, ['banana']],
    [4, ['banana']],
    [3, ['cherry']],
    [2, [null]],
  ]);
  assert.deepEqual(sorted(searcher, [{ kind: 'keyword', field: 'k', order: 'desc' }]), [
    [0, ['pear']],
    [3, ['cherry']],
    [1, ['banana']],
    [4, ['banana']],
    [2, [null]],
  ]);
  assert.deepEqual(sorted(searcher, [{ kind: 'keyword', field: 'k', missing: 'first' }]).map(([doc]) => doc), [2, 0, 1, 4, 3]);
  assert.deepEqual(sorted(searcher, [{ kind: 'keyword', field: 'k', missing: 'blueberry' }]).map(([doc]) => doc), [0, 1, 4, 2, 3]);
  // Only the top 2 kept: the heap's bottom is compared across segments by term bytes.
  assert.deepEqual(sorted(searcher, [{ kind: 'keyword', field: 'k' }], 2).map(([doc]) => doc), [0, 1]);
  assert.deepEqual(sorted(searcher, [{ kind: 'keyword', field: 'k', order: 'desc' }], 2).map(([doc]) => doc), [0, 3]);
});

test('multi-field sorts, _score and _doc', async () => {
  const searcher = await sortSearcher();
  assert.deepEqual(
    sorted(searcher, [{ kind: 'keyword', field: 'k' }, { kind: 'numeric', field: 'd', order: 'desc' }]).map(([doc]) => doc),
    [0, 4, 1, 3, 2],
  );
  assert.deepEqual(sorted(searcher, [{ kind: 'doc', order: 'desc' }], 3).map(([doc]) => doc), [4, 3, 2]);
  const byScore = searcher.topFieldDocs(term('fox'), 10, [{ kind: 'score' }, { kind: 'doc' }]);
  const expected = searcher.topDocs(term('fox'), 10);
  assert.deepEqual(
    byScore.scoreDocs.map((hit) => [hit.doc, hit.score, hit.sortValues[0]]),
    expected.scoreDocs.map((hit) => [hit.doc, hit.score, hit.score]),
  );
  // Without _score in the sort, scores are not computed unless tracked.
  assert.ok(Number.isNaN(searcher.topFieldDocs(term('fox'), 10, [{ kind: 'doc' }]).scoreDocs[0]!.score));
  const tracked = searcher.topFieldDocs(term('fox'), 10, [{ kind: 'doc' }], { trackScores: true });
  assert.equal(tracked.maxScore, expected.maxScore);
  assert.deepEqual(tracked.totalHits, { value: 5, relation: 'eq' });
});
