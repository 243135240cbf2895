/**
 * Packed postings blocks (for-util.ts): BlockUnpacker's generated per-width decoders against a reference that
 * reads the bits one at a time straight from the bytes (value i is bits i*b .. i*b+b-1, bit k of the block
 * being bit k%8 of byte k/8), independently of the writer and of the 32-bit word layout. The same reference
 * pins packBlock's bytes, so the on-disk format cannot drift with the decoder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteWriter } from '../../../../src/engine/store/byte-writer.js';
import { BLOCK_SIZE, BlockUnpacker, blockBitsRequired, packBlock, packedBlockBytes } from '../../../../src/engine/codec/packed/for-util.js';

/** Value `index` of the block of width `bits` at `offset`: its bits gathered one by one, as an unsigned number. */
function referenceValue(bytes: Uint8Array, offset: number, bits: number, index: number): number {
  let value = 0;
  for (let k = 0; k < bits; k++) {
    const bit = index * bits + k;
    if ((bytes[offset + (bit >>> 3)]! >>> (bit & 7)) & 1) value += 2 ** k;
  }
  return value;
}

/** What unpackDocDeltas must compute: the running doc ids from `base`, exact (the caller range-checks the last). */
function expectedDocs(values: readonly number[], base: number): number[] {
  let doc = base;
  return values.map((value) => (doc += (value | 0) + 1));
}

/** What unpack must write: each value as an Int32Array stores it (width 32: modulo 2^32). */
function expectedOutput(values: readonly number[]): number[] {
  return values.map((value) => value | 0);
}

function packed(values: readonly number[], bits: number): Buffer {
  const out = new ByteWriter(16);
  packBlock(Int32Array.from(values, (v) => v | 0), bits, out);
  return out.toBuffer();
}

/** `block` copied to `padding` bytes into a buffer that itself starts `shift` bytes into a larger one. */
function placed(block: Uint8Array, padding: number, shift: number, trailing = 0): Buffer {
  const backing = Buffer.alloc(shift + padding + block.length + trailing, 0xa5);
  block.forEach((byte, i) => (backing[shift + padding + i] = byte));
  return backing.subarray(shift);
}

const maxOf = (bits: number): number => 2 ** bits - 1;

function patterns(bits: number): [string, number[]][] {
  let seed = bits * 2654435761 + 17;
  const random = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
  const modulus = 2 ** bits;
  return [
    ['zeros', new Array(BLOCK_SIZE).fill(0)],
    ['max', new Array(BLOCK_SIZE).fill(maxOf(bits))],
    ['alternating 0 / max', Array.from({ length: BLOCK_SIZE }, (_, i) => (i % 2 === 0 ? 0 : maxOf(bits)))],
    ['alternating max / 0', Array.from({ length: BLOCK_SIZE }, (_, i) => (i % 2 === 0 ? maxOf(bits) : 0))],
    ['single high bit per value', Array.from({ length: BLOCK_SIZE }, () => (bits === 0 ? 0 : 2 ** (bits - 1)))],
    ['counting', Array.from({ length: BLOCK_SIZE }, (_, i) => i % modulus)],
    ['random', Array.from({ length: BLOCK_SIZE }, () => random() % modulus)],
  ];
}

test('packBlock writes 16 * b bytes whose bits, read one at a time, are the values', () => {
  for (let bits = 0; bits <= 32; bits++) {
    for (const [name, values] of patterns(bits)) {
      const bytes = packed(values, bits);
      assert.equal(bytes.length, packedBlockBytes(bits), `width ${bits}, ${name}`);
      const read = Array.from({ length: BLOCK_SIZE }, (_, i) => referenceValue(bytes, 0, bits, i));
      assert.deepEqual(read, values, `width ${bits}, ${name}`);
    }
  }
});

test('unpack decodes every width 0..32, at every alignment', () => {
  const unpacker = new BlockUnpacker();
  const out = new Int32Array(BLOCK_SIZE);
  for (let bits = 0; bits <= 32; bits++) {
    for (const [name, values] of patterns(bits)) {
      const block = packed(values, bits);
      for (let padding = 0; padding < 4; padding++) {
        for (let shift = 0; shift < 4; shift++) {
          // The block ends the source exactly: a decoder must not read a byte past it.
          const source = placed(block, padding, shift);
          out.fill(0x5a5a5a5a);
          unpacker.unpack(source, padding, bits, out);
          assert.deepEqual(Array.from(out), expectedOutput(values), `width ${bits}, ${name}, offset ${padding} in a source at +${shift}`);
        }
      }
    }
  }
});

test('unpackDocDeltas writes the running doc ids for every width 0..32, at every alignment', () => {
  const unpacker = new BlockUnpacker();
  const out = new Int32Array(BLOCK_SIZE);
  for (let bits = 0; bits <= 32; bits++) {
    for (const [name, values] of patterns(bits)) {
      const block = packed(values, bits);
      for (let padding = 0; padding < 4; padding++) {
        for (let shift = 0; shift < 4; shift++) {
          const source = placed(block, padding, shift);
          for (const base of [-1, 0, 1000, 2 ** 31 - 200]) {
            out.fill(0x5a5a5a5a);
            const docs = expectedDocs(values, base);
            const last = unpacker.unpackDocDeltas(source, padding, bits, out, base);
            const where = `width ${bits}, ${name}, offset ${padding} in a source at +${shift}, base ${base}`;
            assert.equal(last, docs[BLOCK_SIZE - 1], where);
            assert.deepEqual(Array.from(out), docs.map((doc) => doc | 0), where);
          }
        }
      }
    }
  }
});

test('blockBitsRequired is the width of the largest value', () => {
  for (let bits = 0; bits <= 32; bits++) {
    const values = new Int32Array(BLOCK_SIZE);
    values[BLOCK_SIZE - 1] = maxOf(bits) | 0;
    assert.equal(blockBitsRequired(values), bits);
  }
});

test('one unpacker alternating between sources reads each from its own bytes', () => {
  const unpacker = new BlockUnpacker();
  const out = new Int32Array(BLOCK_SIZE);
  const first = [3, 1, 4, 1, 5, 9, 2, 6];
  const second = [2, 7, 1, 8, 2, 8, 1, 8];
  const firstValues = Array.from({ length: BLOCK_SIZE }, (_, i) => first[i % first.length]!);
  const secondValues = Array.from({ length: BLOCK_SIZE }, (_, i) => second[i % second.length]!);
  const a = placed(packed(firstValues, 4), 1, 0);
  const b = placed(packed(secondValues, 4), 3, 2);
  for (let round = 0; round < 3; round++) {
    unpacker.unpack(a, 1, 4, out);
    assert.deepEqual(Array.from(out), firstValues);
    unpacker.unpack(b, 3, 4, out);
    assert.deepEqual(Array.from(out), secondValues);
  }
});

test('unpack refuses a block outside its source or a width above 32', () => {
  const unpacker = new BlockUnpacker();
  const out = new Int32Array(BLOCK_SIZE);
  const source = placed(packed(new Array(BLOCK_SIZE).fill(1), 1), 2, 1);
  assert.throws(() => unpacker.unpack(source, 3, 1, out), RangeError);
  assert.throws(() => unpacker.unpack(source, -1, 1, out), RangeError);
  assert.throws(() => unpacker.unpack(Buffer.alloc(16 * 33), 0, 33, out), RangeError);
  assert.throws(() => unpacker.unpackDocDeltas(source, 3, 1, out, 0), RangeError);
  assert.throws(() => unpacker.unpackDocDeltas(Buffer.alloc(16 * 33), 0, 33, out, 0), RangeError);
  // Width 0 reads nothing, wherever it points.
  out.fill(9);
  unpacker.unpack(source, source.length, 0, out);
  assert.deepEqual(Array.from(out), new Array(BLOCK_SIZE).fill(0));
  assert.equal(unpacker.unpackDocDeltas(source, source.length, 0, out, 41), 41 + BLOCK_SIZE);
  assert.deepEqual(Array.from(out), Array.from({ length: BLOCK_SIZE }, (_, i) => 42 + i));
});

test('property: unpack and unpackDocDeltas agree with the bit-at-a-time reference for any width, values, offset and base', () => {
  const blockArbitrary = fc
    .integer({ min: 0, max: 32 })
    .chain((bits) =>
      fc.record({
        bits: fc.constant(bits),
        values: fc.array(bits === 0 ? fc.constant(0) : fc.oneof(fc.integer({ min: 0, max: maxOf(bits) }), fc.constantFrom(0, maxOf(bits))), {
          minLength: BLOCK_SIZE,
          maxLength: BLOCK_SIZE,
        }),
        padding: fc.integer({ min: 0, max: 9 }),
        shift: fc.integer({ min: 0, max: 7 }),
        trailing: fc.integer({ min: 0, max: 5 }),
        // Doc ids before the block (-1 before the first); any int32, the sum is checked exactly.
        base: fc.oneof(fc.constantFrom(-1, 0), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
      }),
    );
  const unpacker = new BlockUnpacker();
  const out = new Int32Array(BLOCK_SIZE);
  fc.assert(
    fc.property(blockArbitrary, ({ bits, values, padding, shift, trailing, base }) => {
      const source = placed(packed(values, bits), padding, shift, trailing);
      unpacker.unpack(source, padding, bits, out);
      const reference = Array.from({ length: BLOCK_SIZE }, (_, i) => referenceValue(source, padding, bits, i));
      assert.deepEqual(Array.from(out), expectedOutput(reference));
      assert.deepEqual(reference, values);
      const docs = expectedDocs(reference, base);
      assert.equal(unpacker.unpackDocDeltas(source, padding, bits, out, base), docs[BLOCK_SIZE - 1]);
      assert.deepEqual(Array.from(out), docs.map((doc) => doc | 0));
    }),
    { numRuns: 300 },
  );
});
