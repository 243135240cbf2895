/**
 * Visibility and durability: real-time vs searcher gets, refresh and waitForRefresh, buffer-full segments
 * that stay invisible until a refresh, flush + reopen, translog replay after a close without flush,
 * deletes and updates across segments, searchers that keep merged-away files, stats.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { InternalEngine, Searcher } from '../../../src/engine/index.js';
import { DocumentFactory, indexOp, open, sourceOf, tempDir } from './engine-helpers.js';

function ids(searcher: Searcher): string[] {
  const out: string[] = [];
  for (const view of searcher.segments) {
    for (let doc = 0; doc < view.maxDoc; doc++) {
      if (view.liveDocs !== null && !view.liveDocs.isLive(doc)) continue;
      out.push(String(view.readers.stored.document(doc, new Set(['_id']))[0]!.value));
    }
  }
  return out.sort();
}

function visibleIds(engine: InternalEngine): string[] {
  const searcher = engine.acquireSearcher();
  try {
    return ids(searcher);
  } finally {
    searcher.release();
  }
}

for (const work of ['inline', 'worker', 'indexing workers', 'one indexing worker'] as const) {
  test(`real-time get sees every acknowledged write; searchers only refreshed ones (${work})`, async () => {
    const dir = tempDir();
    const factory = new DocumentFactory();
    const engine = await open(
      dir.path,
      factory,
      work === 'indexing workers'
        ? { backgroundWork: 'worker', analysisSettings: {} }
        : work === 'one indexing worker'
          ? { backgroundWork: 'worker', analysisSettings: {}, indexingWorkers: 1 }
          : { backgroundWork: work },
    );
    try {
      await engine.index(indexOp(factory, 'a', { v: 1 }));
      assert.equal((await engine.get('a')).found, true);
      assert.deepEqual(await engine.get('a', { realtime: false }), { found: false });
      assert.deepEqual(visibleIds(engine), []);
      const held = engine.acquireSearcher();
      const generation = held.generation;
      await engine.refresh('test');
      assert.deepEqual(visibleIds(engine), ['a']);
      assert.deepEqual(ids(held), [], 'an acquired searcher keeps its point in time');
      held.release();
      const fresh = engine.acquireSearcher();
      assert.ok(fresh.generation > generation);
      fresh.release();
      assert.deepEqual(sourceOf((await engine.get('a', { realtime: false })).source), { v: 1 });
      await engine.index(indexOp(factory, 'a', { v: 2 }));
      assert.deepEqual(sourceOf((await engine.get('a')).source), { v: 2 });
      assert.deepEqual(sourceOf((await engine.get('a', { realtime: false })).source), { v: 1 });
      await engine.delete({ id: 'a', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
      assert.deepEqual(await engine.get('a'), { found: false });
      assert.equal((await engine.get('a', { realtime: false })).found, true);
      await engine.refresh('test');
      assert.deepEqual(await engine.get('a', { realtime: false }), { found: false });
      assert.deepEqual(visibleIds(engine), []);
    } finally {
      await engine.close();
      dir.remove();
    }
  });
}

test('waitForRefresh resolves on the refresh that makes the seqNo visible', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    const { seqNo } = await engine.index(indexOp(factory, 'a', { v: 1 }));
    let resolved = false;
    const waiting = engine.waitForRefresh(seqNo).then(() => (resolved = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(resolved, false);
    assert.equal(engine.stats().refresh.listeners, 1);
    await engine.refresh('test');
    await waiting;
    assert.equal(resolved, true);
    await engine.waitForRefresh(seqNo); // already visible: resolves at once
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('the scheduled refresh (index.refresh_interval) publishes on its own', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline', refreshIntervalMillis: 30 });
  try {
    const { seqNo } = await engine.index(indexOp(factory, 'a', { v: 1 }));
    await engine.waitForRefresh(seqNo);
    assert.deepEqual(visibleIds(engine), ['a']);
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('a full indexing buffer becomes a segment that search sees only after refresh', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline', indexingBufferBytes: 64 * 1024 });
  try {
    for (let i = 0; i < 400; i++) await engine.index(indexOp(factory, `d${i}`, { body: `document number ${i} with some words to fill the buffer` }));
    // The full buffer is written in the background: wait for its segment (polling, for a loaded machine).
    for (let i = 0; i < 500 && engine.stats().segments.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await engine.waitForMerges();
    const stats = engine.stats();
    assert.ok(stats.segments.length >= 1, 'segments were written without a refresh');
    assert.ok(stats.segments.every((segment) => !segment.searchable));
    assert.deepEqual(visibleIds(engine), []);
    assert.equal((await engine.get('d3')).found, true);
    await engine.refresh('test');
    assert.equal(visibleIds(engine).length, 400);
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('flush + reopen keeps documents, versions, seqNos and deletes; the translog is trimmed', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  let engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  await engine.index(indexOp(factory, 'a', { v: 1 }));
  await engine.index(indexOp(factory, 'b', { v: 1 }));
  await engine.refresh('test');
  await engine.index(indexOp(factory, 'a', { v: 2 }));
  await engine.delete({ id: 'b', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
  await engine.index(indexOp(factory, 'c', { v: 1 }));
  // The global checkpoint comes from the shard's replication tracker; the translog persists it across a reopen.
  engine.updateGlobalCheckpoint(4);
  await engine.flush();
  const beforeTranslog = engine.stats().translog;
  assert.equal(beforeTranslog.uncommittedOperations, 0);
  await engine.close();

  engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    const a = await engine.get('a');
    assert.deepEqual({ ...a, source: sourceOf(a.source) }, { found: true, version: 2, seqNo: 2, primaryTerm: 1, source: { v: 2 }, routing: undefined, ignored: [] });
    assert.deepEqual(await engine.get('b'), { found: false });
    assert.deepEqual(visibleIds(engine), ['a', 'c']);
    const stats = engine.stats();
    assert.deepEqual(stats.seqNo, { maxSeqNo: 4, localCheckpoint: 4, globalCheckpoint: 4 });
    assert.ok(stats.segments.every((segment) => segment.committed));
    assert.deepEqual(await engine.index(indexOp(factory, 'a', { v: 3 })), { result: 'updated', version: 3, seqNo: 5, primaryTerm: 1 });
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('closing without a flush and reopening replays the translog (nothing acknowledged is lost)', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  let engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  for (let i = 0; i < 50; i++) await engine.index(indexOp(factory, `d${i % 20}`, { i }));
  await engine.delete({ id: 'd3', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
  // Simulate a crash: drop the engine without its close-time flush (the translog is fsynced per request).
  const expected = new Map<string, unknown>();
  for (let i = 0; i < 20; i++) {
    const got = await engine.get(`d${i}`);
    expected.set(`d${i}`, got.found ? { version: got.version, seqNo: got.seqNo, source: sourceOf(got.source) } : null);
  }
  await engine.close({ flush: false });
  engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    for (const [id, want] of expected) {
      const got = await engine.get(id);
      assert.deepEqual(got.found ? { version: got.version, seqNo: got.seqNo, source: sourceOf(got.source) } : null, want, id);
    }
    assert.equal(engine.stats().seqNo.localCheckpoint, 50);
    assert.deepEqual(visibleIds(engine).length, 19, 'recovery ends with a refresh');
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('updates and deletes reach documents in older segments; merges drop them; held searchers keep files', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'worker', analysisSettings: {} });
  try {
    for (let segment = 0; segment < 4; segment++) {
      for (let i = 0; i < 10; i++) await engine.index(indexOp(factory, `s${segment}-${i}`, { segment, i }));
      await engine.refresh('test');
    }
    await engine.index(indexOp(factory, 's0-1', { updated: true }));
    await engine.delete({ id: 's1-2', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
    await engine.delete({ id: 's3-9', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
    await engine.refresh('test');
    const visible = visibleIds(engine);
    assert.equal(visible.length, 38);
    assert.ok(!visible.includes('s1-2') && !visible.includes('s3-9'));
    assert.deepEqual(sourceOf((await engine.get('s0-1', { realtime: false })).source), { updated: true });

    const held = engine.acquireSearcher();
    const heldFiles = held.segments.map((view) => view.readers.info.files.map((file) => file.name)).flat();
    await engine.forceMerge({ maxNumSegments: 1 });
    await engine.refresh('test');
    const stats = engine.stats();
    assert.equal(stats.segments.length, 1);
    assert.equal(stats.segments[0]!.deletedDocs, 0);
    assert.equal(stats.docs.count, 38);
    assert.deepEqual(visibleIds(engine), visible);
    const indexDir = join(dir.path, 'index');
    assert.ok(heldFiles.every((file) => existsSync(join(indexDir, file))), 'files of a held searcher survive the merge');
    assert.equal(ids(held).length, 38);
    held.release();
    // Polled until a deadline, not for a number of rounds: the rounds' total (2 s) was within reach of a loaded host.
    for (const deadline = Date.now() + 20_000; heldFiles.some((file) => existsSync(join(indexDir, file))) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(heldFiles.every((file) => !existsSync(join(indexDir, file))), 'released: merged-away files are deleted');
    const files = readdirSync(indexDir);
    assert.deepEqual(files.filter((file) => file.startsWith('segments_')).length, 1);
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('stats report docs, store, indexing, refresh, flush, merges, translog and seqNo figures', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    for (let i = 0; i < 5; i++) await engine.index(indexOp(factory, `d${i}`, { i }));
    await engine.delete({ id: 'd0', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
    await assert.rejects(engine.index(indexOp(factory, 'd1', { i: 1 }, { opType: 'create' })));
    await engine.refresh('test');
    const stats = engine.stats();
    // d0 was indexed and deleted in the same buffer: its doc id exists, deleted (as in a Lucene flush).
    assert.deepEqual(stats.docs, { count: 4, deleted: 1 });
    assert.equal(stats.indexing.indexTotal, 5);
    assert.equal(stats.indexing.indexFailed, 1);
    assert.equal(stats.indexing.deleteTotal, 1);
    assert.equal(stats.indexing.indexCurrent, 0);
    assert.equal(stats.refresh.total, 1);
    assert.equal(stats.translog.operations, 6);
    assert.equal(stats.translog.uncommittedOperations, 6);
    assert.ok(stats.store.sizeInBytes > 0);
    // An engine knows only the global checkpoint its shard told it (none yet here).
    assert.deepEqual(stats.seqNo, { maxSeqNo: 5, localCheckpoint: 5, globalCheckpoint: -2 });
    engine.updateGlobalCheckpoint(5);
    assert.equal(engine.stats().seqNo.globalCheckpoint, 5);
    await engine.flush();
    assert.equal(engine.stats().flush.total, 1);
    assert.equal(engine.stats().translog.uncommittedOperations, 0);
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('a closed engine answers already_closed_exception', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  await engine.close();
  await assert.rejects(engine.index(indexOp(factory, 'a', {})), { type: 'already_closed_exception', message: '[test][0] engine is closed' });
  await assert.rejects(engine.get('a'), { type: 'already_closed_exception' });
  assert.throws(() => engine.acquireSearcher(), { type: 'already_closed_exception' });
  dir.remove();
});

test('a refresh past the translog flush threshold triggers a periodic flush', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline', flushThresholdBytes: 2000 });
  try {
    for (let i = 0; i < 40; i++) await engine.index(indexOp(factory, `d${i}`, { body: 'x'.repeat(100) }));
    await engine.refresh('test');
    // The flush runs in the background after the refresh (a commit and its fsyncs): polled until a deadline, not for
    // 50 rounds of 10 ms, which a loaded host's fsyncs outlast.
    for (const deadline = Date.now() + 20_000; engine.stats().flush.periodic === 0 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
    const stats = engine.stats();
    assert.equal(stats.flush.periodic, 1);
    assert.equal(stats.translog.uncommittedOperations, 0);
  } finally {
    await engine.close();
    dir.remove();
  }
});
