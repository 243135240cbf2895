/** Term queries: hits, order and scores from the BM25 formula; statistics over segments; deletes; explain. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BM25Similarity, IndexSearcher, TermQuery } from '../../../src/search/index.js';
import { bm25 } from './helpers/bm25-reference.js';
import { BODIES, smallDocs, smallSearcher, SMALL_MAPPINGS, term } from './helpers/small-corpus.js';
import { buildSearcher } from './helpers/test-indexer.js';

const lengths = BODIES.map((body) => (body === '' ? 0 : body.split(' ').length));
const docCount = lengths.filter((length) => length > 0).length; // 9: the empty body has no tokens
const sumTotalTermFreq = lengths.reduce((sum, length) => sum + length, 0); // 47

function expectedHits(word: string, legacy: boolean): Array<{ doc: number; score: number }> {
  const freqs = BODIES.map((body) => body.split(' ').filter((token) => token === word).length);
  const docFreq = freqs.filter((freq) => freq > 0).length;
  return freqs
    .map((freq, doc) => ({ doc, freq }))
    .filter(({ freq }) => freq > 0)
    .map(({ doc, freq }) => ({ doc, score: bm25({ freq, length: lengths[doc]!, docCount, sumTotalTermFreq, docFreqs: [docFreq], legacy }) }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
}

test('hits, order and scores follow the BM25 formula (docCount 9 ignores the empty doc, avgdl 47/9)', async () => {
  for (const legacy of [false, true]) {
    const searcher = await smallSearcher(legacy);
    for (const word of ['fox', 'quick', 'brown', 'the', 'dog', 'lazy', 'cat']) {
      const top = searcher.topDocs(term(word), 10);
      assert.deepEqual(
        top.scoreDocs.map((hit) => ({ doc: hit.doc, score: hit.score })),
        expectedHits(word, legacy),
        `${word} legacy=${legacy}`,
      );
      assert.deepEqual(top.totalHits, { value: expectedHits(word, legacy).length, relation: 'eq' });
    }
  }
});

test('equal scores are ordered by doc id', async () => {
  const searcher = await smallSearcher();
  // Docs 0 and 4 both have "fox" once in 9-token bodies.
  const docs = searcher.topDocs(term('fox'), 10).scoreDocs.map((hit) => hit.doc);
  assert.ok(docs.indexOf(0) < docs.indexOf(4));
  assert.ok(docs.indexOf(7) < docs.indexOf(9));
});

test('a missing term or field matches nothing; count uses docFreq', async () => {
  const searcher = await smallSearcher();
  assert.equal(searcher.topDocs(term('zebra'), 10).scoreDocs.length, 0);
  assert.equal(searcher.topDocs(new TermQuery('nofield', 'fox'), 10).totalHits.value, 0);
  assert.equal(searcher.count(term('fox')), 7);
  assert.equal(searcher.count(term('zebra')), 0);
  assert.equal(searcher.explain(term('fox'), 1).isMatch, false);
  assert.equal(searcher.explain(term('fox'), 1).description, 'no matching term');
});

test('keyword fields (no norms, docs only) score with norm 1 and freq 1', async () => {
  const searcher = await smallSearcher();
  const top = searcher.topDocs(term('a', 'tag'), 10);
  assert.deepEqual(top.scoreDocs.map((hit) => hit.doc), [0, 2, 5, 8]);
  // tag has 8 values over 7 docs: avgdl 8/7, every match scored as length 1.
  const expected = bm25({ freq: 1, length: 1, docCount: 7, sumTotalTermFreq: 8, docFreqs: [4] });
  for (const hit of top.scoreDocs) assert.equal(hit.score, expected);
});

test('statistics are summed over segments; deleted docs still count in them but are never returned', async () => {
  const docs = smallDocs();
  const oneSegment = await smallSearcher();
  const reader = await buildSearcher([docs.slice(0, 4), docs.slice(4, 7), docs.slice(7)], SMALL_MAPPINGS, { deletedIds: ['3', '8'] });
  const searcher = new IndexSearcher(reader, { similarity: new BM25Similarity({ legacyK1Factor: false }) });
  for (const word of ['fox', 'quick', 'brown']) {
    const expected = oneSegment.topDocs(term(word), 10).scoreDocs.filter((hit) => hit.doc !== 3 && hit.doc !== 8);
    const actual = searcher.topDocs(term(word), 10).scoreDocs;
    assert.deepEqual(actual, expected, word);
  }
  assert.equal(searcher.count(term('fox')), 6);
  assert.equal(searcher.explain(term('fox'), 3).description, 'Document 3 is deleted');
  // Explanations use segment-local doc ids, as Lucene's do.
  assert.match(searcher.explain(term('fox'), 9).description, /^weight\(body:fox in 2\) \[BM25Similarity\], result of:$/);
  assert.equal(searcher.collectionStatistics('body')?.docCount, 9);
  assert.equal(searcher.maxDoc, 10);
});

test('statistics can be overridden (distributed frequencies)', async () => {
  const reader = await buildSearcher([smallDocs()], SMALL_MAPPINGS);
  const searcher = new IndexSearcher(reader, {
    similarity: new BM25Similarity({ legacyK1Factor: false }),
    statistics: {
      term: (_field, term, local) => (local === null ? null : { term, docFreq: local.docFreq * 10, totalTermFreq: local.totalTermFreq * 10 }),
      collection: (_field, local) => (local === null ? null : { ...local, docCount: local.docCount * 10, sumTotalTermFreq: local.sumTotalTermFreq * 10 }),
    },
  });
  const top = searcher.topDocs(term('fox'), 1).scoreDocs[0]!;
  assert.equal(top.score, bm25({ freq: 3, length: 6, docCount: 90, sumTotalTermFreq: 470, docFreqs: [70] }));
});
