import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lz4Compress, lz4Decompress, Lz4FormatError } from '../../../../src/engine/codec/stored/lz4.js';
import { StoredFieldsWriter } from '../../../../src/engine/codec/stored/stored-fields-writer.js';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored/stored-fields-reader.js';
import type { StoredField } from '../../../../src/engine/codec/stored/stored-fields-format.js';
import { SEGMENT_ID } from './postings-fixtures.js';

/** Inputs LZ4 finds matches in: repeated words, runs, and plain noise. */
const compressible = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.array(fc.constantFrom('the ', 'quick ', 'brown ', 'fox ', '{"a":1,', '\n', 'aaaaaaaaaaaaaaaaaaaaaaaaa'), { maxLength: 400 }).map((w) =>
    new TextEncoder().encode(w.join('')),
  ),
  fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 70_000 })).map(([b, n]) => new Uint8Array(n).fill(b)),
);

test('lz4 round-trips any input, and decoding can stop early at a prefix', () => {
  fc.assert(
    fc.property(compressible, fc.double({ min: 0, max: 1, noNaN: true }), (input, fraction) => {
      const compressed = lz4Compress(input);
      const out = new Uint8Array(input.length);
      assert.equal(lz4Decompress(compressed, 0, compressed.length, out), input.length);
      assert.deepEqual(out, input);
      const needed = Math.floor(input.length * fraction);
      const partial = new Uint8Array(input.length);
      const produced = lz4Decompress(compressed, 0, compressed.length, partial, needed);
      assert.ok(produced >= needed);
      assert.deepEqual(partial.subarray(0, needed), input.subarray(0, needed));
    }),
    { numRuns: 150 },
  );
});

test('lz4 compresses runs and repeated text', () => {
  assert.ok(lz4Compress(new Uint8Array(100_000)).length < 500);
  const text = new TextEncoder().encode('{"package":"libfoo","version":"1.0"}\n'.repeat(1000));
  assert.ok(lz4Compress(text).length < text.length / 20);
});

test('lz4 decoding rejects malformed input instead of reading out of bounds', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 500 }), (garbage, length) => {
      const out = new Uint8Array(length);
      try {
        lz4Decompress(garbage, 0, garbage.length, out);
      } catch (err) {
        assert.ok(err instanceof Lz4FormatError, String(err));
      }
    }),
    { numRuns: 300 },
  );
});

const storedValue = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
);
const storedDoc = fc.array(
  fc.record({ name: fc.constantFrom('_id', '_source', '_routing', 'n', 'été'), value: storedValue }),
  { maxLength: 5 },
);

function sameValue(a: StoredField['value'], b: StoredField['value']): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  return Object.is(a, b);
}

test('stored fields round-trip in both compression modes, with random access in any order', () => {
  for (const compression of ['deflate_fast', 'deflate_best', 'lz4'] as const) {
    fc.assert(
      fc.property(
        fc.array(storedDoc, { minLength: 0, maxLength: 300 }),
        fc.integer({ min: 64, max: 4096 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (docs, chunkSize, probes) => {
          const writer = new StoredFieldsWriter(SEGMENT_ID, compression, chunkSize);
          docs.forEach((fields, i) => assert.equal(writer.addDocument(fields), i));
          const reader = new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, docs.length);
          const order = docs.length === 0 ? [] : [...docs.keys(), ...probes.map((p) => p % docs.length)];
          for (const doc of order) {
            const got = reader.document(doc);
            const expected = docs[doc]!;
            assert.equal(got.length, expected.length);
            got.forEach((field, i) => {
              assert.equal(field.name, expected[i]!.name);
              assert.ok(sameValue(field.value, expected[i]!.value), `doc ${doc} field ${i}`);
            });
          }
          if (docs.length > 0) {
            const onlyIds = reader.document(0, new Set(['_id']));
            assert.ok(onlyIds.every((f) => f.name === '_id'));
          }
        },
      ),
      { numRuns: 25 },
    );
  }
});

test('stored fields reject out-of-range doc ids', () => {
  const writer = new StoredFieldsWriter(SEGMENT_ID);
  writer.addDocument([{ name: '_id', value: '1' }]);
  const reader = new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, 1);
  assert.throws(() => reader.document(1), RangeError);
  assert.throws(() => reader.document(-1), RangeError);
  assert.throws(() => new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, 2), /corrupt|docs/);
});
