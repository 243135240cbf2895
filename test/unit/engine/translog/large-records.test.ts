/**
 * Records of large sources (decision 0019): the source is referenced rather than copied into the write buffer,
 * its checksum may be computed ahead (a parse worker) and combined with the header's, and the bytes on disk are
 * exactly the ordinary encoding's, so recovery and older readers see no difference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Translog, LARGE_SOURCE_BYTES, noteSourceChecksum, type TranslogOperation } from '../../../../src/engine/translog/index.js';
import { encodeLargeIndexOperation, encodeOperation, recordChecksumMatches } from '../../../../src/engine/translog/operation-codec.js';
import { crc32, crc32Combine } from '../../../../src/engine/translog/crc32.js';
import { fastFs, indexOp, tempDir } from './helpers.js';

function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

test('crc32Combine gives the CRC of the concatenation, for any split (zero, one, odd and large lengths)', () => {
  const data = pseudoRandomBytes(300_000, 7);
  for (const split of [0, 1, 2, 3, 17, 255, 256, 4096, 65_537, 150_000, 299_999, 300_000]) {
    const a = data.subarray(0, split);
    const b = data.subarray(split);
    assert.equal(crc32Combine(crc32(a), crc32(b), b.length), crc32(data), `split at ${split}`);
  }
  // A length past 2^31 exercises the halving beyond 32-bit shifts (checked against repeated combination).
  const zeros = new Uint8Array(1 << 20);
  const crcZeros = crc32(zeros);
  let expected = crc32(data);
  for (let i = 0; i < 2049; i++) expected = crc32Combine(expected, crcZeros, zeros.length);
  let combinedZeros = crcZeros;
  for (let i = 1; i < 2049; i++) combinedZeros = crc32Combine(combinedZeros, crcZeros, zeros.length);
  assert.equal(crc32Combine(crc32(data), combinedZeros, 2049 * zeros.length), expected);
});

test('a large index record in pieces is byte for byte the ordinary record, with or without a noted checksum', () => {
  const source = Buffer.from(new SharedArrayBuffer(LARGE_SOURCE_BYTES + 123));
  source.set(pseudoRandomBytes(source.length, 3));
  for (const routing of [undefined, 'r\u00e9gion']) {
    const op = { type: 'index', id: 'd\u00f6c-1', seqNo: 41, primaryTerm: 3, version: 7, source, ...(routing !== undefined && { routing }) } as TranslogOperation & { type: 'index' };
    const whole = encodeOperation(op);
    const pieces = encodeLargeIndexOperation(op);
    assert.equal(pieces[1]!.buffer, source.buffer, 'the source is referenced, not copied');
    assert.deepEqual(Buffer.concat(pieces), whole);
    assert.ok(recordChecksumMatches(whole));
  }
  // A checksum noted ahead is the one used (a wrong one would show in the record: the sum must be right).
  const other = Buffer.from(pseudoRandomBytes(LARGE_SOURCE_BYTES, 9));
  noteSourceChecksum(other, crc32(other));
  const op = { type: 'index', id: 'x', seqNo: 1, primaryTerm: 1, version: 1, source: other } as const;
  assert.deepEqual(Buffer.concat(encodeLargeIndexOperation(op)), encodeOperation(op));
});

test('large sources between small records are written in order, read back and recovered after reopening', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const translog = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
    const big = Buffer.from(new SharedArrayBuffer(2 * LARGE_SOURCE_BYTES));
    big.fill(0x61);
    big[0] = 0x7b;
    const written: TranslogOperation[] = [indexOp(0), indexOp(1, 'big-1', big), indexOp(2), indexOp(3, 'big-3', Buffer.from(big)), indexOp(4)];
    noteSourceChecksum(big, crc32(big));
    for (const op of written) translog.add(op);
    const sameBytes = (ops: readonly TranslogOperation[]): void => {
      assert.equal(ops.length, written.length);
      ops.forEach((op, i) => {
        const expected = written[i]!;
        assert.equal(op.seqNo, expected.seqNo);
        if (op.type === 'index' && expected.type === 'index') assert.ok(Buffer.from(op.source).equals(Buffer.from(expected.source)), `source of ${op.id}`);
      });
    };
    sameBytes(await translog.snapshot().toArray());
    await translog.sync();
    await translog.close();
    // On disk: the file holds exactly the ordinary encodings, one after the other.
    const file = readdirSync(dir).find((name) => name.endsWith('.tlog'))!;
    const content = readFileSync(join(dir, file));
    const records = Buffer.concat(written.map((op) => encodeOperation(op)));
    assert.ok(content.subarray(content.length - records.length).equals(records));
    const reopened = await Translog.open(dir, { fs: fastFs() });
    sameBytes(await reopened.snapshot().toArray());
    await reopened.close();
  } finally {
    cleanup();
  }
});
