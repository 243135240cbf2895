import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeFrame, encodeFrameChunks, FrameDecoder, FrameKind, type RequestFrame } from '../../../../src/transport/frame.js';
import { operationsFromWire, operationsToWire, REPLICA_ACTION, replicaRequestToWire, type ReplicaRequest, type ReplicatedOperation } from '../../../../src/indices/replication/replicated-operation.js';
import { decodeOperations, encodeOperations } from '../../../../src/indices/replication/replicated-operations-codec.js';

function acrossTheWire<T>(body: T): T {
  const [frame] = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Request, id: 1, action: 'test', body }));
  return (frame as RequestFrame).body as T;
}

/** Operations as comparable values (a source's bytes, not its buffer). */
function comparable(operations: readonly ReplicatedOperation[]): unknown[] {
  return operations.map((operation) => (operation.type === 'index' ? { ...operation, source: [...operation.source] } : { ...operation }));
}

const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary', maxLength: 80 }));
const long = fc.oneof(fc.integer({ min: -2, max: 2 ** 31 }), fc.constantFrom(2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1, Number.MAX_SAFE_INTEGER - 7));

const operation: fc.Arbitrary<ReplicatedOperation> = fc.oneof(
  fc.record({
    type: fc.constant('index' as const),
    id: text,
    seqNo: long,
    primaryTerm: long,
    version: long,
    source: fc.uint8Array({ maxLength: 300 }),
    routing: fc.option(text, { nil: undefined }),
  }),
  fc.record({ type: fc.constant('delete' as const), id: text, seqNo: long, primaryTerm: long, version: long }),
  fc.record({ type: fc.constant('noop' as const), seqNo: long, primaryTerm: long, reason: text }),
);

/** What a string becomes through UTF-8: a lone surrogate turns into U+FFFD (as through JSON or the translog). */
function throughUtf8(value: string): string {
  return Buffer.from(value, 'utf8').toString('utf8');
}

function expected(operations: readonly ReplicatedOperation[]): unknown[] {
  return comparable(
    operations.map((operation): ReplicatedOperation => {
      if (operation.type === 'noop') return { ...operation, reason: throughUtf8(operation.reason) };
      if (operation.type === 'delete') return { ...operation, id: throughUtf8(operation.id) };
      return { ...operation, id: throughUtf8(operation.id), routing: operation.routing === undefined ? undefined : throughUtf8(operation.routing) };
    }),
  );
}

test('replicated operations cross the transport as one byte string and come back equal, one shape per type', () => {
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
      const wire = operationsToWire(operations);
      assert.ok(wire instanceof Uint8Array);
      const back = operationsFromWire(acrossTheWire(wire));
      assert.deepEqual(comparable(back), expected(operations));
      // Every operation has exactly its type's keys (the apply path reads them by shape).
      back.forEach((got) => {
        const keys = got.type === 'index' ? ['id', 'primaryTerm', 'routing', 'seqNo', 'source', 'type', 'version'] : got.type === 'delete' ? ['id', 'primaryTerm', 'seqNo', 'type', 'version'] : ['primaryTerm', 'reason', 'seqNo', 'type'];
        assert.deepEqual(Object.keys(got).sort(), keys);
      });
    }),
    { numRuns: 300 },
  );
});

test('edge cases: an empty batch, unicode texts, a large source, deletes and no-ops, seq_nos past 32 bits', () => {
  assert.deepEqual(decodeOperations(encodeOperations([])), []);
  const large = Buffer.alloc(3 * 1024 * 1024 + 17, 0x61);
  large[0] = 0x7b;
  const operations: ReplicatedOperation[] = [
    { type: 'index', id: 'plain', seqNo: 0, primaryTerm: 1, version: 1, source: Buffer.from('{"a":1}'), routing: undefined },
    { type: 'index', id: 'ünï©ødé-😀', seqNo: 2 ** 32 + 5, primaryTerm: 2 ** 40, version: 2 ** 53 - 1, source: Buffer.from('{"t":"日本語"}'), routing: 'rôute-😀' },
    { type: 'index', id: 'x'.repeat(70_000), seqNo: Number.MAX_SAFE_INTEGER, primaryTerm: 3, version: 7, source: large, routing: '' },
    { type: 'index', id: '', seqNo: 4, primaryTerm: 3, version: 1, source: new Uint8Array(0), routing: 'r' },
    { type: 'delete', id: 'gone', seqNo: 5, primaryTerm: 3, version: 2 },
    { type: 'delete', id: 'gøne', seqNo: 6, primaryTerm: 3, version: 3 },
    { type: 'noop', seqNo: 7, primaryTerm: 3, reason: 'filling gaps' },
    { type: 'noop', seqNo: 8, primaryTerm: 3, reason: '' },
  ];
  const back = operationsFromWire(acrossTheWire(operationsToWire(operations)));
  assert.deepEqual(comparable(back), comparable(operations));
  // The sources are views into the received bytes, not copies.
  const wire = encodeOperations(operations);
  const decoded = decodeOperations(wire);
  assert.equal((decoded[2] as { source: Uint8Array }).source.buffer, wire.buffer);
  // A batch whose texts are all ASCII is read the same way as one with unicode texts.
  const ascii = operations.filter((op) => op.type !== 'index' || op.routing === undefined || /^[\x00-\x7f]*$/.test(op.routing)).filter((op) => op.type === 'noop' || /^[\x00-\x7f]*$/.test(op.id));
  assert.deepEqual(comparable(decodeOperations(encodeOperations(ascii))), comparable(ascii));
});

test('a replica request with operations as a plain array (a test) is read as it is', () => {
  const operations: ReplicatedOperation[] = [{ type: 'delete', id: 'x', seqNo: 3, primaryTerm: 1, version: 2 }];
  assert.deepEqual(operationsFromWire(acrossTheWire(operations)), operations);
});

test('malformed operation bytes are refused, never applied in part', () => {
  const wire = encodeOperations([
    { type: 'index', id: 'a', seqNo: 1, primaryTerm: 1, version: 1, source: Buffer.from('{}'), routing: 'r' },
    { type: 'noop', seqNo: 2, primaryTerm: 1, reason: 'r' },
  ]);
  for (let cut = 0; cut < wire.length; cut++) {
    assert.throws(() => decodeOperations(wire.subarray(0, cut)), /malformed replicated operations/, `cut at ${cut}`);
  }
  const version = Buffer.from(wire);
  version[0] = 2;
  assert.throws(() => decodeOperations(version), /unsupported format version \[2\]/);
  const kind = Buffer.from(wire);
  kind[10] = 9;
  assert.throws(() => decodeOperations(kind), /unknown operation kind \[9\] at operation 0/);
  const count = Buffer.from(wire);
  count.writeUInt32LE(0xffffffff, 1);
  assert.throws(() => decodeOperations(count), /operations in \d+ bytes of records/);
  const trailing = Buffer.concat([wire, Buffer.from([0])]);
  assert.throws(() => decodeOperations(trailing), /bytes left after the last operation/);
  assert.throws(() => encodeOperations([{ type: 'merge' } as unknown as ReplicatedOperation]), /unknown replicated operation type \[merge\]/);
});

test('a replica request crosses a socket with its operations as the frame\'s second chunk, and is read as an ordinary request', () => {
  const operations: ReplicatedOperation[] = Array.from({ length: 50 }, (_, i) => ({ type: 'index', id: `doc-${i}`, seqNo: 2 ** 33 + i, primaryTerm: 4, version: 1, source: Buffer.from(`{"n":${i},"t":"ü"}`), routing: i % 2 === 0 ? undefined : `r${i}` }));
  const wireOperations = operationsToWire(operations);
  const request: ReplicaRequest = { index: 'i', indexUuid: 'u', shard: 2, targetAllocationId: 'a', primaryTerm: 4, globalCheckpoint: 2 ** 33 - 1, maxSeqNoOfUpdatesOrDeletes: 2 ** 33 + 3, operations: wireOperations, refresh: 'wait_for' };
  const chunks = encodeFrameChunks({ kind: FrameKind.Request, id: 7, action: REPLICA_ACTION, parentTaskId: 'n:1', sender: 'n', term: undefined, headers: { 'X-Opaque-Id': 'x' }, body: replicaRequestToWire(request) });
  assert.equal(chunks.length, 2);
  assert.equal(chunks[1]!.buffer, (wireOperations as Buffer).buffer, 'the operations are not copied into the frame');
  const whole = Buffer.concat(chunks);
  const decoder = new FrameDecoder();
  const frames = [];
  for (let i = 0; i < whole.length; i += 997) frames.push(...decoder.push(whole.subarray(i, i + 997)));
  assert.equal(frames.length, 1);
  const frame = frames[0] as RequestFrame;
  assert.deepEqual({ id: frame.id, action: frame.action, parentTaskId: frame.parentTaskId, sender: frame.sender, headers: frame.headers }, { id: 7, action: REPLICA_ACTION, parentTaskId: 'n:1', sender: 'n', headers: { 'X-Opaque-Id': 'x' } });
  const read = frame.body as ReplicaRequest;
  assert.deepEqual({ ...read, operations: undefined }, { ...request, operations: undefined });
  assert.deepEqual(comparable(operationsFromWire(read.operations)), comparable(operations));
  // A request whose operations are not a byte string (a test's plain array) is sent as it is.
  const plain = { ...request, operations };
  assert.equal(replicaRequestToWire(plain), plain);
});
