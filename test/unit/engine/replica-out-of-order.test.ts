/**
 * A replica (or a recovering copy) may receive one document's operations in any order: live replication and
 * recovery overlap, and the recovery source keeps two history batches in flight. Whatever the order, and
 * whether a refresh or the time of gc_deletes comes between them, the copy must end with the operation of the
 * highest seqNo (ES: an operation older than what the copy holds is stale and only goes to the translog).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplicatedEngineOperation } from '../../../src/engine/engine.js';
import type { InternalEngine } from '../../../src/engine/internal-engine.js';
import { DocumentFactory, open, sourceOf, tempDir } from './engine-helpers.js';

type Step = { kind: 'index'; n: number } | { kind: 'delete' };

/** One document's history as its primary sequenced it: seqNo i, version i + 1. */
function history(factory: DocumentFactory, id: string, steps: readonly Step[], firstSeqNo = 0): ReplicatedEngineOperation[] {
  return steps.map((step, i) =>
    step.kind === 'index'
      ? { type: 'index', id, document: factory.parse({ n: step.n }, id), seqNo: firstSeqNo + i, primaryTerm: 1, version: i + 1 }
      : { type: 'delete', id, seqNo: firstSeqNo + i, primaryTerm: 1, version: i + 1 },
  );
}

async function applyOneByOne(engine: InternalEngine, operations: readonly ReplicatedEngineOperation[], between: () => Promise<void>): Promise<void> {
  for (const operation of operations) {
    const [result] = await engine.applyReplicated([operation], 'peer_recovery');
    assert.ok(!(result instanceof Error), String(result));
    await between();
  }
}

const orders: Record<string, (ops: ReplicatedEngineOperation[]) => ReplicatedEngineOperation[]> = {
  'in order': (ops) => ops,
  reversed: (ops) => [...ops].reverse(),
  'newest first, then the rest in order': (ops) => [ops[ops.length - 1]!, ...ops.slice(0, -1)],
};

const histories: Record<string, Step[]> = {
  'ending with an index': [{ kind: 'index', n: 1 }, { kind: 'delete' }, { kind: 'index', n: 3 }],
  'ending with a delete': [{ kind: 'index', n: 1 }, { kind: 'index', n: 2 }, { kind: 'delete' }],
};

for (const [historyName, steps] of Object.entries(histories)) {
  for (const [orderName, reorder] of Object.entries(orders)) {
    for (const refreshBetween of [false, true]) {
      test(`one document's operations ${historyName}, applied ${orderName}${refreshBetween ? ' with refreshes between' : ''} (gc_deletes 0), leave the newest`, async () => {
        const dir = tempDir();
        const factory = new DocumentFactory();
        // gc_deletes 0: a tombstone may be forgotten at the first refresh by time, but never while an older
        // operation of its document may still arrive (its seqNo is above the local checkpoint).
        const engine = await open(dir.path, factory, { gcDeletesMillis: 0 });
        try {
          const ops = history(factory, 'doc', steps);
          await applyOneByOne(engine, reorder(ops), async () => {
            if (refreshBetween) await engine.refresh('test');
          });
          const newest = ops[ops.length - 1]!;
          const got = await engine.get('doc');
          if (newest.type === 'delete') {
            assert.equal(got.found, false, `doc came back: ${JSON.stringify({ ...got, source: sourceOf(got.source) })}`);
          } else {
            assert.equal(got.found, true);
            assert.equal(got.seqNo, newest.seqNo);
            assert.equal(got.version, steps.length);
            assert.deepEqual(sourceOf(got.source), { n: 3 });
          }
          await engine.refresh('test');
          const after = await engine.get('doc', { realtime: false });
          assert.equal(after.found, newest.type === 'index');
          if (newest.type === 'index') assert.equal(after.seqNo, newest.seqNo);
          assert.equal(engine.processedLocalCheckpoint, ops.length - 1);
          assert.equal(engine.persistedLocalCheckpoint, ops.length - 1);
        } finally {
          await engine.close();
          dir.remove();
        }
      });
    }
  }
}

test('two batches of recovery history applied in reverse order and overlapping live operations leave every document as its primary has it', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { gcDeletesMillis: 0 });
  try {
    // The primary's history: 40 documents, each indexed, updated, and every third deleted at the end.
    const all: ReplicatedEngineOperation[] = [];
    let seqNo = 0;
    const expected = new Map<string, { seqNo: number; n: number } | null>();
    for (let round = 0; round < 3; round++) {
      for (let d = 0; d < 40; d++) {
        const id = `d${d}`;
        const version = round + 1;
        if (round === 2 && d % 3 === 0) {
          all.push({ type: 'delete', id, seqNo, primaryTerm: 1, version });
          expected.set(id, null);
        } else {
          const n = round * 100 + d;
          all.push({ type: 'index', id, document: factory.parse({ n }, id), seqNo, primaryTerm: 1, version });
          expected.set(id, { seqNo, n });
        }
        seqNo++;
      }
    }
    const firstBatch = all.slice(0, 60);
    const secondBatch = all.slice(60);
    // The live operations (the last 30) arrive first, then the second batch, a refresh, then the first batch.
    for (const batch of [all.slice(-30), secondBatch, firstBatch]) {
      const results = await engine.applyReplicated([...batch], 'peer_recovery');
      for (const result of results) assert.ok(!(result instanceof Error), String(result));
      await engine.refresh('test');
    }
    for (const [id, want] of expected) {
      const got = await engine.get(id);
      if (want === null) assert.equal(got.found, false, `${id} was deleted last`);
      else {
        assert.equal(got.found, true, id);
        assert.equal(got.seqNo, want.seqNo, id);
        assert.deepEqual(sourceOf(got.source), { n: want.n });
      }
    }
    assert.equal(engine.processedLocalCheckpoint, all.length - 1);
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('a delete that reached a copy before an older index of its document, with a flush between, still wins after the engine reopens from its store', async () => {
  // ES rebuilds the version map (tombstones included) from the documents above the commit's local checkpoint
  // when an engine opens. Here the translog keeps every operation above that checkpoint, and opening replays
  // them: the delete comes back as a tombstone before the older index is replayed. Before, only the operations
  // after the commit were replayed: the older index met no trace of the delete and brought the document back
  // (on a promoted replica restarting, say), and the delete's seqNo was never marked processed again.
  const dir = tempDir();
  const factory = new DocumentFactory();
  let engine = await open(dir.path, factory);
  try {
    const applied = async (operation: ReplicatedEngineOperation): Promise<void> => {
      const [result] = await engine.applyReplicated([operation], 'replica');
      assert.ok(!(result instanceof Error), String(result));
    };
    await applied({ type: 'index', id: 'other', document: factory.parse({ n: 0 }, 'other'), seqNo: 0, primaryTerm: 1, version: 1 });
    // The delete (seqNo 2) arrives before the index it follows (seqNo 1), and a flush commits it in between.
    await applied({ type: 'delete', id: 'doc', seqNo: 2, primaryTerm: 1, version: 2 });
    await engine.flush({ force: true });
    await applied({ type: 'index', id: 'doc', document: factory.parse({ n: 1 }, 'doc'), seqNo: 1, primaryTerm: 1, version: 1 });
    assert.equal((await engine.get('doc')).found, false);
    assert.equal(engine.processedLocalCheckpoint, 2);
    // A crash: no close-time flush (the translog is fsynced per request).
    await engine.close({ flush: false });

    engine = await open(dir.path, factory);
    const got = await engine.get('doc');
    assert.equal(got.found, false, `doc came back after the reopen: ${JSON.stringify({ ...got, source: got.found ? sourceOf(got.source) : undefined })}`);
    await engine.refresh('test');
    assert.equal((await engine.get('doc', { realtime: false })).found, false);
    assert.equal(engine.processedLocalCheckpoint, 2);
    assert.equal(engine.maxSeqNo, 2);
  } finally {
    await engine.close();
    dir.remove();
  }
});

test('a copy reopened for an operations-based recovery on a commit holding a delete above its local checkpoint ends without the document, whatever order the history arrives in', async () => {
  // The other way a restarted copy meets old operations: peer recovery re-sends history from the commit's local
  // checkpoint + 1, so the delete comes again with the older index (its own translog is not replayed).
  for (const order of ['delete first', 'index first'] as const) {
    const dir = tempDir();
    const factory = new DocumentFactory();
    let engine = await open(dir.path, factory);
    try {
      const other: ReplicatedEngineOperation = { type: 'index', id: 'other', document: factory.parse({ n: 0 }, 'other'), seqNo: 0, primaryTerm: 1, version: 1 };
      const older: ReplicatedEngineOperation = { type: 'index', id: 'doc', document: factory.parse({ n: 1 }, 'doc'), seqNo: 1, primaryTerm: 1, version: 1 };
      const deleted: ReplicatedEngineOperation = { type: 'delete', id: 'doc', seqNo: 2, primaryTerm: 1, version: 2 };
      await engine.applyReplicated([other, deleted], 'replica');
      await engine.flush({ force: true });
      await engine.close({ flush: false });
      engine = await open(dir.path, factory, { openMode: 'recovery_target' });
      const history = order === 'delete first' ? [deleted, older] : [older, deleted];
      for (const operation of history) {
        const [result] = await engine.applyReplicated([operation], 'peer_recovery');
        assert.ok(!(result instanceof Error), String(result));
        await engine.refresh('test');
      }
      assert.equal((await engine.get('doc')).found, false, order);
      assert.equal(engine.processedLocalCheckpoint, 2, order);
    } finally {
      await engine.close();
      dir.remove();
    }
  }
});

test('an operation re-delivered after its document was deleted and the tombstone pruned (gc_deletes 0) does not bring the document back', async () => {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, { gcDeletesMillis: 0 });
  try {
    const [index, remove] = history(factory, 'doc', [{ kind: 'index', n: 1 }, { kind: 'delete' }]);
    await applyOneByOne(engine, [index!, remove!], async () => undefined);
    // Both seqNos are at or below the local checkpoint now, so a refresh once gc_deletes (0 ms) has passed
    // forgets the delete's tombstone.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await engine.refresh('test');
    await engine.refresh('test');
    // Live replication and recovery overlap: the index arrives again (parsed anew, as a new request is).
    const [indexAgain] = history(factory, 'doc', [{ kind: 'index', n: 1 }]);
    await applyOneByOne(engine, [indexAgain!], async () => engine.refresh('test'));
    const got = await engine.get('doc');
    assert.equal(got.found, false, `the deleted document came back: ${JSON.stringify({ ...got, source: sourceOf(got.source) })}`);
    assert.equal((await engine.get('doc', { realtime: false })).found, false);
    assert.equal(engine.processedLocalCheckpoint, 1);
  } finally {
    await engine.close();
    dir.remove();
  }
});
