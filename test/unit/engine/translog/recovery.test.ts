/**
 * Recovery from damaged directories: a torn tail past the checkpoint is ignored (truncated at every byte),
 * damage before it is a clear error naming the file and offset (a byte flipped anywhere in the synced
 * region), a damaged or missing checkpoint is a clear error, and interrupted steps are cleaned up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync, appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Translog, TranslogCorruptedError, type TranslogLocation, type TranslogOperation } from '../../../../src/engine/translog/index.js';
import { encodeHeader } from '../../../../src/engine/translog/translog-header.js';
import { EsError } from '../../../../src/common/errors.js';
import { captureDirectory, fastFs, indexOp, recoverAll, restoreDirectory, tempDir } from './helpers.js';

const seqNos = (ops: readonly TranslogOperation[]): number[] => ops.map((op) => op.seqNo);

/** Recovery must fail with a TranslogCorruptedError; returns it for further checks. */
async function expectCorruption(dir: string, message: RegExp): Promise<TranslogCorruptedError> {
  let caught: unknown;
  try {
    await recoverAll(dir);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof TranslogCorruptedError, `expected a corruption error, got ${String(caught)}`);
  assert.equal(caught.type, 'translog_corrupted_exception');
  assert.equal(caught.status, 500);
  assert.match(caught.message, message);
  return caught;
}

test('a torn last operation is ignored wherever the file was cut: recovery returns exactly what the checkpoint covers', async () => {
  const { dir, cleanup } = tempDir('gannet-translog-', true);
  try {
    const pristine = join(dir, 'pristine');
    const translog = await Translog.open(pristine, { createIfMissing: true, fs: fastFs() });
    for (let seqNo = 0; seqNo < 4; seqNo++) await translog.sync(translog.add(indexOp(seqNo)));
    const coveredCheckpoint = readFileSync(join(pristine, 'translog.ckp'));
    const last = translog.add({ type: 'index', id: 'the-last-one', seqNo: 4, primaryTerm: 1, version: 3, source: Buffer.from('{"torn":"tail"}'), routing: 'r' });
    await translog.sync(last);
    await translog.close();

    const scratch = join(dir, 'scratch');
    const files = captureDirectory(pristine);
    // Every length from "nothing of the last op" to "all of it", with the checkpoint from before it.
    for (let cut = last.offset; cut <= last.offset + last.size; cut++) {
      restoreDirectory(scratch, files);
      writeFileSync(join(scratch, 'translog.ckp'), coveredCheckpoint);
      truncateSync(join(scratch, 'translog-1.tlog'), cut);
      assert.deepStrictEqual(seqNos(await recoverAll(scratch)), [0, 1, 2, 3], `cut at ${cut}`);
      // And the translog keeps working on top of the torn file: a new generation, nothing appended to the old.
      if (cut !== last.offset && cut !== last.offset + 7 && cut !== last.offset + last.size - 1) continue;
      const reopened = await Translog.open(scratch, { fs: fastFs() });
      await reopened.sync(reopened.add(indexOp(5)));
      await reopened.close();
      assert.deepStrictEqual(seqNos(await recoverAll(scratch)), [0, 1, 2, 3, 5], `after writing on top of cut ${cut}`);
    }
    // Garbage past the checkpoint is a torn tail too.
    rmSync(scratch, { recursive: true, force: true });
    cpSync(pristine, scratch, { recursive: true });
    appendFileSync(join(scratch, 'translog-1.tlog'), Buffer.from([0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 9]));
    assert.deepStrictEqual(seqNos(await recoverAll(scratch)), [0, 1, 2, 3, 4]);
  } finally {
    cleanup();
  }
});

test('a file cut short inside the checkpointed region is reported as truncated, naming the file and offset', async () => {
  const { dir, cleanup } = tempDir('gannet-translog-', true);
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    let last = translog.add(indexOp(0));
    for (let seqNo = 1; seqNo < 3; seqNo++) last = translog.add(indexOp(seqNo));
    await translog.sync(last);
    await translog.close();
    const file = join(dir, 'translog-1.tlog');
    truncateSync(file, last.offset + 3);
    const err = await expectCorruption(dir, /translog-1\.tlog\] is corrupted, file is truncated to \[\d+\] bytes but its checkpoint covers/);
    assert.equal(err.file, file);
    assert.equal(err.offset, last.offset + 3);
  } finally {
    cleanup();
  }
});

test('a byte flipped anywhere in the synced region of any generation is a clear error naming the file and offset', async () => {
  const { dir, cleanup } = tempDir('gannet-translog-', true);
  try {
    const pristine = join(dir, 'pristine');
    const translog = await Translog.open(pristine, { createIfMissing: true, fs: fastFs() });
    const locations: TranslogLocation[] = [];
    for (let seqNo = 0; seqNo < 6; seqNo++) {
      const op: TranslogOperation = seqNo === 2 ? { type: 'delete', id: 'doc-1', seqNo, primaryTerm: 1, version: 2 } : seqNo === 4 ? { type: 'noop', seqNo, primaryTerm: 1, reason: 'gap' } : indexOp(seqNo);
      locations.push(translog.add(op));
      if (seqNo === 2) await translog.rollGeneration();
    }
    await translog.close();
    const headerBytes = encodeHeader({ translogUUID: translog.translogUUID, primaryTerm: 1, generation: 1 }).length;

    const scratch = join(dir, 'scratch');
    const files = captureDirectory(pristine);
    let checked = 0;
    for (const generation of [1, 2]) {
      const name = `translog-${generation}.tlog`;
      const inGeneration = locations.filter((location) => location.generation === generation);
      const end = inGeneration.at(-1)!.offset + inGeneration.at(-1)!.size;
      for (let at = 0; at < end; at++) {
        restoreDirectory(scratch, files);
        const path = join(scratch, name);
        const bytes = readFileSync(path);
        bytes[at]! ^= at % 2 === 0 ? 0xff : 0x01;
        writeFileSync(path, bytes);
        const err = await expectCorruption(scratch, new RegExp(`translog from source \\[${path.replace(/[.[\]\\]/g, '\\$&')}\\] is corrupted, .*offset \\[\\d+\\]`));
        assert.equal(err.file, path, `flip at ${name}:${at}`);
        if (at < headerBytes) {
          assert.equal(err.offset, 0, `header flip at ${at}`);
        } else {
          const record = inGeneration.find((location) => at >= location.offset && at < location.offset + location.size)!;
          assert.equal(err.offset, record.offset, `flip at ${name}:${at} should be reported at its record's start`);
          assert.match(err.message, /recover the shard from a replica or a snapshot/);
        }
        checked++;
      }
    }
    assert.ok(checked > 200, `only ${checked} offsets checked`);
  } finally {
    cleanup();
  }
});

test('a damaged, truncated, empty or missing checkpoint is a clear error naming it', async () => {
  const { dir, cleanup } = tempDir('gannet-translog-', true);
  try {
    const pristine = join(dir, 'pristine');
    const translog = await Translog.open(pristine, { createIfMissing: true, fs: fastFs() });
    translog.add(indexOp(0));
    await translog.rollGeneration();
    translog.add(indexOp(1));
    await translog.close();
    const scratch = join(dir, 'scratch');
    const files = captureDirectory(pristine);
    const fresh = (): void => restoreDirectory(scratch, files);
    for (const name of ['translog.ckp', 'translog-1.ckp']) {
      const size = readFileSync(join(pristine, name)).length;
      for (let at = 0; at < size; at++) {
        fresh();
        const bytes = readFileSync(join(scratch, name));
        bytes[at]! ^= 0x20;
        writeFileSync(join(scratch, name), bytes);
        const err = await expectCorruption(scratch, /is corrupted, checkpoint is unreadable: .*(checksum mismatch|bad magic|unsupported checkpoint format)/);
        assert.equal(err.file, join(scratch, name), `flip in ${name} at ${at}`);
      }
      fresh();
      truncateSync(join(scratch, name), 30);
      await expectCorruption(scratch, /checkpoint is unreadable: checkpoint is 30 bytes long/);
      fresh();
      truncateSync(join(scratch, name), 0);
      await expectCorruption(scratch, /checkpoint is unreadable: checkpoint is 0 bytes long, too short/);
    }
    fresh();
    unlinkSync(join(scratch, 'translog.ckp'));
    await expectCorruption(scratch, /translog\.ckp\] is corrupted, checkpoint file is missing but generation files exist for generations \[1, 2\]/);
    fresh();
    unlinkSync(join(scratch, 'translog-1.ckp'));
    await expectCorruption(scratch, /translog-1\.ckp\] is corrupted, checkpoint file is missing, but generation \[1\] is still needed/);
    fresh();
    unlinkSync(join(scratch, 'translog-1.tlog'));
    await expectCorruption(scratch, /translog-1\.tlog\] is corrupted, generation file is missing/);
    fresh();
    copyFileSync(join(scratch, 'translog.ckp'), join(scratch, 'translog-1.ckp'));
    await expectCorruption(scratch, /translog-1\.ckp\] is corrupted, checkpoint names generation \[2\] instead of \[1\]/);
  } finally {
    cleanup();
  }
});

test('leftovers of interrupted steps are cleaned up when they hold nothing acknowledged, and refused otherwise', async () => {
  const { dir, cleanup } = tempDir('gannet-translog-', true);
  try {
    const pristine = join(dir, 'pristine');
    const translog = await Translog.open(pristine, { createIfMissing: true, fs: fastFs() });
    const uuid = translog.translogUUID;
    translog.add(indexOp(0));
    await translog.close();
    // Files now: translog-1.tlog (op 0), translog.ckp naming generation 1.
    const scratch = join(dir, 'scratch');
    const fresh = (): void => {
      rmSync(scratch, { recursive: true, force: true });
      cpSync(pristine, scratch, { recursive: true });
    };

    // A temp checkpoint whose rename never happened.
    fresh();
    writeFileSync(join(scratch, 'translog.ckp.tmp'), 'half a checkpoint');
    assert.deepStrictEqual(seqNos(await recoverAll(scratch)), [0]);
    assert.ok(!existsSync(join(scratch, 'translog.ckp.tmp')));

    // An interrupted roll: the next generation exists with a full or torn header, the checkpoint never moved.
    for (const keep of [0, 5, 20, encodeHeader({ translogUUID: uuid, primaryTerm: 1, generation: 2 }).length]) {
      fresh();
      writeFileSync(join(scratch, 'translog-2.tlog'), encodeHeader({ translogUUID: uuid, primaryTerm: 1, generation: 2 }).subarray(0, keep));
      copyFileSync(join(scratch, 'translog.ckp'), join(scratch, 'translog-1.ckp'));
      assert.deepStrictEqual(seqNos(await recoverAll(scratch)), [0], `torn next header of ${keep} bytes`);
    }

    // A next generation holding more than a header was referenced once: do not delete it, report it.
    fresh();
    writeFileSync(join(scratch, 'translog-2.tlog'), Buffer.concat([encodeHeader({ translogUUID: uuid, primaryTerm: 1, generation: 2 }), Buffer.alloc(40, 1)]));
    await expectCorruption(scratch, /translog-2\.tlog\] is corrupted, generation \[2\] is newer than the generation \[1\]/);
    assert.ok(existsSync(join(scratch, 'translog-2.tlog')));

    // An abandoned creation: a header-only first generation and no checkpoint.
    const created = join(dir, 'created');
    cpSync(pristine, created, { recursive: true });
    unlinkSync(join(created, 'translog.ckp'));
    writeFileSync(join(created, 'translog-1.tlog'), encodeHeader({ translogUUID: uuid, primaryTerm: 1, generation: 1 }));
    await assert.rejects(Translog.open(created, { fs: fastFs() }), (err: unknown) => err instanceof EsError && err.type === 'translog_exception');
    const recreated = await Translog.open(created, { createIfMissing: true, translogUUID: uuid, fs: fastFs() });
    assert.equal(recreated.currentGeneration, 1);
    await recreated.close();
    assert.deepStrictEqual(readdirSync(created).sort(), ['translog-1.tlog', 'translog.ckp']);
    assert.deepStrictEqual(await recoverAll(created), []);
  } finally {
    cleanup();
  }
});

test('a checkpoint copy that disagrees with translog.ckp about the current generation is refused', async () => {
  const { dir, cleanup } = tempDir('gannet-translog-', true);
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    await translog.sync(translog.add(indexOp(0)));
    const early = readFileSync(join(dir, 'translog.ckp'));
    await translog.sync(translog.add(indexOp(1)));
    await translog.close();
    writeFileSync(join(dir, 'translog-1.ckp'), early);
    await expectCorruption(dir, /translog-1\.ckp\] is corrupted, checkpoint disagrees with \[.*translog\.ckp\] about the same generation \[1\]/);
  } finally {
    cleanup();
  }
});
