/**
 * The fault suite's checkers catch what they exist for: a lost acknowledged write, a forgotten write hidden by
 * a later one, a stale copy, a term published twice. (A checker that cannot fail proves nothing.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WriteRecord } from './bulk-writer.js';
import { checkAcknowledged, checkDivergence, checkNoPrimaryMovedErrors, checkPublications, type CopyView, type Publication } from './checkers.js';

const ok = (id: string, attempt: number, version: number, seqNo: number, term = 1): WriteRecord => ({ id, attempt, outcome: 'ok', version, seqNo, term, via: 'n0', sentAt: 0, doneAt: 0 });
const unknown = (id: string, attempt: number): WriteRecord => ({ id, attempt, outcome: 'unknown', via: 'n0', sentAt: 0, doneAt: 0 });
const copy = (label: string, docs: Record<string, [number, number, number, number]>): CopyView => ({
  label,
  shard: 0,
  docs: new Map(Object.entries(docs).map(([id, [version, seqNo, term, attempt]]) => [id, { version, seqNo, term, attempt }])),
});
const shardOf = () => 0;

test('a history whose final state holds every acknowledged write passes', () => {
  const records = [ok('a', 1, 1, 0), ok('a', 2, 2, 1), unknown('a', 3), ok('b', 1, 1, 2)];
  assert.deepEqual(checkAcknowledged(records, [copy('p', { a: [3, 3, 1, 3], b: [1, 2, 1, 1] })], shardOf), []);
});

test('a missing or older document is a lost acknowledged write', () => {
  const records = [ok('a', 1, 1, 0), ok('a', 2, 2, 1), ok('b', 1, 1, 2)];
  const problems = checkAcknowledged(records, [copy('p', { a: [1, 0, 1, 1] })], shardOf);
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(problems.join('\n'), /b: missing on p/);
  assert.match(problems.join('\n'), /a: p has version 1 below acknowledged/);
});

test('a forgotten write hidden by a later one shows as a reused seq_no or version', () => {
  // attempt 2 was acknowledged as v2/seq 1, lost in a crash; attempt 3 then took v2/seq 1 again.
  const records = [ok('a', 1, 1, 0), ok('a', 2, 2, 1), ok('a', 3, 2, 1, 2)];
  const problems = checkAcknowledged(records, [copy('p', { a: [2, 1, 2, 3] })], shardOf);
  assert.ok(problems.some((p) => p.includes('acknowledged twice')), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes('no higher version')), problems.join('\n'));
});

test('an acknowledged attempt held with another version is caught', () => {
  const problems = checkAcknowledged([ok('a', 1, 1, 0), ok('a', 2, 2, 1)], [copy('p', { a: [3, 5, 2, 2] })], shardOf);
  assert.match(problems.join('\n'), /holds attempt 2 as v3/);
});

test('copies that differ are diverged', () => {
  assert.deepEqual(checkDivergence([copy('p', { a: [1, 0, 1, 1] }), copy('r', { a: [1, 0, 1, 1] })]), []);
  assert.equal(checkDivergence([copy('p', { a: [2, 1, 1, 2] }), copy('r', { a: [1, 0, 1, 1] })]).length, 1);
  assert.equal(checkDivergence([copy('p', { a: [1, 0, 1, 1] }), copy('r', {})]).length, 1);
});

test('two publishers of one term, two states of one version and out-of-order applies are caught', () => {
  const pub = (node: string, kind: Publication['kind'], term: number, version: number, stateUuid: string, incarnation = 0): Publication => ({ node, kind, term, version, stateUuid, incarnation });
  assert.deepEqual(checkPublications([pub('n0', 'published', 5, 1, 'x'), pub('n1', 'applied', 5, 1, 'x'), pub('n1', 'published', 9, 2, 'y')]), []);
  const problems = checkPublications([
    pub('n0', 'published', 5, 1, 'x'),
    pub('n1', 'published', 5, 2, 'y'),
    pub('n2', 'applied', 5, 2, 'z'),
    pub('n2', 'applied', 5, 1, 'x'),
    pub('n0', 'published', 3, 3, 'w'),
  ]);
  const text = problems.join('\n');
  assert.match(text, /term 5 was published by n0 and n1/);
  assert.match(text, /version 2 is two states/);
  assert.match(text, /applied version 1 after 2/);
  assert.match(text, /term went back/);
});

test('an item that failed only because its primary moved is reported (it should have been retried on the new primary)', () => {
  const fail = (error: string): WriteRecord => ({ id: 'a', attempt: 1, outcome: 'fail', error, via: 'n0', sentAt: 0, doneAt: 0 });
  assert.equal(checkNoPrimaryMovedErrors([fail('500 already_closed_exception')]).length, 1);
  assert.equal(checkNoPrimaryMovedErrors([fail('500 node_disconnected_exception')]).length, 1);
  assert.deepEqual(checkNoPrimaryMovedErrors([fail('409 version_conflict_engine_exception'), unknown('a', 2)]), []);
});
