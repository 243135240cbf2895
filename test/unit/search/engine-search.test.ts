/**
 * Search over segments the real engine wrote (openEngine -> index -> refresh -> acquireSearcher): the same
 * documents through the engine's indexing chain and through the tests' indexer give the same hits with
 * bit-identical scores, before and after a flush and merge, and deletes made through the engine vanish from
 * results.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BM25Similarity, IndexSearcher, loadStoredHits, type Query } from '../../../src/search/index.js';
import { DocumentFactory, indexOp, open, tempDir } from '../engine/engine-helpers.js';
import { oracleQueries, smallDocs, smallSearcher } from './helpers/small-corpus.js';

const MAPPING = { properties: { body: { type: 'text' }, tag: { type: 'keyword' } } };

function resultsById(searcher: IndexSearcher, query: Query): Array<[string, number]> {
  const top = searcher.topDocs(query, 20, { trackTotalHitsUpTo: Infinity });
  const ids = loadStoredHits(searcher, top.scoreDocs.map((hit) => hit.doc), { source: false }).map((hit) => hit.id);
  return top.scoreDocs.map((hit, i) => [ids[i]!, hit.score]);
}

test('segments written by the engine score exactly as the reference segments', async () => {
  const dir = tempDir('gannet-search-engine-');
  const factory = new DocumentFactory(MAPPING);
  const engine = await open(dir.path, factory);
  try {
    for (const doc of smallDocs()) await engine.index(indexOp(factory, doc.id, doc.source));
    await engine.refresh('test');
    const reference = await smallSearcher(true);
    const check = async (label: string): Promise<void> => {
      const reader = engine.acquireSearcher();
      try {
        const searcher = new IndexSearcher(reader, { similarity: new BM25Similarity() });
        for (const [name, query] of Object.entries(oracleQueries())) {
          assert.deepEqual(resultsById(searcher, query), resultsById(reference, query), `${label}: ${name}`);
        }
      } finally {
        reader.release();
      }
    };
    await check('after refresh');
    await engine.flush({ force: true });
    await engine.forceMerge({ maxNumSegments: 1 });
    await check('after flush and merge');

    await engine.delete({ id: '3', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
    await engine.refresh('test');
    const reader = engine.acquireSearcher();
    try {
      const searcher = new IndexSearcher(reader, { similarity: new BM25Similarity() });
      const ids = resultsById(searcher, oracleQueries()['term_fox']!).map(([id]) => id);
      assert.ok(!ids.includes('3'));
      assert.equal(ids.length, 6);
    } finally {
      reader.release();
    }
  } finally {
    await engine.close();
    dir.remove();
  }
});
