/** Fetching hits: `_id` and `_source` from stored fields, in the order asked, across segments. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexSearcher } from '../../../src/search/index.js';
import { loadStoredHits } from '../../../src/search/fetch/stored-hits.js';
import { numericValues, ordValues } from '../../../src/search/fetch/doc-value-reader.js';
import { smallDocs, SMALL_MAPPINGS, term } from './helpers/small-corpus.js';
import { buildSearcher } from './helpers/test-indexer.js';

test('ids and sources of hits, in hit order, from several segments', async () => {
  const docs = smallDocs();
  const searcher = new IndexSearcher(await buildSearcher([docs.slice(0, 3), docs.slice(3)], SMALL_MAPPINGS));
  const top = searcher.topDocs(term('fox'), 10);
  const hits = loadStoredHits(searcher, top.scoreDocs.map((hit) => hit.doc));
  assert.deepEqual(
    hits.map((hit) => hit.id),
    top.scoreDocs.map((hit) => String(hit.doc)),
  );
  for (const hit of hits) {
    assert.deepEqual(JSON.parse(Buffer.from(hit.source!).toString('utf8')), docs[hit.doc]!.source);
    assert.equal(hit.routing, null);
  }
  const idsOnly = loadStoredHits(searcher, [9, 0], { source: false });
  assert.deepEqual(idsOnly.map((hit) => [hit.id, hit.source]), [['9', null], ['0', null]]);
  assert.throws(() => loadStoredHits(searcher, [10]), RangeError);
});

test('doc values helpers reduce multi-valued fields and expose ords', async () => {
  const reader = await buildSearcher([[{ id: 'a', source: { n: [4, 1, 9], k: ['b', 'a'] } }, { id: 'b', source: {} }]], { n: { type: 'long' }, k: { type: 'keyword' } });
  const readers = reader.segments[0]!.readers;
  assert.equal(numericValues(readers, 'n', 'min')!.value(0), 1);
  assert.equal(numericValues(readers, 'n', 'max')!.value(0), 9);
  assert.equal(numericValues(readers, 'n', 'median')!.value(0), 4);
  assert.equal(numericValues(readers, 'n', 'sum')!.value(0), 14);
  assert.equal(numericValues(readers, 'n', 'avg')!.value(0), 5); // Math.round(14 / 3), as ES rounds long averages
  assert.equal(numericValues(readers, 'n', 'min')!.value(1), undefined);
  assert.equal(numericValues(readers, 'missing', 'min'), null);
  const ords = ordValues(readers, 'k', 'max')!;
  assert.equal(ords.lookupOrd(ords.ord(0)).toString(), 'b');
  assert.equal(ordValues(readers, 'k', 'min')!.ord(0), 0);
  assert.equal(ords.ord(1), -1);
});
