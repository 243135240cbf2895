/**
 * Versioning on the primary, against Elasticsearch's rules and exact conflict reasons
 * (VersionType.explainConflictForWrites, VersionConflictEngineException), before and after refresh.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../src/common/errors.js';
import type { DeleteOperation, InternalEngine } from '../../../src/engine/index.js';
import { DocumentFactory, indexOp, open, SHARD, sourceOf, tempDir, withEngine } from './engine-helpers.js';

/** Writes apply inline (no indexing worker), so each step's effect is there when it returns. */
const withInlineEngine = (run: Parameters<typeof withEngine>[0]): Promise<void> => withEngine(run, { backgroundWork: 'inline' });

function del(id: string, extra: Partial<DeleteOperation> = {}): DeleteOperation {
  return { id, versionType: 'internal', origin: 'primary', primaryTerm: 1, ...extra };
}

async function conflict(promise: Promise<unknown>, reason: string): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof EsError);
    assert.equal(err.type, 'version_conflict_engine_exception');
    assert.equal(err.status, 409);
    assert.equal(err.reason, reason);
    assert.deepEqual(err.metadata, { index_uuid: SHARD.indexUuid, shard: String(SHARD.shard), index: SHARD.index });
    assert.deepEqual(Object.keys(err.metadata), ['index_uuid', 'shard', 'index']);
    return true;
  });
}

/** Runs each scenario twice: with the document only in the buffer, and after it reached a segment. */
for (const refreshed of [false, true]) {
  const when = refreshed ? 'after refresh' : 'before refresh';
  const settle = async (engine: InternalEngine): Promise<void> => {
    if (refreshed) await engine.refresh('test');
  };

  test(`internal versions count up and create conflicts with ES's reason (${when})`, async () => {
    await withInlineEngine(async (engine, factory) => {
      assert.deepEqual(await engine.index(indexOp(factory, '1', { a: 1 })), { result: 'created', version: 1, seqNo: 0, primaryTerm: 1 });
      await settle(engine);
      assert.deepEqual(await engine.index(indexOp(factory, '1', { a: 2 })), { result: 'updated', version: 2, seqNo: 1, primaryTerm: 1 });
      await settle(engine);
      await conflict(engine.index(indexOp(factory, '1', { a: 3 }, { opType: 'create' })), '[1]: version conflict, document already exists (current version [2])');
      // A conflict takes no seqNo: the next operation gets 2.
      assert.deepEqual(await engine.index(indexOp(factory, '2', { a: 1 }, { opType: 'create' })), { result: 'created', version: 1, seqNo: 2, primaryTerm: 1 });
      const got = await engine.get('1');
      assert.deepEqual({ ...got, source: sourceOf(got.source) }, { found: true, version: 2, seqNo: 1, primaryTerm: 1, source: { a: 2 }, routing: undefined, ignored: [] });
    });
  });

  test(`if_seq_no / if_primary_term: match, mismatch, missing and deleted documents (${when})`, async () => {
    await withInlineEngine(async (engine, factory) => {
      await engine.index(indexOp(factory, '1', { a: 1 }));
      await settle(engine);
      await conflict(
        engine.index(indexOp(factory, '1', { a: 2 }, { ifSeqNo: 5, ifPrimaryTerm: 1 })),
        '[1]: version conflict, required seqNo [5], primary term [1]. current document has seqNo [0] and primary term [1]',
      );
      await conflict(
        engine.index(indexOp(factory, '1', { a: 2 }, { ifSeqNo: 0, ifPrimaryTerm: 2 })),
        '[1]: version conflict, required seqNo [0], primary term [2]. current document has seqNo [0] and primary term [1]',
      );
      assert.deepEqual(await engine.index(indexOp(factory, '1', { a: 2 }, { ifSeqNo: 0, ifPrimaryTerm: 1 })), { result: 'updated', version: 2, seqNo: 1, primaryTerm: 1 });
      await conflict(
        engine.index(indexOp(factory, 'missing', { a: 1 }, { ifSeqNo: 0, ifPrimaryTerm: 1 })),
        '[missing]: version conflict, required seqNo [0], primary term [1]. but no document was found',
      );
      await conflict(engine.delete(del('missing', { ifSeqNo: 3, ifPrimaryTerm: 1 })), '[missing]: version conflict, required seqNo [3], primary term [1]. but no document was found');
      await conflict(
        engine.delete(del('1', { ifSeqNo: 0, ifPrimaryTerm: 1 })),
        '[1]: version conflict, required seqNo [0], primary term [1]. current document has seqNo [1] and primary term [1]',
      );
      assert.deepEqual(await engine.delete(del('1', { ifSeqNo: 1, ifPrimaryTerm: 1 })), { result: 'deleted', version: 3, seqNo: 2, primaryTerm: 1 });
      await settle(engine);
      await conflict(
        engine.index(indexOp(factory, '1', { a: 3 }, { ifSeqNo: 2, ifPrimaryTerm: 1 })),
        '[1]: version conflict, required seqNo [2], primary term [1]. but no document was found',
      );
    });
  });

  test(`external and external_gte versions (${when})`, async () => {
    await withInlineEngine(async (engine, factory) => {
      // No document: any external version is accepted as is.
      assert.deepEqual(await engine.index(indexOp(factory, 'e', { a: 1 }, { versionType: 'external', version: 10 })), { result: 'created', version: 10, seqNo: 0, primaryTerm: 1 });
      await settle(engine);
      await conflict(
        engine.index(indexOp(factory, 'e', { a: 2 }, { versionType: 'external', version: 10 })),
        '[e]: version conflict, current version [10] is higher or equal to the one provided [10]',
      );
      await conflict(
        engine.index(indexOp(factory, 'e', { a: 2 }, { versionType: 'external', version: 3 })),
        '[e]: version conflict, current version [10] is higher or equal to the one provided [3]',
      );
      assert.equal((await engine.index(indexOp(factory, 'e', { a: 2 }, { versionType: 'external_gte', version: 10 }))).version, 10);
      await conflict(
        engine.index(indexOp(factory, 'e', { a: 3 }, { versionType: 'external_gte', version: 9 })),
        '[e]: version conflict, current version [10] is higher than the one provided [9]',
      );
      assert.deepEqual(await engine.index(indexOp(factory, 'e', { a: 3 }, { versionType: 'external', version: 11 })), { result: 'updated', version: 11, seqNo: 2, primaryTerm: 1 });
      await settle(engine);
      await conflict(engine.delete(del('e', { versionType: 'external', version: 11 })), '[e]: version conflict, current version [11] is higher or equal to the one provided [11]');
      assert.deepEqual(await engine.delete(del('e', { versionType: 'external', version: 12 })), { result: 'deleted', version: 12, seqNo: 3, primaryTerm: 1 });
      // The tombstone keeps the version: a lower external version still conflicts after the delete.
      await settle(engine);
      await conflict(
        engine.index(indexOp(factory, 'e', { a: 4 }, { versionType: 'external', version: 12 })),
        '[e]: version conflict, current version [12] is higher or equal to the one provided [12]',
      );
      assert.equal((await engine.index(indexOp(factory, 'e', { a: 4 }, { versionType: 'external', version: 13 }))).result, 'created');
    });
  });

  test(`deletes: not_found still takes a seqNo; the version sequence continues after a delete (${when})`, async () => {
    await withInlineEngine(async (engine, factory) => {
      assert.deepEqual(await engine.delete(del('ghost')), { result: 'not_found', version: 1, seqNo: 0, primaryTerm: 1 });
      await settle(engine);
      // ES: the tombstone of the missed delete (version 1) makes the next index version 2.
      assert.deepEqual(await engine.index(indexOp(factory, 'ghost', { a: 1 })), { result: 'created', version: 2, seqNo: 1, primaryTerm: 1 });
      await settle(engine);
      assert.deepEqual(await engine.delete(del('ghost')), { result: 'deleted', version: 3, seqNo: 2, primaryTerm: 1 });
      await settle(engine);
      assert.deepEqual(await engine.get('ghost'), { found: false });
      assert.deepEqual(await engine.delete(del('ghost')), { result: 'not_found', version: 4, seqNo: 3, primaryTerm: 1 });
      assert.deepEqual(await engine.index(indexOp(factory, 'ghost', { a: 2 }, { opType: 'create' })), { result: 'created', version: 5, seqNo: 4, primaryTerm: 1 });
      const stats = engine.stats();
      assert.equal(stats.seqNo.maxSeqNo, 4);
      assert.equal(stats.seqNo.localCheckpoint, 4);
    });
  });
}

test('tombstones expire after gc_deletes: versions then restart at 1, as in ES', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline', gcDeletesMillis: 0 });
  try {
    await engine.index(indexOp(factory, 'x', { a: 1 }));
    await engine.delete(del('x'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await engine.refresh('test');
    assert.deepEqual(await engine.index(indexOp(factory, 'x', { a: 2 })), { result: 'created', version: 1, seqNo: 2, primaryTerm: 1 });
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('operations on one id apply in call order even when issued concurrently', async () => {
  await withInlineEngine(async (engine, factory) => {
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 7 === 3) calls.push(engine.delete(del('hot')));
      else calls.push(engine.index(indexOp(factory, 'hot', { i })));
      if (i === 150) calls.push(engine.refresh('test'));
    }
    const results = (await Promise.all(calls)).filter((r): r is { seqNo: number; version: number } => typeof r === 'object' && r !== null);
    const seqNos = results.map((r) => r.seqNo);
    assert.deepEqual(seqNos, [...seqNos].sort((a, b) => a - b), 'seqNos follow call order');
    assert.deepEqual(
      results.map((r) => r.version),
      results.map((_, i) => i + 1),
      'internal versions count every change of the id in call order',
    );
    const last = await engine.get('hot');
    assert.equal(last.found, true);
    assert.deepEqual(sourceOf(last.source), { i: 299 });
    assert.equal(last.version, 300);
  });
});

test('indexBatch applies in order like consecutive index() calls, with errors at their positions', async () => {
  await withInlineEngine(async (engine, factory) => {
    const first = await engine.index(indexOp(factory, 'a', { n: 0 }));
    const results = await engine.indexBatch([
      indexOp(factory, 'a', { n: 1 }),
      indexOp(factory, 'a', { n: 2 }, { opType: 'create' }),
      indexOp(factory, 'b', { n: 3 }),
      indexOp(factory, 'a', { n: 4 }, { ifSeqNo: first.seqNo, ifPrimaryTerm: 1 }),
      indexOp(factory, 'a', { n: 5 }),
    ]);
    assert.ok(!(results[0] instanceof EsError) && results[0]!.version === 2 && results[0]!.result === 'updated');
    assert.ok(results[1] instanceof EsError && results[1].type === 'version_conflict_engine_exception');
    assert.ok(!(results[2] instanceof EsError) && results[2]!.result === 'created');
    assert.ok(results[3] instanceof EsError && results[3].type === 'version_conflict_engine_exception');
    assert.ok(!(results[4] instanceof EsError) && results[4]!.version === 3);
    const seqNos = [results[0], results[2], results[4]].map((result) => (result as { seqNo: number }).seqNo);
    assert.deepEqual(seqNos, [first.seqNo + 1, first.seqNo + 2, first.seqNo + 3]);
    assert.deepEqual(sourceOf((await engine.get('a')).source), { n: 5 });
    assert.equal(engine.stats().seqNo.localCheckpoint, first.seqNo + 3);
  });
});

test('indexBatch with defer applies without waiting; a later (even empty) wait batch makes it durable', async () => {
  await withInlineEngine(async (engine, factory) => {
    const deferred = await engine.indexBatch([indexOp(factory, 'd1', { n: 1 }), indexOp(factory, 'd2', { n: 2 })], 'defer');
    assert.deepEqual(deferred.map((result) => (result as { seqNo: number }).seqNo), [0, 1]);
    assert.equal((await engine.get('d2')).found, true);
    assert.deepEqual(await engine.indexBatch([], 'wait'), []);
    assert.equal(engine.stats().seqNo.localCheckpoint, 1);
  });
});

test('auto-generated ids skip the lookup; a retry makes the id be checked (and versions start over at 1)', async () => {
  await withInlineEngine(async (engine, factory) => {
    const now = Date.now();
    assert.deepEqual(await engine.index(indexOp(factory, 'auto-1', { a: 1 }, { autoGeneratedIdTimestamp: now })), {
      result: 'created',
      version: 1,
      seqNo: 0,
      primaryTerm: 1,
    });
    await engine.refresh('test');
    const retried = await engine.index(indexOp(factory, 'auto-1', { a: 2 }, { autoGeneratedIdTimestamp: now, isRetry: true }));
    // ES's processNormally(currentNotFoundOrDeleted, 1): the retry found its first copy, so it is an update at version 1.
    assert.deepEqual(retried, { result: 'updated', version: 1, seqNo: 1, primaryTerm: 1 });
    await engine.refresh('test');
    const searcher = engine.acquireSearcher();
    try {
      assert.equal(searcher.numDocs, 1, 'the retry replaced the first copy instead of duplicating it');
    } finally {
      searcher.release();
    }
    assert.deepEqual(sourceOf((await engine.get('auto-1')).source), { a: 2 });
  });
});
