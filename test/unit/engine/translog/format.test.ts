/** Round trips of the translog's three on-disk formats: operation records, generation headers, checkpoints. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeOperation, encodeOperation, OPERATION_FORMAT_V1, recordChecksumMatches } from '../../../../src/engine/translog/operation-codec.js';
import { decodeHeader, encodeHeader, headerLength } from '../../../../src/engine/translog/translog-header.js';
import { CHECKPOINT_V1_BYTES, decodeCheckpoint, encodeCheckpoint, type Checkpoint } from '../../../../src/engine/translog/checkpoint.js';
import { crc32, crc32Portable, crc32Range } from '../../../../src/engine/translog/crc32.js';
import { FormatError, readInt64, writeInt64 } from '../../../../src/engine/translog/binary.js';
import { operationArbitrary } from './helpers.js';

test('operations round-trip through their record encoding (fast-check)', () => {
  fc.assert(
    fc.property(operationArbitrary, (op) => {
      const record = encodeOperation(op);
      assert.equal(record.readUInt32BE(0), record.length - 8, 'length prefix counts the body');
      assert.ok(recordChecksumMatches(record));
      assert.deepStrictEqual(decodeOperation(record, OPERATION_FORMAT_V1), op);
    }),
    { numRuns: 400 },
  );
});

test('edge values survive: MAX_SAFE_INTEGER seqNo, empty id and source, astral-plane ids, negative versions', () => {
  const ops = [
    { type: 'index', id: '', seqNo: Number.MAX_SAFE_INTEGER, primaryTerm: Number.MAX_SAFE_INTEGER, version: -3, source: Buffer.alloc(0) },
    { type: 'index', id: '𝄞 dé-ja 文档 🦆', seqNo: 0, primaryTerm: 0, version: 1, source: Buffer.from('{}'), routing: '' },
    { type: 'index', id: 'big', seqNo: 2 ** 32, primaryTerm: 1, version: 2 ** 31, source: Buffer.alloc(3 * 1024 * 1024, 7) },
    { type: 'delete', id: 'x'.repeat(1000), seqNo: 2 ** 32 - 1, primaryTerm: 2, version: Number.MAX_SAFE_INTEGER },
    { type: 'noop', seqNo: 17, primaryTerm: 3, reason: '' },
  ] as const;
  for (const op of ops) assert.deepStrictEqual(decodeOperation(encodeOperation(op), OPERATION_FORMAT_V1), op);
});

test('an index operation with routing keeps it; one without has no routing key at all', () => {
  const withRouting = decodeOperation(encodeOperation({ type: 'index', id: 'a', seqNo: 1, primaryTerm: 1, version: 1, source: Buffer.from('x'), routing: 'r1' }), 1);
  assert.equal(withRouting.type === 'index' && withRouting.routing, 'r1');
  const without = decodeOperation(encodeOperation({ type: 'index', id: 'a', seqNo: 1, primaryTerm: 1, version: 1, source: Buffer.from('x') }), 1);
  assert.ok(!('routing' in without));
});

test('values JavaScript cannot hold exactly are refused at encode time, not rounded', () => {
  assert.throws(() => encodeOperation({ type: 'noop', seqNo: 2 ** 53, primaryTerm: 1, reason: '' }), /seqNo \[9007199254740992\] is not a safe integer/);
  assert.throws(() => encodeOperation({ type: 'delete', id: 'a', seqNo: 1, primaryTerm: 1.5, version: 1 }), /primaryTerm/);
});

test('every single-byte change to a record is caught by its checksum', () => {
  const record = encodeOperation({ type: 'index', id: 'doc-1', seqNo: 42, primaryTerm: 3, version: 7, source: Buffer.from('{"field":"value"}'), routing: 'r' });
  for (let at = 4; at < record.length; at++) {
    for (const mask of [0x01, 0x80, 0xff]) {
      const damaged = Buffer.from(record);
      damaged[at]! ^= mask;
      assert.equal(recordChecksumMatches(damaged), false, `flip 0x${mask.toString(16)} at ${at} went unnoticed`);
    }
  }
});

test('an unknown record format version is refused with a clear message', () => {
  const record = encodeOperation({ type: 'noop', seqNo: 1, primaryTerm: 1, reason: 'r' });
  assert.throws(() => decodeOperation(record, 2), (err: unknown) => err instanceof FormatError && /unsupported operation format version 2/.test(err.message));
});

test('generation headers round-trip and reject damage, wrong magic and future versions', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 64 }), fc.maxSafeNat(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (uuid, term, generation) => {
      const bytes = encodeHeader({ translogUUID: uuid, primaryTerm: term, generation });
      assert.equal(bytes.length, headerLength(uuid));
      const withTrailingOps = Buffer.concat([bytes, Buffer.from('trailing operation bytes')]);
      assert.deepStrictEqual(decodeHeader(withTrailingOps), { header: { formatVersion: 1, translogUUID: uuid, primaryTerm: term, generation }, length: bytes.length });
    }),
  );
  const bytes = encodeHeader({ translogUUID: 'abc', primaryTerm: 1, generation: 1 });
  for (let at = 0; at < bytes.length; at++) {
    const damaged = Buffer.from(bytes);
    damaged[at]! ^= 0x40;
    assert.throws(() => decodeHeader(damaged), FormatError, `damage at ${at} went unnoticed`);
  }
  const future = Buffer.from(bytes);
  future.writeUInt16BE(9, 4);
  assert.throws(() => decodeHeader(future), /unsupported translog format version \[9\] at offset \[4\]/);
  assert.throws(() => decodeHeader(bytes.subarray(0, bytes.length - 1)), /shorter than its \d+-byte header/);
});

const checkpointArbitrary: fc.Arbitrary<Checkpoint> = fc
  .record({
    offset: fc.maxSafeNat(),
    numOps: fc.integer({ min: 0, max: 1_000_000 }),
    generation: fc.integer({ min: 1, max: 1_000_000 }),
    minSeqNo: fc.maxSafeNat(),
    span: fc.nat(),
    globalCheckpoint: fc.oneof(fc.constant(-2), fc.constant(-1), fc.maxSafeNat()),
    minGenBack: fc.nat({ max: 1000 }),
    trimmedAboveSeqNo: fc.oneof(fc.constant(-2), fc.maxSafeNat()),
  })
  .map(({ span, minGenBack, ...c }) => ({
    ...c,
    minSeqNo: c.numOps === 0 ? -1 : c.minSeqNo,
    maxSeqNo: c.numOps === 0 ? -1 : Math.min(Number.MAX_SAFE_INTEGER, c.minSeqNo + span),
    minTranslogGeneration: Math.max(1, c.generation - minGenBack),
  }));

test('checkpoints round-trip (fast-check) in a fixed 76-byte layout', () => {
  fc.assert(
    fc.property(checkpointArbitrary, (checkpoint) => {
      const bytes = encodeCheckpoint(checkpoint);
      assert.equal(bytes.length, CHECKPOINT_V1_BYTES);
      assert.deepStrictEqual(decodeCheckpoint(bytes), checkpoint);
    }),
  );
});

test('damaged, truncated, future-version and inconsistent checkpoints are refused', () => {
  const bytes = encodeCheckpoint({ offset: 100, numOps: 2, generation: 3, minSeqNo: 5, maxSeqNo: 6, globalCheckpoint: 4, minTranslogGeneration: 2, trimmedAboveSeqNo: -2 });
  for (let at = 0; at < bytes.length; at++) {
    const damaged = Buffer.from(bytes);
    damaged[at]! ^= 0x10;
    assert.throws(() => decodeCheckpoint(damaged), FormatError, `damage at ${at} went unnoticed`);
  }
  assert.throws(() => decodeCheckpoint(bytes.subarray(0, 40)), /40 bytes long/);
  assert.throws(() => decodeCheckpoint(Buffer.alloc(0)), /too short/);
  const future = Buffer.from(bytes);
  future.writeUInt16BE(2, 4);
  assert.throws(() => decodeCheckpoint(future), /unsupported checkpoint format version \[2\]/);
  const inconsistent = encodeCheckpoint({ offset: 100, numOps: 2, generation: 3, minSeqNo: 9, maxSeqNo: 6, globalCheckpoint: 4, minTranslogGeneration: 2, trimmedAboveSeqNo: -2 });
  assert.throws(() => decodeCheckpoint(inconsistent), /minSeqNo 9 above maxSeqNo 6/);
});

test('the portable CRC-32 agrees with the native one and with the standard check value', () => {
  assert.equal(crc32Portable(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => assert.equal(crc32Portable(bytes), crc32(bytes))));
  const whole = Buffer.from('the quick brown fox');
  assert.equal(crc32(whole.subarray(9), crc32(whole.subarray(0, 9))), crc32(whole), 'continuation');
});

test('crc32Range (slicing-by-8 for small ranges, native above) agrees with the portable CRC-32 on every range (fast-check)', () => {
  assert.equal(crc32Range(Buffer.from('xx123456789yy'), 2, 11), 0xcbf43926);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 700 }), fc.nat(), fc.nat(), (bytes, a, b) => {
      const start = bytes.length === 0 ? 0 : a % (bytes.length + 1);
      const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
      assert.equal(crc32Range(bytes, start, end), crc32Portable(bytes.subarray(start, end)));
    }),
    { numRuns: 2000 },
  );
  // Every length around the slicing step and the JS/native boundary, at unaligned offsets.
  const bytes = Uint8Array.from({ length: 600 }, (_, i) => (i * 2654435761) >>> 24);
  for (let length = 0; length <= 300; length++) for (const start of [0, 1, 3, 7]) assert.equal(crc32Range(bytes, start, start + length), crc32Portable(bytes.subarray(start, start + length)), `${start}+${length}`);
});

test('writeInt64 stores big-endian two-halves bytes for every safe integer, negative sentinels included (fast-check)', () => {
  fc.assert(
    fc.property(fc.oneof(fc.maxSafeInteger(), fc.constantFrom(-1, -2, 0, 2 ** 32, 2 ** 32 - 1, -(2 ** 32), Number.MIN_SAFE_INTEGER)), (value) => {
      const written = Buffer.alloc(10);
      assert.equal(writeInt64(written, value, 1), 9);
      const high = Math.floor(value / 2 ** 32);
      const expected = Buffer.alloc(10);
      expected.writeInt32BE(high, 1);
      expected.writeUInt32BE(value - high * 2 ** 32, 5);
      assert.deepEqual(written, expected);
      assert.equal(readInt64(written, 1), value);
    }),
    { numRuns: 500 },
  );
});
