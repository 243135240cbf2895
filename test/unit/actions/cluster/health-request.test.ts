import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { HttpRestRequest } from '../../../../src/http/http-request.js';
import { parseHealthRequest } from '../../../../src/actions/cluster/health-params.js';
import { javaFixed1, renderHealth } from '../../../../src/actions/cluster/health-response.js';
import { evaluateHealth } from '../../../../src/cluster/health/index.js';
import { EsError } from '../../../../src/common/errors.js';
import { clusterState, greenIndex, index, started, unassigned } from '../../../helpers/cluster-state-builder.js';

function rest(query: Record<string, string>, indexParam?: string): HttpRestRequest {
  const pathParams: Record<string, string> = indexParam === undefined ? {} : { index: indexParam };
  return new HttpRestRequest('GET', '/_cluster/health', '/_cluster/health', pathParams, {}, new Map(Object.entries(query)), Buffer.alloc(0), new Promise(() => undefined));
}

function esError(type: string, reason: string) {
  return (err: unknown) => err instanceof EsError && err.type === type && err.reason === reason && err.status === 400;
}

describe('parameters', () => {
  test('defaults: 30s, no conditions, cluster level, lenient expand of open, closed and hidden', () => {
    const { request, level } = parseHealthRequest(rest({}));
    assert.equal(level, 'cluster');
    assert.equal(request.timeoutMillis, 30_000);
    assert.deepEqual(request.indices, []);
    assert.equal(request.waitForStatus, undefined);
    assert.equal(request.waitForActiveShards, undefined);
    assert.equal(request.waitForNodes, undefined);
    assert.deepEqual(
      [request.indicesOptions.ignoreUnavailable, request.indicesOptions.allowNoIndices, request.indicesOptions.expandOpen, request.indicesOptions.expandClosed, request.indicesOptions.expandHidden],
      [true, true, true, true, true],
    );
  });

  test('every parameter is read', () => {
    const { request, level } = parseHealthRequest(
      rest(
        {
          timeout: '1ms',
          wait_for_status: 'Yellow',
          wait_for_no_relocating_shards: 'true',
          wait_for_no_initializing_shards: '',
          wait_for_active_shards: 'all',
          wait_for_nodes: 'ge(2)',
          wait_for_events: 'languid',
          level: 'SHARDS',
          expand_wildcards: 'open',
          local: 'true',
          master_timeout: '5s',
        },
        'a,b*',
      ),
    );
    assert.equal(level, 'shards');
    assert.deepEqual(request.indices, ['a', 'b*']);
    assert.equal(request.timeoutMillis, 1);
    assert.equal(request.waitForStatus, 'yellow');
    assert.equal(request.waitForNoRelocatingShards, true);
    assert.equal(request.waitForNoInitializingShards, true);
    assert.equal(request.waitForActiveShards, 'all');
    assert.deepEqual(request.waitForNodes, { comparison: 'ge', expected: 2 });
    assert.equal(request.waitForEvents, 'LANGUID');
    assert.equal(request.indicesOptions.expandClosed, false);
  });

  test('wait_for_active_shards: a count, 0 meaning no wait', () => {
    assert.equal(parseHealthRequest(rest({ wait_for_active_shards: '5' })).request.waitForActiveShards, 5);
    assert.equal(parseHealthRequest(rest({ wait_for_active_shards: '0' })).request.waitForActiveShards, undefined);
    assert.throws(() => parseHealthRequest(rest({ wait_for_active_shards: '-1' })), esError('illegal_argument_exception', 'shard count cannot be a negative value'));
    assert.throws(
      () => parseHealthRequest(rest({ wait_for_active_shards: 'x' })),
      (err: unknown) => esError('illegal_argument_exception', 'cannot parse ActiveShardCount[x]')(err) && (err as EsError).causedBy?.type === 'number_format_exception',
    );
  });

  test('bad values give the errors ES gives', () => {
    assert.throws(() => parseHealthRequest(rest({ wait_for_status: 'purple' })), esError('illegal_argument_exception', 'No enum constant org.elasticsearch.cluster.health.ClusterHealthStatus.PURPLE'));
    assert.throws(() => parseHealthRequest(rest({ wait_for_events: 'soon' })), esError('illegal_argument_exception', 'No enum constant org.elasticsearch.common.Priority.SOON'));
    assert.throws(() => parseHealthRequest(rest({ level: 'nodes' })), esError('illegal_argument_exception', 'level parameter must be one of [cluster] or [indices] or [shards] but was [nodes]'));
    assert.throws(() => parseHealthRequest(rest({ wait_for_nodes: '>=x' })), esError('number_format_exception', 'For input string: "x"'));
    assert.throws(
      () => parseHealthRequest(rest({ wait_for_relocating_shards: '0' })),
      esError('illegal_argument_exception', 'wait_for_relocating_shards has been removed, use wait_for_no_relocating_shards [true/false] instead'),
    );
    assert.throws(() => parseHealthRequest(rest({ timeout: 'soon' })), esError('illegal_argument_exception', 'failed to parse setting [timeout] with value [soon] as a time value: unit is missing or unrecognized'));
    assert.throws(() => parseHealthRequest(rest({ local: 'maybe' })), (err: unknown) => err instanceof EsError && err.status === 400);
  });

  test('the first bad parameter in ES order is the one reported', () => {
    assert.throws(() => parseHealthRequest(rest({ expand_wildcards: 'x', wait_for_status: 'purple' })), esError('illegal_argument_exception', 'No valid expand wildcard value [x]'));
    assert.throws(() => parseHealthRequest(rest({ wait_for_status: 'purple', level: 'x' })), esError('illegal_argument_exception', 'No enum constant org.elasticsearch.cluster.health.ClusterHealthStatus.PURPLE'));
  });
});

describe('response body', () => {
  const STATS = { numberOfPendingTasks: 2, numberOfInFlightFetch: 1, taskMaxWaitingInQueueMillis: 1500 };
  const state = clusterState({ indices: [greenIndex('b'), index('a', [[started(true), unassigned(false)], [unassigned(true)]], { replicas: 1 })] });
  const result = evaluateHealth(state, { indices: [], indicesOptions: parseHealthRequest(rest({})).request.indicesOptions, timeoutMillis: 0, waitForNoInitializingShards: false, waitForNoRelocatingShards: false }, STATS);

  test('fields in ES 8.19 order; human adds readable fields before their raw ones', () => {
    const body = renderHealth(result, false, 'cluster', true);
    assert.deepEqual(Object.keys(body), [
      'cluster_name',
      'status',
      'timed_out',
      'number_of_nodes',
      'number_of_data_nodes',
      'active_primary_shards',
      'active_shards',
      'relocating_shards',
      'initializing_shards',
      'unassigned_shards',
      'unassigned_primary_shards',
      'delayed_unassigned_shards',
      'number_of_pending_tasks',
      'number_of_in_flight_fetch',
      'task_max_waiting_in_queue',
      'task_max_waiting_in_queue_millis',
      'active_shards_percent',
      'active_shards_percent_as_number',
    ]);
    assert.equal(body['status'], 'red');
    assert.equal(body['task_max_waiting_in_queue'], '1.5s');
    assert.equal(body['task_max_waiting_in_queue_millis'], 1500);
    assert.equal(body['active_shards_percent'], '40.0%');
    assert.equal(JSON.stringify(body['active_shards_percent_as_number']), '40');
    assert.equal(body['unassigned_primary_shards'], 1);
    assert.equal(body['number_of_pending_tasks'], 2);
    assert.ok(!('indices' in body));
  });

  test('level=indices lists indices without shards; level=shards adds shards keyed by number', () => {
    const indices = renderHealth(result, false, 'indices', false)['indices'] as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(indices).sort(), ['a', 'b']);
    assert.deepEqual(Object.keys(indices['a']!), [
      'status',
      'number_of_shards',
      'number_of_replicas',
      'active_primary_shards',
      'active_shards',
      'relocating_shards',
      'initializing_shards',
      'unassigned_shards',
      'unassigned_primary_shards',
    ]);
    assert.equal(indices['a']!['status'], 'red');
    const shards = (renderHealth(result, false, 'shards', false)['indices'] as Record<string, Record<string, unknown>>)['a']!['shards'] as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(shards), ['0', '1']);
    assert.deepEqual(shards['1'], { status: 'red', primary_active: false, active_shards: 0, relocating_shards: 0, initializing_shards: 0, unassigned_shards: 1, unassigned_primary_shards: 1 });
    assert.deepEqual(Object.keys(shards['0']!), ['status', 'primary_active', 'active_shards', 'relocating_shards', 'initializing_shards', 'unassigned_shards', 'unassigned_primary_shards']);
  });

  test('percentages format like Java %1.1f (HALF_UP on the shortest decimal form)', () => {
    assert.equal(javaFixed1(100), '100.0');
    assert.equal(javaFixed1(0), '0.0');
    assert.equal(javaFixed1(66.66666666666666), '66.7');
    assert.equal(javaFixed1(0.15), '0.2');
    assert.equal(javaFixed1(0.05), '0.1');
    assert.equal(javaFixed1(12.25), '12.3');
    assert.equal(javaFixed1(99.94), '99.9');
    assert.equal(javaFixed1(99.95), '100.0');
  });
});
