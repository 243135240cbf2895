/**
 * The id fast path of stored fields: `StoredFieldsReader.identity` (the id and routing strings, read from a
 * metadata group decoded only up to the doc) against the generic `document` read, and the resumable LZ4
 * decoding under it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lz4Compress, lz4DecompressSome, Lz4FormatError, type Lz4Progress } from '../../../../src/engine/codec/stored/lz4.js';
import { StoredFieldsWriter } from '../../../../src/engine/codec/stored/stored-fields-writer.js';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored/stored-fields-reader.js';
import type { StoredField } from '../../../../src/engine/codec/stored/stored-fields-format.js';
import type { BlockLayout, StoredCompression } from '../../../../src/engine/codec/stored/compression.js';
import { crc32 } from '../../../../src/engine/codec/crc32.js';
import { EsError } from '../../../../src/common/errors.js';
import { SEGMENT_ID } from './postings-fixtures.js';

const NAMES = { id: '_id', routing: '_routing' } as const;
const MODES: readonly StoredCompression[] = ['deflate_fast', 'deflate_best', 'lz4'];

test('resumable lz4 decoding, in steps of any size, yields the one-shot result', () => {
  const words = fc.array(fc.constantFrom('apt-', 'lib', '-dev', 'python3-', 'x', 'é', '\u0001', 'aaaaaaaa'), { maxLength: 200 }).map((w) => Buffer.from(w.join('')));
  fc.assert(
    fc.property(fc.oneof(words, fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b))).filter((input) => input.length > 0), fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 40 }), (input, steps) => {
      const compressed = Buffer.from(lz4Compress(input));
      // Garbage around the frame: decoding must stay inside [start, end).
      const file = Buffer.concat([Buffer.from([7, 7, 7]), compressed, Buffer.from([9, 9])]);
      const out = Buffer.alloc(input.length + 8, 0xee);
      const progress: Lz4Progress = { ip: 3, op: 0 };
      let needed = 0;
      for (let i = 0; progress.op < input.length; i++) {
        needed = Math.min(input.length, needed + steps[i % steps.length]!);
        const before = progress.op;
        lz4DecompressSome(file, 3 + compressed.length, out, input.length, progress, needed);
        assert.ok(progress.op >= needed, `reached ${progress.op} of ${needed}`);
        assert.ok(progress.op > before || needed <= before);
        assert.ok(out.subarray(0, progress.op).equals(input.subarray(0, progress.op)));
      }
      assert.equal(progress.ip, 3 + compressed.length);
      assert.equal(progress.op, input.length);
      assert.equal(out[input.length], 0xee, 'nothing written past the output end');
    }),
    { numRuns: 200 },
  );
});

test('resumable lz4 decoding rejects malformed input and never writes past the output end', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 300 }), (garbage, length) => {
      const out = Buffer.alloc(length + 4, 0xee);
      try {
        lz4DecompressSome(garbage, garbage.length, out, length, { ip: 0, op: 0 }, length);
      } catch (err) {
        assert.ok(err instanceof Lz4FormatError, String(err));
      }
      assert.ok(out.subarray(length).every((b) => b === 0xee));
    }),
    { numRuns: 300 },
  );
});

/** Ids and routings as an engine stores them: ASCII, non-ASCII (2-, 3- and 4-byte UTF-8), empty. */
const idString = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9.+-]{0,30}$/),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('', 'é', '日本語', '😀x', 'a\u0000b', 'ÿ', '\u0080'),
);

/** A doc as the engine writes it (`_id` first, then optional `_routing`, `_source`, other fields), or odd ones. */
const identityDoc: fc.Arbitrary<StoredField[]> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ id: idString, routing: fc.option(idString), source: fc.option(fc.uint8Array({ maxLength: 200 })), n: fc.option(fc.oneof(fc.integer(), fc.double(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))) }).map(({ id, routing, source, n }) => {
    const fields: StoredField[] = [{ name: '_id', value: id }];
    if (routing !== null) fields.push({ name: '_routing', value: routing });
    if (source !== null) fields.push({ name: '_source', value: source });
    if (n !== null) fields.push({ name: 'n', value: n });
    return fields;
  }) },
  // No id, fields in another order, a number or string before the id, repeated names.
  { weight: 1, arbitrary: fc.array(fc.record({ name: fc.constantFrom('_id', '_routing', '_source', 'n', 'été'), value: fc.oneof(idString, fc.integer(), fc.uint8Array({ maxLength: 20 })) }), { maxLength: 5 }) },
);

/** What `identity` must return: the first string value of each field, as the generic read gives it. */
function expectedIdentity(fields: readonly StoredField[]): { id: string | null; routing: string | null } {
  const first = (name: string): string | null => {
    const field = fields.find((f) => f.name === name && typeof f.value === 'string');
    return field === undefined ? null : (field.value as string);
  };
  return { id: first('_id'), routing: first('_routing') };
}

const layout: fc.Arbitrary<Partial<BlockLayout>> = fc.record({
  dictionaryBlockBytes: fc.integer({ min: 1, max: 4096 }),
  blockBytes: fc.integer({ min: 1, max: 4096 }),
  blocksPerChunk: fc.integer({ min: 1, max: 12 }),
  metaBytes: fc.integer({ min: 1, max: 2048 }),
  maxDocsPerBlock: fc.integer({ min: 1, max: 200 }),
  metaCompression: fc.constantFrom<BlockLayout['metaCompression']>(...MODES, 'none'),
  metaGroupDocs: fc.integer({ min: 1, max: 40 }),
});

test('identity reads what the generic read gives, in every compression mode and layout, in any order, mixed with full reads', () => {
  for (const compression of MODES) {
    fc.assert(
      fc.property(fc.array(identityDoc, { minLength: 1, maxLength: 250 }), layout, fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 80 }), (docs, blocks, probes) => {
        const writer = new StoredFieldsWriter(SEGMENT_ID, compression, blocks);
        for (const fields of docs) writer.addDocument(fields);
        const bytes = writer.finish().bytes;
        const reader = new StoredFieldsReader(bytes, 'test.fdt', SEGMENT_ID, docs.length);
        // In doc order (a group is continued), backwards (a group is re-entered below where it stopped), at random, and
        // interleaved with generic reads of the same reader (they share the loaded group).
        const order: [number, boolean][] = [...docs.keys(), ...[...docs.keys()].reverse()].map((doc) => [doc, false]);
        for (const [p, full] of probes) order.push([p % docs.length, full]);
        for (const [doc, full] of order) {
          if (full) {
            assert.equal(reader.document(doc).length, docs[doc]!.length);
          } else {
            assert.deepEqual(reader.identity(doc, NAMES), expectedIdentity(docs[doc]!), `doc ${doc}`);
          }
        }
      }),
      { numRuns: 25 },
    );
  }
});

test('identity of a doc without an id or routing, and of a segment that stores neither', () => {
  const writer = new StoredFieldsWriter(SEGMENT_ID, 'lz4');
  writer.addDocument([{ name: '_source', value: Buffer.from('{}') }]);
  writer.addDocument([{ name: '_id', value: 'b' }, { name: '_routing', value: 'shard-key' }]);
  writer.addDocument([]);
  const reader = new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, 3);
  assert.deepEqual(reader.identity(0, NAMES), { id: null, routing: null });
  assert.deepEqual(reader.identity(1, NAMES), { id: 'b', routing: 'shard-key' });
  assert.deepEqual(reader.identity(2, NAMES), { id: null, routing: null });
  // Other names resolve to other fields (the names object is compared by identity, so a new one is resolved again).
  assert.deepEqual(reader.identity(1, { id: '_routing', routing: '_id' }), { id: 'shard-key', routing: 'b' });
  assert.deepEqual(reader.identity(1, NAMES), { id: 'b', routing: 'shard-key' });

  const empty = new StoredFieldsWriter(SEGMENT_ID, 'deflate_fast');
  empty.addDocument([{ name: 'n', value: 5 }]);
  assert.deepEqual(new StoredFieldsReader(empty.finish().bytes, 'test.fdt', SEGMENT_ID, 1).identity(0, NAMES), { id: null, routing: null });
});

test('identity rejects out-of-range doc ids', () => {
  const writer = new StoredFieldsWriter(SEGMENT_ID, 'lz4');
  writer.addDocument([{ name: '_id', value: 'a' }]);
  const reader = new StoredFieldsReader(writer.finish().bytes, 'test.fdt', SEGMENT_ID, 1);
  for (const doc of [1, -1, 0.5, Number.NaN]) assert.throws(() => reader.identity(doc, NAMES), RangeError);
});

test('identity decodes an LZ4 metadata group only up to the doc, and continues it for the next doc', () => {
  // One 16-doc group of pseudo-random ids, which LZ4 stores as one run of literals.
  const writer = new StoredFieldsWriter(SEGMENT_ID, 'lz4', { metaGroupDocs: 16 });
  let state = 7;
  const randomChar = (): string => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 16).toString(36).slice(-1);
  const ids = Array.from({ length: 16 }, () => Array.from({ length: 14 }, randomChar).join(''));
  for (const id of ids) writer.addDocument([{ name: '_id', value: id }]);
  const bytes = writer.finish().bytes;
  // Damage the last record (its field count, key, length and id; and fix the checksum): the docs before it still read.
  const damaged = Buffer.from(bytes);
  const lastId = damaged.indexOf(Buffer.from(ids[15]!));
  assert.ok(lastId > 0, 'the last id is stored as literals');
  damaged.fill(0xff, lastId - 3, lastId + ids[15]!.length);
  fixChecksum(damaged);
  const reader = new StoredFieldsReader(damaged, 'test.fdt', SEGMENT_ID, ids.length);
  assert.deepEqual(reader.identity(0, NAMES), { id: ids[0], routing: null });
  assert.deepEqual(reader.identity(3, NAMES), { id: ids[3], routing: null });
  assert.throws(() => reader.identity(15, NAMES), (err: unknown) => err instanceof EsError && err.type === 'corrupt_index_exception');
  // The same corruption is found again, and docs before it still read.
  assert.throws(() => reader.document(15), (err: unknown) => err instanceof EsError && err.type === 'corrupt_index_exception');
  assert.deepEqual(reader.identity(1, NAMES), { id: ids[1], routing: null });
});

function fixChecksum(bytes: Buffer): void {
  const checksumAt = bytes.length - 8;
  bytes.writeUInt32BE(0, checksumAt);
  bytes.writeUInt32BE(crc32(bytes.subarray(0, checksumAt)), checksumAt + 4);
}

/**
 * The file checksum is what catches damage; behind it, a damaged group must fail with corrupt_index_exception
 * or yield strings read inside the group, never throw anything else. (A group is checked whole once its last
 * record is scanned; a doc read before that is checked only as far as the scan went.)
 */
test('a flipped byte with a fixed-up checksum makes identity fail cleanly or read inside the file, never throw otherwise', () => {
  for (const compression of MODES) {
    for (const metaCompression of [...MODES, 'none'] as const) {
      const writer = new StoredFieldsWriter(SEGMENT_ID, compression, { dictionaryBlockBytes: 64, blockBytes: 128, maxDocsPerBlock: 24, metaGroupDocs: 8, metaCompression });
      const docs = Array.from({ length: 60 }, (_, i) => [
        { name: '_id', value: `id-${i}-été` },
        ...(i % 3 === 0 ? [{ name: '_routing', value: `r${i}` }] : []),
        { name: '_source', value: Buffer.from(JSON.stringify({ n: i })) },
      ]);
      docs.forEach((fields) => writer.addDocument(fields));
      const bytes = writer.finish().bytes;
      let detected = 0;
      for (let at = 40; at < bytes.length - 48; at += 5) {
        const damaged = Buffer.from(bytes);
        damaged[at] = damaged[at]! ^ 0x5a;
        fixChecksum(damaged);
        try {
          const reader = new StoredFieldsReader(damaged, 'test.fdt', SEGMENT_ID, docs.length);
          for (let doc = 0; doc < docs.length; doc++) {
            const got = reader.identity(doc, NAMES);
            assert.ok(got.id === null || typeof got.id === 'string');
            assert.ok(got.routing === null || typeof got.routing === 'string');
          }
        } catch (err) {
          assert.ok((err instanceof EsError && err.type === 'corrupt_index_exception') || err instanceof RangeError, `${compression}/${metaCompression} at ${at}: ${String(err)}`);
          detected++;
        }
      }
      assert.ok(detected > 0, `${compression}/${metaCompression}: some damage is caught`);
    }
  }
});
