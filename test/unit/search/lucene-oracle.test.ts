/**
 * Every oracle query of helpers/small-corpus.ts returns exactly what Lucene 8.7.0 returned on the same
 * documents (helpers/lucene-oracle.ts): the same docs in the same order with bit-identical float scores,
 * under plain BM25 and under ES's legacy BM25, and the explanations print the same text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { floatToString } from '../../../src/search/index.js';
import { LUCENE_LEGACY, LUCENE_LEGACY_EXPLANATIONS, LUCENE_PLAIN } from './helpers/lucene-oracle.js';
import { oracleQueries, smallSearcher } from './helpers/small-corpus.js';

async function ourLines(legacy: boolean): Promise<string[]> {
  const searcher = await smallSearcher(legacy);
  return Object.entries(oracleQueries()).map(([name, query]) => {
    const top = searcher.topDocs(query, 20, { trackTotalHitsUpTo: 1000 });
    return `${name} total=${top.totalHits.value} ${top.scoreDocs.map((hit) => `${hit.doc}:${floatToString(hit.score)}`).join(' ')}`.trimEnd();
  });
}

test('plain BM25: hits, order and scores equal Lucene 8.7', async () => {
  assert.deepEqual(await ourLines(false), LUCENE_PLAIN.map((line) => line.trimEnd()));
});

test('ES legacy BM25: hits, order and scores equal Lucene 8.7 with LegacyBM25Similarity', async () => {
  assert.deepEqual(await ourLines(true), LUCENE_LEGACY.map((line) => line.trimEnd()));
});

test('explanations print as Lucene prints them, with the score as value', async () => {
  const searcher = await smallSearcher(true);
  const queries = oracleQueries();
  for (const [name, expected] of Object.entries(LUCENE_LEGACY_EXPLANATIONS)) {
    const query = queries[name]!;
    const top = searcher.topDocs(query, 1);
    const explanation = searcher.explain(query, top.scoreDocs[0]!.doc);
    assert.equal(explanation.toString(), expected, name);
    assert.equal(explanation.value, top.scoreDocs[0]!.score, name);
  }
});

test('every hit of every oracle query explains to its score', async () => {
  for (const legacy of [false, true]) {
    const searcher = await smallSearcher(legacy);
    for (const [name, query] of Object.entries(oracleQueries())) {
      for (const hit of searcher.topDocs(query, 20).scoreDocs) {
        const explanation = searcher.explain(query, hit.doc);
        assert.ok(explanation.isMatch, `${name} doc ${hit.doc}`);
        assert.equal(explanation.value, hit.score, `${name} doc ${hit.doc}`);
      }
    }
  }
});
