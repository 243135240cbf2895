/** The stored fields reader's decoded-block and chunk-table caches, and clearing them (`POST /_cache/clear`). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoredFieldsWriter } from '../../../../src/engine/codec/stored/stored-fields-writer.js';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored/stored-fields-reader.js';
import { SEGMENT_ID } from './postings-fixtures.js';
import { DocumentFactory, indexOp, open, sourceOf, tempDir } from '../engine-helpers.js';

function sampleReader(): { reader: StoredFieldsReader; sources: Buffer[] } {
  const writer = new StoredFieldsWriter(SEGMENT_ID, 'lz4', { maxDocsPerBlock: 4, blocksPerChunk: 2 });
  const sources = Array.from({ length: 60 }, (_, i) => Buffer.from(JSON.stringify({ n: i, text: 'words that repeat '.repeat(i % 5) })));
  sources.forEach((source, i) => writer.addDocument([{ name: '_id', value: String(i) }, { name: '_source', value: source }]));
  return { reader: new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, sources.length), sources };
}

test('reading fills the block and chunk-table caches; clearCaches empties them and reads decode again', () => {
  const { reader, sources } = sampleReader();
  assert.deepEqual(reader.cachedEntries, { blocks: 0, chunkTables: 0 });
  for (let doc = 0; doc < 20; doc++) reader.document(doc);
  const filled = reader.cachedEntries;
  assert.ok(filled.blocks > 0, `blocks cached: ${filled.blocks}`);
  assert.ok(filled.chunkTables > 0, `chunk tables cached: ${filled.chunkTables}`);

  // A bytes value read before clearing is a view of a dropped block: it must stay intact.
  const before = reader.document(5)[1]!.value as Uint8Array;
  reader.clearCaches();
  assert.deepEqual(reader.cachedEntries, { blocks: 0, chunkTables: 0 });
  assert.ok(Buffer.from(before).equals(sources[5]!));

  // Every document still reads right, including the one whose metadata group was the last decoded.
  for (const doc of [5, 0, 59, 21, 5]) {
    const fields = reader.document(doc);
    assert.equal(fields[0]!.value, String(doc));
    assert.ok(Buffer.from(fields[1]!.value as Uint8Array).equals(sources[doc]!), `doc ${doc}`);
  }
  assert.ok(reader.cachedEntries.blocks > 0);
});

test('the engine clears the stored fields caches of every current segment', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    for (let i = 0; i < 10; i++) await engine.index(indexOp(factory, `a${i}`, { n: i }));
    await engine.refresh('test');
    for (let i = 0; i < 10; i++) await engine.index(indexOp(factory, `b${i}`, { n: i }));
    await engine.refresh('test');
    const searcher = engine.acquireSearcher();
    try {
      assert.equal(searcher.segments.length, 2);
      for (const view of searcher.segments) for (let doc = 0; doc < view.maxDoc; doc++) view.readers.stored.document(doc);
      assert.ok(searcher.segments.every((view) => view.readers.stored.cachedEntries.blocks > 0));
      engine.clearCaches();
      for (const view of searcher.segments) assert.deepEqual(view.readers.stored.cachedEntries, { blocks: 0, chunkTables: 0 });
      assert.deepEqual(sourceOf((await engine.get('b3')).source), { n: 3 });
    } finally {
      searcher.release();
    }
  } finally {
    await engine.close();
    dir.remove();
  }
});
