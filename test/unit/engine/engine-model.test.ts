/**
 * Property test: random operation sequences against a Map model of Elasticsearch's semantics, with
 * refreshes, flushes, merges, tiny indexing buffers (segments written mid-sequence), clean reopens and
 * crash-like reopens (no final flush) at random points. After every step the results must match the model
 * (result, version, seqNo or the exact conflict), and at the end every id's real-time get, searcher get and
 * the searcher's documents must equal the model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EsError } from '../../../src/common/errors.js';
import type { InternalEngine, WriteResult } from '../../../src/engine/index.js';
import { DocumentFactory, indexOp, open, sourceOf, tempDir } from './engine-helpers.js';

type Command =
  | { kind: 'index'; id: string; value: number }
  | { kind: 'create'; id: string; value: number }
  | { kind: 'external'; id: string; value: number; version: number }
  | { kind: 'ifSeqNo'; id: string; value: number; wrong: boolean }
  | { kind: 'delete'; id: string }
  | { kind: 'refresh' }
  | { kind: 'flush' }
  | { kind: 'merge'; max: number }
  | { kind: 'reopen'; crash: boolean };

interface ModelEntry {
  version: number;
  seqNo: number;
  value: number | null; // null = deleted (a tombstone)
  /** The delete happened after the last commit, so a reopen replays it and the tombstone survives. */
  deletedSinceCommit: boolean;
}

const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('index' as const), id: ids, value: fc.integer({ min: 0, max: 999 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('create' as const), id: ids, value: fc.integer({ min: 0, max: 999 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('external' as const), id: ids, value: fc.integer({ min: 0, max: 999 }), version: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('ifSeqNo' as const), id: ids, value: fc.integer({ min: 0, max: 999 }), wrong: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('delete' as const), id: ids }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'refresh' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'flush' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), max: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reopen' as const), crash: fc.boolean() }) },
);

class Model {
  readonly entries = new Map<string, ModelEntry>();
  nextSeqNo = 0;

  /** ES's outcome for a write, or the conflict reason. */
  write(id: string, kind: 'index' | 'create' | 'delete', external?: number, ifSeqNo?: number, value: number | null = null): WriteResult | string {
    const entry = this.entries.get(id);
    const exists = entry !== undefined && entry.value !== null;
    if (ifSeqNo !== undefined) {
      if (!exists) return `[${id}]: version conflict, required seqNo [${ifSeqNo}], primary term [1]. but no document was found`;
      if (entry.seqNo !== ifSeqNo) {
        return `[${id}]: version conflict, required seqNo [${ifSeqNo}], primary term [1]. current document has seqNo [${entry.seqNo}] and primary term [1]`;
      }
    }
    if (kind === 'create' && exists) return `[${id}]: version conflict, document already exists (current version [${entry.version}])`;
    if (external !== undefined && entry !== undefined && entry.version >= external) {
      return `[${id}]: version conflict, current version [${entry.version}] is higher or equal to the one provided [${external}]`;
    }
    const version = external ?? (entry === undefined ? 1 : entry.version + 1);
    const seqNo = this.nextSeqNo++;
    if (kind === 'delete') {
      this.entries.set(id, { version, seqNo, value: null, deletedSinceCommit: true });
      return { result: exists ? 'deleted' : 'not_found', version, seqNo, primaryTerm: 1 };
    }
    this.entries.set(id, { version, seqNo, value, deletedSinceCommit: false });
    return { result: exists ? 'updated' : 'created', version, seqNo, primaryTerm: 1 };
  }

  committed(): void {
    for (const entry of this.entries.values()) entry.deletedSinceCommit = false;
  }

  /** A reopen forgets tombstones that are not replayed from the translog (ES's version map is memory). */
  reopened(): void {
    for (const [id, entry] of this.entries) if (entry.value === null && !entry.deletedSinceCommit) this.entries.delete(id);
    // Recovery ends with a flush.
    this.committed();
  }
}

async function runCommands(commands: readonly Command[]): Promise<void> {
  const dir = tempDir('gannet-engine-model-');
  const factory = new DocumentFactory({ properties: { value: { type: 'long' }, text: { type: 'text' } } });
  const options = { backgroundWork: 'inline' as const, indexingBufferBytes: 48 * 1024 };
  let engine: InternalEngine = await open(dir.path, factory, options);
  const model = new Model();
  const source = (id: string, value: number): unknown => ({ value, text: `${id} value ${value} ${'padding '.repeat(value % 7)}` });
  try {
    for (const [step, cmd] of commands.entries()) {
      const where = `step ${step} ${JSON.stringify(cmd)}`;
      let actual: Promise<WriteResult> | null = null;
      let expected: WriteResult | string | null = null;
      switch (cmd.kind) {
        case 'index':
          expected = model.write(cmd.id, 'index', undefined, undefined, cmd.value);
          actual = engine.index(indexOp(factory, cmd.id, source(cmd.id, cmd.value)));
          break;
        case 'create':
          expected = model.write(cmd.id, 'create', undefined, undefined, cmd.value);
          actual = engine.index(indexOp(factory, cmd.id, source(cmd.id, cmd.value), { opType: 'create' }));
          break;
        case 'external':
          expected = model.write(cmd.id, 'index', cmd.version, undefined, cmd.value);
          actual = engine.index(indexOp(factory, cmd.id, source(cmd.id, cmd.value), { versionType: 'external', version: cmd.version }));
          break;
        case 'ifSeqNo': {
          const current = model.entries.get(cmd.id);
          const ifSeqNo = (current?.seqNo ?? 0) + (cmd.wrong ? 1 : 0);
          expected = model.write(cmd.id, 'index', undefined, ifSeqNo, cmd.value);
          actual = engine.index(indexOp(factory, cmd.id, source(cmd.id, cmd.value), { ifSeqNo, ifPrimaryTerm: 1 }));
          break;
        }
        case 'delete':
          expected = model.write(cmd.id, 'delete');
          actual = engine.delete({ id: cmd.id, versionType: 'internal', origin: 'primary', primaryTerm: 1 });
          break;
        case 'refresh':
          await engine.refresh('model');
          break;
        case 'flush':
          await engine.flush();
          model.committed();
          break;
        case 'merge':
          await engine.forceMerge({ maxNumSegments: cmd.max });
          model.committed();
          break;
        case 'reopen':
          if (cmd.crash) {
            // No close-time flush: recovery must come from the last commit plus the translog.
            await engine.close({ flush: false });
          } else {
            await engine.close();
          }
          engine = await open(dir.path, factory, options);
          // A clean close commits first, so no tombstone is replayed from the translog.
          if (!cmd.crash) model.committed();
          model.reopened();
          break;
      }
      if (actual !== null) {
        if (typeof expected === 'string') {
          await assert.rejects(actual, (err: unknown) => err instanceof EsError && err.reason === expected, `${where}: expected conflict ${expected}`);
        } else {
          assert.deepEqual(await actual, expected, where);
        }
      }
    }
    // Every id: real-time get, then the searcher's view after a refresh.
    const expectedDocs = new Map<string, { version: number; seqNo: number; value: number }>();
    for (const [id, entry] of model.entries) if (entry.value !== null) expectedDocs.set(id, { version: entry.version, seqNo: entry.seqNo, value: entry.value });
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const got = await engine.get(id);
      const actualDoc = got.found ? { version: got.version!, seqNo: got.seqNo!, value: (sourceOf(got.source) as { value: number }).value } : undefined;
      assert.deepEqual(actualDoc, expectedDocs.get(id), `real-time get ${id}`);
    }
    await engine.refresh('model');
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const got = await engine.get(id, { realtime: false });
      const actualDoc = got.found ? { version: got.version!, seqNo: got.seqNo!, value: (sourceOf(got.source) as { value: number }).value } : undefined;
      assert.deepEqual(actualDoc, expectedDocs.get(id), `searcher get ${id}`);
    }
    const searcher = engine.acquireSearcher();
    try {
      const seen = new Map<string, number>();
      for (const view of searcher.segments) {
        for (let doc = 0; doc < view.maxDoc; doc++) {
          if (view.liveDocs !== null && !view.liveDocs.isLive(doc)) continue;
          const id = String(view.readers.stored.document(doc, new Set(['_id']))[0]!.value);
          assert.ok(!seen.has(id), `id ${id} is live twice`);
          seen.set(id, view.readers.docValues.sortedNumeric('value')!.valueAt(view.readers.docValues.sortedNumeric('value')!.docStart(doc)));
        }
      }
      assert.deepEqual(new Map([...seen].sort()), new Map([...expectedDocs].map(([id, doc]) => [id, doc.value] as const).sort()));
      assert.equal(searcher.numDocs, expectedDocs.size);
    } finally {
      searcher.release();
    }
    const stats = engine.stats();
    assert.equal(stats.seqNo.maxSeqNo, model.nextSeqNo - 1);
    assert.equal(stats.seqNo.localCheckpoint, model.nextSeqNo - 1);
  } finally {
    await engine.close();
    dir.remove();
  }
}

test('random operation sequences match a model of ES semantics through refresh, flush, merge and reopen', { timeout: 240_000 }, async () => {
  await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 45 }), runCommands), {
    numRuns: Number(process.env['GANNET_MODEL_RUNS'] ?? 30),
    includeErrorInReport: true,
  });
});
