/**
 * Batched reduces (QueryPhaseResultConsumer): shard results are reduced `batched_reduce_size` at a time, each
 * partial reduce is a reduce phase and the final reduce one more; the page is the same as reducing everything at
 * once, and a search without hits or aggregations to merge is reduced once whatever the batch size. Also the
 * decision of when the can-match pre-filter runs (TransportSearchAction.shouldPreFilterSearchShards).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { QueryPhaseResult } from '../../../../src/search/phase/query-phase.js';
import { reduceQueryPhase, type ShardQueryOutcome } from '../../../../src/search/phase/reduce.js';
import { shouldPreFilterSearchShards, type PreFilterDecision } from '../../../../src/search/phase/can-match.js';
import { RELEVANCE } from '../../../../src/search/phase/sort.js';

function shard(shardIndex: number, scores: readonly number[]): ShardQueryOutcome {
  const result: QueryPhaseResult = {
    totalHits: { value: scores.length, relation: 'eq' },
    hits: scores.map((score, doc) => ({ doc, score })),
    maxScore: scores.length === 0 ? NaN : Math.max(...scores),
    timedOut: false,
  };
  return { shardIndex, result };
}

const OPTIONS = { from: 0, size: 10, sort: RELEVANCE, trackTotalHitsUpTo: 10_000, hasAggregations: false, maxBuckets: 65_536 };

test('five shards in batches of two: three partial reduces and the final one, as ES counts them', () => {
  const shards = [0, 1, 2, 3, 4].map((index) => shard(index, [index + 1, 0.5]));
  assert.equal(reduceQueryPhase(shards, { ...OPTIONS, batchedReduceSize: 2 }).numReducePhases, 4);
  // A batch is reduced when the next result arrives and finds it full (with the pending partial result counted).
  assert.equal(reduceQueryPhase(shards, { ...OPTIONS, batchedReduceSize: 3 }).numReducePhases, 2);
  assert.equal(reduceQueryPhase(shards, { ...OPTIONS, batchedReduceSize: 4 }).numReducePhases, 2);
  assert.equal(reduceQueryPhase(shards, { ...OPTIONS, batchedReduceSize: 5 }).numReducePhases, 1);
  assert.equal(reduceQueryPhase(shards, { ...OPTIONS, batchedReduceSize: 512 }).numReducePhases, 1);
  assert.equal(reduceQueryPhase(shards, OPTIONS).numReducePhases, 1);
  // size 0 and no aggregations: nothing to merge, so no batching (ES's batchReduceSize is the shard count).
  assert.equal(reduceQueryPhase(shards, { ...OPTIONS, size: 0, batchedReduceSize: 2 }).numReducePhases, 1);
});

test('a batched reduce gives the same page and totals as a single one (property)', () => {
  const shardScores = fc.array(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 6 }), { minLength: 1, maxLength: 9 });
  fc.assert(
    fc.property(shardScores, fc.integer({ min: 2, max: 10 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 5 }), (scores, batch, from, size) => {
      const shards = scores.map((list, index) => shard(index, list));
      const once = reduceQueryPhase(shards, { ...OPTIONS, from, size });
      const batched = reduceQueryPhase(shards, { ...OPTIONS, from, size, batchedReduceSize: batch });
      assert.deepEqual(batched.hits, once.hits);
      assert.deepEqual(batched.totalHits, once.totalHits);
      assert.equal(Object.is(batched.maxScore, once.maxScore), true);
    }),
    { numRuns: 300 },
  );
});

test('the can-match pre-filter runs when the query can rewrite to match_none and there are more shards than the threshold', () => {
  const range = { kind: 'range', field: 'd' } as unknown as PreFilterDecision['query'];
  const base: PreFilterDecision = { dfs: false, query: range, aggregations: undefined, primaryFieldSort: false, preFilterShardSize: undefined, readOnlyIndices: false, numShards: 3 };
  assert.equal(shouldPreFilterSearchShards(base), false, 'default threshold is 128 shards');
  assert.equal(shouldPreFilterSearchShards({ ...base, numShards: 129 }), true);
  assert.equal(shouldPreFilterSearchShards({ ...base, preFilterShardSize: 1 }), true);
  assert.equal(shouldPreFilterSearchShards({ ...base, preFilterShardSize: 3 }), false);
  assert.equal(shouldPreFilterSearchShards({ ...base, readOnlyIndices: true }), true, 'a write-blocked index lowers the threshold to 1');
  assert.equal(shouldPreFilterSearchShards({ ...base, preFilterShardSize: 1, dfs: true }), false);
  assert.equal(shouldPreFilterSearchShards({ ...base, preFilterShardSize: 1, query: undefined }), false, 'no query is match_all');
  assert.equal(shouldPreFilterSearchShards({ ...base, preFilterShardSize: 1, query: { kind: 'match_all' } as unknown as PreFilterDecision['query'] }), false);
  assert.equal(shouldPreFilterSearchShards({ ...base, query: undefined, primaryFieldSort: true }), true, 'a primary field sort pre-filters from one shard on');
  const allDocs = [{ type: 'terms', minDocCount: 0 }] as unknown as PreFilterDecision['aggregations'];
  assert.equal(shouldPreFilterSearchShards({ ...base, preFilterShardSize: 1, aggregations: allDocs }), false, 'terms with min_doc_count 0 must visit every shard');
});
