import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatByteSize, parseByteSize } from '../../../src/common/byte-size.js';
import { bytesInExactUnit } from '../../../src/common/es-units.js';
import { formatTimeValueNanos, parseTimeValueMillis } from '../../../src/common/time-value.js';
import { timeInExactUnit } from '../../../src/common/es-units.js';
import { levenshteinSimilarity } from '../../../src/common/levenshtein.js';
import { simpleMatch } from '../../../src/common/wildcards.js';
import { parseRestBoolean } from '../../../src/common/booleans.js';

test('byte sizes render like ES ByteSizeValue', () => {
  assert.equal(formatByteSize(260), '260b');
  assert.equal(formatByteSize(1024), '1kb');
  assert.equal(formatByteSize(Math.round(47.38 * 1024 ** 3)), '47.3gb', 'truncated like ES, not rounded');
  assert.equal(formatByteSize(1012.1 * 1024 ** 3), '1012.1gb');
  assert.equal(bytesInExactUnit(5 * 1024 ** 3 - 1, 'gb'), '4');
  assert.equal(bytesInExactUnit(10, 'zz'), undefined);
  assert.equal(parseByteSize('100mb', 'x'), 100 * 1024 * 1024);
  assert.throws(() => parseByteSize('100 parsecs', 'x'), /failed to parse setting \[x\]/);
});

test('time values parse and render like ES TimeValue', () => {
  assert.equal(parseTimeValueMillis('30s', 't'), 30000);
  assert.equal(parseTimeValueMillis('1ms', 't'), 1);
  assert.equal(parseTimeValueMillis('-1', 't'), -1);
  assert.equal(parseTimeValueMillis('0', 't'), 0);
  assert.throws(() => parseTimeValueMillis('10', 'timeout'), /failed to parse setting \[timeout\] with value \[10\] as a time value/);
  assert.equal(formatTimeValueNanos(1.4e6), '1.4ms');
  assert.equal(formatTimeValueNanos(3.4 * 3600e9), '3.4h');
  assert.equal(formatTimeValueNanos(5 * 60e9), '5m');
  assert.equal(formatTimeValueNanos(150_200), '150.2micros');
  assert.equal(formatTimeValueNanos(12), '12nanos');
  assert.equal(formatTimeValueNanos(0), '0s');
  assert.equal(formatTimeValueNanos(1.49e6), '1.4ms', 'truncated like ES');
  assert.equal(timeInExactUnit(2_500_000, 1, 'ms'), '2');
});

test('levenshtein similarity as Lucene computes it', () => {
  assert.equal(levenshteinSimilarity('format', 'format'), 1);
  assert.ok(levenshteinSimilarity('formt', 'format') > 0.5);
  assert.ok(levenshteinSimilarity('zzz', 'pretty') <= 0.5);
});

test('simple wildcard matching', () => {
  assert.ok(simpleMatch('*reindex', 'indices:data/write/reindex'));
  assert.ok(simpleMatch('cluster:*', 'cluster:monitor/health'));
  assert.ok(simpleMatch('a*b*c', 'aXXbYYc'));
  assert.ok(!simpleMatch('a*b*c', 'aXXc'));
  assert.ok(!simpleMatch('abc', 'abcd'));
});

test('REST booleans are strict', () => {
  assert.equal(parseRestBoolean('', false, 'v'), true);
  assert.equal(parseRestBoolean(undefined, true, 'v'), true);
  assert.throws(() => parseRestBoolean('yes', false, 'v'), /Failed to parse value \[yes\]/);
});
