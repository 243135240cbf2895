/**
 * The safe commit (decision 0021, ES's CombinedDeletionPolicy): besides the last commit, a copy keeps the newest
 * commit holding no operation above the global checkpoint its translog persisted, and the translog its replay
 * needs. A returning copy trims its store to that commit and replays its own translog up to the checkpoint, so it
 * asks its primary only for what lies above.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { trimToSafeCommit, type InternalEngine } from '../../../src/engine/index.js';
import { DocumentFactory, indexOp, open, tempDir } from './engine-helpers.js';

async function indexRange(engine: InternalEngine, factory: DocumentFactory, from: number, to: number): Promise<void> {
  for (let i = from; i <= to; i++) await engine.index(indexOp(factory, `d${i}`, { n: i }));
}

test('a commit above the persisted global checkpoint keeps the safe commit and its translog; a restart replays up to the checkpoint', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  let engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    await indexRange(engine, factory, 0, 4);
    engine.updateGlobalCheckpoint(4);
    await engine.syncTranslog();
    await engine.flush();
    const [safeGeneration] = engine.retainedCommitGenerations;
    assert.equal(engine.retainedCommitGenerations.length, 1, 'the last commit is safe itself: no other is kept');

    // Operations the other copies may not have yet (the global checkpoint stays at 4), then a commit of them.
    await indexRange(engine, factory, 5, 9);
    await engine.flush();
    assert.deepEqual(engine.retainedCommitGenerations, [safeGeneration, safeGeneration! + 1]);
    assert.equal(engine.restartRecoveryFromSeqNo, 5);
    assert.ok(existsSync(join(dir.path, 'index', `segments_${safeGeneration!.toString(36)}`)));

    await indexRange(engine, factory, 10, 11);
    engine.updateGlobalCheckpoint(7);
    await engine.syncTranslog();
    assert.equal(engine.restartRecoveryFromSeqNo, 8, 'a restart would replay its own translog up to the persisted checkpoint');
    // A crash: no final commit.
    await engine.close({ flush: false });

    const safe = await trimToSafeCommit(dir.path);
    assert.ok(safe !== undefined, 'the safe commit survived the newer, unsafe one');
    assert.equal(safe.generation, safeGeneration);
    assert.deepEqual({ localCheckpoint: safe.userData.localCheckpoint, maxSeqNo: safe.userData.maxSeqNo, globalCheckpoint: safe.globalCheckpoint }, { localCheckpoint: 4, maxSeqNo: 4, globalCheckpoint: 7 });
    assert.ok(!existsSync(join(dir.path, 'index', `segments_${(safeGeneration! + 1).toString(36)}`)), 'the unsafe commit point is gone');

    engine = await open(dir.path, factory, { backgroundWork: 'inline', replayUpToSeqNo: safe.globalCheckpoint });
    assert.equal(engine.translogRecovery.operations, 3, 'operations 5..7 replayed from the copy\'s own translog');
    assert.deepEqual(engine.stats().seqNo, { maxSeqNo: 7, localCheckpoint: 7, globalCheckpoint: 7 });
    for (let i = 0; i <= 11; i++) assert.equal((await engine.get(`d${i}`)).found, i <= 7, `d${i}`);
    await engine.close({ flush: false });
    const replayed = await trimToSafeCommit(dir.path);
    assert.equal(replayed?.userData.localCheckpoint, 7, 'the replay was committed: the primary is asked from seqNo 8');
    assert.equal(replayed?.userData.maxSeqNo, 7);
  } finally {
    await engine.close().catch(() => undefined);
    dir.remove();
  }
});

test('once the global checkpoint covers a newer commit, the older safe commit is released at the next commit', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    await indexRange(engine, factory, 0, 2);
    engine.updateGlobalCheckpoint(2);
    await engine.syncTranslog();
    await engine.flush();
    await indexRange(engine, factory, 3, 5);
    await engine.flush();
    assert.equal(engine.retainedCommitGenerations.length, 2);
    await indexRange(engine, factory, 6, 6);
    engine.updateGlobalCheckpoint(6);
    await engine.syncTranslog();
    await engine.flush();
    assert.equal(engine.retainedCommitGenerations.length, 1, 'the last commit is safe: only it stays');
    assert.equal(engine.restartRecoveryFromSeqNo, 7);
    const safe = await trimToSafeCommit(dir.path);
    assert.equal(safe?.userData.localCheckpoint, 6);
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('a global checkpoint of -1 (no operation on every copy) makes the empty commit safe: a primary killed before its first checkpoint sync recovers by operations from seqNo 0', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  let engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    // A new primary knows -1 (no copy processed anything); its writes' fsyncs persist that until a sync moves it.
    engine.updateGlobalCheckpoint(-1);
    await indexRange(engine, factory, 0, 2);
    await engine.syncTranslog();
    const [emptyCommit] = engine.retainedCommitGenerations;
    assert.equal(engine.restartRecoveryFromSeqNo, 0);
    await engine.close({ flush: false });

    const safe = await trimToSafeCommit(dir.path);
    assert.ok(safe !== undefined, 'the empty commit is safe under a global checkpoint of -1 (was: no safe commit, a file copy)');
    assert.equal(safe.generation, emptyCommit);
    assert.deepEqual({ localCheckpoint: safe.userData.localCheckpoint, maxSeqNo: safe.userData.maxSeqNo, globalCheckpoint: safe.globalCheckpoint }, { localCheckpoint: -1, maxSeqNo: -1, globalCheckpoint: -1 });
    // Nothing of its own is replayed (none of it is known to be on another copy): the primary sends it all from 0.
    engine = await open(dir.path, factory, { backgroundWork: 'inline', replayUpToSeqNo: safe.globalCheckpoint });
    assert.equal(engine.translogRecovery.operations, 0);
    for (let i = 0; i <= 2; i++) assert.equal((await engine.get(`d${i}`)).found, false, `d${i}`);
    await engine.close({ flush: false });
  } finally {
    await engine.close().catch(() => undefined);
    dir.remove();
  }
});

test('a store that never persisted a global checkpoint has no safe commit (its copy is rebuilt from files)', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  try {
    await indexRange(engine, factory, 0, 2);
    await engine.flush();
    await engine.close({ flush: false });
    assert.equal(await trimToSafeCommit(dir.path), undefined);
  } finally {
    await engine.close().catch(() => undefined);
    dir.remove();
  }
});
