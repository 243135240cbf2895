/** The status and response JSON, field for field as ES's BulkByScrollTask.Status and BulkByScrollResponse. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonFloat } from '../../../src/common/json-float.js';
import { EsError } from '../../../src/common/errors.js';
import { emptyCounts, responseBody, responseStatus, statusFields, sumStatuses, type BulkByScrollStatus } from '../../../src/reindex/index.js';

function status(overrides: Partial<BulkByScrollStatus> = {}): BulkByScrollStatus {
  return { ...emptyCounts(), sliceId: undefined, throttledNanos: 0, requestsPerSecond: Number.POSITIVE_INFINITY, reasonCancelled: undefined, throttledUntilNanos: 0, slices: [], ...overrides };
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

test('field order and presence as Status.innerXContent; unlimited prints -1.0', () => {
  const fields = statusFields(status({ total: 10, created: 3, updated: 2, batches: 1, throttledNanos: 2_500_000, throttledUntilNanos: 1_999_999 }));
  assert.deepEqual(Object.keys(fields), ['total', 'updated', 'created', 'deleted', 'batches', 'version_conflicts', 'noops', 'retries', 'throttled_millis', 'requests_per_second', 'throttled_until_millis']);
  assert.ok(fields['requests_per_second'] instanceof JsonFloat);
  assert.equal((fields['requests_per_second'] as JsonFloat).value, -1);
  assert.equal(fields['throttled_millis'], 2);
  assert.equal(fields['throttled_until_millis'], 1);
  assert.deepEqual(fields['retries'], { bulk: 0, search: 0 });
});

test('slice_id first, canceled after requests_per_second, created/updated left out on request', () => {
  const fields = statusFields(status({ sliceId: 2, requestsPerSecond: 12.5, reasonCancelled: 'by user request' }), { includeCreated: false, includeUpdated: false });
  assert.deepEqual(Object.keys(fields), ['slice_id', 'total', 'deleted', 'batches', 'version_conflicts', 'noops', 'retries', 'throttled_millis', 'requests_per_second', 'canceled', 'throttled_until_millis']);
  assert.equal((fields['requests_per_second'] as JsonFloat).value, 12.5);
  assert.equal(fields['canceled'], 'by user request');
});

test('human-readable: throttled and throttled_until as TimeValue strings before their millis (how TaskResult stores a response)', () => {
  const fields = statusFields(status({ total: 1, throttledNanos: 1_500_000_000, throttledUntilNanos: 0 }), { includeCreated: true, includeUpdated: true, human: true });
  assert.deepEqual(Object.keys(fields).slice(-5), ['throttled', 'throttled_millis', 'requests_per_second', 'throttled_until', 'throttled_until_millis']);
  assert.equal(fields['throttled'], '1.5s');
  assert.equal(fields['throttled_millis'], 1500);
  assert.equal(fields['throttled_until'], '0s');
});

test('a leader sums its slices, keeps the smallest throttled_until and lists the slices (null for a missing one)', () => {
  const leader = sumStatuses([status({ sliceId: 0, total: 5, created: 5, requestsPerSecond: 2, throttledUntilNanos: 5e6 }), null, status({ sliceId: 2, total: 7, created: 1, requestsPerSecond: 3, throttledUntilNanos: 2e6 })], undefined);
  const fields = plain(statusFields(leader)) as Record<string, unknown>;
  assert.equal(fields['total'], 12);
  assert.equal(fields['created'], 6);
  assert.equal(fields['requests_per_second'], 5);
  assert.equal(fields['throttled_until_millis'], 2);
  assert.equal((fields['slices'] as unknown[]).length, 3);
  assert.equal((fields['slices'] as unknown[])[1], null);
  assert.equal(((fields['slices'] as unknown[])[0] as Record<string, unknown>)['slice_id'], 0);
});

test('response: took, timed_out, the status, then failures shaped as BulkItemResponse.Failure; status is the worst failure', () => {
  const cause = new EsError('version_conflict_engine_exception', '[1]: version conflict, document already exists (current version [1])', { metadata: { index_uuid: 'u', shard: '0', index: 'dest' } });
  const result = { tookMillis: 12, timedOut: false, status: status({ total: 1, versionConflicts: 1 }), bulkFailures: [{ index: 'dest', id: '1', cause }], searchFailures: [] };
  const body = plain(responseBody(result, { includeCreated: true, includeUpdated: true })) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).slice(0, 3), ['took', 'timed_out', 'total']);
  assert.equal(Object.keys(body).at(-1), 'failures');
  assert.deepEqual(body['failures'], [
    { index: 'dest', id: '1', cause: { type: 'version_conflict_engine_exception', reason: '[1]: version conflict, document already exists (current version [1])', index_uuid: 'u', shard: '0', index: 'dest' }, status: 409 },
  ]);
  assert.equal(responseStatus(result), 409);
  assert.equal(responseStatus({ ...result, bulkFailures: [] }), 200);
  assert.equal(responseStatus({ ...result, bulkFailures: [], timedOut: true }), 408);
});
