/**
 * Merging: the tiered policy's choices (tiers, floor, too-large segments, deletes, forced merges) and the
 * merger's exactness — every live document keeps its postings (freqs, positions), norms, doc values and
 * stored fields, deleted ones are gone, whatever mix of segments goes in (fast-check).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AnalysisRegistry } from '../../../src/analysis/index.js';
import { LiveDocs, NO_MORE_DOCS, POSTINGS_POSITIONS, SegmentReaders } from '../../../src/engine/codec/index.js';
import { MemoryDirectory } from '../../../src/engine/store/index.js';
import { CachedAnalyzers, IndexingBuffer } from '../../../src/engine/indexing/indexing-buffer.js';
import { snapshotBuffer } from '../../../src/engine/indexing/buffered-segment.js';
import { writeBufferedSegment } from '../../../src/engine/indexing/write-buffered-segment.js';
import { mergeSegments } from '../../../src/engine/merge/segment-merger.js';
import { DEFAULT_MERGE_POLICY, TieredMergePolicy, type PolicySegment } from '../../../src/engine/merge/tiered-merge-policy.js';
import { DocumentFactory } from './engine-helpers.js';

const MB = 1024 * 1024;
const policy = new TieredMergePolicy();

function segments(sizesMb: readonly number[], deleted: readonly number[] = []): PolicySegment[] {
  return sizesMb.map((size, i) => ({ name: `_${i}`, sizeInBytes: size * MB, maxDoc: 1000, deletedCount: deleted[i] ?? 0 }));
}

test('policy: ten segments of one tier are allowed; the eleventh triggers a merge of ten similar ones', () => {
  assert.deepEqual(policy.findMerges(segments(Array(10).fill(1)), new Set()), []);
  const merges = policy.findMerges(segments(Array(11).fill(1)), new Set());
  assert.equal(merges.length, 1);
  assert.equal(merges[0]!.length, 10);
});

test('policy: the budget grows by tiers of ten, so small segments sit beside big ones until the budget is spent', () => {
  // 930 MB: tiers of 2, 20 and 200 MB allow 10 + 10 + 4 = 24 segments.
  assert.deepEqual(policy.findMerges(segments([...Array(9).fill(100), ...Array(15).fill(2)]), new Set()), []);
  const merges = policy.findMerges(segments([...Array(9).fill(100), ...Array(30).fill(2)]), new Set());
  // 39 segments: two merges of ten small ones bring it to 21, within the 24 allowed.
  assert.equal(merges.length, 2);
  assert.ok(merges.every((merge) => merge.length === 10 && merge.every((name) => Number(name.slice(1)) >= 9)), 'only the small segments merge');
});

test('policy: segments over half the max merged size are left alone unless mostly deleted; merging ones are skipped', () => {
  const big = 3 * 1024; // 3 GB > 5 GB / 2
  assert.deepEqual(policy.findMerges(segments([big, ...Array(10).fill(1)]), new Set()), []);
  const withDeletes = policy.findMerges(
    [{ name: '_big', sizeInBytes: big * MB, maxDoc: 1000, deletedCount: 900 }, ...segments(Array(3).fill(1))],
    new Set(),
  );
  assert.ok(withDeletes.some((merge) => merge.includes('_big')), 'a big segment with 90% deletes (22% of the index) is rewritten');
  const busy = policy.findMerges(segments(Array(11).fill(1)), new Set(['_0', '_1', '_2']));
  assert.ok(busy.every((merge) => !merge.includes('_0') && !merge.includes('_1') && !merge.includes('_2')));
});

test('policy: more than 20% deleted documents trigger a merge even with few segments', () => {
  assert.deepEqual(policy.findMerges(segments([1, 1, 1], [500, 0, 0]), new Set()), [], '17% deleted is tolerated');
  const merges = policy.findMerges(segments([1, 1, 1], [700, 0, 0]), new Set());
  assert.equal(merges.length, 1);
  assert.ok(merges[0]!.includes('_0'));
});

test('policy: forced merges and expunging deletes', () => {
  assert.deepEqual(policy.findForcedMerges(segments([5, 1, 3]), 1, new Set()), [['_0', '_2', '_1']]);
  assert.deepEqual(policy.findForcedMerges(segments([5]), 1, new Set()), []);
  assert.deepEqual(policy.findForcedMerges(segments([5], [1]), 1, new Set()), [['_0']], 'one segment with deletes is rewritten');
  assert.deepEqual(policy.findForcedMerges(segments([5, 1, 3, 2]), 2, new Set()), [['_2', '_3', '_1']], 'the three smallest become one');
  assert.deepEqual(policy.findForcedMerges(segments([5, 1]), 3, new Set()), []);
  assert.deepEqual(policy.findForcedDeletesMerges(segments([5, 1, 3], [50, 200, 0]), new Set()), [['_1']]);
  assert.equal(DEFAULT_MERGE_POLICY.floorSegmentBytes, 2 * MB);
  assert.equal(DEFAULT_MERGE_POLICY.maxMergedSegmentBytes, 5 * 1024 * MB);
});

// ---- merger exactness

interface DocSpec {
  body: string[];
  tag: string[];
  n: number[];
  price?: number;
}

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'caf\u00e9', '\u{1f600}x', 'zz');
const docSpec: fc.Arbitrary<DocSpec> = fc.record(
  {
    body: fc.array(fc.array(word, { minLength: 0, maxLength: 8 }).map((words) => words.join(' ')), { minLength: 0, maxLength: 3 }),
    tag: fc.array(word, { maxLength: 3 }),
    n: fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 3 }),
    price: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  },
  { requiredKeys: ['body', 'tag', 'n'] },
);

async function writeSegment(directory: MemoryDirectory, name: string, docs: readonly DocSpec[], ids: readonly string[]): Promise<SegmentReaders> {
  const factory = new DocumentFactory({ properties: { body: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' }, price: { type: 'double' } } });
  const buffer = new IndexingBuffer(new CachedAnalyzers(AnalysisRegistry.global()));
  docs.forEach((spec, i) => {
    const doc = buffer.addDocument(ids[i]!, factory.parse(spec, ids[i]));
    buffer.setMeta(doc, i, 1, 1);
  });
  const written = await writeBufferedSegment(directory, name, snapshotBuffer(buffer).segment, 'lz4');
  return SegmentReaders.open(directory, name, { id: written.info.id });
}

/** Everything a query or fetch can read about one document, keyed by its id. */
function describe(readers: SegmentReaders, live: (doc: number) => boolean): Map<string, unknown> {
  const out = new Map<string, Record<string, unknown>>();
  const idOf: string[] = [];
  for (let doc = 0; doc < readers.maxDoc; doc++) {
    const stored = readers.stored.document(doc).map(({ name, value }) => [name, value instanceof Uint8Array ? Buffer.from(value).toString() : value]);
    idOf[doc] = String(stored[0]![1]);
    if (!live(doc)) continue;
    const tags = readers.docValues.sortedSet('tag');
    const numbers = readers.docValues.sortedNumeric('n');
    const prices = readers.docValues.sortedNumeric('price');
    const values = <T>(count: number, start: number, get: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => get(start + i));
    out.set(idOf[doc]!, {
      stored,
      norm: readers.norms.get('body')?.[doc] ?? 0,
      tags: tags === undefined ? [] : values(tags.docValueCount(doc), tags.docStart(doc), (i) => tags.lookupOrdString(tags.ordAt(i))),
      numbers: numbers === undefined ? [] : values(numbers.docValueCount(doc), numbers.docStart(doc), (i) => numbers.valueAt(i)),
      prices: prices === undefined ? [] : values(prices.docValueCount(doc), prices.docStart(doc), (i) => prices.valueAt(i)),
      seqNo: readers.docValues.numeric('_seq_no')!.get(doc),
      postings: {} as Record<string, number[]>,
    });
  }
  for (const field of ['body', 'tag']) {
    const terms = readers.terms.terms(field);
    if (terms === undefined) continue;
    const iterator = terms.iterator();
    while (iterator.next()) {
      const term = iterator.termString();
      const postings = iterator.postings(POSTINGS_POSITIONS);
      for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) {
        if (!live(doc)) continue;
        const positions = [postings.freq()];
        if (terms.hasPositions) for (let i = 0; i < positions[0]!; i++) positions.push(postings.nextPosition());
        (out.get(idOf[doc]!)!.postings as Record<string, number[]>)[`${field}:${term}`] = positions;
      }
    }
  }
  return out;
}

test('merging keeps every live document exactly and drops deleted ones', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(fc.tuple(docSpec, fc.boolean()), { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 4 }),
      async (segmentSpecs) => {
        const directory = new MemoryDirectory();
        const sources = [];
        const expected = new Map<string, unknown>();
        let next = 0;
        for (const [s, specs] of segmentSpecs.entries()) {
          const ids = specs.map(() => `id${next++}`);
          const readers = await writeSegment(directory, `_${s}`, specs.map(([spec]) => spec), ids);
          const deleted = specs.flatMap(([, isDeleted], doc) => (isDeleted ? [doc] : []));
          const liveDocs = deleted.length === 0 ? null : LiveDocs.allLive(readers.maxDoc).withDeleted(deleted);
          sources.push({ readers, liveDocs });
          for (const [id, description] of describe(readers, (doc) => liveDocs === null || liveDocs.isLive(doc))) expected.set(id, description);
        }
        const written = await mergeSegments(directory, '_m', sources, 'lz4');
        const merged = await SegmentReaders.open(directory, '_m', { id: written.info.id });
        assert.equal(merged.maxDoc, expected.size);
        assert.deepEqual(describe(merged, () => true), expected);
        // Field statistics are recomputed over the surviving documents.
        const docsWithBody = [...expected.values()].filter((d) => Object.keys((d as { postings: object }).postings).some((k) => k.startsWith('body:'))).length;
        assert.equal(merged.field('body')?.stats?.docCount ?? 0, docsWithBody);
      },
    ),
    { numRuns: 40 },
  );
});
