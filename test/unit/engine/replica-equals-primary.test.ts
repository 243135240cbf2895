/**
 * A replica engine that applies its primary's operations must end holding exactly what the primary holds: the
 * same live ids, each with the primary's version, seqNo, term and `_source`, whatever the segments in between.
 * The replica's write step finds an id's current state in its version map, else in its segments (one map read
 * per operation, one probe of the id's hashes for all segments: IdProbe); a lookup that missed a document in a
 * segment would leave two live copies of an id, or let a stale re-delivery overwrite a newer document.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ReplicatedEngineOperation } from '../../../src/engine/engine.js';
import type { InternalEngine } from '../../../src/engine/internal-engine.js';
import { IdFilter, IdProbe, murmur3 } from '../../../src/engine/segments/id-filter.js';
import { DocumentFactory, indexOp, open, tempDir } from './engine-helpers.js';

test('an id probe hashes an id as murmur3 of its UTF-8 bytes, and a filter holding the id answers "maybe" to it (fast-check)', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii', maxLength: 40 })), (id) => {
      const bytes = Buffer.from(id, 'utf8');
      const probe = new IdProbe(id);
      assert.equal(probe.h1, murmur3(bytes, 0));
      assert.equal(probe.h2, murmur3(bytes, 0x9747b28c) | 1);
      assert.deepEqual(Buffer.from(probe.bytes), bytes);
      const filter = IdFilter.create(4);
      filter.add(bytes);
      assert.ok(filter.mayContainProbe(probe));
    }),
    { numRuns: 500 },
  );
});

/** Ids of every length around murmur3's 4-byte blocks, ASCII and not (the probe hashes those two ways). */
function idOf(n: number): string {
  const forms = [`${n}`, `d-${n}`, `doc-${n}-x`, `día-${n}`, `日本-${n}`, `emoji-${n}-😀`, `long-id-number-${n}-abcdefghijk`];
  return forms[n % forms.length]!;
}

interface Held {
  readonly found: boolean;
  readonly version?: number;
  readonly seqNo?: number;
  readonly primaryTerm?: number;
  readonly source?: string;
}

async function held(engine: InternalEngine, id: string, realtime: boolean): Promise<Held> {
  const got = await engine.get(id, { realtime });
  if (!got.found) return { found: false };
  return { found: true, version: got.version, seqNo: got.seqNo, primaryTerm: got.primaryTerm, source: Buffer.from(got.source!).toString('utf8') };
}

test('a replica applying its primary operations in requests, with refreshes between and stale re-deliveries, holds exactly what the primary holds', async () => {
  const primaryDir = tempDir();
  const replicaDir = tempDir();
  const primaryFactory = new DocumentFactory();
  const replicaFactory = new DocumentFactory();
  const primary = await open(primaryDir.path, primaryFactory);
  const replica = await open(replicaDir.path, replicaFactory);
  try {
    // The primary: 70 ids indexed, then updated, then some deleted and some re-created, with a refresh after
    // each round so that every round's documents end up in a segment of their own.
    const ids = Array.from({ length: 70 }, (_, n) => idOf(n));
    const history: ReplicatedEngineOperation[] = [];
    for (let round = 0; round < 4; round++) {
      for (let n = 0; n < ids.length; n++) {
        const id = ids[n]!;
        if (round === 2 && n % 3 === 0) {
          const result = await primary.delete({ id, versionType: 'internal', origin: 'primary', primaryTerm: 1 });
          history.push({ type: 'delete', id, seqNo: result.seqNo, primaryTerm: result.primaryTerm, version: result.version });
          continue;
        }
        if (round === 3 && n % 2 === 1) continue;
        const source = JSON.stringify({ n, round, title: `round ${round} of ${id}` });
        const result = await primary.index(indexOp(primaryFactory, id, source));
        history.push({ type: 'index', id, document: replicaFactory.parse(source, id), seqNo: result.seqNo, primaryTerm: result.primaryTerm, version: result.version });
      }
      await primary.refresh('test');
    }

    // The replica: the primary's operations in requests of 25 (a refresh after every other one), then every
    // operation again, newest first, as a recovery overlapping live replication would re-deliver them.
    const requests = (ops: readonly ReplicatedEngineOperation[]): ReplicatedEngineOperation[][] => {
      const out: ReplicatedEngineOperation[][] = [];
      for (let i = 0; i < ops.length; i += 25) out.push(ops.slice(i, i + 25));
      return out;
    };
    let count = 0;
    for (const request of [...requests(history), ...requests([...history].reverse())]) {
      const results = await replica.applyReplicated([...request], 'replica');
      for (const result of results) assert.ok(!(result instanceof Error), String(result));
      if (++count % 2 === 0) await replica.refresh('test');
    }

    for (const realtime of [true, false]) {
      if (!realtime) await replica.refresh('test');
      for (const id of ids) assert.deepEqual(await held(replica, id, realtime), await held(primary, id, realtime), `${id} (realtime ${realtime})`);
    }
    assert.equal(replica.stats().docs.count, primary.stats().docs.count, 'live documents');
    assert.equal(replica.maxSeqNo, primary.maxSeqNo);
    assert.equal(replica.processedLocalCheckpoint, primary.processedLocalCheckpoint);
  } finally {
    await primary.close();
    await replica.close();
    primaryDir.remove();
    replicaDir.remove();
  }
});
