/**
 * The norm byte must equal Lucene's bit for bit. The reference below transliterates Lucene's
 * SmallFloat.longToInt4 / int4ToLong / intToByte4 / byte4ToInt with Java long semantics (BigInt,
 * Long.numberOfLeadingZeros, signed byte casts), independently of the implementation under test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  byte4ToInt,
  computeNormByte,
  int4ToLong,
  intToByte4,
  LENGTH_TABLE,
  longToInt4,
  NUM_FREE_VALUES,
} from '../../../../src/engine/codec/norms/small-float.js';
import { NormsReader } from '../../../../src/engine/codec/norms/norms-reader.js';
import { NormsWriter } from '../../../../src/engine/codec/norms/norms-writer.js';
import { SEGMENT_ID } from './postings-fixtures.js';

const reference = (() => {
  const numberOfLeadingZeros = (i: bigint): number => (i === 0n ? 64 : 64 - i.toString(2).length);
  const javaLongToInt4 = (i: bigint): number => {
    const numBits = 64 - numberOfLeadingZeros(i);
    if (numBits < 4) return Number(i);
    const shift = numBits - 4;
    let encoded = Number(i >> BigInt(shift));
    encoded &= 0x07;
    encoded |= (shift + 1) << 3;
    return encoded;
  };
  const javaInt4ToLong = (i: number): bigint => {
    const bits = BigInt(i & 0x07);
    const shift = (i >>> 3) - 1;
    return shift === -1 ? bits : (bits | 0x08n) << BigInt(shift);
  };
  const maxInt4 = javaLongToInt4(2147483647n);
  const numFreeValues = 255 - maxInt4;
  const toJavaByte = (v: number): number => ((v & 0xff) << 24) >> 24;
  return {
    numFreeValues,
    longToInt4: javaLongToInt4,
    int4ToLong: javaInt4ToLong,
    /** Returns Java's signed byte. */
    intToByte4: (i: number): number => (i < numFreeValues ? toJavaByte(i) : toJavaByte(numFreeValues + javaLongToInt4(BigInt(i - numFreeValues)))),
    byte4ToInt: (b: number): number => {
      const i = b & 0xff; // Byte.toUnsignedInt
      return i < numFreeValues ? i : Number(BigInt(numFreeValues) + javaInt4ToLong(i - numFreeValues));
    },
  };
})();

test('constants match Lucene: longToInt4(Integer.MAX_VALUE) = 231, so 24 lengths are exact', () => {
  assert.equal(reference.longToInt4(2147483647n), 231);
  assert.equal(NUM_FREE_VALUES, 24);
  assert.equal(reference.numFreeValues, 24);
});

test('intToByte4 equals Lucene for every length up to 200000 and random lengths up to 2^31-1', () => {
  for (let length = 0; length <= 200_000; length++) {
    assert.equal(intToByte4(length), reference.intToByte4(length) & 0xff, `length ${length}`);
  }
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (length) => intToByte4(length) === (reference.intToByte4(length) & 0xff)),
    { numRuns: 20_000 },
  );
  for (const length of [2 ** 31 - 1, 2 ** 31 - 2, 2 ** 30, 2 ** 30 + 1, 2 ** 24 + 23, 2 ** 24 + 24, 2 ** 24 + 25]) {
    assert.equal(intToByte4(length), reference.intToByte4(length) & 0xff, `length ${length}`);
  }
});

test('byte4ToInt and LENGTH_TABLE equal Lucene for all 256 bytes', () => {
  for (let b = 0; b < 256; b++) {
    const javaByte = (b << 24) >> 24;
    assert.equal(byte4ToInt(b), reference.byte4ToInt(javaByte), `byte ${b}`);
    assert.equal(LENGTH_TABLE[b], Math.fround(reference.byte4ToInt(javaByte)), `LENGTH_TABLE[${b}]`);
  }
});

test('longToInt4/int4ToLong equal Lucene (longs up to 2^53)', () => {
  fc.assert(
    fc.property(fc.maxSafeNat(), (value) => longToInt4(value) === reference.longToInt4(BigInt(value))),
    { numRuns: 5_000 },
  );
  for (let encoded = 0; encoded < 256; encoded++) assert.equal(BigInt(int4ToLong(encoded)), reference.int4ToLong(encoded));
});

test('worked values: lengths below 24 are exact, 100 tokens score as 96, the top byte is 2013265944', () => {
  for (let length = 0; length < 24; length++) assert.equal(byte4ToInt(intToByte4(length)), length);
  // 100 - 24 = 76 = 0b1001100: 7 bits, shift 3, mantissa 0b001, exponent 4 -> 33; byte 57 -> 24 + (0b1001 << 3) = 96.
  assert.equal(intToByte4(100), 57);
  assert.equal(byte4ToInt(57), 96);
  assert.equal(intToByte4(2 ** 31 - 1), 255);
  assert.equal(byte4ToInt(255), 24 + 15 * 2 ** 27);
  assert.equal(LENGTH_TABLE[255], 2013265920); // as a float32: 2013265944 rounds to a multiple of 128
});

test('the encoding is monotonic and never overstates a length', () => {
  let previous = 0;
  for (let length = 0; length <= 100_000; length++) {
    const encoded = intToByte4(length);
    assert.ok(encoded >= previous);
    assert.ok(byte4ToInt(encoded) <= length);
    previous = encoded;
  }
});

test('computeNormByte follows Lucene: overlaps discounted by default, unique terms for docs-only fields, 0 when empty', () => {
  assert.equal(computeNormByte('positions', { length: 100, numOverlap: 10, uniqueTermCount: 50 }), intToByte4(90));
  assert.equal(computeNormByte('positions', { length: 100, numOverlap: 10, uniqueTermCount: 50 }, false), intToByte4(100));
  assert.equal(computeNormByte('docs', { length: 100, numOverlap: 10, uniqueTermCount: 50 }), intToByte4(50));
  assert.equal(computeNormByte('freqs', { length: 0, numOverlap: 0, uniqueTermCount: 0 }), 0);
  assert.throws(() => intToByte4(-1), RangeError);
  assert.throws(() => intToByte4(2 ** 31), RangeError);
});

test('norms file round-trips per field, constant fields included', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 500 }), fc.integer(), fc.integer({ min: 0, max: 255 }), (maxDoc, seed, constant) => {
      const varied = Uint8Array.from({ length: maxDoc }, (_, i) => (Math.imul(seed, i + 1) >>> 7) & 0xff);
      const flat = new Uint8Array(maxDoc).fill(constant);
      const writer = new NormsWriter(maxDoc);
      writer.addField('title', varied);
      writer.addField('body', flat);
      const { bytes } = writer.finish(SEGMENT_ID);
      const reader = new NormsReader(bytes, 'test.nvd', SEGMENT_ID, maxDoc);
      assert.deepEqual(reader.get('title'), varied);
      assert.deepEqual(reader.get('body'), flat);
      assert.equal(reader.get('missing'), undefined);
    }),
    { numRuns: 50 },
  );
});
