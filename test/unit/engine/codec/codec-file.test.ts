import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EsError } from '../../../../src/common/errors.js';
import { crc32, crc32Portable, hasNativeCrc32 } from '../../../../src/engine/codec/crc32.js';
import { finishCodecFile, openCodecFile, startCodecFile, FOOTER_LENGTH } from '../../../../src/engine/codec/codec-file.js';
import { ByteReader } from '../../../../src/engine/store/byte-reader.js';
import { ByteWriter } from '../../../../src/engine/store/byte-writer.js';
import { codecFileFixtures } from './codec-files-fixture.js';
import { SEGMENT_ID } from './postings-fixtures.js';

function assertCorrupt(fn: () => void, resource: string, message?: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof EsError, `expected an EsError, got ${String(err)}`);
    assert.equal(err.type, 'corrupt_index_exception');
    assert.equal(err.status, 500);
    assert.ok(err.message.includes(`(resource=${resource})`), `message does not name ${resource}: ${err.message}`);
    if (message !== undefined) assert.match(err.message, message);
    return true;
  });
}

test('crc32 matches the table-driven implementation and known vectors', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(crc32Portable(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 500 }), fc.uint8Array({ maxLength: 500 }), (a, b) => {
      assert.equal(crc32(a), crc32Portable(a));
      assert.equal(crc32Portable(b, crc32Portable(a)), crc32(Buffer.concat([a, b])));
    }),
  );
  assert.equal(typeof hasNativeCrc32, 'boolean');
});

test('varints, zig-zag and fixed-width values round-trip through ByteWriter/ByteReader', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant('vint' as const), v: fc.integer({ min: 0, max: 0xffffffff }) }),
          fc.record({ kind: fc.constant('vlong' as const), v: fc.maxSafeNat() }),
          fc.record({ kind: fc.constant('zlong' as const), v: fc.integer({ min: -(2 ** 52) + 1, max: 2 ** 52 - 1 }) }),
          fc.record({ kind: fc.constant('string' as const), v: fc.string({ unit: 'binary' }) }),
          fc.record({ kind: fc.constant('double' as const), v: fc.double() }),
          fc.record({ kind: fc.constant('u64' as const), v: fc.maxSafeNat() }),
        ),
      ),
      (items) => {
        const out = new ByteWriter(16);
        for (const item of items) {
          if (item.kind === 'vint') out.writeVInt(item.v);
          else if (item.kind === 'vlong') out.writeVLong(item.v);
          else if (item.kind === 'zlong') out.writeZLong(item.v);
          else if (item.kind === 'string') out.writeString(item.v);
          else if (item.kind === 'double') out.writeFloat64LE(item.v);
          else out.writeUInt64LE(item.v);
        }
        const bytes = out.toBuffer();
        const reader = new ByteReader(bytes, 0, bytes.length, 'mem');
        for (const item of items) {
          const got =
            item.kind === 'vint'
              ? reader.readVInt()
              : item.kind === 'vlong'
                ? reader.readVLong()
                : item.kind === 'zlong'
                  ? reader.readZLong()
                  : item.kind === 'string'
                    ? reader.readString()
                    : item.kind === 'double'
                      ? reader.readFloat64LE()
                      : reader.readUInt64LE();
          assert.ok(Object.is(got, item.v), `${item.kind}: ${String(got)} vs ${String(item.v)}`);
        }
        assert.equal(reader.remaining, 0);
        assertCorrupt(() => reader.readByte(), 'mem', /read past EOF/);
      },
    ),
  );
  const overlong = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7f]);
  assertCorrupt(() => new ByteReader(overlong, 0, overlong.length, 'mem').readVInt(), 'mem', /more than 32 bits/);
});

test('a codec file round-trips its header and rejects wrong codec, id, suffix and versions', () => {
  const out = startCodecFile('Test', 3, SEGMENT_ID, 'gen7');
  out.writeString('payload');
  const { bytes } = finishCodecFile(out);
  const expected = { codec: 'Test', minVersion: 1, maxVersion: 3, segmentId: SEGMENT_ID, suffix: 'gen7' };
  const file = openCodecFile(bytes, 'x.test', expected);
  assert.equal(file.version, 3);
  assert.equal(file.body.readString(), 'payload');
  assert.equal(file.body.remaining, 0);
  assertCorrupt(() => openCodecFile(bytes, 'x.test', { ...expected, codec: 'Other' }), 'x.test', /codec mismatch: actual codec=Test vs expected codec=Other/);
  assertCorrupt(() => openCodecFile(bytes, 'x.test', { ...expected, segmentId: Buffer.alloc(16) }), 'x.test', /file mismatch, expected id=0+, got=0123/);
  assertCorrupt(() => openCodecFile(bytes, 'x.test', { ...expected, suffix: 'gen8' }), 'x.test', /expected suffix=gen8, got=gen7/);
  assert.throws(
    () => openCodecFile(bytes, 'x.test', { ...expected, maxVersion: 2 }),
    (err: unknown) =>
      err instanceof EsError &&
      err.type === 'index_format_too_new_exception' &&
      err.message === 'Format version is not supported (resource x.test): 3 (needs to be between 1 and 2)',
  );
  assert.throws(
    () => openCodecFile(bytes, 'x.test', { ...expected, minVersion: 4, maxVersion: 5 }),
    (err: unknown) => err instanceof EsError && err.type === 'index_format_too_old_exception' && /: 3 \(needs to be between 4 and 5\)/.test(err.message),
  );
});

test('flipping any single byte of any format is a checksum error naming the file', () => {
  for (const fixture of codecFileFixtures()) {
    fixture.open(fixture.bytes); // the pristine file opens
    const resource = fixture.name.replace('(deflate)', '');
    for (let position = 0; position < fixture.bytes.length; position++) {
      const damaged = Buffer.from(fixture.bytes);
      damaged[position] ^= 1 << position % 8;
      const inFooterMagic = position >= fixture.bytes.length - FOOTER_LENGTH && position < fixture.bytes.length - FOOTER_LENGTH + 4;
      assertCorrupt(
        () => fixture.open(damaged),
        resource,
        inFooterMagic ? /codec footer mismatch \(file truncated\?\)/ : /checksum failed \(hardware problem\?\) : expected=[0-9a-f]+ actual=[0-9a-f]+/,
      );
    }
  }
});

test('a truncated file of any format is reported as corrupt, at every length', () => {
  for (const fixture of codecFileFixtures()) {
    const resource = fixture.name.replace('(deflate)', '');
    for (let length = 0; length < fixture.bytes.length; length++) {
      assertCorrupt(() => fixture.open(fixture.bytes.subarray(0, length)), resource, /truncated|too short|checksum failed/);
    }
    // Extra bytes appended are caught too (the footer is no longer at the end).
    assertCorrupt(() => fixture.open(Buffer.concat([fixture.bytes, Buffer.from([0])])), resource);
  }
});
