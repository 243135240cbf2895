import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DocValuesWriter } from '../../../../src/engine/codec/docvalues/doc-values-writer.js';
import { DocValuesReader } from '../../../../src/engine/codec/docvalues/doc-values-reader.js';
import { SEGMENT_ID } from './postings-fixtures.js';

const RUNS = 40;

/** maxDoc and a strictly increasing subset of its doc ids: none, all, sparse or dense. */
const docsOf = fc.integer({ min: 1, max: 2000 }).chain((maxDoc) =>
  fc
    .oneof(
      fc.constant('all'),
      fc.constant('none'),
      fc.double({ min: 0, max: 1, noNaN: true }),
    )
    .chain((mode) =>
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: maxDoc, maxLength: maxDoc }).map((coins) => {
        const docs: number[] = [];
        for (let doc = 0; doc < maxDoc; doc++) {
          if (mode === 'all' || (mode !== 'none' && coins[doc]! < mode)) docs.push(doc);
        }
        return { maxDoc, docs: Int32Array.from(docs) };
      }),
    ),
);

const anyLong = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -1000n, max: 1000n }),
  fc.integer({ min: 0, max: 1_000_000 }).map((s) => BigInt(s) * 1000n + 1_600_000_000_000n),
  fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 53n, -(2n ** 53n)),
);

/** Longs of one column drawn from one regime, so gcd/narrow-range paths are exercised, not only noise. */
const longColumn = (count: number): fc.Arbitrary<bigint[]> =>
  fc.oneof(
    fc.array(anyLong, { minLength: count, maxLength: count }),
    fc.tuple(fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }), fc.bigInt({ min: 1n, max: 100_000n })).chain(([base, step]) =>
      fc.array(fc.integer({ min: 0, max: 50 }), { minLength: count, maxLength: count }).map((ks) => ks.map((k) => base + BigInt(k) * step)),
    ),
  );

const anyDouble = fc.oneof(
  fc.double(),
  fc.constantFrom(NaN, -0, 0, Infinity, -Infinity, Number.MIN_VALUE, -Number.MAX_VALUE),
  fc.integer({ min: -1000, max: 1000 }).map((n) => n * 1.0),
);

function open(writer: DocValuesWriter, maxDoc: number): DocValuesReader {
  return new DocValuesReader(writer.finish().bytes, 'test.dvd', SEGMENT_ID, maxDoc);
}

test('numeric long doc values round-trip exactly, missing docs included', () => {
  fc.assert(
    fc.property(
      docsOf.chain(({ maxDoc, docs }) => longColumn(docs.length).map((values) => ({ maxDoc, docs, values }))),
      fc.boolean(),
      ({ maxDoc, docs, values }, asNumbers) => {
        const safe = values.every((v) => v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n);
        const writer = new DocValuesWriter(SEGMENT_ID, maxDoc);
        writer.addNumeric('n', {
          kind: 'long',
          docs,
          values: asNumbers && safe ? Float64Array.from(values, Number) : BigInt64Array.from(values),
        });
        const column = open(writer, maxDoc).numeric('n');
        assert.ok(column !== undefined && column.kind === 'long');
        assert.equal(column.docCount, docs.length);
        const expected = new Map<number, bigint>();
        docs.forEach((doc, i) => expected.set(doc, values[i]!));
        for (let doc = 0; doc < maxDoc; doc++) {
          const value = expected.get(doc);
          assert.equal(column.has(doc), value !== undefined);
          if (value === undefined) continue;
          assert.equal(column.getBigInt(doc), value);
          if (column.exactAsNumber) assert.equal(column.get(doc), Number(value));
        }
        if (safe && values.length > 0) {
          const range = values.reduce((a, b) => (a > b ? a : b)) - values.reduce((a, b) => (a < b ? a : b));
          assert.equal(column.exactAsNumber, range <= 2n ** 53n - 1n);
        }
      },
    ),
    { numRuns: RUNS },
  );
});

test('numeric double doc values keep NaN, -0 and every bit', () => {
  fc.assert(
    fc.property(
      docsOf.chain(({ maxDoc, docs }) =>
        fc.oneof(
          fc.array(anyDouble, { minLength: docs.length, maxLength: docs.length }),
          fc.array(fc.integer({ min: -5000, max: 5000 }), { minLength: docs.length, maxLength: docs.length }),
        ).map((values) => ({ maxDoc, docs, values })),
      ),
      ({ maxDoc, docs, values }) => {
        const writer = new DocValuesWriter(SEGMENT_ID, maxDoc);
        writer.addNumeric('d', { kind: 'double', docs, values: Float64Array.from(values) });
        const column = open(writer, maxDoc).numeric('d');
        assert.ok(column !== undefined && column.kind === 'double');
        let i = 0;
        for (let doc = 0; doc < maxDoc; doc++) {
          const has = i < docs.length && docs[i] === doc;
          assert.equal(column.has(doc), has);
          if (has) assert.ok(Object.is(column.get(doc), values[i++]!), `doc ${doc}: ${column.get(doc)} vs ${values[i - 1]}`);
        }
      },
    ),
    { numRuns: RUNS },
  );
});

const keyword = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('a', 'ab', 'abc', '', 'b', 'é', '😀', 'z'));

test('sorted doc values: ords follow UTF-8 byte order, lookups both ways', () => {
  fc.assert(
    fc.property(
      docsOf.chain(({ maxDoc, docs }) => fc.array(keyword, { minLength: docs.length, maxLength: docs.length }).map((values) => ({ maxDoc, docs, values }))),
      fc.array(keyword, { maxLength: 10 }),
      ({ maxDoc, docs, values }, probes) => {
        const writer = new DocValuesWriter(SEGMENT_ID, maxDoc);
        writer.addSorted('k', { docs, values });
        const column = open(writer, maxDoc).sorted('k');
        assert.ok(column !== undefined);
        const distinct = [...new Set(values.map((v) => Buffer.from(v).toString('hex')))]
          .map((hex) => Buffer.from(hex, 'hex'))
          .sort(Buffer.compare);
        assert.equal(column.valueCount, distinct.length);
        distinct.forEach((term, ord) => {
          assert.ok(column.lookupOrd(ord).equals(term));
          assert.equal(column.lookupTerm(term), ord);
        });
        let i = 0;
        for (let doc = 0; doc < maxDoc; doc++) {
          if (i < docs.length && docs[i] === doc) {
            assert.equal(column.lookupOrdString(column.ord(doc)), Buffer.from(values[i++]!).toString('utf8'));
          } else {
            assert.equal(column.ord(doc), -1);
          }
        }
        for (const probe of probes) {
          const bytes = Buffer.from(probe);
          const insertion = distinct.findIndex((t) => Buffer.compare(t, bytes) >= 0);
          const point = insertion < 0 ? distinct.length : insertion;
          const expected = point < distinct.length && distinct[point]!.equals(bytes) ? point : -point - 1;
          assert.equal(column.lookupTerm(probe), expected);
        }
      },
    ),
    { numRuns: RUNS },
  );
});

test('sorted-set doc values: per doc the distinct ords, ascending', () => {
  fc.assert(
    fc.property(
      docsOf.chain(({ maxDoc, docs }) =>
        fc.array(fc.array(keyword, { maxLength: 5 }), { minLength: docs.length, maxLength: docs.length }).map((values) => ({ maxDoc, docs, values })),
      ),
      ({ maxDoc, docs, values }) => {
        const writer = new DocValuesWriter(SEGMENT_ID, maxDoc);
        writer.addSortedSet('tags', { docs, values });
        const column = open(writer, maxDoc).sortedSet('tags')!;
        const byDoc = new Map<number, string[]>();
        docs.forEach((doc, i) => byDoc.set(doc, values[i]!));
        for (let doc = 0; doc < maxDoc; doc++) {
          const expected = [...new Set((byDoc.get(doc) ?? []).map((v) => Buffer.from(v).toString('hex')))].sort((a, b) =>
            Buffer.compare(Buffer.from(a, 'hex'), Buffer.from(b, 'hex')),
          );
          const ords: number[] = [];
          for (let i = column.docStart(doc); i < column.docEnd(doc); i++) ords.push(column.ordAt(i));
          assert.deepEqual([...ords].sort((a, b) => a - b), ords);
          assert.deepEqual(ords.map((ord) => column.lookupOrd(ord).toString('hex')), expected);
        }
      },
    ),
    { numRuns: RUNS },
  );
});

test('sorted-set doc values from ords into sorted terms (the indexing buffer\'s path) are byte for byte the file addSortedSet writes', () => {
  fc.assert(
    fc.property(
      docsOf.chain(({ maxDoc, docs }) =>
        fc.array(fc.array(keyword, { maxLength: 5 }), { minLength: docs.length, maxLength: docs.length }).map((values) => ({ maxDoc, docs, values })),
      ),
      ({ maxDoc, docs, values }) => {
        const expected = new DocValuesWriter(SEGMENT_ID, maxDoc);
        expected.addSortedSet('tags', { docs, values });
        // The same column as the buffer hands it over: distinct terms in byte order, per doc ords in any order.
        const terms = [...new Set(values.flat().map((v) => Buffer.from(v).toString('hex')))].map((hex) => Buffer.from(hex, 'hex')).sort(Buffer.compare);
        const ordOf = new Map(terms.map((term, ord) => [term.toString('hex'), ord]));
        const ords = Int32Array.from(values.flat().map((v) => ordOf.get(Buffer.from(v).toString('hex'))!));
        const actual = new DocValuesWriter(SEGMENT_ID, maxDoc);
        actual.addSortedSetOrds('tags', { docs, counts: Int32Array.from(values.map((set) => set.length)), ords, terms });
        assert.ok(actual.finish().bytes.equals(expected.finish().bytes));
      },
    ),
    { numRuns: RUNS },
  );
});

test('sorted-set doc values from ords refuse ords outside the terms and counts that disagree with the ords', () => {
  const terms = [Buffer.from('a'), Buffer.from('b')];
  const docs = Int32Array.of(0, 2);
  assert.throws(() => new DocValuesWriter(SEGMENT_ID, 3).addSortedSetOrds('f', { docs, counts: Int32Array.of(1, 1), ords: Int32Array.of(0, 2), terms }), /ord 2 out of/);
  assert.throws(() => new DocValuesWriter(SEGMENT_ID, 3).addSortedSetOrds('f', { docs, counts: Int32Array.of(1, 2), ords: Int32Array.of(0, 1), terms }), /counts add up/);
  assert.throws(() => new DocValuesWriter(SEGMENT_ID, 3).addSortedSetOrds('f', { docs, counts: Int32Array.of(1, 0), ords: Int32Array.of(0, 1), terms }), /counts add up to 1/);
});

test('sorted-numeric doc values: per doc the values, ascending, longs and doubles', () => {
  fc.assert(
    fc.property(
      docsOf.chain(({ maxDoc, docs }) =>
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: docs.length, maxLength: docs.length }).chain((counts) => {
          const total = counts.reduce((a, b) => a + b, 0);
          return fc
            .tuple(longColumn(total), fc.array(anyDouble, { minLength: total, maxLength: total }))
            .map(([longs, doubles]) => ({ maxDoc, docs, counts, longs, doubles }));
        }),
      ),
      ({ maxDoc, docs, counts, longs, doubles }) => {
        const writer = new DocValuesWriter(SEGMENT_ID, maxDoc);
        writer.addSortedNumeric('l', { kind: 'long', docs, counts: Int32Array.from(counts), values: BigInt64Array.from(longs) });
        writer.addSortedNumeric('d', { kind: 'double', docs, counts: Int32Array.from(counts), values: Float64Array.from(doubles) });
        const reader = open(writer, maxDoc);
        const l = reader.sortedNumeric('l')!;
        const d = reader.sortedNumeric('d')!;
        let start = 0;
        const expectedLongs = new Map<number, bigint[]>();
        const expectedDoubles = new Map<number, number[]>();
        docs.forEach((doc, i) => {
          expectedLongs.set(doc, [...BigInt64Array.from(longs.slice(start, start + counts[i]!)).sort()]);
          expectedDoubles.set(doc, [...Float64Array.from(doubles.slice(start, start + counts[i]!)).sort()]);
          start += counts[i]!;
        });
        for (let doc = 0; doc < maxDoc; doc++) {
          const gotLongs: bigint[] = [];
          for (let i = l.docStart(doc); i < l.docEnd(doc); i++) gotLongs.push(l.bigIntAt(i));
          assert.deepEqual(gotLongs, expectedLongs.get(doc) ?? []);
          const gotDoubles: number[] = [];
          for (let i = d.docStart(doc); i < d.docEnd(doc); i++) gotDoubles.push(d.valueAt(i));
          assert.deepEqual(gotDoubles, expectedDoubles.get(doc) ?? []);
        }
      },
    ),
    { numRuns: RUNS },
  );
});

test('a boolean column (numeric 0/1) costs one bit per document', () => {
  const maxDoc = 200_000;
  const docs = Int32Array.from({ length: maxDoc }, (_, i) => i);
  const values = Float64Array.from({ length: maxDoc }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const writer = new DocValuesWriter(SEGMENT_ID, maxDoc);
  writer.addNumeric('flag', { kind: 'long', docs, values });
  const { bytes } = writer.finish();
  assert.ok(bytes.length < maxDoc / 8 + 200, `${bytes.length} bytes`);
  const column = new DocValuesReader(bytes, 'test.dvd', SEGMENT_ID, maxDoc).numeric('flag')!;
  let sum = 0;
  for (let doc = 0; doc < maxDoc; doc++) sum += column.get(doc);
  assert.equal(sum, Math.ceil(maxDoc / 3));
});

test('long doc values reject unsafe numbers (they would silently lose precision)', () => {
  const writer = new DocValuesWriter(SEGMENT_ID, 2);
  assert.throws(() => writer.addNumeric('x', { kind: 'long', docs: Int32Array.of(0), values: Float64Array.of(2 ** 60) }), /safe integer/);
  assert.throws(() => writer.addNumeric('y', { kind: 'long', docs: Int32Array.of(1, 0), values: Float64Array.of(1, 2) }), /increasing/);
});

test('long doc values whose delta gcd exceeds 2^63 round-trip (values 2^53 and -2^63; found with FC_SEED=1599244992)', () => {
  const writer = new DocValuesWriter(SEGMENT_ID, 2);
  writer.addNumeric('n', { kind: 'long', docs: Int32Array.from([0, 1]), values: BigInt64Array.from([2n ** 53n, -(2n ** 63n)]) });
  const column = open(writer, 2).numeric('n');
  assert.ok(column !== undefined && column.kind === 'long');
  assert.equal(column.getBigInt(0), 2n ** 53n);
  assert.equal(column.getBigInt(1), -(2n ** 63n));
});

test('long deltas: deltaAt orders values as they compare, deltaRange holds exactly the values in [lower, upper]', () => {
  // Nanosecond timestamps (all beyond 2^53), and arbitrary longs.
  const nanos = fc.bigInt({ min: 1_500_000_000_000_000_000n, max: 1_500_000_100_000_000_000n });
  const column = fc.oneof(fc.array(nanos, { minLength: 1, maxLength: 60 }), longColumn(30));
  fc.assert(
    fc.property(column, anyLong, anyLong, fc.nat(59), (values, a, b, pick) => {
      const maxDoc = values.length;
      const writer = new DocValuesWriter(SEGMENT_ID, maxDoc);
      writer.addSortedNumeric('l', { kind: 'long', docs: Int32Array.from(values, (_, i) => i), counts: new Int32Array(maxDoc).fill(1), values: BigInt64Array.from(values) });
      const l = open(writer, maxDoc).sortedNumeric('l')!;
      // Bounds around a real value half of the time, so equality at both ends is exercised.
      const around = values[pick % values.length]!;
      const [lower, upper] = pick % 2 === 0 ? [a < b ? a : b, a < b ? b : a] : [around, around + (b & 3n)];
      const { low, high } = l.deltaRange(lower, upper);
      for (let i = 0; i < maxDoc; i++) {
        const value = l.bigIntAt(i);
        assert.equal(value, values[i]);
        if (!l.deltasExact) continue;
        const delta = l.deltaAt(i);
        assert.equal(delta >= low && delta <= high, value >= lower && value <= upper, `value ${value} in [${lower}, ${upper}]`);
        for (let j = 0; j < maxDoc; j++) assert.equal(Math.sign(delta - l.deltaAt(j)), value < l.bigIntAt(j) ? -1 : value > l.bigIntAt(j) ? 1 : 0);
      }
    }),
    { numRuns: 300 },
  );
});
