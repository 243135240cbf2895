import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EsError } from '../../../../src/common/errors.js';
import { RawJson } from '../../../../src/common/raw-json.js';
import { encodeFrame, FrameDecoder, FrameKind, type RequestFrame } from '../../../../src/transport/frame.js';
import { itemsFromWire, itemsToWire, outcomesFromWire, outcomesToWire } from '../../../../src/actions/documents/shard-bulk-wire.js';
import type { DocWriteItem, DocWriteOutcome } from '../../../../src/actions/documents/doc-write.js';

/** A value as the receiving node sees it: through the real frame encoder and decoder. */
function acrossTheWire<T>(body: T): T {
  const [frame] = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Request, id: 1, action: 'test', body }));
  return (frame as RequestFrame).body as T;
}

function item(op: DocWriteItem['op'], id: string, extra: Partial<DocWriteItem> = {}): DocWriteItem {
  return {
    op,
    index: 'logs',
    id,
    routing: undefined,
    version: undefined,
    versionType: 'internal',
    ifSeqNo: undefined,
    ifPrimaryTerm: undefined,
    source: op === 'delete' || op === 'update' ? undefined : new TextEncoder().encode(`{"n":${id.length}}`),
    update: undefined,
    requireAlias: false,
    ...extra,
  };
}

test('shard bulk items cross the transport as columns and come back equal, updates with their number literals', () => {
  const items: DocWriteItem[] = [
    item('index', '1', { sourceIsUtf8: true }),
    item('create', '2', { routing: 'r1', version: 7, versionType: 'external' }),
    item('delete', '3', { ifSeqNo: 4, ifPrimaryTerm: 1 }),
    item('update', '4', { update: { doc: { n: new RawJson('5') }, upsert: undefined, docAsUpsert: false, scriptedUpsert: false, detectNoop: true, script: undefined, fetchSource: undefined, retryOnConflict: 0 } as never }),
  ];
  const back = itemsFromWire(acrossTheWire(itemsToWire(items)));
  assert.equal(back.length, items.length);
  back.forEach((got, i) => {
    const want = items[i]!;
    for (const key of ['op', 'index', 'id', 'routing', 'version', 'versionType', 'ifSeqNo', 'ifPrimaryTerm', 'requireAlias'] as const) assert.equal(got[key], want[key], `${i}.${key}`);
    assert.deepEqual(got.source === undefined ? undefined : [...got.source], want.source === undefined ? undefined : [...want.source]);
  });
  const doc = back[3]!.update!.doc as Record<string, unknown>;
  assert.ok(doc['n'] instanceof RawJson, 'a number literal of an update stays RawJson');
  // An array of items (an older sender, a test) is read too.
  assert.equal(itemsFromWire([items[0]!]).length, 1);
});

test('shard bulk outcomes come back as the primary made them, plain successes rebuilt from the request', () => {
  const items = [item('index', 'a'), item('index', 'b', { routing: 'r' }), item('delete', 'c'), item('create', 'd'), item('index', 'e')];
  const ids = items.map((it) => it.id!);
  const shards = { total: 2, successful: 2, failed: 0 };
  const success = (i: number, result: 'created' | 'updated' | 'deleted' | 'not_found', seqNo: number): DocWriteOutcome => ({
    kind: 'success',
    op: items[i]!.op,
    index: 'logs',
    id: ids[i]!,
    version: seqNo + 1,
    result,
    seqNo,
    primaryTerm: 3,
    shards,
    forcedRefresh: i === 1,
    routing: items[i]!.routing,
  });
  const outcomes: DocWriteOutcome[] = [
    success(0, 'created', 10),
    success(1, 'updated', 11),
    success(2, 'not_found', 12),
    { kind: 'failure', op: 'create', index: 'logs', id: 'd', error: new EsError('version_conflict_engine_exception', '[d]: version conflict, document already exists (current version [1])') },
    // A success carrying replica failures travels whole.
    { ...success(4, 'created', 13), shards: { total: 2, successful: 1, failed: 1, failures: [{ index: 'logs', shard: 0, nodeId: 'n2', primary: false, error: new EsError('illegal_state_exception', 'copy failed') }] } } as DocWriteOutcome,
  ];
  const request = { index: 'logs', ids, items };
  const back = outcomesFromWire(acrossTheWire(outcomesToWire(outcomes, request)), request);
  assert.equal(back.length, outcomes.length);
  for (const i of [0, 1, 2]) assert.deepEqual(back[i], outcomes[i], `outcome ${i}`);
  const failure = back[3]!;
  assert.equal(failure.kind, 'failure');
  assert.ok(failure.kind === 'failure' && failure.error instanceof EsError && failure.error.type === 'version_conflict_engine_exception');
  const withFailures = back[4]!;
  assert.ok(withFailures.kind === 'success' && withFailures.shards.failures![0]!.error instanceof EsError);
  assert.equal(withFailures.kind === 'success' && withFailures.shards.failures![0]!.error.reason, 'copy failed');
});

test('any mix of outcomes survives the round trip in order', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom('created', 'updated', 'deleted', 'not_found', 'noop', 'fail'), fc.nat(), fc.boolean(), fc.option(fc.string(), { nil: undefined })), { maxLength: 40 }), (specs) => {
      const items = specs.map(([, , , routing], i) => item('index', `id${i}`, { routing }));
      const ids = items.map((it) => it.id!);
      const shards = [{ total: 1, successful: 1, failed: 0 }, { total: 3, successful: 2, failed: 0 }];
      const outcomes: DocWriteOutcome[] = specs.map(([result, seqNo, refreshed, routing], i) =>
        result === 'fail'
          ? { kind: 'failure', op: 'index', index: 'logs', id: ids[i], error: new EsError('mapper_parsing_exception', `bad ${i}`) }
          : { kind: 'success', op: 'index', index: 'logs', id: ids[i]!, version: 1, result, seqNo, primaryTerm: 1, shards: shards[seqNo % 2]!, forcedRefresh: refreshed, routing },
      );
      const request = { index: 'logs', ids, items };
      const back = outcomesFromWire(acrossTheWire(outcomesToWire(outcomes, request)), request);
      back.forEach((got, i) => {
        const want = outcomes[i]!;
        if (want.kind === 'failure') assert.ok(got.kind === 'failure' && got.error.reason === want.error.reason);
        else assert.deepEqual(got, want);
      });
    }),
  );
});

test('a bulk of alike items sends their shared fields once: only ids and sources go row by row', () => {
  const items = ['a', 'b', 'c'].map((id) => item('index', id, { id: undefined, sourceIsUtf8: true }));
  const wire = itemsToWire(items);
  for (const key of ['op', 'index', 'id', 'routing', 'version', 'versionType', 'ifSeqNo', 'ifPrimaryTerm', 'update', 'requireAlias', 'sourceIsUtf8']) {
    assert.ok(!Array.isArray(wire.columns[key]), `${key} travels once`);
  }
  assert.ok(Array.isArray(wire.columns['source']));
  const back = itemsFromWire(acrossTheWire(wire));
  assert.deepEqual(
    back.map((got) => [got.op, got.index, got.versionType, got.sourceIsUtf8, got.requireAlias]),
    items.map(() => ['index', 'logs', 'internal', true, false]),
  );
});

test('outcomes of one shard share their `_shards` block after the trip, as on the primary', () => {
  const items = [item('index', 'a'), item('index', 'b')];
  const request = { index: 'logs', ids: ['a', 'b'], items };
  const shards = { total: 1, successful: 1, failed: 0 };
  const outcomes: DocWriteOutcome[] = request.ids.map((id, i) => ({ kind: 'success', op: 'index', index: 'logs', id, version: 1, result: 'created', seqNo: i, primaryTerm: 1, shards, forcedRefresh: false, routing: undefined }));
  const back = outcomesFromWire(acrossTheWire(outcomesToWire(outcomes, request)), request) as Array<Extract<DocWriteOutcome, { kind: 'success' }>>;
  assert.deepEqual(back[0]!.shards, shards);
  assert.equal(back[0]!.shards, back[1]!.shards);
});
