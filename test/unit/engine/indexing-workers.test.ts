/**
 * How many indexing workers a copy inverts in (decision 0028): two take turns buffer by buffer; one takes every
 * buffer, and a buffer's write holds the batches of the next until it is written (segment-worker.ts). Node-wide,
 * `indexingWorkersPerCopy` gives one on two processors or fewer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexingWorkersPerCopy } from '../../../src/common/thread-pools.js';
import type { InternalEngine } from '../../../src/engine/index.js';
import { threadsAtWorkerNice } from '../../helpers/thread-nice.js';
import { DocumentFactory, indexOp, open, tempDir } from './engine-helpers.js';

function visibleIds(engine: InternalEngine): string[] {
  const searcher = engine.acquireSearcher();
  try {
    const out: string[] = [];
    for (const view of searcher.segments) {
      for (let doc = 0; doc < view.maxDoc; doc++) {
        if (view.liveDocs !== null && !view.liveDocs.isLive(doc)) continue;
        out.push(String(view.readers.stored.document(doc, new Set(['_id']))[0]!.value));
      }
    }
    return out.sort((a, b) => Number(a) - Number(b));
  } finally {
    searcher.release();
  }
}

test('one indexing worker per copy on two processors or fewer, two from three on', () => {
  assert.equal(indexingWorkersPerCopy(1), 1);
  assert.equal(indexingWorkersPerCopy(2), 1);
  assert.equal(indexingWorkersPerCopy(3), 2);
  assert.equal(indexingWorkersPerCopy(64), 2);
});

test('a copy with one indexing worker inverts and writes every buffer in that one thread, with writes while documents keep coming', { skip: process.platform !== 'linux' ? 'thread priorities are read from /proc on Linux only' : false }, async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'worker', analysisSettings: {}, indexingWorkers: 1 });
  try {
    const atStart = threadsAtWorkerNice();
    const expected: string[] = [];
    let next = 0;
    // Documents keep arriving while refreshes write the buffers: what a write holds back is inverted after it.
    for (let round = 0; round < 4; round++) {
      const writes: Array<Promise<unknown>> = [];
      for (let i = 0; i < 300; i++) {
        const id = String(next++);
        expected.push(id);
        writes.push(engine.index(indexOp(factory, id, { text: `document ${id} of round ${round}`, n: next })));
        if (i === 150) writes.push(engine.refresh('test'));
      }
      await Promise.all(writes);
      // Two buffers written so far (with two workers, one in each); no merge has started a thread of its own yet.
      if (round === 1) assert.equal(threadsAtWorkerNice(), atStart + 1, 'every buffer went to one indexing worker');
    }
    // An update and a delete of documents that sit in earlier buffers, written by the same worker.
    await engine.index(indexOp(factory, '5', { text: 'updated' }));
    await engine.delete({ id: '7', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
    await engine.refresh('test');
    assert.deepEqual(visibleIds(engine), expected.filter((id) => id !== '7'));
  } finally {
    await engine.close();
    dir.remove();
  }
});
