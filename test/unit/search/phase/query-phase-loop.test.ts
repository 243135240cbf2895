/**
 * The query phase's two collection loops: the plain top-k search runs the scorer's own loop (scoreRange) in
 * short windows; anything else (here min_score, which every BM25 hit passes) runs the generic per-doc loop.
 * Both must give the same hits and totals, skip deleted docs, and check for cancellation every window.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalysisRegistry } from '../../../../src/analysis/index.js';
import { DEFAULT_MAPPING_SETTINGS, parseMapping } from '../../../../src/mapping/index.js';
import { parseSearchBody } from '../../../../src/search/dsl/request/parse-search-body.js';
import { executeQueryPhase, PhaseControl, resolveSort, type QueryPhaseRequest, type ShardSearchTarget } from '../../../../src/search/phase/index.js';
import type { SearchRequest } from '../../../../src/search/dsl/index.js';
import { buildSearcher, type TestDoc } from '../helpers/test-indexer.js';

const DOCS = 1500;

async function target(): Promise<ShardSearchTarget> {
  const words = ['fox', 'dog', 'cat', 'owl'];
  const docs: TestDoc[] = Array.from({ length: DOCS }, (_, i) => ({
    id: String(i),
    source: { body: Array.from({ length: 1 + (i % 5) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ') },
  }));
  const deletedIds = docs.filter((_, i) => i % 11 === 0).map((doc) => doc.id);
  const searcher = await buildSearcher([docs.slice(0, 900), docs.slice(900)], { body: { type: 'text' } }, { deletedIds });
  return {
    index: 'test',
    indexUuid: 'uuid',
    shard: 0,
    nodeId: 'node',
    shardIndex: 0,
    searcher,
    mapping: parseMapping({ properties: { body: { type: 'text' } } }),
    mappingSettings: DEFAULT_MAPPING_SETTINGS,
    analysis: AnalysisRegistry.global(),
    settings: {
      maxResultWindow: 10_000,
      maxDocvalueFieldsSearch: 100,
      maxInnerResultWindow: 100,
      maxAnalyzedOffset: 1_000_000,
      maxTermsCount: 65_536,
      maxRegexLength: 1000,
      defaultFields: ['*'],
      queryStringLenient: false,
      maxClauseCount: 4096,
      maxBuckets: 65_536,
    },
  };
}

function phaseRequest(shard: ShardSearchTarget, body: object, trackTotalHitsUpTo: number): QueryPhaseRequest {
  const request = parseSearchBody(JSON.stringify(body)) as SearchRequest;
  return { request, sort: resolveSort(shard, request.sort), numHits: 10, trackTotalHitsUpTo, nowMillis: 0, windowCheck: 'search' };
}

const QUERIES = [{ match: { body: 'fox' } }, { match: { body: 'fox owl' } }, { match: { body: { query: 'fox owl', operator: 'and' } } }];

test('the top-k loop and the generic loop find the same hits, without deleted docs', async () => {
  const shard = await target();
  for (const query of QUERIES) {
    for (const track of [10, 10_000]) {
      const fast = await executeQueryPhase(shard, phaseRequest(shard, { query }, track), new PhaseControl());
      const generic = await executeQueryPhase(shard, phaseRequest(shard, { query, min_score: 0 }, track), new PhaseControl());
      const label = `${JSON.stringify(query)} track_total_hits ${track}`;
      assert.deepEqual(fast.hits, generic.hits, label);
      assert.equal(fast.hits.length, 10, label);
      assert.ok(fast.hits.every((hit) => hit.doc % 11 !== 0), `${label}: a deleted doc was returned`);
      if (track === 10_000) assert.deepEqual(fast.totalHits, generic.totalHits, label);
    }
  }
});

test('the top-k loop checks for cancellation at least every 64 matches, and stops when cancelled', async () => {
  const shard = await target();
  let checks = 0;
  await executeQueryPhase(shard, phaseRequest(shard, { query: QUERIES[0] }, 10_000), new PhaseControl(() => void checks++));
  // 'fox' matches about half the docs; every one is collected with the count tracked this high.
  assert.ok(checks >= DOCS / 2 / 64, `${checks} checks`);

  let calls = 0;
  const cancelAt = 5;
  await assert.rejects(
    executeQueryPhase(
      shard,
      phaseRequest(shard, { query: QUERIES[0] }, 10_000),
      new PhaseControl(() => {
        if (++calls === cancelAt) throw new Error('cancelled');
      }),
    ),
    /cancelled/,
  );
  assert.equal(calls, cancelAt);
});
