/**
 * Durability: `request` acknowledges only what an fsync and a checkpoint cover, concurrent syncs share
 * fsyncs (group commit), `async` fsyncs on a timer, and an I/O failure is tragic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Translog, type TranslogLocation } from '../../../../src/engine/translog/index.js';
import { decodeCheckpoint } from '../../../../src/engine/translog/checkpoint.js';
import { EsError } from '../../../../src/common/errors.js';
import { indexOp, InstrumentedFs, recoverAll, tempDir } from './helpers.js';

/** What the checkpoint on disk says is durable right now. */
function durableOffset(dir: string): { generation: number; offset: number } {
  const checkpoint = decodeCheckpoint(readFileSync(join(dir, 'translog.ckp')));
  return { generation: checkpoint.generation, offset: checkpoint.offset };
}

function assertOnDisk(dir: string, location: TranslogLocation): void {
  const durable = durableOffset(dir);
  if (durable.generation === location.generation) {
    assert.ok(durable.offset >= location.offset + location.size, `checkpoint at ${durable.offset} does not cover ${JSON.stringify(location)}`);
  } else {
    assert.ok(durable.generation > location.generation);
  }
}

test('sync(location) resolves only after the data fsync and then the checkpoint fsync are done, in that order; the checkpoint is written in place', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const fs = new InstrumentedFs(undefined, { logEvents: true });
    const translog = await Translog.open(dir, { createIfMissing: true, fs });
    fs.events.length = 0;
    const location = translog.add(indexOp(0));
    assert.equal(translog.isSynced(location), false);
    assert.deepStrictEqual(fs.events, [], 'add does no I/O');
    await translog.sync(location);
    assert.ok(translog.isSynced(location));
    assertOnDisk(dir, location);
    assert.deepStrictEqual(fs.events, [
      'write translog-1.tlog',
      'datasync translog-1.tlog',
      // As ES's TranslogWriter.syncUpTo: over the existing file, no temp file, rename or directory fsync.
      'write translog.ckp',
      'datasync translog.ckp',
    ]);
    fs.events.length = 0;
    await translog.sync(location);
    assert.deepStrictEqual(fs.events, [], 'syncing what is already durable costs nothing');
    await translog.close();
  } finally {
    cleanup();
  }
});

test('group commit: 200 requests syncing at once share a couple of fsync rounds', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const fs = new InstrumentedFs();
    const translog = await Translog.open(dir, { createIfMissing: true, fs });
    const before = { ...fs.counters };
    const locations = Array.from({ length: 200 }, (_, seqNo) => translog.add(indexOp(seqNo)));
    await Promise.all(locations.map((location) => translog.sync(location)));
    const rounds = fs.counters.checkpointWrites - before.checkpointWrites;
    const fsyncs = fs.fsyncs - (before.fileSyncs + before.directorySyncs);
    assert.ok(rounds <= 2, `${rounds} rounds for 200 simultaneous syncs`);
    assert.ok(fsyncs <= 6, `${fsyncs} fsyncs for 200 simultaneous syncs`);
    assert.ok(fs.counters.writes - before.writes <= 3, 'the buffered records went out in one write, not one per op');
    for (const location of locations) assertOnDisk(dir, location);
    await translog.close();
  } finally {
    cleanup();
  }
});

test('group commit under a closed loop: 32 writers each doing add+sync 8 times need far fewer fsyncs than ops', async (t) => {
  const { dir, cleanup } = tempDir();
  try {
    const fs = new InstrumentedFs();
    const translog = await Translog.open(dir, { createIfMissing: true, fs });
    const before = { ...fs.counters };
    let seqNo = 0;
    let acked = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (let i = 0; i < 8; i++) {
          const location = translog.add(indexOp(seqNo++));
          await translog.sync(location);
          // The acknowledgement point: the checkpoint on disk must cover this op already.
          assertOnDisk(dir, location);
          acked++;
        }
      }),
    );
    const rounds = fs.counters.checkpointWrites - before.checkpointWrites;
    const fsyncs = fs.fsyncs - (before.fileSyncs + before.directorySyncs);
    t.diagnostic(`${acked} acked ops, ${rounds} group commits, ${fsyncs} fsyncs (${(fsyncs / acked).toFixed(3)} per op)`);
    assert.equal(acked, 256);
    assert.ok(rounds <= 256 / 8, `${rounds} rounds: groups are not being shared`);
    assert.ok(fsyncs / acked < 0.5, `${fsyncs} fsyncs for ${acked} ops`);
    await translog.close();
    assert.equal((await recoverAll(dir)).length, 256);
  } finally {
    cleanup();
  }
});

test('async durability: add is acknowledged at once and the timer fsyncs every sync interval', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const fs = new InstrumentedFs();
    // Taken before the open, which starts the sync timer: taken after it, a stall of this process between the two
    // (a loaded CI host) made a sync on time look early.
    const startedAt = Date.now();
    const translog = await Translog.open(dir, { createIfMissing: true, fs, durability: 'async', syncIntervalMs: 150 });
    const roundsBefore = fs.counters.checkpointWrites;
    const locations: TranslogLocation[] = [];
    for (let seqNo = 0; seqNo < 100; seqNo++) {
      const location = translog.add(indexOp(seqNo));
      await translog.syncBeforeAck(location); // resolves without an fsync under async
      locations.push(location);
    }
    assert.equal(fs.counters.checkpointWrites, roundsBefore, 'no fsync on the request path');
    assert.equal(translog.isSynced(locations[99]!), false);
    while (!translog.isSynced(locations[99]!)) {
      // Bounds a wait for a sync that never comes; 2 s was within reach of a loaded host's fsync.
      assert.ok(Date.now() - startedAt < 20_000, 'the background sync never came');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const waited = Date.now() - startedAt;
    assert.ok(waited >= 100, `synced after ${waited} ms, before the interval`);
    assert.equal(fs.counters.checkpointWrites - roundsBefore, 1, 'one fsync round covered all 100 ops');
    assertOnDisk(dir, locations[99]!);
    // Nothing new: the timer does not fsync for nothing.
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(fs.counters.checkpointWrites - roundsBefore, 1);
    // Switching to request durability makes syncBeforeAck wait for the fsync.
    translog.setDurability('request');
    const location = translog.add(indexOp(100));
    await translog.syncBeforeAck(location);
    assert.ok(translog.isSynced(location));
    await translog.close();
  } finally {
    cleanup();
  }
});

test('sync of an operation in a generation being rolled waits for the roll to make it durable', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: new InstrumentedFs() });
    const old = translog.add(indexOp(0));
    const roll = translog.rollGeneration();
    const fresh = translog.add(indexOp(1));
    assert.equal(fresh.generation, old.generation + 1, 'adds during a roll go to the new generation');
    await Promise.all([translog.sync(old), translog.sync(fresh)]);
    await roll;
    assert.ok(translog.isSynced(old) && translog.isSynced(fresh));
    assertOnDisk(dir, fresh);
    await translog.close();
    assert.deepStrictEqual((await recoverAll(dir)).map((op) => op.seqNo), [0, 1]);
  } finally {
    cleanup();
  }
});

test('the global checkpoint is persisted by sync() even with no new operations', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: new InstrumentedFs() });
    translog.setGlobalCheckpoint(41);
    assert.ok(translog.syncNeeded());
    await translog.sync();
    assert.equal(translog.lastSyncedGlobalCheckpoint, 41);
    assert.equal(decodeCheckpoint(readFileSync(join(dir, 'translog.ckp'))).globalCheckpoint, 41);
    assert.equal(translog.syncNeeded(), false);
    await translog.close();
  } finally {
    cleanup();
  }
});

// A sync round writes and fsyncs (the checkpoint in place); only a roll renames and fsyncs the directory.
for (const point of ['write', 'datasync', 'rename', 'fsyncDirectory'] as const) {
  test(`an injected EIO on ${point} is tragic: pending syncs fail, the translog refuses more, nothing acknowledged is lost`, async () => {
    const { dir, cleanup } = tempDir();
    try {
      const fs = new InstrumentedFs();
      const translog = await Translog.open(dir, { createIfMissing: true, fs });
      const acknowledged = translog.add(indexOp(0));
      await translog.sync(acknowledged);
      fs.failNext(point);
      const doomed = [translog.add(indexOp(1)), translog.add(indexOp(2))];
      const roll = point === 'rename' || point === 'fsyncDirectory' ? translog.rollGeneration() : undefined;
      const results = await Promise.allSettled(doomed.map((location) => translog.sync(location)));
      if (roll !== undefined) await assert.rejects(roll, /EIO/);
      for (const result of results) {
        assert.equal(result.status, 'rejected');
        const reason = (result as PromiseRejectedResult).reason as EsError;
        assert.equal(reason.type, 'translog_exception');
        assert.match(reason.message, /EIO/);
      }
      assert.throws(() => translog.add(indexOp(3)), (err: unknown) => {
        assert.ok(err instanceof EsError);
        assert.equal(err.type, 'already_closed_exception');
        assert.equal(err.causedBy?.type, 'translog_exception');
        return true;
      });
      await assert.rejects(translog.sync(), /already closed/);
      await translog.close();
      // What was acknowledged before the failure is still there; the failed ops may or may not be.
      const recovered = (await recoverAll(dir)).map((op) => op.seqNo);
      assert.deepStrictEqual(recovered.slice(0, 1), [0]);
      assert.ok(recovered.every((seqNo) => seqNo <= 2));
    } finally {
      cleanup();
    }
  });
}

test('a failure while rolling is tragic too, and the roll promise says why', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const fs = new InstrumentedFs();
    const translog = await Translog.open(dir, { createIfMissing: true, fs });
    const location = translog.add(indexOp(0));
    fs.failNext('open');
    const roll = translog.rollGeneration();
    await assert.rejects(translog.sync(location), /EIO/);
    await assert.rejects(roll, (err: unknown) => err instanceof EsError && err.type === 'translog_exception');
    assert.throws(() => translog.add(indexOp(1)), /already closed/);
    await translog.close();
  } finally {
    cleanup();
  }
});
