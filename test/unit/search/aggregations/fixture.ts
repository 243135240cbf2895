/**
 * Test fixture for aggregations: documents with keyword, long, double, date and boolean fields (any of them
 * missing), written into real segments with the codec's SegmentWriter, split into several segments per shard
 * and several shards. A tiny query evaluator over the source documents backs filter aggregations, so brute
 * force and aggregation see the same filter.
 */
import fc from 'fast-check';
import { LiveDocs, SegmentReaders, SegmentWriter, type FieldSpec } from '../../../../src/engine/codec/index.js';
import { MemoryDirectory } from '../../../../src/engine/store/memory-directory.js';
import {
  AggregationsCollector,
  finalReduceContext,
  reduceAggregations,
  renderAggregations,
  type AggFieldType,
  type AggregationContext,
  type AggregationSegment,
  type AggregationSpec,
  type InternalAggregation,
} from '../../../../src/search/aggregations/index.js';

export interface TestDoc {
  readonly id: string;
  /** keyword, multi-valued */
  readonly tags?: readonly string[];
  /** keyword, single */
  readonly cat?: string;
  /** long, multi-valued */
  readonly n?: readonly number[];
  /** double */
  readonly price?: number;
  /** date (epoch millis) */
  readonly ts?: number;
  readonly flag?: boolean;
}

export const FIELD_TYPES: Record<string, AggFieldType> = {
  tags: { family: 'keyword', typeName: 'keyword' },
  cat: { family: 'keyword', typeName: 'keyword' },
  n: { family: 'long', typeName: 'long' },
  price: { family: 'double', typeName: 'double', scalingFactor: null },
  ts: { family: 'date', typeName: 'date', format: 'strict_date_optional_time||epoch_millis' },
  flag: { family: 'boolean', typeName: 'boolean' },
  body: { family: 'none', typeName: 'text', isText: true },
};

const SPECS: FieldSpec[] = [
  { name: 'tags', indexOptions: 'none', hasNorms: false, docValues: 'sorted_set' },
  { name: 'cat', indexOptions: 'none', hasNorms: false, docValues: 'sorted_set' },
  { name: 'n', indexOptions: 'none', hasNorms: false, docValues: 'sorted_numeric' },
  { name: 'price', indexOptions: 'none', hasNorms: false, docValues: 'sorted_numeric' },
  { name: 'ts', indexOptions: 'none', hasNorms: false, docValues: 'sorted_numeric' },
  { name: 'flag', indexOptions: 'none', hasNorms: false, docValues: 'sorted_numeric' },
];

/** The values of a doc's field as the index sees them (numbers of booleans as 0/1). */
export function valuesOf(doc: TestDoc, field: string): Array<string | number> {
  switch (field) {
    case 'tags':
      return doc.tags === undefined ? [] : [...new Set(doc.tags)];
    case 'cat':
      return doc.cat === undefined ? [] : [doc.cat];
    case 'n':
      return doc.n === undefined ? [] : [...doc.n];
    case 'price':
      return doc.price === undefined ? [] : [doc.price];
    case 'ts':
      return doc.ts === undefined ? [] : [doc.ts];
    case 'flag':
      return doc.flag === undefined ? [] : [doc.flag ? 1 : 0];
    default:
      return [];
  }
}

export interface TestSegment extends AggregationSegment {
  /** The source doc of each segment doc id. */
  readonly docs: readonly TestDoc[];
}

let segmentCounter = 0;

async function writeSegment(docs: readonly TestDoc[], deleted: ReadonlySet<string>): Promise<TestSegment> {
  const directory = new MemoryDirectory();
  const name = `_${(segmentCounter++).toString(36)}`;
  const writer = new SegmentWriter({ name, maxDoc: docs.length, fields: SPECS });
  for (const field of ['tags', 'cat']) {
    const with_ = docs.map((d, i) => [i, valuesOf(d, field) as string[]] as const).filter(([, v]) => v.length > 0);
    writer.docValues.addSortedSet(field, { docs: Int32Array.from(with_, ([i]) => i), values: with_.map(([, v]) => v) });
  }
  for (const field of ['n', 'price', 'ts', 'flag']) {
    const with_ = docs.map((d, i) => [i, valuesOf(d, field) as number[]] as const).filter(([, v]) => v.length > 0);
    const kind = field === 'price' ? 'double' : 'long';
    writer.docValues.addSortedNumeric(field, {
      kind,
      docs: Int32Array.from(with_, ([i]) => i),
      counts: Int32Array.from(with_, ([, v]) => v.length),
      values: Float64Array.from(with_.flatMap(([, v]) => v)),
    });
  }
  for (const doc of docs) {
    writer.stored.addDocument([
      { name: '_id', value: doc.id },
      { name: '_source', value: Buffer.from(JSON.stringify(doc)) },
    ]);
  }
  await writer.finish(directory);
  const readers = await SegmentReaders.open(directory, name);
  const deletedDocs = docs.flatMap((d, i) => (deleted.has(d.id) ? [i] : []));
  const liveDocs = deletedDocs.length === 0 ? null : LiveDocs.allLive(docs.length).withDeleted(deletedDocs);
  return { readers, docBase: 0, maxDoc: docs.length, liveDocs, docs };
}

export interface TestShard {
  readonly segments: readonly TestSegment[];
}

/** Writes `docs` as one shard of `segmentCount` segments (docs in `deleted` are written, then deleted). */
export async function buildShard(docs: readonly TestDoc[], segmentCount: number, deleted: ReadonlySet<string> = new Set()): Promise<TestShard> {
  const segments: TestSegment[] = [];
  const per = Math.max(1, Math.ceil(docs.length / Math.max(1, segmentCount)));
  let docBase = 0;
  for (let start = 0; start < docs.length; start += per) {
    const segment = await writeSegment(docs.slice(start, start + per), deleted);
    segments.push({ ...segment, docBase });
    docBase += segment.maxDoc;
  }
  return { segments };
}

/** Splits docs over `shardCount` shards, round robin, each in up to `segmentsPerShard` segments. */
export async function buildShards(docs: readonly TestDoc[], shardCount: number, segmentsPerShard: number, deleted: ReadonlySet<string> = new Set()): Promise<TestShard[]> {
  const shards: TestShard[] = [];
  for (let s = 0; s < shardCount; s++) {
    shards.push(await buildShard(docs.filter((_, i) => i % shardCount === s), segmentsPerShard, deleted));
  }
  return shards;
}

/** A minimal query language for filter aggregations in tests: term, terms, range, exists, match_all, bool. */
export function matchesQuery(query: unknown, doc: TestDoc): boolean {
  const q = query as Record<string, Record<string, unknown>>;
  const [kind, body] = Object.entries(q)[0] ?? ['match_all', {}];
  switch (kind) {
    case 'match_all':
      return true;
    case 'term': {
      const [field, value] = Object.entries(body)[0]!;
      return valuesOf(doc, field).some((v) => v === value);
    }
    case 'terms': {
      const [field, values] = Object.entries(body)[0]!;
      return valuesOf(doc, field).some((v) => (values as unknown[]).includes(v));
    }
    case 'exists':
      return valuesOf(doc, body['field'] as string).length > 0;
    case 'range': {
      const [field, bounds] = Object.entries(body)[0]! as [string, Record<string, number>];
      return valuesOf(doc, field).some(
        (v) =>
          typeof v === 'number' &&
          (bounds['gte'] === undefined || v >= bounds['gte']) &&
          (bounds['lt'] === undefined || v < bounds['lt']) &&
          (bounds['gt'] === undefined || v > bounds['gt']) &&
          (bounds['lte'] === undefined || v <= bounds['lte']),
      );
    }
    case 'bool': {
      const must = (body['must'] as unknown[] | undefined) ?? [];
      const mustNot = (body['must_not'] as unknown[] | undefined) ?? [];
      return must.every((c) => matchesQuery(c, doc)) && !mustNot.some((c) => matchesQuery(c, doc));
    }
    default:
      throw new Error(`test query [${kind}] not supported`);
  }
}

export function testContext(overrides: Partial<AggregationContext> = {}): AggregationContext {
  return {
    fieldType: (field) => FIELD_TYPES[field],
    nowInMillis: Date.UTC(2024, 0, 15, 12, 0, 0),
    maxBuckets: 65_536,
    indexName: 'test',
    compileFilter: (query) => ({
      forSegment: (segment) => {
        const docs = (segment as TestSegment).docs;
        return { matches: (doc) => matchesQuery(query, docs[doc]!) };
      },
    }),
    ...overrides,
  };
}

/** Runs the aggregations over every live doc of a shard (or those matching `filter`). */
export function collectShard(
  specs: readonly AggregationSpec[],
  shard: TestShard,
  ctx: AggregationContext,
  filter?: (doc: TestDoc) => boolean,
  scoreOf: (doc: TestDoc) => number = () => 1,
): InternalAggregation[] {
  const collector = new AggregationsCollector(specs, ctx);
  for (const segment of shard.segments) {
    const leaf = collector.getLeafCollector(segment);
    let current: TestDoc | undefined;
    leaf.setScorer({ score: () => scoreOf(current!) });
    for (let doc = 0; doc < segment.maxDoc; doc++) {
      if (segment.liveDocs !== null && !segment.liveDocs.isLive(doc)) continue;
      if (filter !== undefined && !filter(segment.docs[doc]!)) continue;
      current = segment.docs[doc]!;
      leaf.collect(doc);
    }
  }
  return collector.buildShardResult();
}

/** Shards -> final reduce -> rendered JSON, with JsonFloat turned into plain numbers. */
export function runAggregations(
  specs: readonly AggregationSpec[],
  shards: readonly TestShard[],
  ctx = testContext(),
  filter?: (doc: TestDoc) => boolean,
  scoreOf?: (doc: TestDoc) => number,
): Record<string, any> {
  const results = shards.map((shard) => collectShard(specs, shard, ctx, filter, scoreOf));
  const reduced = reduceAggregations(results, finalReduceContext(ctx.maxBuckets));
  return plain(renderAggregations(reduced));
}

export function plain(value: unknown): any {
  return JSON.parse(JSON.stringify(value));
}

// ---- generators ----

const TAGS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'ü', 'zz', 'A', '\u{1F600}'];

export const arbDoc = (index: number): fc.Arbitrary<TestDoc> =>
  fc.record(
    {
      tags: fc.array(fc.constantFrom(...TAGS), { maxLength: 3 }),
      cat: fc.constantFrom('x', 'y', 'z', 'w'),
      n: fc.array(fc.integer({ min: -50, max: 200 }), { maxLength: 3 }),
      price: fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }).map((v) => Math.round(v * 100) / 100),
      ts: fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2021, 11, 31) }),
      flag: fc.boolean(),
    },
    { requiredKeys: [] },
  ).map((d) => ({ id: `doc${index}`, ...d }));

export const arbDocs = (max = 60): fc.Arbitrary<TestDoc[]> =>
  fc.integer({ min: 0, max }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbDoc(i))));

/** Shard and segment layout to split docs into. */
export const arbLayout = fc.record({ shards: fc.integer({ min: 1, max: 3 }), segments: fc.integer({ min: 1, max: 3 }) });
