import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeFrame, FrameDecoder, FrameKind, type RequestFrame } from '../../../../src/transport/frame.js';
import { operationsFromWire, operationsToWire, type ReplicatedOperation } from '../../../../src/indices/replication/replicated-operation.js';

function acrossTheWire<T>(body: T): T {
  const [frame] = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Request, id: 1, action: 'test', body }));
  return (frame as RequestFrame).body as T;
}

const operation: fc.Arbitrary<ReplicatedOperation> = fc.oneof(
  fc.record({
    type: fc.constant('index' as const),
    id: fc.string(),
    seqNo: fc.nat(),
    primaryTerm: fc.integer({ min: 1, max: 100 }),
    version: fc.integer({ min: 1, max: 2 ** 40 }),
    source: fc.uint8Array({ maxLength: 30 }),
    routing: fc.option(fc.string(), { nil: undefined }),
  }),
  fc.record({ type: fc.constant('delete' as const), id: fc.string(), seqNo: fc.nat(), primaryTerm: fc.integer({ min: 1, max: 100 }), version: fc.nat() }),
  fc.record({ type: fc.constant('noop' as const), seqNo: fc.nat(), primaryTerm: fc.integer({ min: 1, max: 100 }), reason: fc.string() }),
);

test('replicated operations cross the transport as columns and come back equal, one shape per type', () => {
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
      const back = operationsFromWire(acrossTheWire(operationsToWire(operations)));
      assert.equal(back.length, operations.length);
      back.forEach((got, i) => {
        const want = operations[i]!;
        if (want.type === 'index' && got.type === 'index') {
          assert.deepEqual({ ...got, source: [...got.source] }, { ...want, source: [...want.source] });
        } else {
          assert.deepEqual(got, { ...want });
        }
      });
    }),
  );
});

test('a replica request with operations as a plain array (an older sender, a test) is read as it is', () => {
  const operations: ReplicatedOperation[] = [{ type: 'delete', id: 'x', seqNo: 3, primaryTerm: 1, version: 2 }];
  assert.deepEqual(operationsFromWire(acrossTheWire(operations)), operations);
});

test('columns of an unknown operation type are refused, not applied', () => {
  const wire = operationsToWire([{ type: 'noop', seqNo: 1, primaryTerm: 1, reason: 'r' }]);
  const bad = { ...wire, columns: { ...wire.columns, type: ['merge'] } };
  assert.throws(() => operationsFromWire(bad), /unknown replicated operation type \[merge\]/);
});
