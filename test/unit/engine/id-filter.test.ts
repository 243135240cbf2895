/**
 * The per-segment Bloom filter of ids: an id added is always "maybe", an id never added is "no" nearly always (about
 * 10 bits and 7 probes per id: about 0.8% false positives), and every probe lands inside the filter whatever its hash
 * and size (the probe's bit comes from a multiplication, not a remainder).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IdFilter, IdProbe, probeBit } from '../../../src/engine/segments/id-filter.js';

test('a probe lands inside the filter for every hash and size, the largest hash included', () => {
  fc.assert(
    fc.property(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 64, max: 2 ** 31 }), (h1, h2, i, bitCount) => {
      const bit = probeBit(h1, h2 | 1, i, bitCount);
      assert.ok(Number.isInteger(bit) && bit >= 0 && bit < bitCount, `bit ${bit} of ${bitCount}`);
    }),
    { numRuns: 2000 },
  );
  for (const bitCount of [64, 65, 1000, 2 ** 21 + 1, 2 ** 31 - 1]) assert.equal(probeBit(0xffffffff, 0, 0, bitCount), bitCount - 1);
});

test('every id added is found, and ids never added are found about 0.8% of the time (under 1.2%)', () => {
  for (const size of [1, 10, 1000, 20000]) {
    const filter = IdFilter.create(size);
    for (let i = 0; i < size; i++) filter.add(Buffer.from(`id-${i}`));
    for (let i = 0; i < size; i++) {
      assert.ok(filter.mayContain(Buffer.from(`id-${i}`)), `id-${i} of ${size}`);
      assert.ok(filter.mayContainProbe(new IdProbe(`id-${i}`)), `probe id-${i} of ${size}`);
    }
    if (size < 1000) continue;
    // The ids and hashes are fixed, so this count is too: 0.81-0.84% here, as with the remainder before.
    const tries = 20000;
    let falsePositives = 0;
    for (let i = 0; i < tries; i++) if (filter.mayContainProbe(new IdProbe(`other-${i}`))) falsePositives++;
    assert.ok(falsePositives / tries < 0.012, `${falsePositives} false positives of ${tries}`);
  }
});
