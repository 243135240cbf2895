import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteWriter } from '../../../../src/engine/store/byte-writer.js';

test('writeString writes the UTF-8 bytes behind a vInt length, short ASCII and everything else alike', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 })), (value) => {
      const out = new ByteWriter(16);
      out.writeString(value);
      const expected = new ByteWriter(16);
      const bytes = Buffer.from(value, 'utf8');
      expected.writeVInt(bytes.length);
      expected.writeBytes(bytes);
      assert.deepEqual(out.toBuffer(), expected.toBuffer());
    }),
  );
});

test('writeBytesRange appends exactly bytes[start, end), short and long ranges, and refuses a range outside them', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat(), fc.nat(), (bytes, a, b) => {
      const start = Math.min(a, b) % (bytes.length + 1);
      const end = start + (Math.max(a, b) % (bytes.length - start + 1));
      const out = new ByteWriter(4);
      out.writeByte(7);
      out.writeBytesRange(bytes, start, end);
      assert.deepEqual(out.toBuffer(), Buffer.concat([Buffer.of(7), Buffer.from(bytes.subarray(start, end))]));
    }),
  );
  assert.throws(() => new ByteWriter().writeBytesRange(new Uint8Array(4), 2, 5), RangeError);
  assert.throws(() => new ByteWriter().writeBytesRange(new Uint8Array(4), 3, 2), RangeError);
});
