/**
 * A promoted replica fills the seqNos it never received with no-ops under its new term (ES's fillSeqNoGaps), so
 * its local checkpoint can pass the hole its old primary left (decision 0013).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentFactory, open, tempDir } from './engine-helpers.js';

test('fillSeqNoGaps turns every missing seqNo up to the highest seen into a durable no-op under the given term', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory);
  try {
    const replicated = [0, 2, 5].map((seqNo) => ({ type: 'index' as const, id: `d${seqNo}`, document: factory.parse({ n: seqNo }, `d${seqNo}`), seqNo, primaryTerm: 1, version: 1 }));
    await engine.applyReplicated(replicated, 'replica');
    // As a promotion does: the translog moves to the new term first.
    await engine.bumpPrimaryTerm(2);
    assert.equal(engine.maxSeqNo, 5);
    assert.equal(engine.processedLocalCheckpoint, 0, 'held back by the holes at 1, 3 and 4');
    assert.equal(await engine.fillSeqNoGaps(2), 3);
    assert.equal(engine.processedLocalCheckpoint, 5);
    assert.equal(engine.persistedLocalCheckpoint, 5);
    const history: Array<[number, string, number]> = [];
    const snapshot = engine.historySnapshot(0);
    for await (const operation of snapshot) history.push([operation.seqNo, operation.type, operation.primaryTerm]);
    await snapshot.close();
    assert.deepEqual(history.filter(([, type]) => type === 'noop').sort((a, b) => a[0] - b[0]), [[1, 'noop', 2], [3, 'noop', 2], [4, 'noop', 2]]);
    assert.equal(await engine.fillSeqNoGaps(2), 0, 'nothing left to fill');
    // The next operation a primary sequences goes above them.
    assert.equal((await engine.index({ id: 'next', document: factory.parse({ n: 6 }, 'next'), opType: 'index', versionType: 'internal', origin: 'primary', primaryTerm: 2 })).seqNo, 6);
  } finally {
    await engine.close();
    dir.remove();
  }
});
