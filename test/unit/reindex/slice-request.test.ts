/** How a sliced bulk-by-scroll is cut (ES's forSlice and countSlicesBasedOnShards). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { autoSliceCount, MAX_DOCS_ALL_MATCHES, sliceRequest, type BulkByScrollRequest } from '../../../src/reindex/index.js';

const REQUEST = {
  source: { indices: ['src'], body: {}, params: {} },
  batchSize: 100,
  maxDocs: 10,
  abortOnVersionConflict: true,
  requestsPerSecond: 9,
  refresh: false,
  timeoutMillis: 60_000,
  waitForActiveShards: undefined,
  scrollKeepAliveMillis: 300_000,
  conversion: { kind: 'delete_by_query' },
  script: undefined,
  slice: undefined,
} satisfies BulkByScrollRequest;

test('a slice gets its slice, a share of the rate and of max_docs (rounded down)', () => {
  const slice = sliceRequest(REQUEST, 1, 3);
  assert.deepEqual(slice.slice, { id: 1, max: 3 });
  assert.equal(slice.requestsPerSecond, 3);
  assert.equal(slice.maxDocs, 3);
  assert.equal(sliceRequest({ ...REQUEST, maxDocs: MAX_DOCS_ALL_MATCHES, requestsPerSecond: Number.POSITIVE_INFINITY }, 0, 2).maxDocs, MAX_DOCS_ALL_MATCHES);
  assert.equal(sliceRequest({ ...REQUEST, requestsPerSecond: Number.POSITIVE_INFINITY }, 0, 2).requestsPerSecond, Number.POSITIVE_INFINITY);
  assert.throws(() => sliceRequest(REQUEST, 0, 0), /at least 1/);
});

test('slices=auto is the fewest shards among the sources, at most 20', () => {
  assert.equal(autoSliceCount([3, 5]), 3);
  assert.equal(autoSliceCount([50]), 20);
  assert.equal(autoSliceCount([]), 1);
});
