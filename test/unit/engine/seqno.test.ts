/**
 * Sequence numbers and checkpoints: the tracker's gap handling (fast-check against a set model), and the
 * engine's invariants — seqNos dense and increasing in apply order, conflicts take none, local checkpoint
 * = max seqNo on a quiet primary, replica operations applied out of order hold the checkpoint at the gap,
 * stale replica operations do not overwrite newer documents.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LocalCheckpointTracker } from '../../../src/engine/versions/local-checkpoint-tracker.js';
import { DocumentFactory, indexOp, open, sourceOf, tempDir } from './engine-helpers.js';

test('the checkpoint is the highest seqNo below which every seqNo is marked', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 120 }), (marks) => {
      const tracker = new LocalCheckpointTracker(-1, -1);
      const marked = new Set<number>();
      for (const seqNo of marks) {
        tracker.markProcessed(seqNo);
        marked.add(seqNo);
        let expected = -1;
        while (marked.has(expected + 1)) expected++;
        assert.equal(tracker.processedCheckpoint, expected);
        assert.equal(tracker.maxSeqNo, Math.max(...marked));
      }
    }),
  );
});

test('a tracker restored from a commit continues after its checkpoint', () => {
  const tracker = new LocalCheckpointTracker(9, 9);
  assert.equal(tracker.generateSeqNo(), 10);
  tracker.markProcessed(11);
  assert.equal(tracker.processedCheckpoint, 9);
  tracker.markProcessed(10);
  assert.equal(tracker.processedCheckpoint, 11);
  assert.equal(tracker.generateSeqNo(), 12, 'seqNos marked from elsewhere advance the next one');
  assert.equal(tracker.persistedCheckpoint, 9);
});

test('primary: dense increasing seqNos, conflicts take none, checkpoint follows max seqNo', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    const seqNos: number[] = [];
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      const id = `d${i % 13}`;
      const op = i % 5 === 0 ? engine.index(indexOp(factory, id, { i }, { opType: 'create' })) : engine.index(indexOp(factory, id, { i }));
      pending.push(op.then((r) => void seqNos.push(r.seqNo)).catch(() => undefined));
    }
    await Promise.all(pending);
    assert.deepEqual(seqNos, seqNos.map((_, i) => i), 'acknowledged in seqNo order, without gaps');
    const { seqNo } = engine.stats();
    assert.equal(seqNo.maxSeqNo, seqNos.length - 1);
    assert.equal(seqNo.localCheckpoint, seqNo.maxSeqNo);
    // The engine knows only the global checkpoint its shard tells it (replication computes it from every copy).
    assert.equal(seqNo.globalCheckpoint, -2);
    engine.updateGlobalCheckpoint(seqNo.maxSeqNo);
    assert.equal(engine.stats().seqNo.globalCheckpoint, seqNo.maxSeqNo);
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('replica: out-of-order operations hold the checkpoint at a gap; stale ones change nothing', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  const replicaIndex = (id: string, seqNo: number, version: number, value: number): ReturnType<typeof engine.index> =>
    engine.index({ id, document: factory.parse({ value }, id), opType: 'index', versionType: 'external', version, origin: 'replica', seqNo, primaryTerm: 1 });
  try {
    await replicaIndex('x', 2, 3, 30);
    assert.deepEqual(engine.stats().seqNo, { maxSeqNo: 2, localCheckpoint: -1, globalCheckpoint: -2 });
    await replicaIndex('x', 0, 1, 10); // older than the document: stale
    assert.equal(engine.stats().seqNo.localCheckpoint, 0);
    assert.deepEqual(sourceOf((await engine.get('x')).source), { value: 30 });
    await engine.delete({ id: 'x', versionType: 'external', version: 2, origin: 'replica', seqNo: 1, primaryTerm: 1 }); // stale delete
    assert.equal((await engine.get('x')).found, true);
    assert.equal(engine.stats().seqNo.localCheckpoint, 2);
    await engine.refresh('test');
    await replicaIndex('x', 1, 2, 20); // a duplicate of an applied seqNo is stale too
    assert.deepEqual(sourceOf((await engine.get('x')).source), { value: 30 });
    assert.equal((await engine.get('x')).version, 3);
    // A primary taking over continues after the highest seqNo seen.
    const promoted = await engine.index(indexOp(factory, 'y', { value: 1 }));
    assert.equal(promoted.seqNo, 3);
  } finally {
    await engine.close();
    dir.remove();
  }
});
