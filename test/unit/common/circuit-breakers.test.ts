/**
 * ES's circuit breakers over a node's heap: children trip on their estimate times their overhead, the parent on
 * real memory (or on the children's sum), each with ES's exact message, bytes_wanted, bytes_limit and durability;
 * a tripped estimate is not kept; limits follow the live settings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BreakerReservation, CircuitBreakerService, parseMemorySize, type MemorySource } from '../../../src/common/circuit-breakers.js';
import { EsError } from '../../../src/common/errors.js';

const MB = 1024 * 1024;

function memory(usedBytes: number, heapBytes = 1000 * MB): MemorySource & { used: number } {
  const source = { used: usedBytes, heapLimitBytes: () => heapBytes, usedBytes: () => source.used };
  return source;
}

test('memory sizes are a percentage of the heap or a byte size', () => {
  assert.equal(parseMemorySize('60%', 1000, 'x'), 600);
  assert.equal(parseMemorySize('95%', 1000 * MB, 'x'), 950 * MB);
  assert.equal(parseMemorySize('1gb', 0, 'x'), 1024 * MB);
  assert.equal(parseMemorySize('512', 0, 'x'), 512);
  assert.throws(() => parseMemorySize('lots', 0, 'indices.breaker.request.limit'), /failed to parse setting \[indices\.breaker\.request\.limit\]/);
});

test('a child trips on its estimate times its overhead, with ES message and fields, and keeps nothing', () => {
  const breakers = new CircuitBreakerService(() => ({ 'indices.breaker.total.use_real_memory': 'false' }), memory(0));
  const inflight = breakers.breaker('inflight_requests');
  inflight.addEstimateBytesAndMaybeBreak(200 * MB, '<http_request>');
  assert.throws(
    () => inflight.addEstimateBytesAndMaybeBreak(400 * MB, '<http_request>'),
    (err: unknown) => {
      assert.ok(err instanceof EsError);
      assert.equal(err.type, 'circuit_breaking_exception');
      assert.equal(err.status, 429);
      assert.equal(err.reason, '[inflight_requests] Data too large, data for [<http_request>] would be [1258291200/1.1gb], which is larger than the limit of [1048576000/1000mb]');
      assert.deepEqual(err.metadata, { bytes_wanted: 1258291200, bytes_limit: 1048576000, durability: 'TRANSIENT' });
      return true;
    },
  );
  assert.equal(inflight.used, 200 * MB, 'the refused estimate was not kept');
  assert.equal(inflight.tripped, 1);
  inflight.addWithoutBreaking(-200 * MB);
  assert.equal(inflight.used, 0);
});

test('the parent compares real memory plus the new reservation with its limit, with ES message', () => {
  const heap = memory(900 * MB);
  const breakers = new CircuitBreakerService(() => ({}), heap);
  const request = breakers.breaker('request');
  assert.throws(
    () => request.addEstimateBytesAndMaybeBreak(60 * MB, '<agg [t]>'),
    (err: unknown) => {
      assert.ok(err instanceof EsError);
      assert.equal(
        err.reason,
        '[parent] Data too large, data for [<agg [t]>] would be [1006632960/960mb], which is larger than the limit of [996147200/950mb], real usage: [943718400/900mb], new bytes reserved: [62914560/60mb], usages [fielddata=0/0b, inflight_requests=0/0b, request=62914560/60mb]',
      );
      assert.deepEqual(err.metadata, { bytes_wanted: 1006632960, bytes_limit: 996147200, durability: 'TRANSIENT' });
      return true;
    },
  );
  assert.equal(request.used, 0, 'the child gave the bytes back when the parent refused them');
  heap.used = 100 * MB;
  request.addEstimateBytesAndMaybeBreak(60 * MB, '<agg [t]>');
  const stats = Object.fromEntries(breakers.stats().map((stat) => [stat.name, stat]));
  assert.deepEqual(stats['request'], { name: 'request', limitBytes: 600 * MB, estimatedBytes: 60 * MB, overhead: 1, tripped: 0 });
  assert.deepEqual(stats['parent'], { name: 'parent', limitBytes: 950 * MB, estimatedBytes: 100 * MB, overhead: 1, tripped: 1 });
  assert.equal(stats['fielddata']!.overhead, 1.03);
  assert.equal(stats['inflight_requests']!.overhead, 2);
});

test('limits and overheads follow the live settings', () => {
  const settings: Record<string, string> = {};
  const breakers = new CircuitBreakerService(() => settings, memory(0, 1000));
  assert.equal(breakers.breaker('request').limit, 600);
  settings['indices.breaker.request.limit'] = '10%';
  settings['indices.breaker.request.overhead'] = '2';
  assert.equal(breakers.breaker('request').limit, 100);
  assert.equal(breakers.breaker('request').overhead, 2);
  settings['indices.breaker.total.use_real_memory'] = 'false';
  assert.equal(breakers.parentLimit, 700, 'without real memory the parent defaults to 70%');
});

test('a reservation adds in steps and releases what it took', () => {
  const breakers = new CircuitBreakerService(() => ({ 'indices.breaker.total.use_real_memory': 'false' }), memory(0));
  const request = breakers.breaker('request');
  const reservation = new BreakerReservation(request, '<agg [a]>', 1000);
  reservation.add(600);
  assert.equal(request.used, 0, 'below one step nothing is asked yet');
  reservation.add(600);
  assert.equal(request.used, 1200);
  reservation.release();
  assert.equal(request.used, 0);
});
