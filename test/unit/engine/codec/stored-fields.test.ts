import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lz4Compress, lz4Decompress, Lz4FormatError } from '../../../../src/engine/codec/stored/lz4.js';
import { StoredFieldsWriter } from '../../../../src/engine/codec/stored/stored-fields-writer.js';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored/stored-fields-reader.js';
import { STORED_FIELDS_CODEC, type StoredField } from '../../../../src/engine/codec/stored/stored-fields-format.js';
import type { BlockLayout, StoredCompression } from '../../../../src/engine/codec/stored/compression.js';
import { finishCodecFile, startCodecFile } from '../../../../src/engine/codec/codec-file.js';
import { crc32 } from '../../../../src/engine/codec/crc32.js';
import { EsError } from '../../../../src/common/errors.js';
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

test('lz4 round-trips a block compressed against a preset dictionary, and reaches into it', () => {
  fc.assert(
    fc.property(compressible, compressible, fc.double({ min: 0, max: 1, noNaN: true }), (dictionary, block, fraction) => {
      const joined = new Uint8Array(dictionary.length + block.length);
      joined.set(dictionary, 0);
      joined.set(block, dictionary.length);
      const compressed = lz4Compress(joined, dictionary.length);
      const out = new Uint8Array(joined.length);
      out.set(dictionary, 0);
      assert.equal(lz4Decompress(compressed, 0, compressed.length, out, out.length, dictionary.length), out.length);
      assert.deepEqual(out, joined);
      const needed = dictionary.length + Math.floor(block.length * fraction);
      const partial = new Uint8Array(joined.length);
      partial.set(dictionary, 0);
      assert.ok(lz4Decompress(compressed, 0, compressed.length, partial, needed, dictionary.length) >= needed);
      assert.deepEqual(partial.subarray(0, needed), joined.subarray(0, needed));
    }),
    { numRuns: 100 },
  );
  const text = new TextEncoder().encode('{"package":"libfoo","version":"1.0","description":"a library"}\n');
  const withDictionary = new Uint8Array(text.length * 2);
  withDictionary.set(text, 0);
  withDictionary.set(text, text.length);
  assert.ok(lz4Compress(withDictionary, text.length).length < 12, 'a block equal to its dictionary is one match');
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

const MODES: readonly StoredCompression[] = ['deflate_fast', 'deflate_best', 'lz4'];

/** Block layouts from one doc per block to many, so every boundary (dictionary block, chunk) is crossed. */
const layout: fc.Arbitrary<Partial<BlockLayout>> = fc.record({
  dictionaryBlockBytes: fc.integer({ min: 1, max: 4096 }),
  blockBytes: fc.integer({ min: 1, max: 4096 }),
  blocksPerChunk: fc.integer({ min: 1, max: 12 }),
  metaBytes: fc.integer({ min: 1, max: 2048 }),
  maxDocsPerBlock: fc.integer({ min: 1, max: 200 }),
  metaCompression: fc.constantFrom<BlockLayout['metaCompression']>(...MODES, 'none'),
  metaGroupDocs: fc.integer({ min: 1, max: 40 }),
});

function assertSameFields(got: readonly StoredField[], expected: readonly StoredField[], doc: number): void {
  assert.equal(got.length, expected.length, `doc ${doc}: field count`);
  got.forEach((field, i) => {
    assert.equal(field.name, expected[i]!.name);
    assert.ok(sameValue(field.value, expected[i]!.value), `doc ${doc} field ${i}`);
  });
}

test('stored fields round-trip in every compression mode and block layout, with random access in any order', () => {
  for (const compression of MODES) {
    fc.assert(
      fc.property(
        fc.array(storedDoc, { minLength: 0, maxLength: 300 }),
        layout,
        fc.array(fc.nat(), { maxLength: 60 }),
        fc.subarray(['_id', '_source', '_routing', 'n', 'été']),
        (docs, blocks, probes, wanted) => {
          const writer = new StoredFieldsWriter(SEGMENT_ID, compression, blocks);
          docs.forEach((fields, i) => assert.equal(writer.addDocument(fields), i));
          const bytes = writer.finish().bytes;
          // Sequential, then random (the block cache evicts and re-decodes), then backwards.
          const reader = new StoredFieldsReader(bytes, 'test.fdt', SEGMENT_ID, docs.length);
          const order = docs.length === 0 ? [] : [...docs.keys(), ...probes.map((p) => p % docs.length), ...[...docs.keys()].reverse()];
          for (const doc of order) assertSameFields(reader.document(doc), docs[doc]!, doc);
          // A field subset decodes only those fields, in order; a fresh reader so nothing comes from the cache.
          const subset = new Set(wanted);
          const filtered = new StoredFieldsReader(bytes, 'test.fdt', SEGMENT_ID, docs.length);
          for (const doc of [...probes.map((p) => p % Math.max(1, docs.length))].filter((d) => d < docs.length)) {
            assertSameFields(filtered.document(doc, subset), docs[doc]!.filter((f) => subset.has(f.name)), doc);
          }
        },
      ),
      { numRuns: 25 },
    );
  }
});

test('bytes values are views of the decoded block, not copies, and stay valid after the cache evicts it', () => {
  const writer = new StoredFieldsWriter(SEGMENT_ID, 'lz4', { maxDocsPerBlock: 2, blocksPerChunk: 2 });
  const sources = Array.from({ length: 100 }, (_, i) => Buffer.from(JSON.stringify({ n: i, text: 'same words again '.repeat(i % 7) })));
  sources.forEach((source, i) => writer.addDocument([{ name: '_id', value: String(i) }, { name: '_source', value: source }]));
  const reader = new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, sources.length);
  const kept = sources.map((_, doc) => reader.document(doc)[1]!.value as Uint8Array);
  kept.forEach((value, doc) => assert.ok(Buffer.from(value).equals(sources[doc]!), `doc ${doc}`));
  assert.ok(kept.some((value) => value.byteOffset > 0 || value.buffer.byteLength > value.length), 'a view into a larger block');
});

test('a flipped byte inside a compressed block with a fixed-up checksum is reported as corruption, never as wrong data', () => {
  for (const compression of MODES) {
    const writer = new StoredFieldsWriter(SEGMENT_ID, compression, { dictionaryBlockBytes: 64, blockBytes: 128, maxDocsPerBlock: 8 });
    const docs = Array.from({ length: 60 }, (_, i) => [
      { name: '_id', value: `id-${i}` },
      { name: '_source', value: Buffer.from(JSON.stringify({ n: i, text: 'lorem ipsum dolor '.repeat(1 + (i % 4)) })) },
    ]);
    docs.forEach((fields) => writer.addDocument(fields));
    const bytes = writer.finish().bytes;
    const checksumAt = bytes.length - 8;
    let detected = 0;
    for (let at = 40; at < checksumAt - 40; at += 7) {
      const damaged = Buffer.from(bytes);
      damaged[at] = damaged[at]! ^ 0x5a;
      // The checksum catches the flip.
      assert.throws(() => new StoredFieldsReader(damaged, 'test.fdt', SEGMENT_ID, docs.length), (err: unknown) => err instanceof EsError && err.type === 'corrupt_index_exception');
      // With the checksum recomputed, decoding must fail cleanly or return exactly the stored data.
      damaged.writeUInt32BE(0, checksumAt);
      damaged.writeUInt32BE(crc32(damaged.subarray(0, checksumAt)), checksumAt + 4);
      try {
        const reader = new StoredFieldsReader(damaged, 'test.fdt', SEGMENT_ID, docs.length);
        docs.forEach((expected, doc) => {
          const got = reader.document(doc);
          if (got.length !== expected.length || got.some((f, i) => f.name !== expected[i]!.name || !sameValue(f.value, expected[i]!.value))) throw new Error('silently wrong');
        });
      } catch (err) {
        if (err instanceof Error && err.message === 'silently wrong') {
          // LZ4 and deflate literals carry no checksum of their own: a changed literal byte decodes to a changed
          // byte. That is what the file checksum is for; only count it.
          continue;
        }
        assert.ok((err instanceof EsError && err.type === 'corrupt_index_exception') || err instanceof RangeError, `${compression} at ${at}: ${String(err)}`);
        detected++;
      }
    }
    assert.ok(detected > 0, `${compression}: some damage is caught by the structure checks`);
  }
});

test('a version 1 stored fields file is refused as too old', () => {
  const out = startCodecFile(STORED_FIELDS_CODEC, 1, SEGMENT_ID);
  out.writeVInt(0);
  const { bytes } = finishCodecFile(out);
  assert.throws(() => new StoredFieldsReader(bytes, 'old.fdt', SEGMENT_ID, 0), (err: unknown) => err instanceof EsError && err.type === 'index_format_too_old_exception');
});

test('stored fields reject out-of-range doc ids', () => {
  const writer = new StoredFieldsWriter(SEGMENT_ID);
  writer.addDocument([{ name: '_id', value: '1' }]);
  const reader = new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, 1);
  assert.throws(() => reader.document(1), RangeError);
  assert.throws(() => reader.document(-1), RangeError);
  assert.throws(() => new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, 2), /corrupt|docs/);
});
