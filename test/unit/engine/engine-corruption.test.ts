/**
 * Damage on disk is reported as corrupt_index_exception naming the file, never a crash or silently wrong
 * data: a flipped byte in any segment file, a truncated file, a missing file, a damaged commit point, a
 * damaged live-docs file. Leftovers of an interrupted write (pending commit, unreferenced files) are not
 * damage: they are cleaned up on open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EsError } from '../../../src/common/errors.js';
import { DocumentFactory, indexOp, open, tempDir } from './engine-helpers.js';

async function committedShard(): Promise<{ path: string; remove: () => void; factory: DocumentFactory }> {
  const dir = tempDir('gannet-engine-corrupt-');
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { backgroundWork: 'inline' });
  for (let i = 0; i < 30; i++) await engine.index(indexOp(factory, `d${i}`, { body: `document ${i}`, n: i, tag: `t${i % 3}` }));
  await engine.refresh('test');
  await engine.delete({ id: 'd7', versionType: 'internal', origin: 'primary', primaryTerm: 1 });
  await engine.close();
  return { ...dir, factory };
}

function indexFiles(path: string): string[] {
  return readdirSync(join(path, 'index')).sort();
}

async function expectCorrupt(path: string, factory: DocumentFactory, file: string): Promise<void> {
  await assert.rejects(open(path, factory, { backgroundWork: 'inline' }), (err: unknown) => {
    assert.ok(err instanceof EsError, `expected an EsError, got ${String(err)}`);
    assert.equal(err.type, 'corrupt_index_exception', err.message);
    assert.equal(err.status, 500);
    assert.ok(err.message.includes(file), `the message names ${file}: ${err.message}`);
    return true;
  });
}

test('a flipped byte in any committed file fails the open with corrupt_index_exception naming the file', async () => {
  const { path, remove, factory } = await committedShard();
  try {
    const files = indexFiles(path);
    assert.ok(files.some((file) => file.endsWith('.liv')), 'the shard has a live docs file');
    for (const file of files) {
      const full = join(path, 'index', file);
      const original = readFileSync(full);
      for (const offset of [0, Math.floor(original.length / 2), original.length - 1]) {
        const damaged = Buffer.from(original);
        damaged[offset] = damaged[offset]! ^ 0x20;
        writeFileSync(full, damaged);
        await expectCorrupt(path, factory, file);
      }
      writeFileSync(full, original);
    }
    // Intact again: it opens and serves everything.
    const engine = await open(path, factory, { backgroundWork: 'inline' });
    assert.equal(engine.stats().docs.count, 29);
    await engine.close();
  } finally {
    remove();
  }
});

test('truncated and missing segment files are corruption too', async () => {
  const { path, remove, factory } = await committedShard();
  try {
    const file = indexFiles(path).find((name) => name.endsWith('.tim'))!;
    const full = join(path, 'index', file);
    const original = readFileSync(full);
    truncateSync(full, original.length - 5);
    await expectCorrupt(path, factory, file);
    rmSync(full);
    await expectCorrupt(path, factory, file);
    writeFileSync(full, original);
    const engine = await open(path, factory, { backgroundWork: 'inline' });
    await engine.close();
  } finally {
    remove();
  }
});

test('a segment file swapped in from another segment is rejected by its segment id', async () => {
  const { path, remove, factory } = await committedShard();
  try {
    const engine = await open(path, factory, { backgroundWork: 'inline' });
    await engine.index(indexOp(factory, 'x', { body: 'another segment' }));
    await engine.close();
    const segments = [...new Set(indexFiles(path).filter((file) => file.endsWith('.nvd')))];
    assert.ok(segments.length >= 2, `two segments: ${segments.join(', ')}`);
    const [a, b] = segments as [string, string];
    const bytesB = readFileSync(join(path, 'index', b));
    writeFileSync(join(path, 'index', a), bytesB);
    await assert.rejects(open(path, factory, { backgroundWork: 'inline' }), { type: 'corrupt_index_exception' });
  } finally {
    remove();
  }
});

test('a damaged or truncated commit point is corruption; a pending one and unreferenced files are cleaned up', async () => {
  const { path, remove, factory } = await committedShard();
  try {
    const commit = indexFiles(path).find((file) => file.startsWith('segments_'))!;
    const full = join(path, 'index', commit);
    const original = readFileSync(full);
    writeFileSync(full, original.subarray(0, original.length - 3));
    await expectCorrupt(path, factory, commit);
    const flipped = Buffer.from(original);
    flipped[20] = flipped[20]! ^ 1;
    writeFileSync(full, flipped);
    await expectCorrupt(path, factory, commit);
    writeFileSync(full, original);
    // What a crash mid-commit or mid-flush leaves behind: not corruption, just garbage.
    writeFileSync(join(path, 'index', `pending_segments_${'z'}`), 'half a commit');
    writeFileSync(join(path, 'index', '_zz.fdt'), 'half a segment');
    const engine = await open(path, factory, { backgroundWork: 'inline' });
    assert.equal(engine.stats().docs.count, 29);
    await engine.close();
    assert.ok(!indexFiles(path).includes('_zz.fdt'));
    assert.ok(!indexFiles(path).some((file) => file.startsWith('pending_')));
  } finally {
    remove();
  }
});

test('the engine keeps working after a corrupt open is repaired (no half-opened state left behind)', async () => {
  const { path, remove, factory } = await committedShard();
  try {
    const file = indexFiles(path).find((name) => name.endsWith('.dvd'))!;
    const full = join(path, 'index', file);
    const original = readFileSync(full);
    const damaged = Buffer.from(original);
    damaged[damaged.length - 20] = damaged[damaged.length - 20]! ^ 0xff;
    writeFileSync(full, damaged);
    await expectCorrupt(path, factory, file);
    writeFileSync(full, original);
    const engine = await open(path, factory, { backgroundWork: 'inline' });
    await engine.index(indexOp(factory, 'after', { body: 'repair' }));
    assert.equal((await engine.get('d3')).found, true);
    assert.equal((await engine.get('d7')).found, false);
    await engine.close();
  } finally {
    remove();
  }
});
