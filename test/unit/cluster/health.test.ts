import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  computeClusterStateHealth,
  computeShardHealth,
  evaluateHealth,
  javaHashMapOrder,
  javaStringHashCode,
  nodeCountMatches,
  parseWaitForNodes,
  waitConditionCount,
  type ClusterHealthRequest,
} from '../../../src/cluster/health/index.js';
import { EsError } from '../../../src/common/errors.js';
import {
  LENIENT_EXPAND_OPEN_CLOSED_HIDDEN,
  indicesOptionsFromParams,
} from '../../../src/cluster/indices-options.js';
import {
  clusterState,
  greenIndex,
  index,
  initializing,
  node,
  relocating,
  relocationTarget,
  started,
  unassigned,
} from '../../helpers/cluster-state-builder.js';

const STATS = { numberOfPendingTasks: 0, numberOfInFlightFetch: 0, taskMaxWaitingInQueueMillis: 0 };

function healthOf(...indices: ReturnType<typeof index>[]) {
  const state = clusterState({ indices });
  return computeClusterStateHealth(state, [...state.indices.keys()]);
}

function request(overrides: Partial<ClusterHealthRequest> = {}): ClusterHealthRequest {
  return {
    indices: [],
    indicesOptions: LENIENT_EXPAND_OPEN_CLOSED_HIDDEN,
    timeoutMillis: 30_000,
    waitForNoRelocatingShards: false,
    waitForNoInitializingShards: false,
    ...overrides,
  };
}

describe('shard and index status', () => {
  test('every copy started is green', () => {
    const health = healthOf(greenIndex('a', 2, 1));
    assert.equal(health.status, 'green');
    assert.equal(health.activePrimaryShards, 2);
    assert.equal(health.activeShards, 4);
    assert.equal(health.unassignedShards, 0);
    assert.equal(health.activeShardsPercent, 100);
    assert.equal(health.indices[0]!.status, 'green');
  });

  test('an unassigned replica is yellow, and the percentage counts every expected copy', () => {
    const health = healthOf(index('a', [[started(true), unassigned(false)], [started(true), started(false)]], { replicas: 1 }));
    assert.equal(health.status, 'yellow');
    assert.equal(health.activeShards, 3);
    assert.equal(health.unassignedShards, 1);
    assert.equal(health.unassignedPrimaryShards, 0);
    assert.equal(health.activeShardsPercent, 75);
  });

  test('an unassigned primary of existing data is red', () => {
    const health = healthOf(index('a', [[unassigned(true, { recoverySource: 'EXISTING_STORE' })]]));
    assert.equal(health.status, 'red');
    assert.equal(health.unassignedPrimaryShards, 1);
    assert.equal(health.activePrimaryShards, 0);
    assert.equal(health.activeShardsPercent, 0);
  });

  test('a new index still allocating its primaries is yellow, not red', () => {
    for (const recoverySource of ['EMPTY_STORE', 'LOCAL_SHARDS', 'SNAPSHOT'] as const) {
      const shard = computeShardHealth(0, [{ ...unassigned(true, { recoverySource }), index: 'a', shard: 0 }]);
      assert.equal(shard.status, 'yellow', recoverySource);
      assert.equal(shard.primaryActive, false);
    }
  });

  test('a new primary the allocator refused (DECIDERS_NO), or that failed to allocate, is red', () => {
    const refused = healthOf(index('a', [[unassigned(true, { recoverySource: 'EMPTY_STORE', lastAllocationStatus: 'DECIDERS_NO' })]]));
    assert.equal(refused.status, 'red');
    const failed = healthOf(index('a', [[unassigned(true, { recoverySource: 'EMPTY_STORE', failedAllocations: 1 })]]));
    assert.equal(failed.status, 'red');
    const throttled = healthOf(index('a', [[unassigned(true, { recoverySource: 'EMPTY_STORE', lastAllocationStatus: 'DECIDERS_THROTTLED' })]]));
    assert.equal(throttled.status, 'yellow');
    const peer = healthOf(index('a', [[unassigned(true, { recoverySource: 'PEER' })]]));
    assert.equal(peer.status, 'red');
  });

  test('initializing copies are counted as initializing; an initializing new primary is yellow, a recovering one red', () => {
    const fresh = healthOf(index('a', [[initializing(true, { recoverySource: 'EMPTY_STORE' }), unassigned(false)]], { replicas: 1 }));
    assert.equal(fresh.status, 'yellow');
    assert.equal(fresh.initializingShards, 1);
    assert.equal(fresh.unassignedShards, 1);
    assert.equal(fresh.activeShards, 0);
    const recovering = healthOf(index('a', [[initializing(true, { recoverySource: 'EXISTING_STORE' })]]));
    assert.equal(recovering.status, 'red');
    const replica = healthOf(index('a', [[started(true), initializing(false)]], { replicas: 1 }));
    assert.equal(replica.status, 'yellow');
    assert.equal(replica.initializingShards, 1);
  });

  test('a relocating copy is active and relocating; its relocation target is not counted at all', () => {
    const health = healthOf(index('a', [[relocating(true), relocationTarget(true), started(false)]], { replicas: 1 }));
    assert.equal(health.status, 'green');
    assert.equal(health.activeShards, 2);
    assert.equal(health.relocatingShards, 1);
    assert.equal(health.initializingShards, 0);
    assert.equal(health.activeShardsPercent, 100);
  });

  test('an index with no shard routing is red; an index without a routing table is left out', () => {
    const noShards = healthOf(index('a', [], { numberOfShards: 1 }));
    assert.equal(noShards.status, 'red');
    assert.equal(noShards.indices[0]!.status, 'red');
    const notRouted = healthOf(index('a', [[started(true)]], { noRouting: true }));
    assert.equal(notRouted.status, 'green');
    assert.deepEqual(notRouted.indices, []);
  });

  test('index status is the worst shard; cluster status is the worst index', () => {
    const health = healthOf(
      greenIndex('ok'),
      index('warn', [[started(true), unassigned(false)]], { replicas: 1 }),
      index('bad', [[started(true)], [unassigned(true)]]),
    );
    const byName = Object.fromEntries(health.indices.map((i) => [i.index, i.status]));
    assert.deepEqual(byName, { ok: 'green', warn: 'yellow', bad: 'red' });
    assert.equal(health.status, 'red');
    assert.equal(health.indices.find((i) => i.index === 'bad')!.activePrimaryShards, 1);
  });

  test('per-shard figures are listed by shard number', () => {
    const health = healthOf(index('a', [[started(true)], [unassigned(true)], [started(true), unassigned(false)]], { replicas: 1 }));
    const shards = health.indices[0]!.shards;
    // Shard 0 lists a single copy: ES compares active copies with the copies routed, not with the replica count.
    assert.deepEqual(shards.map((s) => [s.shardId, s.status, s.primaryActive]), [
      [0, 'green', true],
      [1, 'red', false],
      [2, 'yellow', true],
    ]);
    assert.equal(shards[1]!.unassignedPrimaryShards, 1);
  });
});

describe('cluster level', () => {
  test('no indices is green at 100%, with node and data-node counts', () => {
    const state = clusterState({ nodes: [node('n1'), node('n2', ['master']), node('n3', ['data_hot'])] });
    const health = computeClusterStateHealth(state, []);
    assert.equal(health.status, 'green');
    assert.equal(health.numberOfNodes, 3);
    assert.equal(health.numberOfDataNodes, 2);
    assert.equal(health.activeShardsPercent, 100);
  });

  test('a global block with status 503 turns the cluster red; with no shards the percentage is 0, not NaN', () => {
    const state = clusterState({ globalBlocks: [{ id: 1, description: 'state not recovered / initialized', status: 503 }] });
    const health = computeClusterStateHealth(state, []);
    assert.equal(health.status, 'red');
    assert.equal(health.activeShardsPercent, 0);
    assert.ok(!Number.isNaN(health.activeShardsPercent));
    const withIndex = clusterState({ indices: [greenIndex('a', 2)], globalBlocks: [{ id: 2, description: 'no master', status: 503 }] });
    assert.equal(computeClusterStateHealth(withIndex, ['a']).activeShardsPercent, 100, 'red with every copy active is 2/2');
    const notServiceUnavailable = clusterState({ globalBlocks: [{ id: 3, description: 'read-only', status: 403 }] });
    assert.equal(computeClusterStateHealth(notServiceUnavailable, []).status, 'green');
  });

  test('only the selected indices count', () => {
    const state = clusterState({ indices: [greenIndex('a', 3), index('b', [[unassigned(true)]])] });
    const health = computeClusterStateHealth(state, ['a']);
    assert.equal(health.status, 'green');
    assert.equal(health.activeShards, 3);
    assert.deepEqual(health.indices.map((i) => i.index), ['a']);
  });

  test('delayed unassigned shards count over the whole cluster whatever is selected', () => {
    const state = clusterState({
      indices: [greenIndex('a'), index('b', [[started(true), unassigned(false, { delayed: true }), unassigned(false)]], { replicas: 2 })],
    });
    const result = evaluateHealth(state, request({ indices: ['a'] }), STATS);
    assert.equal(result.delayedUnassignedShards, 1);
    assert.equal(result.health.unassignedShards, 0);
  });
});

describe('Java HashMap order of index names', () => {
  test('String.hashCode matches Java', () => {
    assert.equal(javaStringHashCode('hello'), 99162322);
    assert.equal(javaStringHashCode('apple'), 93029210);
    assert.equal(javaStringHashCode('Aa'), javaStringHashCode('BB'));
    assert.equal(javaStringHashCode(''), 0);
  });

  test('buckets in order, colliding keys in insertion order', () => {
    assert.deepEqual(javaHashMapOrder(['c', 'a', 'b']), ['a', 'b', 'c']);
    // "Aa" and "BB" share bucket 0, before "a" in bucket 1.
    assert.deepEqual(javaHashMapOrder(['a', 'BB', 'Aa']), ['BB', 'Aa', 'a']);
    assert.deepEqual(javaHashMapOrder(['a', 'Aa', 'BB']), ['Aa', 'BB', 'a']);
  });

  test('the table grows past 12 keys (16 * 0.75), which reorders keys whose hashes differ above bit 4', () => {
    // 'a' (97) and 'q' (113) share bucket 1 of 16, but sit in buckets 1 and 17 of 32.
    const few = javaHashMapOrder(['q', 'a']);
    assert.deepEqual(few, ['q', 'a']);
    const many = javaHashMapOrder(['q', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l']);
    assert.ok(many.indexOf('a') < many.indexOf('q'));
    assert.equal(many.length, 13);
  });
});

describe('wait_for_nodes', () => {
  test('every form parses as ES reads it', () => {
    assert.deepEqual(parseWaitForNodes('3'), { comparison: 'eq', expected: 3 });
    assert.deepEqual(parseWaitForNodes('>=3'), { comparison: 'ge', expected: 3 });
    assert.deepEqual(parseWaitForNodes('<=3'), { comparison: 'le', expected: 3 });
    assert.deepEqual(parseWaitForNodes('>3'), { comparison: 'gt', expected: 3 });
    assert.deepEqual(parseWaitForNodes('<3'), { comparison: 'lt', expected: 3 });
    assert.deepEqual(parseWaitForNodes('ge(3)'), { comparison: 'ge', expected: 3 });
    assert.deepEqual(parseWaitForNodes('le(3)'), { comparison: 'le', expected: 3 });
    assert.deepEqual(parseWaitForNodes('gt(3)'), { comparison: 'gt', expected: 3 });
    assert.deepEqual(parseWaitForNodes('lt(3)'), { comparison: 'lt', expected: 3 });
    assert.deepEqual(parseWaitForNodes('+2'), { comparison: 'eq', expected: 2 });
  });

  test('comparisons against the node count', () => {
    assert.equal(nodeCountMatches(parseWaitForNodes('>=2'), 2), true);
    assert.equal(nodeCountMatches(parseWaitForNodes('>2'), 2), false);
    assert.equal(nodeCountMatches(parseWaitForNodes('lt(2)'), 1), true);
    assert.equal(nodeCountMatches(parseWaitForNodes('le(0)'), 1), false);
    assert.equal(nodeCountMatches(parseWaitForNodes('1'), 1), true);
    assert.equal(nodeCountMatches(parseWaitForNodes('1'), 2), false);
  });

  test('a bad number is Java NumberFormatException text, a 400', () => {
    const cases: Array<[string, string]> = [
      ['abc', 'abc'],
      ['>=x', 'x'],
      ['ge(3', ''],
      ['ge(3)]', '3)'],
      [' 3', ' 3'],
      ['=3', '=3'],
      ['3000000000', '3000000000'],
      ['ge(', ''],
    ];
    for (const [expression, input] of cases) {
      assert.throws(
        () => parseWaitForNodes(expression),
        (err: unknown) => err instanceof EsError && err.type === 'number_format_exception' && err.status === 400 && err.reason === `For input string: "${input}"`,
        expression,
      );
    }
  });
});

describe('wait conditions (prepareResponse)', () => {
  test('each requested condition counts once; none requested means always satisfied', () => {
    assert.equal(waitConditionCount(request()), 0);
    const all = request({
      indices: ['a'],
      waitForStatus: 'green',
      waitForNoRelocatingShards: true,
      waitForNoInitializingShards: true,
      waitForActiveShards: 'all',
      waitForNodes: parseWaitForNodes('1'),
    });
    assert.equal(waitConditionCount(all), 6);
    const state = clusterState({ indices: [greenIndex('a', 2)] });
    assert.equal(evaluateHealth(state, all, STATS).conditionsMet, 6);
  });

  test('wait_for_status holds for an equal or better status', () => {
    const yellow = clusterState({ indices: [index('a', [[started(true), unassigned(false)]], { replicas: 1 })] });
    assert.equal(evaluateHealth(yellow, request({ waitForStatus: 'yellow' }), STATS).conditionsMet, 1);
    assert.equal(evaluateHealth(yellow, request({ waitForStatus: 'red' }), STATS).conditionsMet, 1);
    assert.equal(evaluateHealth(yellow, request({ waitForStatus: 'green' }), STATS).conditionsMet, 0);
  });

  test('wait_for_active_shards: a count of active copies, or all = nothing unassigned or initializing', () => {
    const state = clusterState({ indices: [index('a', [[started(true), initializing(false)], [started(true), started(false)]], { replicas: 1 })] });
    assert.equal(evaluateHealth(state, request({ waitForActiveShards: 3 }), STATS).conditionsMet, 1);
    assert.equal(evaluateHealth(state, request({ waitForActiveShards: 4 }), STATS).conditionsMet, 0);
    assert.equal(evaluateHealth(state, request({ waitForActiveShards: 'all' }), STATS).conditionsMet, 0);
    assert.equal(evaluateHealth(state, request({ waitForNoInitializingShards: true }), STATS).conditionsMet, 0);
    assert.equal(evaluateHealth(state, request({ waitForNoRelocatingShards: true }), STATS).conditionsMet, 1);
  });

  test('a missing concrete index is red and never satisfied, even with ignore_unavailable', () => {
    const state = clusterState({ indices: [greenIndex('a')] });
    const missing = request({ indices: ['nope'] });
    const result = evaluateHealth(state, missing, STATS);
    assert.equal(result.status, 'red');
    assert.equal(result.conditionsMet, 0);
    assert.equal(waitConditionCount(missing), 1);
    assert.equal(result.health.activeShardsPercent, 100, 'computed over no indices, as ES does');
    const strict = request({ indices: ['a', 'nope'], indicesOptions: indicesOptionsFromParams((n) => ({ ignore_unavailable: 'false' })[n], LENIENT_EXPAND_OPEN_CLOSED_HIDDEN) });
    const strictResult = evaluateHealth(state, strict, STATS);
    assert.equal(strictResult.status, 'red');
    assert.deepEqual(strictResult.health.indices, [], 'the strict resolution failed, so no index is reported');
    const lenient = evaluateHealth(state, request({ indices: ['a', 'nope'] }), STATS);
    assert.equal(lenient.status, 'red');
    assert.deepEqual(lenient.health.indices.map((i) => i.index), ['a']);
  });

  test('a wildcard that matches nothing is green and satisfied at once', () => {
    const state = clusterState({ indices: [greenIndex('a')] });
    const result = evaluateHealth(state, request({ indices: ['not_an_index_here-*'] }), STATS);
    assert.equal(result.status, 'green');
    assert.equal(result.conditionsMet, 1);
    assert.deepEqual(result.health.indices, []);
  });

  test('wait_for_status sees the status before a missing index turns it red (ES order)', () => {
    const state = clusterState({ indices: [greenIndex('a')] });
    const result = evaluateHealth(state, request({ indices: ['a', 'nope'], waitForStatus: 'green' }), STATS);
    assert.equal(result.conditionsMet, 1);
    assert.equal(result.status, 'red');
  });

  test('closed indices count by default; expand_wildcards selects them (YAML 30_indices_options)', () => {
    const state = clusterState({ indices: [greenIndex('index-1', 1), greenIndex('index-2', 2, 0, { closed: true })] });
    const withWildcards = (value: string) =>
      evaluateHealth(state, request({ indices: ['index-*'], indicesOptions: indicesOptionsFromParams((n) => (n === 'expand_wildcards' ? value : undefined), LENIENT_EXPAND_OPEN_CLOSED_HIDDEN) }), STATS);
    const open = withWildcards('open');
    assert.equal(open.health.activeShards, 1);
    assert.deepEqual(open.health.indices.map((i) => i.index), ['index-1']);
    const closed = withWildcards('closed');
    assert.equal(closed.health.activeShards, 2);
    assert.equal(closed.status, 'green');
    assert.deepEqual(closed.health.indices.map((i) => i.index), ['index-2']);
    const all = withWildcards('all');
    assert.equal(all.health.activeShards, 3);
    assert.equal(all.health.indices.length, 2);
    const none = withWildcards('none');
    assert.equal(none.status, 'green');
    assert.equal(none.health.activeShards, 0);
    assert.deepEqual(none.health.indices, []);
    assert.equal(none.conditionsMet, 1, 'existence is checked with strict expansion, so the pattern still exists');
    const byDefault = evaluateHealth(state, request({ indices: ['index-*'] }), STATS);
    assert.equal(byDefault.health.activeShards, 3);
  });

  test('a closed yellow index keeps the cluster yellow (YAML 10_basic, closed indices)', () => {
    const state = clusterState({
      indices: [greenIndex('index-1'), index('index-2', [[started(true), ...Array.from({ length: 50 }, () => unassigned(false))]], { replicas: 50, closed: true })],
    });
    assert.equal(evaluateHealth(state, request(), STATS).status, 'yellow');
    assert.equal(evaluateHealth(state, request({ indices: ['index-*'] }), STATS).status, 'yellow');
    assert.equal(evaluateHealth(state, request({ indices: ['index-1'] }), STATS).status, 'green');
    assert.equal(evaluateHealth(state, request({ indices: ['index-2'] }), STATS).status, 'yellow');
  });

  test('an invalid index name is an error, not a wait', () => {
    const state = clusterState();
    assert.throws(() => evaluateHealth(state, request({ indices: ['_foo'] }), STATS), (err: unknown) => err instanceof EsError && err.type === 'invalid_index_name_exception');
  });
});
