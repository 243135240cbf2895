/** Records as columns (decision 0018): what crosses the wire for a column whose rows all hold one value. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeFrame, FrameDecoder, FrameKind, type ResponseFrame } from '../../../src/transport/frame.js';
import { column, toColumns, type RecordColumns } from '../../../src/transport/record-columns.js';

function acrossTheWire(body: RecordColumns): RecordColumns {
  const [frame] = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Response, id: 1, body }));
  return (frame as ResponseFrame).body as RecordColumns;
}

test('a column whose rows all hold the same scalar travels as that value once, and reads back as one per row', () => {
  const records = [1, 2, 3].map((n) => ({ op: 'index', routing: undefined, n, flag: false, source: new Uint8Array([n]) }));
  const wire = toColumns(records, ['op', 'routing', 'n', 'flag', 'source']);
  assert.deepEqual(wire.columns['op'], { all: 'index' });
  assert.deepEqual(wire.columns['flag'], { all: false });
  assert.ok('all' in (wire.columns['routing'] as object), 'undefined in every row is constant too');
  assert.deepEqual(wire.columns['n'], [1, 2, 3]);
  const back = acrossTheWire(wire);
  assert.deepEqual(column(back, 'op'), ['index', 'index', 'index']);
  assert.deepEqual(column(back, 'routing'), [undefined, undefined, undefined]);
  assert.deepEqual(column(back, 'flag'), [false, false, false]);
  assert.deepEqual(column(back, 'n'), [1, 2, 3]);
  assert.deepEqual(column(back, 'source').map((bytes) => [...(bytes as Uint8Array)]), [[1], [2], [3]]);
});

test('byte arrays and objects travel row by row even when the rows share one', () => {
  const shared = new Uint8Array([7]);
  const wire = toColumns([{ source: shared }, { source: shared }], ['source']);
  assert.ok(Array.isArray(wire.columns['source']));
});

test('a column that is neither rows nor a constant is refused', () => {
  assert.throws(() => column({ count: 2, columns: { op: ['index'] } }, 'op'), /column \[op\] missing or not 2 rows long/);
  assert.throws(() => column({ count: 2, columns: { op: { every: 'index' } as never } }, 'op'), /column \[op\] missing/);
  assert.throws(() => column({ count: 2, columns: {} }, 'op'), /column \[op\] missing/);
});

test('any records come back equal, column by column (fast-check)', () => {
  const value = fc.oneof(fc.constantFrom(undefined, null, true, false, 0, 'index'), fc.integer(), fc.string({ maxLength: 4 }));
  fc.assert(
    fc.property(fc.array(fc.record({ a: value, b: value, c: fc.constantFrom('x', 'y') }), { maxLength: 20 }), (records) => {
      const back = acrossTheWire(toColumns(records, ['a', 'b', 'c']));
      assert.equal(back.count, records.length);
      for (const key of ['a', 'b', 'c'] as const) assert.deepEqual(column(back, key), records.map((record) => record[key]), key);
    }),
    { numRuns: 300 },
  );
});
