/**
 * How far a copy's indexing worker is behind the documents sent to it (decision 0032): the engine's writes wait while
 * the oldest batch not yet inverted has waited longer than a bound. The worker answers every batch it applied, in
 * order; the jobs count the batches not yet answered and when each was sent. A real worker thread inverts here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalysisRegistry } from '../../../src/analysis/index.js';
import { CachedAnalyzers } from '../../../src/engine/indexing/indexing-buffer.js';
import { createSegmentJobs } from '../../../src/engine/segments/segment-jobs.js';
import { DocumentFactory, tempDir } from './engine-helpers.js';

function workerJobs(path: string) {
  return createSegmentJobs({
    mode: 'worker',
    indexPath: path,
    compression: 'lz4',
    analyzers: new CachedAnalyzers(AnalysisRegistry.global()),
    analysis: { settings: {}, indexName: 'lag' },
    indexingWorkers: 1,
  });
}

test('the inversion lag is the age of the oldest batch the indexing worker has not applied yet, and 0 once it applied them all', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const jobs = workerJobs(dir.path);
  try {
    assert.equal(jobs.inversionLagMillis(performance.now()), 0, 'nothing sent yet');
    const buffer = jobs.newBuffer() as ReturnType<typeof jobs.newBuffer> & { send(): void };
    for (let i = 0; i < 50; i++) buffer.addDocument(String(i), factory.parse({ text: `document number ${i}` }, String(i)));
    buffer.send();
    const sentBy = performance.now();
    // The worker's answer cannot have been read yet (this thread has not yielded): the batch waits, since it was sent.
    assert.ok(jobs.inversionLagMillis(sentBy + 1_000) >= 1_000);
    // Once the worker answered the batch nothing waits: the lag is 0 however late it is asked.
    await jobs.whenInversionLagBelow(0);
    assert.equal(jobs.inversionLagMillis(performance.now() + 60_000), 0, 'every batch applied');
    // A bound already met ends a wait at once.
    await jobs.whenInversionLagBelow(1);
    // A write of the buffer still works after (the lag bookkeeping does not touch the buffers).
    const written = await jobs.writeBuffer('_0', buffer);
    assert.equal(written.written.info.maxDoc, 50);
  } finally {
    await jobs.close();
    dir.remove();
  }
});

test('a wait for the indexing worker ends when the jobs close with batches still unapplied', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const jobs = workerJobs(dir.path);
  try {
    const buffer = jobs.newBuffer() as ReturnType<typeof jobs.newBuffer> & { send(): void };
    buffer.addDocument('1', factory.parse({ text: 'one' }, '1'));
    buffer.send();
    // The worker cannot have answered yet (this thread has not yielded): the wait is under way when the jobs close.
    assert.ok(jobs.inversionLagMillis(performance.now() + 1_000) > 0);
    const waiting = jobs.whenInversionLagBelow(0);
    await jobs.close();
    await waiting;
    assert.equal(jobs.inversionLagMillis(performance.now()), 0);
  } finally {
    dir.remove();
  }
});
