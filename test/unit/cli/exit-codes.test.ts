import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExitCode, exitCodeForHealthStatus } from '../../../src/cli/exit-codes.js';
import { cancelExitCode } from '../../../src/cli/cancel-command.js';
import { describeFetchFailure } from '../../../src/cli/gannet-client.js';

test('the exit-code table is what the README and --help promise', () => {
  assert.deepEqual(ExitCode, { ok: 0, yellowOrNothingMatched: 1, redOrFailure: 2, unreachable: 3, error: 4, cancelled: 5, usage: 64, interrupted: 130 });
});

test('health colour maps to 0/1/2; anything else has no code', () => {
  assert.equal(exitCodeForHealthStatus('green'), 0);
  assert.equal(exitCodeForHealthStatus('yellow'), 1);
  assert.equal(exitCodeForHealthStatus('red'), 2);
  assert.equal(exitCodeForHealthStatus('GREEN'), undefined);
  assert.equal(exitCodeForHealthStatus('purple'), undefined);
});

test('cancel: 0 when something was cancelled, 1 when nothing matched, 2 on a real failure', () => {
  const notFound = { subject: 'node a', message: 'task [a:1] is not found', notFound: true };
  const notCancellable = { subject: 'node a', message: "task [a:1] doesn't support cancellation", notFound: false };
  assert.equal(cancelExitCode(1, []), 0);
  assert.equal(cancelExitCode(0, []), 1);
  assert.equal(cancelExitCode(0, [notFound]), 1);
  assert.equal(cancelExitCode(2, [notFound]), 0);
  assert.equal(cancelExitCode(0, [notCancellable]), 2);
  assert.equal(cancelExitCode(3, [notFound, notCancellable]), 2);
});

test('fetch failures are named the way an operator would say them', () => {
  const wrapped = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
  assert.equal(describeFetchFailure(wrapped(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })), 1000), 'connection refused');
  assert.equal(describeFetchFailure(wrapped(Object.assign(new Error('x'), { code: 'ENOTFOUND' })), 1000), 'host not found (DNS lookup failed)');
  // Happy-eyeballs connects report every address tried in an AggregateError.
  const aggregate = new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'all failed');
  assert.equal(describeFetchFailure(wrapped(aggregate), 1000), 'connection refused');
  assert.equal(describeFetchFailure(new DOMException('timed out', 'TimeoutError'), 30_000), 'no answer within 30s');
  assert.equal(describeFetchFailure(new DOMException('timed out', 'TimeoutError'), 1500), 'no answer within 1500ms');
  assert.equal(describeFetchFailure(wrapped(Object.assign(new Error('weird'), { code: 'EWEIRD' })), 1000), 'EWEIRD');
  assert.equal(describeFetchFailure(wrapped(new Error('something else')), 1000), 'something else');
});
