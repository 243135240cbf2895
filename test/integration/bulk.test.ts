/**
 * `_bulk` against a real node (rest-api-spec bulk/ YAML tests): NDJSON with index/create/update/delete, results
 * and errors in request order with `errors`/`took`, a default index from the path, PUT as well as POST, request
 * defaults (routing, _source), refresh, ES's errors for malformed lines, and the refusal of pipelines.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertWriteShards } from '../helpers/topology.js';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'bulk-node' } });
});
after(async () => {
  await node.stop();
});

function ndjson(lines: unknown[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
}

async function bulk(path: string, lines: unknown[], method = 'POST') {
  return node.request(method, path, { raw: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
}

test('mixed actions answer in order with per-item status; errors: true when any item failed', async () => {
  const res = await bulk('/_bulk?refresh=true', [
    { index: { _index: 'bulk1', _id: '1' } },
    { title: 'one' },
    { create: { _index: 'bulk1', _id: '1' } },
    { title: 'dup' },
    { update: { _index: 'bulk1', _id: '1' } },
    { doc: { extra: true } },
    { delete: { _index: 'bulk1', _id: 'missing' } },
    { index: { _index: 'bulk1' } },
    { title: 'auto id' },
  ]);
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body), ['errors', 'took', 'items']);
  assert.equal(res.body.errors, true);
  assert.equal(typeof res.body.took, 'number');
  const items = res.body.items;
  assert.deepEqual(items.map((item: Record<string, unknown>) => Object.keys(item)[0]), ['index', 'create', 'update', 'delete', 'index']);
  // The index is auto-created by this bulk: on a cluster its replica may or may not be started yet.
  assertWriteShards(node, items[0].index._shards, 2);
  assert.deepEqual(items[0].index, {
    _index: 'bulk1',
    _id: '1',
    _version: 1,
    result: 'created',
    forced_refresh: true,
    _shards: items[0].index._shards,
    _seq_no: 0,
    _primary_term: 1,
    status: 201,
  });
  assert.deepEqual(Object.keys(items[1].create), ['_index', '_id', 'status', 'error']);
  assert.equal(items[1].create.status, 409);
  assert.equal(items[1].create.error.type, 'version_conflict_engine_exception');
  assert.equal(items[1].create.error.root_cause, undefined, 'bulk item errors carry no root_cause');
  assert.equal(items[2].update.result, 'updated');
  assert.equal(items[2].update._version, 2);
  assert.equal(items[3].delete.result, 'not_found');
  assert.equal(items[3].delete.status, 404);
  assert.match(items[4].index._id, /^[A-Za-z0-9_-]{20}$/);
  const doc = await node.request('GET', '/bulk1/_source/1');
  assert.deepEqual(doc.body, { title: 'one', extra: true });
});

test('all successful: errors false; PUT works; the path gives the default index', async () => {
  const res = await bulk('/bulk2/_bulk', [{ index: { _id: 'a' } }, { v: 1 }, { index: { _id: 'b' } }, { v: 2 }], 'PUT');
  assert.equal(res.status, 200);
  assert.equal(res.body.errors, false);
  assert.equal(res.body.items[0].index._index, 'bulk2');
  const explicit = await bulk('/bulk2/_bulk', [{ index: { _index: 'bulk3', _id: 'a' } }, { v: 1 }]);
  assert.equal(explicit.body.items[0].index._index, 'bulk3');
});

test('request-level routing and _source apply to the items', async () => {
  const res = await bulk('/bulk4/_bulk?routing=r1&_source=true', [{ index: { _id: '1' } }, { a: 1 }, { update: { _id: '1' } }, { doc: { b: 2 } }]);
  assert.equal(res.body.errors, false);
  assert.deepEqual(res.body.items[1].update.get._source, { a: 1, b: 2 });
  assert.equal((await node.request('GET', '/bulk4/_doc/1?routing=r1')).body._routing, 'r1');
});

test('a bad document fails alone; the others are indexed', async () => {
  await node.request('PUT', '/bulk5', { body: { mappings: { properties: { n: { type: 'long' } } } } });
  const res = await bulk('/bulk5/_bulk', [{ index: { _id: '1' } }, { n: 1 }, { index: { _id: '2' } }, { n: 'not a number' }, { index: { _id: '3' } }, { n: 3 }]);
  assert.equal(res.body.errors, true);
  assert.equal(res.body.items[0].index.status, 201);
  assert.equal(res.body.items[1].index.status, 400);
  assert.equal(res.body.items[1].index.error.type, 'document_parsing_exception');
  assert.equal(res.body.items[2].index.status, 201);
  assert.equal((await node.request('GET', '/bulk5/_doc/2')).status, 404);
});

test('malformed bodies get ES errors and nothing is written', async () => {
  const noNewline = await node.request('POST', '/_bulk', { raw: '{"index":{"_index":"bad1"}}\n{"a":1}', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(noNewline.status, 400);
  assert.equal(noNewline.body.error.type, 'illegal_argument_exception');
  assert.equal(noNewline.body.error.reason, 'The bulk request must be terminated by a newline [\\n]');
  const badAction = await bulk('/_bulk', [{ upsert: { _index: 'bad1' } }, { a: 1 }]);
  assert.equal(badAction.body.error.reason, 'Malformed action/metadata line [1], expected field [create], [delete], [index] or [update] but found [upsert]');
  const notObject = await bulk('/_bulk', ['"index"', '{}']);
  assert.equal(notObject.body.error.reason, 'Malformed action/metadata line [1], expected START_OBJECT but found [VALUE_STRING]');
  const unknownParam = await bulk('/_bulk', [{ index: { _index: 'bad1', refresh: true } }, { a: 1 }]);
  assert.equal(unknownParam.body.error.reason, 'Action/metadata line [1] contains an unknown parameter [refresh]');
  const typeParam = await bulk('/_bulk', [{ index: { _index: 'bad1', _type: '_doc' } }, { a: 1 }]);
  assert.equal(typeParam.body.error.reason, 'Action/metadata line [1] contains an unknown parameter [_type]');
  const noIndex = await bulk('/_bulk', [{ index: { _id: '1' } }, { a: 1 }]);
  assert.equal(noIndex.body.error.type, 'action_request_validation_exception');
  assert.equal(noIndex.body.error.reason, 'Validation Failed: 1: index is missing;');
  const noRequests = await bulk('/_bulk', ['']);
  assert.equal(noRequests.body.error.reason, 'Validation Failed: 1: no requests added;');
  const empty = await node.request('POST', '/_bulk', { raw: '', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error.type, 'parse_exception');
  assert.equal(empty.body.error.reason, 'request body is required');
  const updateVersion = await bulk('/_bulk', [{ update: { _index: 'bad1', _id: '1', version: 2 } }, { doc: {} }]);
  assert.equal(updateVersion.body.error.reason, 'Update requests do not support versioning. Please use `if_seq_no` and `if_primary_term` instead');
  assert.equal((await node.request('HEAD', '/bad1')).status, 404, 'no index was created by a rejected request');
});

test('pipelines are refused clearly (no ingest yet)', async () => {
  const param = await bulk('/_bulk?pipeline=my-pipe', [{ index: { _index: 'p1' } }, { a: 1 }]);
  assert.equal(param.status, 400);
  assert.match(param.body.error.reason, /pipeline with id \[my-pipe\] does not exist/);
  const line = await bulk('/_bulk', [{ index: { _index: 'p1', pipeline: 'x' } }, { a: 1 }]);
  assert.equal(line.status, 400);
  const none = await bulk('/_bulk?pipeline=_none', [{ index: { _index: 'p1' } }, { a: 1 }]);
  assert.equal(none.status, 200);
});

test('carriage returns and blank lines are tolerated as ES does', async () => {
  const res = await node.request('POST', '/_bulk', {
    raw: '{"index":{"_index":"crlf","_id":"1"}}\r\n{"a":1}\r\n\n{"delete":{"_index":"crlf","_id":"1"}}\n',
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal(res.body.errors, false);
  assert.equal(res.body.items.length, 2);
});

test('bulk statistics count the operations each shard ran', async () => {
  const stats = await node.request('GET', '/bulk2/_stats/bulk');
  assert.deepEqual(Object.keys(stats.body._all.primaries), ['bulk']);
  assert.equal(stats.body._all.primaries.bulk.total_operations, 2);
  assert.ok(stats.body._all.primaries.bulk.total_size_in_bytes > 0);
});
