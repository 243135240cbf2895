import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Router, splitPath } from '../../../src/http/router.js';
import type { Route } from '../../../src/actions/rest.js';

function route(method: Route['method'], path: string): Route {
  return { method, path, action: `test:${path}`, handler: async () => ({ kind: 'empty', status: 200 }) };
}

test('literal segments win over parameters, with backtracking', () => {
  const router = new Router();
  router.add(route('POST', '/_tasks/_cancel'));
  router.add(route('POST', '/_tasks/{task_id}/_cancel'));
  router.add(route('GET', '/_tasks/{task_id}'));
  const cancelAll = router.lookup('POST', splitPath('/_tasks/_cancel'));
  assert.equal(cancelAll.kind === 'found' && cancelAll.match.route.path, '/_tasks/_cancel');
  const byId = router.lookup('POST', splitPath('/_tasks/n1:5/_cancel'));
  assert.ok(byId.kind === 'found');
  assert.deepEqual(byId.match.pathParams, { task_id: 'n1:5' });
  const get = router.lookup('GET', splitPath('/_tasks/_cancel'));
  assert.ok(get.kind === 'found' && get.match.pathParams['task_id'] === '_cancel');
});

test('HEAD falls back to GET; other methods report what is allowed', () => {
  const router = new Router();
  router.add(route(['GET', 'POST'], '/x'));
  assert.equal(router.lookup('HEAD', ['x']).kind, 'found');
  const deleted = router.lookup('DELETE', ['x']);
  assert.deepEqual(deleted.kind === 'method-not-allowed' && deleted.allowed, ['GET', 'POST']);
  assert.equal(router.lookup('GET', ['y']).kind, 'not-found');
});

test('duplicate routes are refused at startup', () => {
  const router = new Router();
  router.add(route('GET', '/a/{x}'));
  assert.throws(() => router.add(route('GET', '/a/{x}')), /duplicate route/);
  assert.throws(() => router.add(route('PUT', '/a/{y}')), /conflicts/);
});
