/**
 * histogram and date_histogram against brute force: keys, counts, empty buckets and extended bounds; date
 * buckets in several time zones across DST transitions and month/quarter/year boundaries, checked against
 * an Intl-only oracle; ES's documentation examples; and max_buckets on runaway empty buckets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAggregations } from '../../../../src/search/aggregations/index.js';
import { arbDocs, arbLayout, buildShards, runAggregations, valuesOf, type TestDoc } from './fixture.js';
import { bucketStart, isoInZone, STEP_INTO_NEXT, type Unit } from './zone-oracle.js';

test('histogram equals brute force, with empty buckets and extended bounds', async () => {
  await fc.assert(
    fc.asyncProperty(
      arbDocs(50),
      arbLayout,
      fc.constantFrom('n', 'price'),
      fc.constantFrom(0.5, 1, 4, 2.5, 64),
      fc.constantFrom(0, 0.25, 3),
      fc.constantFrom(0, 1, 2),
      fc.option(fc.tuple(fc.integer({ min: -1200, max: 100 }), fc.integer({ min: 0, max: 1200 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const), { nil: undefined }),
      async (docs, layout, field, interval, offset, minDocCount, bounds) => {
        const shards = await buildShards(docs, layout.shards, layout.segments);
        const body: Record<string, unknown> = { field, interval, offset, min_doc_count: minDocCount };
        if (bounds !== undefined) body['extended_bounds'] = { min: bounds[0], max: bounds[1] };
        const out = runAggregations(parseAggregations({ h: { histogram: body } }), shards);
        const keyOf = (v: number): number => Math.floor((v - offset) / interval) * interval + offset;
        const counts = new Map<number, number>();
        for (const doc of docs) for (const key of new Set((valuesOf(doc, field) as number[]).map(keyOf))) counts.set(key, (counts.get(key) ?? 0) + 1);
        let keys = [...counts.keys()].filter((k) => counts.get(k)! >= minDocCount).sort((a, b) => a - b);
        if (minDocCount === 0) {
          const all = new Set(keys);
          const dataKeys = [...counts.keys()];
          let lo = dataKeys.length > 0 ? Math.min(...dataKeys) : Infinity;
          let hi = dataKeys.length > 0 ? Math.max(...dataKeys) : -Infinity;
          if (bounds !== undefined) {
            // Empty buckets reach from the bucket of extended_bounds.min to the last key <= extended_bounds.max.
            lo = Math.min(lo, keyOf(bounds[0]));
            hi = Math.max(hi, keyOf(bounds[1]));
          }
          for (let k = lo; k <= hi; k += interval) all.add(k);
          keys = [...all].sort((a, b) => a - b);
        }
        assert.deepEqual(
          out.h.buckets.map((b: { key: number; doc_count: number }) => [b.key, b.doc_count]),
          keys.map((k) => [k, counts.get(k) ?? 0]),
        );
      },
    ),
    { numRuns: 40 },
  );
});

test('histogram keyed output, order by count and hard bounds', async () => {
  const docs: TestDoc[] = [1, 2, 2, 7, 7, 7, 12].map((n, i) => ({ id: String(i), n: [n] }));
  const shards = await buildShards(docs, 2, 2);
  const out = runAggregations(
    parseAggregations({
      keyed: { histogram: { field: 'n', interval: 5, keyed: true } },
      byCount: { histogram: { field: 'n', interval: 5, order: { _count: 'desc' } } },
      hard: { histogram: { field: 'n', interval: 5, hard_bounds: { min: 5, max: 10 }, min_doc_count: 0, extended_bounds: { min: 5, max: 9 } } },
    }),
    shards,
  );
  assert.deepEqual(out.keyed.buckets, { '0.0': { key: 0, doc_count: 3 }, '5.0': { key: 5, doc_count: 3 }, '10.0': { key: 10, doc_count: 1 } });
  assert.deepEqual(out.byCount.buckets.map((b: { key: number }) => b.key), [0, 5, 10]);
  assert.deepEqual(out.hard.buckets, [{ key: 5, doc_count: 3 }]);
});

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Sao_Paulo', 'Asia/Kathmandu'];
const DAY_OR_MORE: Unit[] = ['day', 'week', 'month', 'quarter', 'year'];

/** Instants around the DST transitions of the zones above, plus random ones. */
const TRANSITIONS = [
  Date.UTC(2020, 2, 29, 1), Date.UTC(2020, 9, 25, 1), Date.UTC(2020, 2, 8, 7), Date.UTC(2020, 10, 1, 6),
  Date.UTC(2020, 3, 4, 15), Date.UTC(2020, 9, 3, 15), Date.UTC(2018, 10, 4, 3), Date.UTC(2019, 1, 17, 2),
];
const arbInstant = fc.oneof(
  fc.integer({ min: Date.UTC(2018, 0, 1), max: Date.UTC(2021, 11, 31) }),
  fc.tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 })).map(([t, d]) => t + d),
  // Exactly on quarter hours around transitions, where buckets start and end.
  fc.tuple(fc.constantFrom(...TRANSITIONS, Date.UTC(2020, 9, 3, 15, 30)), fc.integer({ min: -12, max: 12 })).map(([t, k]) => t + k * 900_000),
);

test('date_histogram calendar intervals match the Intl oracle in many time zones', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(arbInstant, { minLength: 1, maxLength: 25 }),
      fc.constantFrom(...ZONES),
      fc.constantFrom<Unit>('minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'),
      fc.integer({ min: 1, max: 3 }),
      async (instants, zone, unit, shardCount) => {
        const docs: TestDoc[] = instants.map((ts, i) => ({ id: String(i), ts }));
        const shards = await buildShards(docs, shardCount, 2);
        const interval = { minute: '1m', hour: '1h', day: 'day', week: 'week', month: '1M', quarter: 'quarter', year: '1y' }[unit];
        const out = runAggregations(parseAggregations({ d: { date_histogram: { field: 'ts', calendar_interval: interval, time_zone: zone, min_doc_count: 1 } } }), shards);
        const counts = new Map<number, number>();
        for (const ts of instants) {
          const key = bucketStart(zone, ts, unit);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        const expected = [...counts.entries()].sort((a, b) => a[0] - b[0]);
        assert.deepEqual(out.d.buckets.map((b: { key: number; doc_count: number }) => [b.key, b.doc_count]), expected, `${zone} ${unit}`);
        for (const bucket of out.d.buckets) assert.equal(bucket.key_as_string, isoInZone(zone, bucket.key));
      },
    ),
    { numRuns: 60 },
  );
});

test('date_histogram empty buckets walk calendar units in a zone (min_doc_count 0, extended bounds)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(arbInstant, { minLength: 1, maxLength: 6 }), fc.constantFrom(...ZONES), fc.constantFrom(...DAY_OR_MORE), async (instants, zone, unit) => {
      if (unit === 'day' && Math.max(...instants) - Math.min(...instants) > 400 * 86_400_000) return;
      const docs: TestDoc[] = instants.map((ts, i) => ({ id: String(i), ts }));
      const interval = { day: '1d', week: '1w', month: 'month', quarter: '1q', year: 'year' }[unit as 'day'];
      const out = runAggregations(
        parseAggregations({ d: { date_histogram: { field: 'ts', calendar_interval: interval, time_zone: zone, min_doc_count: 0 } } }),
        await buildShards(docs, 2, 1),
      );
      const keys: number[] = out.d.buckets.map((b: { key: number }) => b.key);
      assert.equal(keys[0], bucketStart(zone, Math.min(...instants), unit));
      assert.equal(keys[keys.length - 1], bucketStart(zone, Math.max(...instants), unit));
      for (let i = 1; i < keys.length; i++) assert.equal(keys[i], bucketStart(zone, keys[i - 1]! + STEP_INTO_NEXT[unit], unit), `${zone} ${unit} after ${keys[i - 1]}`);
      assert.equal(out.d.buckets.reduce((a: number, b: { doc_count: number }) => a + b.doc_count, 0), instants.length);
    }),
    { numRuns: 40 },
  );
});

test('date_histogram fixed intervals in fixed-offset zones, and offsets', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(arbInstant, { minLength: 1, maxLength: 20 }),
      fc.constantFrom(['90m', 5_400_000], ['3h', 10_800_000], ['1d', 86_400_000], ['7d', 604_800_000], ['45s', 45_000]),
      fc.constantFrom(['Z', 0], ['-01:00', -3_600_000], ['+05:45', 20_700_000]),
      fc.constantFrom(['+0h', 0], ['+6h', 21_600_000], ['-30m', -1_800_000]),
      async (instants, [text, interval], [zone, zoneOffset], [offsetText, offset]) => {
        const docs: TestDoc[] = instants.map((ts, i) => ({ id: String(i), ts }));
        const out = runAggregations(
          parseAggregations({ d: { date_histogram: { field: 'ts', fixed_interval: text, time_zone: zone, offset: offsetText, min_doc_count: 1 } } }),
          await buildShards(docs, 2, 2),
        );
        const keyOf = (v: number): number => Math.floor((v - offset + zoneOffset) / interval) * interval - zoneOffset + offset;
        const counts = new Map<number, number>();
        for (const ts of instants) counts.set(keyOf(ts), (counts.get(keyOf(ts)) ?? 0) + 1);
        assert.deepEqual(
          out.d.buckets.map((b: { key: number; doc_count: number }) => [b.key, b.doc_count]),
          [...counts.entries()].sort((a, b) => a[0] - b[0]),
        );
      },
    ),
    { numRuns: 40 },
  );
});

test('DST transitions: repeated hours stay apart, short days and skipped midnights', async () => {
  const run = async (instants: number[], body: Record<string, unknown>) =>
    runAggregations(parseAggregations({ d: { date_histogram: { field: 'ts', min_doc_count: 1, ...body } } }), await buildShards(instants.map((ts, i) => ({ id: String(i), ts })), 1, 1)).d.buckets;
  // Berlin, spring forward 2020-03-29 02:00 CET -> 03:00 CEST.
  assert.deepEqual(await run([Date.UTC(2020, 2, 29, 0, 30), Date.UTC(2020, 2, 29, 1, 30)], { calendar_interval: 'hour', time_zone: 'Europe/Berlin' }), [
    { key_as_string: '2020-03-29T01:00:00.000+01:00', key: Date.UTC(2020, 2, 29, 0), doc_count: 1 },
    { key_as_string: '2020-03-29T03:00:00.000+02:00', key: Date.UTC(2020, 2, 29, 1), doc_count: 1 },
  ]);
  // Berlin, fall back 2020-10-25 03:00 CEST -> 02:00 CET: two distinct 02:00 hours.
  assert.deepEqual(await run([Date.UTC(2020, 9, 25, 0, 30), Date.UTC(2020, 9, 25, 1, 30)], { calendar_interval: 'hour', time_zone: 'Europe/Berlin' }), [
    { key_as_string: '2020-10-25T02:00:00.000+02:00', key: Date.UTC(2020, 9, 25, 0), doc_count: 1 },
    { key_as_string: '2020-10-25T02:00:00.000+01:00', key: Date.UTC(2020, 9, 25, 1), doc_count: 1 },
  ]);
  // The 25-hour day and the 23-hour day are one bucket each.
  assert.deepEqual(await run([Date.UTC(2020, 9, 24, 22, 30), Date.UTC(2020, 9, 25, 22, 30)], { calendar_interval: 'day', time_zone: 'Europe/Berlin' }), [
    { key_as_string: '2020-10-25T00:00:00.000+02:00', key: Date.UTC(2020, 9, 24, 22), doc_count: 2 },
  ]);
  // Leap days in region zones (a February 29 must not read as March 1).
  assert.deepEqual(await run([Date.UTC(2020, 1, 29, 12)], { calendar_interval: 'day', time_zone: 'Europe/Berlin' }), [
    { key_as_string: '2020-02-29T00:00:00.000+01:00', key: Date.UTC(2020, 1, 28, 23), doc_count: 1 },
  ]);
  assert.deepEqual(await run([Date.UTC(2020, 2, 29, 1)], { calendar_interval: 'month', time_zone: 'America/Sao_Paulo' }), [
    { key_as_string: '2020-03-01T00:00:00.000-03:00', key: Date.UTC(2020, 2, 1, 3), doc_count: 1 },
  ]);
  // Sao Paulo skipped midnight on 2018-11-04: the day starts at 01:00 local, the transition.
  assert.deepEqual(await run([Date.UTC(2018, 10, 4, 15)], { calendar_interval: 'day', time_zone: 'America/Sao_Paulo' }), [
    { key_as_string: '2018-11-04T01:00:00.000-02:00', key: Date.UTC(2018, 10, 4, 3), doc_count: 1 },
  ]);
});

test('date_histogram matches the ES documentation examples (time_zone and offset)', async () => {
  const docs: TestDoc[] = [
    { id: '1', ts: Date.parse('2015-10-01T00:30:00Z') },
    { id: '2', ts: Date.parse('2015-10-01T01:30:00Z') },
  ];
  const out = runAggregations(parseAggregations({ by_day: { date_histogram: { field: 'ts', calendar_interval: 'day', time_zone: '-01:00' } } }), await buildShards(docs, 1, 1));
  assert.deepEqual(out.by_day.buckets, [
    { key_as_string: '2015-09-30T00:00:00.000-01:00', key: 1443574800000, doc_count: 1 },
    { key_as_string: '2015-10-01T00:00:00.000-01:00', key: 1443661200000, doc_count: 1 },
  ]);
  const offsetDocs: TestDoc[] = [
    { id: '1', ts: Date.parse('2015-09-30T11:00:00Z') },
    { id: '2', ts: Date.parse('2015-10-01T05:00:00Z') },
  ];
  const offsetOut = runAggregations(parseAggregations({ by_day: { date_histogram: { field: 'ts', calendar_interval: 'day', offset: '+6h' } } }), await buildShards(offsetDocs, 1, 1));
  assert.deepEqual(offsetOut.by_day.buckets, [
    { key_as_string: '2015-09-30T06:00:00.000Z', key: 1443592800000, doc_count: 2 },
  ]);
  const keyed = runAggregations(parseAggregations({ d: { date_histogram: { field: 'ts', calendar_interval: '1M', format: 'yyyy-MM-dd', keyed: true } } }), await buildShards(docs, 1, 1));
  assert.deepEqual(keyed.d.buckets, { '2015-10-01': { key_as_string: '2015-10-01', key: 1443657600000, doc_count: 2 } });
});

test('extended_bounds add empty date buckets; a runaway fixed interval hits search.max_buckets', async () => {
  const docs: TestDoc[] = [{ id: '1', ts: Date.UTC(2020, 1, 10) }];
  const out = runAggregations(
    parseAggregations({ d: { date_histogram: { field: 'ts', calendar_interval: 'month', min_doc_count: 0, extended_bounds: { min: '2020-01-15', max: '2020-04-01' } } } }),
    await buildShards(docs, 1, 1),
  );
  assert.deepEqual(out.d.buckets.map((b: { key_as_string: string; doc_count: number }) => [b.key_as_string, b.doc_count]), [
    ['2020-01-01T00:00:00.000Z', 0],
    ['2020-02-01T00:00:00.000Z', 1],
    ['2020-03-01T00:00:00.000Z', 0],
    ['2020-04-01T00:00:00.000Z', 0],
  ]);
  const wide: TestDoc[] = [{ id: '1', ts: Date.UTC(2000, 0, 1) }, { id: '2', ts: Date.UTC(2020, 0, 1) }];
  const started = Date.now();
  await assert.rejects(
    async () => runAggregations(parseAggregations({ d: { date_histogram: { field: 'ts', fixed_interval: '1s', min_doc_count: 0 } } }), await buildShards(wide, 1, 1)),
    (err: any) => {
      assert.equal(err.type, 'too_many_buckets_exception');
      assert.equal(err.status, 400);
      assert.deepEqual(err.metadata, { max_buckets: 65536 });
      assert.equal(
        err.message,
        'Trying to create too many buckets. Must be less than or equal to: [65536] but this number of buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.',
      );
      return true;
    },
  );
  assert.ok(Date.now() - started < 5000, 'failing on max_buckets must be quick');
});

test('date_histogram fixed intervals in DST zones: keys never after their values, every doc once', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(arbInstant, { minLength: 1, maxLength: 20 }),
      fc.constantFrom('Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'),
      fc.constantFrom('1h', '90m', '3h', '1d'),
      async (instants, zone, interval) => {
        const docs: TestDoc[] = instants.map((ts, i) => ({ id: String(i), ts }));
        const out = runAggregations(
          parseAggregations({ d: { date_histogram: { field: 'ts', fixed_interval: interval, time_zone: zone, min_doc_count: 1 } }, k: { terms: { field: 'ts', size: 100 } } }),
          await buildShards(docs, 2, 2),
        );
        const keys: number[] = out.d.buckets.map((b: { key: number }) => b.key);
        for (let i = 1; i < keys.length; i++) assert.ok(keys[i]! > keys[i - 1]!);
        assert.equal(out.d.buckets.reduce((a: number, b: { doc_count: number }) => a + b.doc_count, 0), instants.length);
        for (const ts of instants) {
          const key = Math.max(...keys.filter((k) => k <= ts));
          assert.ok(Number.isFinite(key), `no bucket at or before ${ts}`);
          assert.ok(ts - key < 86_400_000 + 3_600_000, `${ts} is too far from its bucket ${key}`);
        }
      },
    ),
    { numRuns: 25 },
  );
});
