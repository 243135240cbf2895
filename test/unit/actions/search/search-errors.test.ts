/**
 * How search failures are reported as ES reports them (SearchPhaseExecutionException, ShardSearchFailure,
 * ExceptionsHelper.groupBy), and the scroll / point-in-time ids round-trip with ES's errors for bad ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../../src/common/errors.js';
import { errorBody } from '../../../../src/http/error-response.js';
import { buildScrollId, decodePitId, encodePitId, parseScrollId } from '../../../../src/actions/search/context-ids.js';
import { groupFailures, searchPhaseExecutionError, shardsHeader, type ShardFailure } from '../../../../src/actions/search/search-errors.js';

const iae = (reason: string): EsError => new EsError('illegal_argument_exception', reason);

test('all shards failed with a plain exception: grouped, root causes, the wrapped caused_by, its status', () => {
  const failures: ShardFailure[] = [0, 1, 2].map((shard) => ({ index: 'i', shard, nodeId: 'n1', cause: iae('bad window') }));
  const body = errorBody(searchPhaseExecutionError('query', 'all shards failed', failures));
  assert.deepEqual(body, {
    error: {
      root_cause: [{ type: 'illegal_argument_exception', reason: 'bad window' }],
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
      phase: 'query',
      grouped: true,
      failed_shards: [{ shard: 0, index: 'i', node: 'n1', reason: { type: 'illegal_argument_exception', reason: 'bad window' } }],
      caused_by: { type: 'illegal_argument_exception', reason: 'bad window', caused_by: { type: 'illegal_argument_exception', reason: 'bad window' } },
    },
    status: 400,
  });
});

test('an Elasticsearch exception as cause: no caused_by (it is a shard failure of its own); a 5xx wins the status', () => {
  const shardError = new EsError('query_shard_exception', 'failed to create query: x', { metadata: { index_uuid: 'u', index: 'i' }, causedBy: iae('x') });
  const failures: ShardFailure[] = [
    { index: 'i', shard: 0, nodeId: 'n1', cause: shardError },
    { index: 'j', shard: 0, nodeId: 'n1', cause: new EsError('exception', 'boom') },
  ];
  const error = searchPhaseExecutionError('query', 'all shards failed', failures);
  assert.equal(error.status, 500);
  const body = errorBody(error) as { error: Record<string, unknown> };
  assert.equal(body.error['caused_by'], undefined);
  assert.deepEqual(body.error['root_cause'], [
    { type: 'query_shard_exception', reason: 'failed to create query: x', index_uuid: 'u', index: 'i' },
    { type: 'exception', reason: 'boom' },
  ]);
});

test('groupBy keeps one failure per index, type and message; the header counts all of them', () => {
  const failures: ShardFailure[] = [
    { index: 'a', shard: 0, nodeId: 'n', cause: iae('x') },
    { index: 'a', shard: 1, nodeId: 'n', cause: iae('x') },
    { index: 'b', shard: 0, nodeId: 'n', cause: iae('x') },
    { index: 'a', shard: 2, nodeId: 'n', cause: iae('y') },
  ];
  assert.deepEqual(groupFailures(failures).map((failure) => [failure.index, failure.shard]), [['a', 0], ['b', 0], ['a', 2]]);
  const header = shardsHeader(5, 1, 0, failures);
  assert.equal(header['failed'], 4);
  assert.equal((header['failures'] as unknown[]).length, 3);
  assert.equal(shardsHeader(2, 2, 0, [])['failures'], undefined);
});

test('scroll ids use ES layout and reject garbage with "Cannot parse scroll id"', () => {
  const id = buildScrollId([
    { sessionId: 'sess', contextId: 7, nodeId: 'node-a' },
    { sessionId: 'sess', contextId: 8, nodeId: 'node-b' },
  ]);
  assert.ok(Buffer.from(id, 'base64').toString('latin1').startsWith('\u0014include_context_uuid\u000equeryThenFetch'));
  assert.deepEqual(parseScrollId(id), [
    { sessionId: 'sess', contextId: 7, nodeId: 'node-a' },
    { sessionId: 'sess', contextId: 8, nodeId: 'node-b' },
  ]);
  assert.throws(() => parseScrollId('garbage'), (err: EsError) => err.reason === 'Cannot parse scroll id' && err.status === 400);
  const pit = encodePitId([{ index: 'i', indexUuid: 'u', shard: 3, nodeId: 'n', sessionId: 's', contextId: 42 }]);
  assert.deepEqual(decodePitId(pit), [{ index: 'i', indexUuid: 'u', shard: 3, nodeId: 'n', sessionId: 's', contextId: 42 }]);
  assert.throws(() => decodePitId('xyz'), (err: EsError) => err.reason === 'invalid id: [xyz]');
});
