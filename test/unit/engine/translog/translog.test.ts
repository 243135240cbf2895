/** The translog's contract with the engine: generations, snapshots, trim, reopen, stats, validation. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Translog, type TranslogOperation } from '../../../../src/engine/translog/index.js';
import { EsError } from '../../../../src/common/errors.js';
import { fastFs, indexOp, operationArbitrary, recoverAll, tempDir } from './helpers.js';

const seqNos = (ops: readonly TranslogOperation[]): number[] => ops.map((op) => op.seqNo);

/** What forEachSeqNo visits (it reads each record's seqNo only): must equal the seqNos of snapshot(fromSeqNo). */
async function visitedSeqNos(translog: Translog, fromSeqNo = 0): Promise<number[]> {
  const visited: number[] = [];
  await translog.forEachSeqNo(fromSeqNo, (seqNo) => visited.push(seqNo));
  return visited;
}

test('operations come back in file order across generations, filtered by fromSeqNo; forEachSeqNo visits the same seqNos', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    const written: TranslogOperation[] = [];
    for (let seqNo = 0; seqNo < 12; seqNo++) {
      const op =
        seqNo % 5 === 3
          ? ({ type: 'delete', id: `doc-${seqNo - 1}`, seqNo, primaryTerm: 1, version: 2 } as const)
          : seqNo % 5 === 4
            ? ({ type: 'noop', seqNo, primaryTerm: 1, reason: 'filling a gap' } as const)
            : indexOp(seqNo);
      written.push(op);
      translog.add(op);
      if (seqNo % 4 === 3) await translog.rollGeneration();
    }
    assert.equal(translog.currentGeneration, 4);
    assert.deepStrictEqual(await translog.snapshot().toArray(), written);
    assert.deepStrictEqual(seqNos(await translog.snapshot(7).toArray()), [7, 8, 9, 10, 11]);
    assert.deepStrictEqual(await translog.snapshot(100).toArray(), []);
    assert.deepStrictEqual(await visitedSeqNos(translog), seqNos(written));
    assert.deepStrictEqual(await visitedSeqNos(translog, 7), [7, 8, 9, 10, 11]);
    assert.deepStrictEqual(await visitedSeqNos(translog, 100), []);
    await translog.close();
  } finally {
    cleanup();
  }
});

test('a snapshot includes what was added before it was taken, even unsynced, and not what came after', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    translog.add(indexOp(0));
    translog.add(indexOp(1));
    const snapshot = translog.snapshot();
    translog.add(indexOp(2));
    assert.deepStrictEqual(seqNos(await snapshot.toArray()), [0, 1]);
    await translog.close();
  } finally {
    cleanup();
  }
});

test('reopening after a clean close recovers every operation, keeps the UUID and starts a new generation', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const first = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    const uuid = first.translogUUID;
    for (let seqNo = 0; seqNo < 5; seqNo++) first.add(indexOp(seqNo));
    await first.rollGeneration();
    first.add(indexOp(5));
    first.setGlobalCheckpoint(4);
    await first.close(); // close syncs; nothing was synced explicitly
    const second = await Translog.open(dir, { translogUUID: uuid, fs: fastFs() });
    assert.equal(second.translogUUID, uuid);
    assert.equal(second.currentGeneration, 3);
    assert.equal(second.lastSyncedGlobalCheckpoint, 4);
    assert.deepStrictEqual(seqNos(await second.snapshot().toArray()), [0, 1, 2, 3, 4, 5]);
    assert.equal(second.stats().numOps, 6);
    second.add(indexOp(6));
    await second.close();
    assert.deepStrictEqual(seqNos(await recoverAll(dir)), [0, 1, 2, 3, 4, 5, 6]);
  } finally {
    cleanup();
  }
});

test('trim deletes only generations below the one a commit needs, never the current one, and survives reopen', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    for (let seqNo = 0; seqNo < 9; seqNo++) {
      translog.add(indexOp(seqNo));
      if (seqNo % 3 === 2) await translog.rollGeneration();
    }
    // generations 1: 0-2, 2: 3-5, 3: 6-8, 4: empty (current)
    const before = translog.snapshot(); // opened before the trim: must still read the deleted files
    await translog.trimUnreferencedGenerations(3);
    assert.equal(translog.minRetainedGeneration, 3);
    assert.ok(!existsSync(join(dir, 'translog-1.tlog')) && !existsSync(join(dir, 'translog-2.tlog')));
    assert.ok(!existsSync(join(dir, 'translog-1.ckp')) && !existsSync(join(dir, 'translog-2.ckp')));
    assert.ok(existsSync(join(dir, 'translog-3.tlog')));
    assert.deepStrictEqual(seqNos(await translog.snapshot().toArray()), [6, 7, 8]);
    assert.deepStrictEqual(seqNos(await before.toArray()), [0, 1, 2, 3, 4, 5, 6, 7, 8]);

    await translog.trimUnreferencedGenerations(2); // lower than already trimmed: nothing happens
    translog.add(indexOp(9));
    await translog.trimUnreferencedGenerations(1000); // clamped to the generation being written
    assert.equal(translog.minRetainedGeneration, 4);
    assert.deepStrictEqual(seqNos(await translog.snapshot().toArray()), [9]);
    await translog.close();
    assert.deepStrictEqual(seqNos(await recoverAll(dir)), [9]);
    // recoverAll's open froze generation 4 (writing its own checkpoint) and started 5.
    assert.deepStrictEqual(readdirSync(dir).sort(), ['translog-4.ckp', 'translog-4.tlog', 'translog-5.tlog', 'translog.ckp']);
  } finally {
    cleanup();
  }
});

test('stats count operations and bytes per generation and what is uncommitted', async () => {
  const { dir, cleanup } = tempDir();
  let clock = 1_000_000;
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs(), now: () => clock });
    const empty = translog.stats();
    assert.equal(empty.numOps, 0);
    assert.ok(empty.sizeInBytes > 0, 'the header counts');
    let recordBytes = 0;
    for (let seqNo = 0; seqNo < 4; seqNo++) recordBytes += translog.add(indexOp(seqNo)).size;
    clock += 500;
    await translog.rollGeneration();
    translog.add(indexOp(4));
    clock += 250;
    const stats = translog.stats();
    assert.equal(stats.numOps, 5);
    assert.equal(stats.uncommittedOps, 5);
    assert.ok(stats.sizeInBytes >= empty.sizeInBytes * 2 + recordBytes);
    assert.equal(stats.earliestLastModifiedAge, 750, 'age of the oldest generation, last written before the roll');
    await translog.trimUnreferencedGenerations(2);
    const trimmed = translog.stats();
    assert.equal(trimmed.numOps, 1);
    assert.equal(trimmed.uncommittedOps, 1);
    assert.equal(trimmed.uncommittedSize, trimmed.sizeInBytes);
    assert.equal(trimmed.earliestLastModifiedAge, 250);
    await translog.close();
  } finally {
    cleanup();
  }
});

test('random operation sequences with rolls and reopens read back exactly (fast-check)', async () => {
  type Step = { kind: 'add'; op: TranslogOperation } | { kind: 'roll' } | { kind: 'reopen' } | { kind: 'sync' };
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 8, arbitrary: operationArbitrary.map((op) => ({ kind: 'add' as const, op })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'roll' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'sync' as const }) },
  );
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
      const { dir, cleanup } = tempDir();
      const options = { fs: fastFs(), primaryTerm: Number.MAX_SAFE_INTEGER };
      try {
        let translog = await Translog.open(dir, { ...options, createIfMissing: true });
        const expected: TranslogOperation[] = [];
        for (const s of steps) {
          if (s.kind === 'add') {
            translog.add(s.op);
            expected.push(s.op);
          } else if (s.kind === 'roll') await translog.rollGeneration();
          else if (s.kind === 'sync') await translog.sync();
          else {
            await translog.close();
            translog = await Translog.open(dir, options);
          }
        }
        assert.deepStrictEqual(await translog.snapshot().toArray(), expected);
        assert.deepStrictEqual(await visitedSeqNos(translog), seqNos(expected));
        await translog.close();
        assert.deepStrictEqual(await recoverAll(dir), expected);
      } finally {
        cleanup();
      }
    }),
    { numRuns: 40 },
  );
});

test('opening checks the UUID, refuses a missing translog and creates one only when asked', async () => {
  const { dir, cleanup } = tempDir();
  try {
    await assert.rejects(Translog.open(join(dir, 'nothing-here')), (err: unknown) => err instanceof EsError && err.type === 'translog_exception' && /no translog found/.test(err.message));
    const created = await Translog.open(dir, { createIfMissing: true, translogUUID: 'uuid-one', fs: fastFs() });
    created.add(indexOp(0));
    await created.close();
    await assert.rejects(Translog.open(dir, { translogUUID: 'uuid-two', fs: fastFs() }), (err: unknown) => {
      assert.ok(err instanceof EsError);
      assert.equal(err.type, 'translog_corrupted_exception');
      assert.match(err.message, /translog-1\.tlog\] is corrupted, expected translog UUID \[uuid-two\] but got \[uuid-one\]/);
      return true;
    });
    const reopened = await Translog.open(dir, { translogUUID: 'uuid-one', fs: fastFs() });
    assert.equal(reopened.translogUUID, 'uuid-one');
    await reopened.close();
  } finally {
    cleanup();
  }
});

test('add refuses operations from a newer primary term and bad sequence numbers; a roll can raise the term', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs(), primaryTerm: 2 });
    assert.throws(
      () => translog.add({ type: 'noop', seqNo: 0, primaryTerm: 3, reason: 'x' }),
      (err: unknown) => err instanceof EsError && err.type === 'illegal_argument_exception' && /current term \[2\], operation term \[3\]/.test(err.message),
    );
    assert.throws(() => translog.add({ type: 'noop', seqNo: -1, primaryTerm: 1, reason: 'x' }), /seqNo \[-1\] must be a non-negative integer/);
    assert.throws(() => translog.add({ type: 'noop', seqNo: 2 ** 53, primaryTerm: 1, reason: 'x' }), /non-negative integer/);
    await assert.rejects(translog.rollGeneration({ primaryTerm: 1 }), /below the current term \[2\]/);
    await translog.rollGeneration({ primaryTerm: 3 });
    assert.equal(translog.primaryTerm, 3);
    translog.add({ type: 'noop', seqNo: 0, primaryTerm: 3, reason: 'x' });
    await translog.close();
    const reopened = await Translog.open(dir, { fs: fastFs() });
    assert.equal(reopened.primaryTerm, 3, 'defaults to the highest term on disk');
    await reopened.close();
  } finally {
    cleanup();
  }
});

test('a closed translog refuses work with already_closed_exception; close is idempotent', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    const location = translog.add(indexOp(0));
    const pending = translog.sync(location);
    await Promise.all([translog.close(), translog.close()]);
    await pending;
    assert.throws(() => translog.add(indexOp(1)), (err: unknown) => err instanceof EsError && err.type === 'already_closed_exception');
    await assert.rejects(translog.sync(), /translog is already closed/);
    assert.throws(() => translog.snapshot(), /translog is already closed/);
  } finally {
    cleanup();
  }
});

test('the source bytes are copied at add time, so a reused caller buffer cannot change the log', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    const buffer = Buffer.from('{"v":1}');
    translog.add({ type: 'index', id: 'a', seqNo: 0, primaryTerm: 1, version: 1, source: buffer });
    buffer.write('{"v":2}');
    await translog.close();
    const [op] = await recoverAll(dir);
    assert.equal(op?.type === 'index' && op.source.toString(), '{"v":1}');
  } finally {
    cleanup();
  }
});

test('large buffers are written out before any sync, one write per buffer-full rather than per operation', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const fs = fastFs();
    const translog = await Translog.open(dir, { createIfMissing: true, fs, bufferSize: 64 * 1024 });
    const writesBefore = fs.counters.writes;
    for (let seqNo = 0; seqNo < 2000; seqNo++) translog.add(indexOp(seqNo, `doc-${seqNo}`, 'x'.repeat(200)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const writes = fs.counters.writes - writesBefore;
    assert.ok(writes >= 1, 'written out without a sync');
    assert.ok(writes <= 10, `2000 ops of ~250 bytes in 64 KiB buffers took ${writes} writes`);
    assert.equal(translog.stats().numOps, 2000);
    await translog.close();
    assert.equal((await recoverAll(dir)).length, 2000);
  } finally {
    cleanup();
  }
});

test('records encoded straight into the write buffer read back across buffer boundaries, partial write-outs and records larger than a buffer (fast-check)', async () => {
  // Sizes around the write buffer's first size (64 KiB) and its growth, tiny ones between, and one past its cap (4 MiB).
  const sourceSize = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 60_000, max: 70_000 }), fc.integer({ min: 120_000, max: 140_000 }));
  type Step = { kind: 'add'; size: number } | { kind: 'huge' } | { kind: 'sync' } | { kind: 'snapshot' };
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 10, arbitrary: sourceSize.map((size) => ({ kind: 'add' as const, size })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'huge' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'sync' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
  );
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.integer({ min: 1024, max: 256 * 1024 }), async (steps, bufferSize) => {
      const { dir, cleanup } = tempDir();
      try {
        const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs(), bufferSize });
        const expected: TranslogOperation[] = [];
        for (const s of steps) {
          if (s.kind === 'add' || s.kind === 'huge') {
            const seqNo = expected.length;
            const size = s.kind === 'huge' ? 4 * 1024 * 1024 + 17 : s.size;
            const op = indexOp(seqNo, `doc-${seqNo}`, String.fromCharCode(97 + (seqNo % 26)).repeat(size));
            translog.add(op);
            expected.push(op);
          } else if (s.kind === 'sync') await translog.sync();
          else {
            assert.deepStrictEqual(seqNos(await translog.snapshot().toArray()), seqNos(expected));
            assert.deepStrictEqual(await visitedSeqNos(translog), seqNos(expected));
          }
        }
        assert.deepStrictEqual(await translog.snapshot().toArray(), expected);
        assert.deepStrictEqual(await visitedSeqNos(translog, 1), seqNos(expected).slice(1));
        await translog.close();
        assert.deepStrictEqual(await recoverAll(dir), expected);
      } finally {
        cleanup();
      }
    }),
    { numRuns: 12 },
  );
});
