/**
 * Sliced search (ES's SliceBuilder, TermsSliceQuery, DocValuesSliceQuery, DocIdSliceQuery): the slices of a
 * request cover every document exactly once, whether there are more slices than shards or fewer; ids hash
 * in ES's Uid encoding; the section parses with ES's checks and errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Searcher } from '../../../src/engine/searcher.js';
import { parseSearchBody } from '../../../src/search/dsl/index.js';
import type { SliceSpec } from '../../../src/search/dsl/index.js';
import { sliceFilter, sliceForShard, withSliceFilter, type ShardSearchTarget } from '../../../src/search/phase/index.js';
import { MatchAllDocsQuery } from '../../../src/search/query/match-all-docs-query.js';
import { DocIdSliceQuery } from '../../../src/search/query/slice/doc-id-slice-query.js';
import { DocValuesSliceQuery } from '../../../src/search/query/slice/doc-values-slice-query.js';
import { doubleToSortableLong, encodeUid, mixLong, sliceOf } from '../../../src/search/query/slice/slice-hash.js';
import { TermsSliceQuery } from '../../../src/search/query/slice/terms-slice-query.js';
import type { Query } from '../../../src/search/core/query.js';
import { IndexSearcher } from '../../../src/search/searcher/index-searcher.js';
import { BM25Similarity } from '../../../src/search/similarity/bm25.js';
import { buildSearcher, type TestDoc } from './helpers/test-indexer.js';

/** The fields of a shard target the slice filter reads (the default `_id` strategy needs no mapping). */
function targetOf(searcher: Searcher, shardIndex: number): ShardSearchTarget {
  return {
    shardIndex,
    searcher,
    settings: { maxSlicesPerScroll: 1024 },
    mapping: { kind: 'object', properties: {} },
  } as unknown as ShardSearchTarget;
}

function matchingDocs(searcher: Searcher, query: Query): number[] {
  const indexSearcher = new IndexSearcher(searcher, { similarity: new BM25Similarity() });
  return indexSearcher.topDocs(query, Math.max(1, searcher.maxDoc)).scoreDocs.map((hit) => hit.doc).sort((a, b) => a - b);
}

/** `_id` is indexed from the source as a keyword term, as the engine indexes it. */
function idDoc(id: string, extra: Record<string, unknown> = {}): TestDoc {
  return { id, source: { _id: id, ...extra } };
}

const idArbitrary = fc.oneof(
  fc.nat({ max: 10_000_000 }).map(String),
  fc.base64String({ minLength: 4, maxLength: 24 }).map((text) => text.replace(/=/g, '').replace(/\+/g, '-').replace(/\//g, '_')).filter((text) => text.length > 0),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
);

test('scroll slices on _id cover every document exactly once, with more or fewer slices than shards', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(idArbitrary, { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 5 }),
      fc.integer({ min: 2, max: 12 }),
      fc.integer(),
      async (ids, shardCount, max, seed) => {
        // Spread the ids over the shards, each shard in one or two segments.
        const shards: TestDoc[][] = Array.from({ length: shardCount }, () => []);
        ids.forEach((id, i) => shards[Math.abs(seed + i * 7) % shardCount]!.push(idDoc(id)));
        const searchers = await Promise.all(shards.map((docs) => buildSearcher(docs.length > 1 ? [docs.slice(0, docs.length >> 1), docs.slice(docs.length >> 1)] : [docs], { _id: { type: 'keyword' } })));
        const seen = new Map<string, number>();
        for (let id = 0; id < max; id++) {
          const spec: SliceSpec = { id, max };
          searchers.forEach((searcher, shardIndex) => {
            const query = withSliceFilter(new MatchAllDocsQuery(), targetOf(searcher, shardIndex), sliceForShard(spec, shardIndex, shardCount, true));
            const docs = shards[shardIndex]!.flat();
            for (const doc of matchingDocs(searcher, query)) {
              const docId = docs[doc]!.id;
              seen.set(docId, (seen.get(docId) ?? 0) + 1);
            }
          });
        }
        assert.equal(seen.size, ids.length);
        for (const [id, count] of seen) assert.equal(count, 1, `${id} is in ${count} slices`);
      },
    ),
    { numRuns: 60 },
  );
});

test('whole shards go to slices when there are fewer slices than shards; slices spread over shards otherwise', async () => {
  const searcher = await buildSearcher([[idDoc('a'), idDoc('b')]], { _id: { type: 'keyword' } });
  // 3 shards, 2 slices: shards 0 and 2 belong to slice 0, shard 1 to slice 1.
  const placement = (id: number, shard: number): string => sliceFilter(targetOf(searcher, shard), sliceForShard({ id, max: 2 }, shard, 3, true)).toString();
  assert.equal(placement(0, 0), '*:*');
  assert.equal(placement(0, 1), 'MatchNoDocsQuery("this shard is not part of the slice")');
  assert.equal(placement(0, 2), '*:*');
  assert.equal(placement(1, 1), '*:*');
  // 2 shards, 5 slices: shard 0 holds slices 0, 2, 4 (in-shard 0..2 of 3), shard 1 holds 1 and 3 (of 2).
  const spread = (id: number, shard: number): string => sliceFilter(targetOf(searcher, shard), sliceForShard({ id, max: 5 }, shard, 2, true)).toString();
  assert.equal(spread(4, 0), 'TermsSliceQuery[field=_id, id=2, max=3]');
  assert.equal(spread(3, 1), 'TermsSliceQuery[field=_id, id=1, max=2]');
  assert.equal(spread(3, 0), 'MatchNoDocsQuery("this shard is not part of the slice")');
  // 2 shards, 3 slices: shard 1 holds slice 1 alone, so it keeps every doc.
  assert.equal(sliceFilter(targetOf(searcher, 1), sliceForShard({ id: 1, max: 3 }, 1, 2, true)).toString(), '*:*');
  // A PIT slices by doc id when no field is given.
  assert.equal(sliceFilter(targetOf(searcher, 0), sliceForShard({ id: 1, max: 3 }, 0, 1, false)).toString(), 'DocIdSliceQuery[field=_doc, id=1, max=3]');
});

test('doc-values slices cover single-valued and missing values exactly once', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.option(fc.bigInt({ min: -(2n ** 52n), max: 2n ** 52n }), { nil: undefined }), { minLength: 1, maxLength: 50 }), fc.integer({ min: 2, max: 9 }), async (values, max) => {
      const docs = values.map((value, i) => ({ id: String(i), source: value === undefined ? {} : { n: Number(value) } }));
      const searcher = await buildSearcher([docs], { n: { type: 'long' } });
      const counts = new Array<number>(docs.length).fill(0);
      for (let id = 0; id < max; id++) for (const doc of matchingDocs(searcher, new DocValuesSliceQuery('n', id, max))) counts[doc]!++;
      assert.deepEqual(counts, new Array<number>(docs.length).fill(1));
      // A doc without a value hashes as 0, so it is in slice 0.
      values.forEach((value, doc) => {
        if (value === undefined) assert.ok(matchingDocs(searcher, new DocValuesSliceQuery('n', 0, max)).includes(doc));
      });
    }),
    { numRuns: 40 },
  );
});

test('doc-id slices of a point in time are contiguous and cover the reader', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 2, max: 10 }), async (segmentSizes, max) => {
      let next = 0;
      const segments = segmentSizes.map((size) => Array.from({ length: size }, () => idDoc(String(next++))));
      const searcher = await buildSearcher(segments, {});
      const all: number[] = [];
      for (let id = 0; id < max; id++) {
        const docs = matchingDocs(searcher, new DocIdSliceQuery(id, max));
        if (docs.length > 0) assert.equal(docs[docs.length - 1]! - docs[0]! + 1, docs.length);
        all.push(...docs);
      }
      assert.deepEqual(all, Array.from({ length: next }, (_, i) => i));
    }),
    { numRuns: 40 },
  );
});

test('ids are hashed in ES Uid encoding', () => {
  assert.deepEqual([...encodeUid('12')], [0xfe, 0x12]);
  assert.deepEqual([...encodeUid('123')], [0xfe, 0x12, 0x3f]);
  assert.deepEqual([...encodeUid('AAAA')], [0, 0, 0]);
  // base64 whose first byte collides with a marker byte gets an escape byte.
  assert.deepEqual([...encodeUid('_w')], [0xfd, 0xff]);
  assert.deepEqual([...encodeUid('a b')], [0xff, 0x61, 0x20, 0x62]);
  assert.deepEqual([...encodeUid('abc')], [...Buffer.from('abc', 'base64url')]);
  assert.equal(mixLong(0n), 0);
  assert.equal(sliceOf(-7, 3), 2);
  assert.equal(doubleToSortableLong(0), 0n);
  assert.ok(doubleToSortableLong(-1) < doubleToSortableLong(-0.5));
  const query = new TermsSliceQuery('_id', 0, 2);
  assert.equal(query.containsTerm(Buffer.from('x')) || new TermsSliceQuery('_id', 1, 2).containsTerm(Buffer.from('x')), true);
});

test('the slice section parses with ES checks', () => {
  assert.deepEqual(parseSearchBody('{"slice":{"id":1,"max":3}}').slice, { id: 1, max: 3 });
  assert.deepEqual(parseSearchBody('{"slice":{"field":"n","id":0,"max":2}}').slice, { field: 'n', id: 0, max: 2 });
  const failure = (body: string): string => {
    try {
      parseSearchBody(body);
    } catch (err) {
      const error = err as { reason?: string; message: string; causedBy?: { reason?: string; message: string } };
      return `${error.message} / ${error.causedBy?.message ?? ''}`;
    }
    return 'no error';
  };
  assert.match(failure('{"slice":{"id":2,"max":2}}'), /\[slice\] failed to parse field \[max\] \/ max must be greater than id/);
  assert.match(failure('{"slice":{"id":0,"max":1}}'), /max must be greater than 1/);
  assert.match(failure('{"slice":{"id":-1,"max":3}}'), /id must be greater than or equal to 0/);
  assert.match(failure('{"slice":{"idd":0,"max":3}}'), /\[slice\] unknown field \[idd\] did you mean \[id\]\?/);
});

test('slice limits and field checks fail on the shard as ES does', async () => {
  const searcher = await buildSearcher([[idDoc('a')]], { _id: { type: 'keyword' } });
  const target = { ...targetOf(searcher, 0), settings: { maxSlicesPerScroll: 4 } } as unknown as ShardSearchTarget;
  assert.throws(
    () => sliceFilter(target, sliceForShard({ id: 0, max: 5 }, 0, 1, true)),
    /The number of slices \[5\] is too large. It must be less than \[4\]. This limit can be set by changing the \[index.max_slices_per_scroll\] index level setting./,
  );
  // The limit is a scroll limit: a point in time may use more slices.
  assert.doesNotThrow(() => sliceFilter(target, sliceForShard({ id: 0, max: 5 }, 0, 1, false)));
  assert.throws(() => sliceFilter(target, sliceForShard({ field: '_id', id: 0, max: 2 }, 0, 1, false)), /cannot slice on \[_id\] when using \[point-in-time\]/);
  assert.throws(() => sliceFilter(target, sliceForShard({ field: 'missing', id: 0, max: 2 }, 0, 1, true)), /field missing not found/);
});
