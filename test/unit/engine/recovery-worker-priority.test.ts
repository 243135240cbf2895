/**
 * A peer recovery's copy keeps its indexing workers at the process's priority until its finalize (decision 0029):
 * every recovered document waits on them before the copy can be in sync. Any other engine's indexing workers step
 * back to background priority (nice +10, decision 0019) as soon as they start.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InternalEngine } from '../../../src/engine/index.js';
import { threadsAtWorkerNice } from '../../helpers/thread-nice.js';
import { DocumentFactory, indexOp, open, tempDir } from './engine-helpers.js';

/** One document and a refresh: its buffer's worker (they take turns) has handled every message sent before. */
let nextId = 0;
async function indexAndRefresh(engine: InternalEngine, factory: DocumentFactory): Promise<void> {
  const id = String(nextId++);
  await engine.index(indexOp(factory, id, { text: `document ${id}` }));
  await engine.refresh('test');
}

test('a recovery_target engine keeps its indexing workers at the process priority until recoveryFinalized; a store engine lowers them at once', { skip: process.platform !== 'linux' ? 'thread priorities are read from /proc on Linux only' : false }, async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const workers = { backgroundWork: 'worker' as const, analysisSettings: {} };
  try {
    const atStart = threadsAtWorkerNice();
    const store = await open(dir.path, factory, workers);
    // Two buffers: each of the two indexing workers started and initialized.
    await indexAndRefresh(store, factory);
    await indexAndRefresh(store, factory);
    assert.equal(threadsAtWorkerNice(), atStart + 2, 'a store engine runs its indexing workers at background priority');
    await store.close();

    const target = await open(dir.path, factory, { ...workers, openMode: 'recovery_target' });
    await indexAndRefresh(target, factory);
    await indexAndRefresh(target, factory);
    assert.equal(threadsAtWorkerNice(), atStart, 'a recovering copy runs its indexing workers at the process priority');
    target.recoveryFinalized();
    // A round trip through each worker: the notice before it was handled.
    await indexAndRefresh(target, factory);
    await indexAndRefresh(target, factory);
    assert.equal(threadsAtWorkerNice(), atStart + 2, 'once finalized, they step back');
    await target.close();
  } finally {
    dir.remove();
  }
});
