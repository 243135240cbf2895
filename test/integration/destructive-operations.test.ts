/**
 * Index expressions of the APIs that destroy or hide data, over HTTP against a real node, as ES 8 resolves them:
 * delete index never goes through an alias (DeleteIndexRequest's resolveAliases(false)), and
 * `action.destructive_requires_name` (default true, dynamic) refuses wildcards and `_all` for delete, close and open
 * with DestructiveOperations' exact rule (any `*`, exclusions included; `*,-*` allowed).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess, type HttpResult } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'destructive-node' } });
});
after(async () => {
  await node.stop();
});

async function indexNames(): Promise<string[]> {
  const cat = await node.request('GET', '/_cat/indices?h=index&s=index&format=json&expand_wildcards=all');
  return cat.body.map((row: { index: string }) => row.index);
}

async function createWithAlias(index: string, alias: string): Promise<void> {
  const created = await node.request('PUT', `/${index}`, { body: { settings: { number_of_replicas: 0 }, aliases: { [alias]: {} } } });
  assert.equal(created.status, 200, created.text);
}

async function setRequiresName(value: boolean | null): Promise<void> {
  const res = await node.request('PUT', '/_cluster/settings', { body: { transient: { 'action.destructive_requires_name': value } } });
  assert.equal(res.status, 200, res.text);
}

function assertAliasRefused(res: HttpResult, expression: string): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.type, 'illegal_argument_exception');
  assert.equal(res.body.error.reason, `The provided expression [${expression}] matches an alias, specify the corresponding concrete indices instead.`);
  assert.deepEqual(res.body.error.root_cause, [{ type: 'illegal_argument_exception', reason: res.body.error.reason }]);
}

function assertWildcardsRefused(res: HttpResult): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.type, 'illegal_argument_exception');
  assert.equal(res.body.error.reason, 'Wildcard expressions or all indices are not allowed');
}

test('DELETE of an alias is refused and deletes nothing, alone or beside an index name', async () => {
  await createWithAlias('keep1', 'alias1');
  await createWithAlias('keep2', 'alias2');
  await node.request('PUT', '/keep1/_doc/1?refresh=true', { body: { kept: true } });

  assertAliasRefused(await node.request('DELETE', '/alias1'), 'alias1');
  // The index named beside the alias survives too: resolution fails before anything is deleted.
  assertAliasRefused(await node.request('DELETE', '/keep2,alias1'), 'alias1');
  assert.deepEqual(await indexNames(), ['keep1', 'keep2']);
  assert.equal((await node.request('GET', '/keep1/_count')).body.count, 1);

  // ignore_unavailable treats the alias as a missing name: nothing to delete, acknowledged.
  const ignored = await node.request('DELETE', '/alias1?ignore_unavailable=true');
  assert.equal(ignored.status, 200, ignored.text);
  assert.deepEqual(ignored.body, { acknowledged: true });
  assert.deepEqual(await indexNames(), ['keep1', 'keep2']);

  const missing = await node.request('DELETE', '/nothing-here');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, 'index_not_found_exception');
  assert.equal(missing.body.error.reason, 'no such index [nothing-here]');

  // Deleting the index itself takes its alias with it.
  assert.deepEqual((await node.request('DELETE', '/keep2')).body, { acknowledged: true });
  assert.equal((await node.request('HEAD', '/_alias/alias2')).status, 404);
  await node.request('DELETE', '/keep1');
});

test('with destructive_requires_name false a wildcard expands to indices only, never through an alias', async () => {
  await createWithAlias('books-1', 'alia-books');
  await createWithAlias('music-1', 'alia-music');
  await setRequiresName(false);
  try {
    const viaAliases = await node.request('DELETE', '/alia*');
    assert.equal(viaAliases.status, 200, viaAliases.text);
    assert.deepEqual(viaAliases.body, { acknowledged: true });
    assert.deepEqual(await indexNames(), ['books-1', 'music-1']);

    const strict = await node.request('DELETE', '/alia*?allow_no_indices=false');
    assert.equal(strict.status, 404, strict.text);
    assert.equal(strict.body.error.type, 'index_not_found_exception');
    assert.equal(strict.body.error.reason, 'no such index [alia*]');
    assert.equal(strict.body.error['resource.id'], 'alia*');

    // ES's "match nothing" pair is allowed and deletes nothing.
    assert.deepEqual((await node.request('DELETE', '/*,-*')).body, { acknowledged: true });
    assert.deepEqual(await indexNames(), ['books-1', 'music-1']);

    assert.deepEqual((await node.request('DELETE', '/books-*')).body, { acknowledged: true });
    assert.deepEqual(await indexNames(), ['music-1']);
  } finally {
    await setRequiresName(null);
    await node.request('DELETE', '/music-1');
  }
});

test('action.destructive_requires_name (default true, dynamic) refuses wildcards and _all for delete, close and open', async () => {
  await createWithAlias('guarded-1', 'guarded');
  // Every expression with a `*` counts, exclusions included; only `*,-*` is let through.
  for (const path of ['/guarded-*', '/_all', '/guarded-1,-*', '/-*', '/*', '/guarded-1,*']) {
    assertWildcardsRefused(await node.request('DELETE', path));
  }
  assertWildcardsRefused(await node.request('POST', '/guarded-*/_close'));
  assertWildcardsRefused(await node.request('POST', '/_close'));
  assertWildcardsRefused(await node.request('POST', '/guarded-*/_open'));
  assertWildcardsRefused(await node.request('POST', '/_all/_open'));
  assertWildcardsRefused(await node.request('POST', '/_open'));
  assert.deepEqual(await indexNames(), ['guarded-1']);

  // Persistent false lifts the check on the next request; a transient true wins over it; null resets to the default.
  await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'action.destructive_requires_name': false } } });
  try {
    const closed = await node.request('POST', '/guarded-*/_close');
    assert.equal(closed.status, 200, closed.text);
    assert.deepEqual(closed.body.indices, { 'guarded-1': { closed: true } });
    const opened = await node.request('POST', '/guarded-*/_open');
    assert.equal(opened.status, 200, opened.text);
    await setRequiresName(true);
    assertWildcardsRefused(await node.request('DELETE', '/guarded-*'));
    await setRequiresName(null);
  } finally {
    await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'action.destructive_requires_name': null } } });
  }
  assertWildcardsRefused(await node.request('DELETE', '/guarded-*'));
  // Close through an alias names the index behind it (CloseIndexRequest resolves aliases), as ES does.
  const closedByAlias = await node.request('POST', '/guarded/_close');
  assert.deepEqual(closedByAlias.body.indices, { 'guarded-1': { closed: true } });
  assert.equal((await node.request('POST', '/guarded-1/_open')).status, 200);
  assert.deepEqual(await indexNames(), ['guarded-1']);
  await node.request('DELETE', '/guarded-1');
});

test('PUT _settings resolves as UpdateSettingsRequest: nothing matched is a 404, aliases reach their indices', async () => {
  await createWithAlias('tuned-1', 'tuned');
  const none = await node.request('PUT', '/untuned-*/_settings', { body: { index: { refresh_interval: '2s' } } });
  assert.equal(none.status, 404, none.text);
  assert.equal(none.body.error.type, 'index_not_found_exception');
  assert.equal(none.body.error.reason, 'no such index [untuned-*]');
  const lenient = await node.request('PUT', '/untuned-*/_settings?allow_no_indices=true', { body: { index: { refresh_interval: '2s' } } });
  assert.deepEqual(lenient.body, { acknowledged: true });
  const viaAlias = await node.request('PUT', '/tuned/_settings', { body: { index: { refresh_interval: '3s' } } });
  assert.deepEqual(viaAlias.body, { acknowledged: true });
  const settings = await node.request('GET', '/tuned-1/_settings/index.refresh_interval?flat_settings=true');
  assert.equal(settings.body['tuned-1'].settings['index.refresh_interval'], '3s');
  await node.request('DELETE', '/tuned-1');
});
