/** `action.auto_create_index` (AutoCreateIndex): patterns allow or forbid creating an index on first write, with ES's errors. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let patterned: NodeProcess;
let disabled: NodeProcess;
before(async () => {
  [patterned, disabled] = await Promise.all([
    NodeProcess.start({ settings: { 'node.name': 'auto-pattern', 'action.auto_create_index': '+logs-*,-secret*' } }),
    NodeProcess.start({ settings: { 'node.name': 'auto-off', 'action.auto_create_index': 'false' } }),
  ]);
});
after(async () => {
  await Promise.all([patterned.stop(), disabled.stop()]);
});

test('patterns: the first matching one decides; no match refuses', async () => {
  assert.equal((await patterned.request('PUT', '/logs-1/_doc/1', { body: { a: 1 } })).status, 201);
  const forbidden = await patterned.request('PUT', '/secret-1/_doc/1', { body: { a: 1 } });
  assert.equal(forbidden.status, 404);
  assert.equal(forbidden.body.error.type, 'index_not_found_exception');
  assert.equal(forbidden.body.error.reason, 'no such index [secret-1] and [action.auto_create_index] contains [-secret*] which forbids automatic creation of the index');
  const unmatched = await patterned.request('PUT', '/other/_doc/1', { body: { a: 1 } });
  assert.equal(unmatched.body.error.reason, 'no such index [other] and [action.auto_create_index] ([+logs-*,-secret*]) doesn\'t match');
  const bulk = await patterned.request('POST', '/_bulk', {
    raw: '{"index":{"_index":"other"}}\n{"a":1}\n{"index":{"_index":"logs-2"}}\n{"a":1}\n',
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal(bulk.body.errors, true);
  assert.equal(bulk.body.items[0].index.status, 404);
  assert.equal(bulk.body.items[0].index.error.type, 'index_not_found_exception');
  assert.equal(bulk.body.items[1].index.status, 201);
});

test('false: no index is created by a write, explicit creation still works', async () => {
  const res = await disabled.request('PUT', '/x/_doc/1', { body: { a: 1 } });
  assert.equal(res.status, 404);
  assert.equal(res.body.error.reason, 'no such index [x] and [action.auto_create_index] is [false]');
  assert.equal((await disabled.request('PUT', '/x')).status, 200);
  assert.equal((await disabled.request('PUT', '/x/_doc/1', { body: { a: 1 } })).status, 201);
});
