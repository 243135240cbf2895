/**
 * Installing a buffer deletes the older segments' documents of the ids it changed; it looks up only the ids whose
 * write found something (in the version map or a segment). An id found nowhere cannot be in a segment by then: a
 * bulk of new documents used to probe every segment's id filter once more per document at each refresh.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InternalEngine } from '../../../src/engine/index.js';
import { indexOp, open, withEngine } from './engine-helpers.js';

/** Writes apply inline (no indexing worker), so each step's effect is there when it returns. */
const withInlineEngine = (run: Parameters<typeof withEngine>[0]): Promise<void> => withEngine(run, { backgroundWork: 'inline' });

/** Counts the segment lookups of ids while `work` runs. */
async function countLookups(engine: InternalEngine, work: () => Promise<void>): Promise<string[]> {
  // White box: the engine's segments are private; the count is what this test is about.
  const segments = (engine as unknown as { segments: { lookupId(id: string): unknown } }).segments;
  const original = segments.lookupId;
  const looked: string[] = [];
  segments.lookupId = function (this: unknown, id: string) {
    looked.push(id);
    return original.call(this, id);
  };
  try {
    await work();
  } finally {
    segments.lookupId = original;
  }
  return looked;
}

function liveDocs(engine: InternalEngine): number {
  const searcher = engine.acquireSearcher();
  try {
    return searcher.numDocs;
  } finally {
    searcher.release();
  }
}

test('a refresh looks up in the segments only the ids whose write found a document', async () => {
  await withInlineEngine(async (engine, factory) => {
    for (let i = 0; i < 50; i++) await engine.index(indexOp(factory, `old-${i}`, { n: i }));
    await engine.refresh('test');
    for (let i = 0; i < 50; i++) await engine.index(indexOp(factory, `new-${i}`, { n: i }));
    for (let i = 0; i < 10; i++) await engine.index(indexOp(factory, `old-${i}`, { n: -i }));
    // The same new id twice in one buffer: the second write finds the first in the version map, which knew no segment has it.
    await engine.index(indexOp(factory, 'new-0', { n: 1000 }));
    const looked = await countLookups(engine, () => engine.refresh('test'));
    assert.deepEqual(looked.sort(), Array.from({ length: 10 }, (_, i) => `old-${i}`).sort());
    assert.equal(liveDocs(engine), 100);
    assert.deepEqual(engine.stats().docs, { count: 100, deleted: 11 });
  });
});

test('an id written again while its buffer is being written is deleted from that buffer\'s segment', async () => {
  await withInlineEngine(async (engine, factory) => {
    await engine.index(indexOp(factory, 'x', { v: 1 }));
    await engine.index(indexOp(factory, 'y', { v: 1 }));
    // White box: the buffer's write waits for the gate, so the writes below surely come while it is being written.
    const jobs = (engine as unknown as { jobs: { writeBuffer(...args: unknown[]): Promise<unknown> } }).jobs;
    const writeBuffer = jobs.writeBuffer;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let writing!: () => void;
    const started = new Promise<void>((resolve) => (writing = resolve));
    jobs.writeBuffer = async function (this: unknown, ...args: unknown[]) {
      writing();
      await gate;
      return writeBuffer.apply(this, args);
    };
    const refreshing = engine.refresh('test');
    await started;
    jobs.writeBuffer = writeBuffer;
    // x is in the buffer being written (the version map's old generation): its segment is not in place yet.
    await engine.index(indexOp(factory, 'x', { v: 2 }));
    await engine.index(indexOp(factory, 'x', { v: 3 }));
    open();
    await refreshing;
    await engine.refresh('test');
    assert.equal(liveDocs(engine), 2);
    assert.equal((await engine.get('x', { realtime: false })).version, 3);
  });
});

test('a delete and a re-index of an id in one buffer still delete its document in an older segment', async () => {
  await withInlineEngine(async (engine, factory) => {
    await engine.index(indexOp(factory, 'x', { v: 1 }));
    await engine.refresh('test');
    await engine.delete({ id: 'x', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
    await engine.index(indexOp(factory, 'x', { v: 2 }));
    await engine.index(indexOp(factory, 'x', { v: 3 }));
    await engine.refresh('test');
    assert.equal(liveDocs(engine), 1);
    assert.equal((await engine.get('x', { realtime: false })).version, 4);
  });
});

test('replicated operations: an id new to the copy is not looked up again, an existing one is replaced', async () => {
  await withInlineEngine(async (engine, factory) => {
    const op = (id: string, seqNo: number, version: number) => ({ type: 'index' as const, id, document: factory.parse({ id, seqNo }, id), seqNo, primaryTerm: 1, version });
    await engine.applyReplicated([op('a', 0, 1), op('b', 1, 1)], 'replica');
    await engine.refresh('test');
    await engine.applyReplicated([op('c', 2, 1), op('a', 3, 2)], 'replica');
    const looked = await countLookups(engine, () => engine.refresh('test'));
    assert.deepEqual(looked, ['a']);
    assert.equal(liveDocs(engine), 3);
    assert.equal((await engine.get('a', { realtime: false })).seqNo, 3);
  });
});
