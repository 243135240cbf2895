/**
 * ES's append-only plan for operations of another copy's history (decision 0033): a primary counts the highest
 * seqNo of an update or delete it sequenced (max_seq_no_of_updates_or_deletes, MSU), its requests carry it, and a
 * copy that has processed everything up to it adds an operation it has not processed without looking its id up and
 * without a version-map entry. The plan must never leave two live documents of an id, bring a deleted one back or
 * let an older operation win, whatever the order requests arrive in, and a copy that cannot know its primary's MSU
 * (a reopened copy, a sender that does not say) must look ids up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ReplicatedEngineOperation } from '../../../src/engine/engine.js';
import type { InternalEngine } from '../../../src/engine/internal-engine.js';
import { DocumentFactory, indexOp, open, sourceOf, tempDir, withEngine } from './engine-helpers.js';

/** Entries of the copy's version map (current and old buffers): what the append-only plan leaves out. */
function versionMapSize(engine: InternalEngine): number {
  return (engine as unknown as { versionMap: { size: number } }).versionMap.size;
}

function indexed(factory: DocumentFactory, id: string, seqNo: number, version: number, n: number): ReplicatedEngineOperation {
  return { type: 'index', id, document: factory.parse({ n }, id), seqNo, primaryTerm: 1, version };
}

async function apply(engine: InternalEngine, operations: ReplicatedEngineOperation[], maxSeqNoOfUpdatesOrDeletes?: number): Promise<void> {
  const results = await engine.applyReplicated([...operations], 'replica', maxSeqNoOfUpdatesOrDeletes);
  for (const result of results) assert.ok(!(result instanceof Error), String(result));
}

test("a primary's max seqNo of updates and deletes moves with each update and delete, never with an index of an id it does not hold", async () => {
  await withEngine(async (engine, factory) => {
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, -1);
    await engine.index(indexOp(factory, 'a', { n: 1 })); // 0: new
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, -1);
    await engine.index(indexOp(factory, 'a', { n: 2 })); // 1: overwrites a
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, 1);
    await engine.index(indexOp(factory, 'b', { n: 3 })); // 2: new
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, 1);
    await engine.delete({ id: 'c', versionType: 'internal', origin: 'primary', primaryTerm: 1 }); // 3: a delete, found or not
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, 3);
    await engine.index(indexOp(factory, 'c', { n: 4 })); // 4: re-creates a deleted id
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, 3);
    await engine.refresh('test');
    await engine.index(indexOp(factory, 'b', { n: 5 })); // 5: overwrites b, now in a segment
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, 5);
    engine.advanceMaxSeqNoOfUpdatesOrDeletes(2);
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, 5, 'never backwards');
  });
});

test('a copy adds operations above its MSU without version-map entries; a realtime get and a later update still find them', async () => {
  await withEngine(async (engine, factory) => {
    await apply(engine, [indexed(factory, 'a', 0, 1, 1), indexed(factory, 'b', 1, 1, 2)], -1);
    assert.equal(versionMapSize(engine), 0, 'appended: no version-map entry');
    const got = await engine.get('a');
    assert.equal(got.found, true);
    assert.equal(got.seqNo, 0);
    assert.deepEqual(sourceOf(got.source), { n: 1 });
    // The primary overwrote b: its request says so, and the copy looks b up (finding it in the segment the get's
    // refresh wrote), so the older b is deleted rather than kept beside the new one.
    await apply(engine, [indexed(factory, 'b', 2, 2, 3)], 2);
    await engine.refresh('test');
    assert.equal(engine.stats().docs.count, 2);
    const b = await engine.get('b', { realtime: false });
    assert.equal(b.seqNo, 2);
    assert.deepEqual(sourceOf(b.source), { n: 3 });
  });
});

test('a request that does not carry the MSU counts every operation in it as an update: each id is looked up', async () => {
  await withEngine(async (engine, factory) => {
    await apply(engine, [indexed(factory, 'a', 0, 1, 1)], -1);
    await engine.refresh('test');
    // Without a max seqNo of updates this index of `a` must find the one in the segment and replace it.
    await apply(engine, [indexed(factory, 'a', 1, 2, 2), indexed(factory, 'b', 2, 1, 3)]);
    assert.equal(versionMapSize(engine), 2);
    assert.ok(engine.maxSeqNoOfUpdatesOrDeletes >= 2);
    await engine.refresh('test');
    assert.equal(engine.stats().docs.count, 2);
  });
});

test('a delete then a re-create above the MSU: the re-created document is found, the tombstone does not hide it', async () => {
  await withEngine(async (engine, factory) => {
    await apply(engine, [indexed(factory, 'a', 0, 1, 1)], -1);
    await apply(engine, [{ type: 'delete', id: 'a', seqNo: 1, primaryTerm: 1, version: 2 }], 1);
    // Everything up to the delete is processed: the re-create is appended, and the delete's tombstone must go.
    await apply(engine, [indexed(factory, 'a', 2, 3, 3)], 1);
    const got = await engine.get('a');
    assert.equal(got.found, true);
    assert.equal(got.seqNo, 2);
    await engine.refresh('test');
    assert.equal(engine.stats().docs.count, 1);
    assert.equal((await engine.get('a', { realtime: false })).seqNo, 2);
  });
});

test('a reopened copy does not know its primary\'s MSU: it counts every operation it holds as an update', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  let engine = await open(dir.path, factory);
  try {
    // 0 and 2 arrive, 1 not yet (a gap); the copy then restarts from its translog.
    await apply(engine, [indexed(factory, 'a', 0, 1, 1), indexed(factory, 'a', 2, 2, 2)], 2);
    await engine.close({ flush: false });
    engine = await open(dir.path, factory);
    assert.equal(engine.maxSeqNo, 2);
    assert.equal(engine.maxSeqNoOfUpdatesOrDeletes, 2);
    // An operation below the gap, sent with a low MSU by a request that left the primary before the update:
    // the copy still looks it up, so the newer `a` stays the only one.
    await apply(engine, [indexed(factory, 'a', 1, 2, 9)], -1);
    await engine.refresh('test');
    assert.equal(engine.stats().docs.count, 1);
    assert.equal((await engine.get('a', { realtime: false })).seqNo, 2);
  } finally {
    await engine.close();
    dir.remove();
  }
});

/** One step of the primary's history: index an id (maybe overwriting), delete it, or refresh. */
type Step = { kind: 'index'; id: number } | { kind: 'delete'; id: number };

test('a copy applying its primary requests in any order, each with the MSU the primary had after it, holds exactly what the primary holds (fast-check)', async () => {
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('index' as const), id: fc.integer({ min: 0, max: 7 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 7 }) }) },
  );
  const scenario = fc.record({
    // Requests of the primary, each a few operations.
    requests: fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 10 }),
    // The order the copy receives them in, and after which it refreshes.
    order: fc.array(fc.nat(), { minLength: 10, maxLength: 10 }),
    refreshAfter: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
    primaryRefreshAfter: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
    redeliver: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(scenario, async ({ requests, order, refreshAfter, primaryRefreshAfter, redeliver }) => {
      const primaryDir = tempDir();
      const replicaDir = tempDir();
      const primaryFactory = new DocumentFactory();
      const replicaFactory = new DocumentFactory();
      const primary = await open(primaryDir.path, primaryFactory, { gcDeletesMillis: 0 });
      const replica = await open(replicaDir.path, replicaFactory, { gcDeletesMillis: 0 });
      try {
        const sent: { operations: ReplicatedEngineOperation[]; msu: number }[] = [];
        let n = 0;
        for (let r = 0; r < requests.length; r++) {
          const operations: ReplicatedEngineOperation[] = [];
          for (const s of requests[r]!) {
            const id = `id-${s.id}`;
            if (s.kind === 'delete') {
              const result = await primary.delete({ id, versionType: 'internal', origin: 'primary', primaryTerm: 1 });
              operations.push({ type: 'delete', id, seqNo: result.seqNo, primaryTerm: 1, version: result.version });
            } else {
              const source = JSON.stringify({ n: n++ });
              const result = await primary.index(indexOp(primaryFactory, id, source));
              operations.push({ type: 'index', id, document: replicaFactory.parse(source, id), seqNo: result.seqNo, primaryTerm: 1, version: result.version });
            }
          }
          // Sampled after the primary applied the request, as replicate() does.
          sent.push({ operations, msu: primary.maxSeqNoOfUpdatesOrDeletes });
          if (primaryRefreshAfter[r]) await primary.refresh('test');
        }
        // Delivered in a shuffled order (requests of one primary are in flight together).
        const pending = [...sent];
        let i = 0;
        while (pending.length > 0) {
          const [request] = pending.splice(order[i % order.length]! % pending.length, 1);
          await apply(replica, request!.operations.map((operation) => ({ ...operation })), request!.msu);
          if (refreshAfter[i % refreshAfter.length]) await replica.refresh('test');
          i++;
        }
        // A recovery overlapping live replication re-delivers operations, with the MSU of the moment.
        if (redeliver) for (const request of [...sent].reverse()) await apply(replica, request.operations.map((operation) => ({ ...operation })), primary.maxSeqNoOfUpdatesOrDeletes);
        for (const realtime of [true, false]) {
          if (!realtime) {
            await replica.refresh('test');
            await primary.refresh('test');
          }
          for (let id = 0; id <= 7; id++) {
            const want = await primary.get(`id-${id}`, { realtime });
            const got = await replica.get(`id-${id}`, { realtime });
            assert.equal(got.found, want.found, `id-${id} found (realtime ${realtime})`);
            if (want.found) {
              assert.equal(got.seqNo, want.seqNo, `id-${id} seqNo (realtime ${realtime})`);
              assert.equal(got.version, want.version);
              assert.deepEqual(sourceOf(got.source), sourceOf(want.source));
            }
          }
        }
        assert.equal(replica.stats().docs.count, primary.stats().docs.count, 'live documents');
        assert.equal(replica.processedLocalCheckpoint, primary.processedLocalCheckpoint);
      } finally {
        await primary.close();
        await replica.close();
        primaryDir.remove();
        replicaDir.remove();
      }
    }),
    { numRuns: 20 },
  );
});
