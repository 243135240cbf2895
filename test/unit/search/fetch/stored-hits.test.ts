/**
 * loadStoredHits on a real engine's segments: ids (ASCII and not), routing, with and without `_source`,
 * deleted docs, several segments, any hit order, every stored-fields compression.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexSearcher } from '../../../../src/search/index.js';
import { loadStoredHits } from '../../../../src/search/fetch/stored-hits.js';
import type { StoredCompression } from '../../../../src/engine/codec/stored/compression.js';
import { DocumentFactory, open, sourceOf, tempDir } from '../../engine/engine-helpers.js';

interface Indexed {
  readonly id: string;
  readonly routing: string | undefined;
  readonly source: { n: number; text: string };
}

const IDS = ['a', 'b-1', 'été', '日本', '😀', 'x'.repeat(300), 'ünï-çødé', '', 'z'];

function corpus(count: number): Indexed[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i < IDS.length ? IDS[i]! : `doc-${i}`,
    routing: i % 4 === 1 ? `r-${i}` : i % 4 === 2 ? `rout\u00e9-${i}` : undefined,
    source: { n: i, text: `text ${i}` },
  }));
}

for (const storedCompression of ['lz4', 'deflate_fast', 'deflate_best'] as const satisfies readonly StoredCompression[]) {
  test(`loadStoredHits reads ids, routing and sources across segments, deleted docs included (${storedCompression})`, async () => {
    const dir = tempDir();
    const factory = new DocumentFactory();
    const engine = await open(dir.path, factory, { backgroundWork: 'inline', storedCompression });
    try {
      const docs = corpus(90).filter((doc) => doc.id !== '');
      for (const [i, doc] of docs.entries()) {
        await engine.index({ id: doc.id, document: factory.parse(doc.source, doc.id, doc.routing), opType: 'index', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
        if (i === 30 || i === 60) await engine.refresh('test');
      }
      await engine.refresh('test');
      // A deleted doc keeps its stored fields until a merge: a reader asked for it still reads them.
      await engine.delete({ id: 'b-1', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
      await engine.refresh('test');
      const engineSearcher = engine.acquireSearcher();
      try {
        const searcher = new IndexSearcher(engineSearcher);
        assert.ok(engineSearcher.segments.length >= 3, `segments: ${engineSearcher.segments.length}`);
        const byId = new Map(docs.map((doc) => [doc.id, doc]));
        const all = Array.from({ length: searcher.maxDoc }, (_, doc) => doc);
        const reference = loadStoredHits(searcher, all);
        assert.deepEqual(new Set(reference.map((hit) => hit.id)), new Set(byId.keys()));
        for (const hit of reference) {
          const expected = byId.get(hit.id)!;
          assert.equal(hit.routing, expected.routing ?? null, `routing of ${hit.id}`);
          assert.deepEqual(sourceOf(hit.source!), expected.source);
        }
        // Pages in every order and size (small pages take the insertion sort, big ones the array sort), with and
        // without the source: same ids and routing as the full read, in the order asked.
        const pages = [all.slice().reverse(), [5, 3, 80, 0, 41, 3], all.slice(10, 20), [all.length - 1], [], all.filter((doc) => doc % 7 === 3).reverse()];
        for (const page of pages) {
          for (const source of [false, true]) {
            const hits = loadStoredHits(searcher, page, { source });
            assert.deepEqual(
              hits.map((hit) => [hit.doc, hit.id, hit.routing, hit.source === null]),
              page.map((doc) => [doc, reference[doc]!.id, reference[doc]!.routing, !source]),
            );
          }
        }
        assert.throws(() => loadStoredHits(searcher, [searcher.maxDoc], { source: false }), RangeError);
        assert.throws(() => loadStoredHits(searcher, [-1]), RangeError);
      } finally {
        engineSearcher.release();
      }
    } finally {
      await engine.close();
      dir.remove();
    }
  });
}
