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
