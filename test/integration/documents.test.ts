/**
 * The document APIs against a real node, with ES's exact response shapes (rest-api-spec index/, create/, get/,
 * exists/, delete/, update/, mget/ and bulk/ YAML tests): index with and without an id, op_type create,
 * _create, GET with source filtering, realtime, refresh, versions and routing, HEAD, DELETE, _update with
 * doc/upsert/doc_as_upsert/detect_noop/_source, mget, bulk, and the write parameters refresh,
 * wait_for_active_shards and timeout.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dataNodeCount } from '../helpers/topology.js';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'docs-node' } });
  const created = await node.request('PUT', '/docs', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
  assert.equal(created.status, 200, created.text);
});
after(async () => {
  await node.stop();
});

const shards1 = { total: 1, successful: 1, failed: 0 };

test('PUT /{index}/_doc/{id} creates (201, Location) then updates (200), with ES key order', async () => {
  const first = await node.request('PUT', '/docs/_doc/1', { body: { title: 'one', n: 1.0 } });
  assert.equal(first.status, 201);
  assert.equal(first.headers['location'], '/docs/_doc/1');
  assert.equal(first.text, '{"_index":"docs","_id":"1","_version":1,"result":"created","_shards":{"total":1,"successful":1,"failed":0},"_seq_no":0,"_primary_term":1}');
  const second = await node.request('POST', '/docs/_doc/1', { body: { title: 'uno' } });
  assert.equal(second.status, 200);
  assert.deepEqual(second.body, { _index: 'docs', _id: '1', _version: 2, result: 'updated', _shards: shards1, _seq_no: 1, _primary_term: 1 });
  assert.equal(second.headers['location'], undefined);
});

test('GET returns the source exactly as sent, with metadata in ES order', async () => {
  await node.request('PUT', '/docs/_doc/raw', { raw: '{"price" : 1.0, "big": 9007199254740993, "s":"é"}', headers: { 'content-type': 'application/json' } });
  const res = await node.request('GET', '/docs/_doc/raw');
  assert.equal(res.status, 200);
  assert.match(res.text, /^\{"_index":"docs","_id":"raw","_version":1,"_seq_no":\d+,"_primary_term":1,"found":true,"_source":\{"price" : 1\.0, "big": 9007199254740993, "s":"é"\}\}$/);
  const pretty = await node.request('GET', '/docs/_doc/raw?pretty');
  assert.match(pretty.text, /"price" : 1\.0,\n\s+"big" : 9007199254740993,/);
});

test('GET of a missing document is 404 found:false; of a missing index, index_not_found_exception', async () => {
  const missing = await node.request('GET', '/docs/_doc/nope');
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { _index: 'docs', _id: 'nope', found: false });
  const noIndex = await node.request('GET', '/nonexistent/_doc/1');
  assert.equal(noIndex.status, 404);
  assert.equal(noIndex.body.error.type, 'index_not_found_exception');
  assert.equal(noIndex.body.error.reason, 'no such index [nonexistent]');
  assert.equal(noIndex.body.error['resource.id'], 'nonexistent');
});

test('HEAD /{index}/_doc/{id}: 200 or 404 without a body', async () => {
  await node.request('PUT', '/docs/_doc/h', { body: { a: 1 } });
  const found = await node.request('HEAD', '/docs/_doc/h');
  assert.equal(found.status, 200);
  assert.equal(found.text, '');
  assert.equal((await node.request('HEAD', '/docs/_doc/none')).status, 404);
  assert.equal((await node.request('HEAD', '/none/_doc/none')).status, 404);
});

test('source filtering: _source=false, includes/excludes, and _source endpoint', async () => {
  await node.request('PUT', '/docs/_doc/f', { body: { a: 1, b: { c: 2, d: 3 }, e: 'x' } });
  const none = await node.request('GET', '/docs/_doc/f?_source=false');
  assert.equal(none.body._source, undefined);
  assert.equal(none.body.found, true);
  const includes = await node.request('GET', '/docs/_doc/f?_source_includes=b.c,e');
  assert.deepEqual(includes.body._source, { b: { c: 2 }, e: 'x' });
  const list = await node.request('GET', '/docs/_doc/f?_source=a');
  assert.deepEqual(list.body._source, { a: 1 });
  const excludes = await node.request('GET', '/docs/_doc/f?_source_excludes=b');
  assert.deepEqual(excludes.body._source, { a: 1, e: 'x' });
  const source = await node.request('GET', '/docs/_source/f');
  assert.deepEqual(source.body, { a: 1, b: { c: 2, d: 3 }, e: 'x' });
  const sourceMissing = await node.request('GET', '/docs/_source/zzz');
  assert.equal(sourceMissing.status, 404);
  assert.equal(sourceMissing.body.error.type, 'resource_not_found_exception');
  assert.equal(sourceMissing.body.error.reason, 'Document not found [docs]/[zzz]');
  const storedFields = await node.request('GET', '/docs/_doc/f?stored_fields=a');
  assert.equal(storedFields.body._source, undefined);
});

test('POST /{index}/_doc generates a 20-character id; op_type=create and _create refuse an existing id', async () => {
  const auto = await node.request('POST', '/docs/_doc', { body: { x: 1 } });
  assert.equal(auto.status, 201);
  assert.match(auto.body._id, /^[A-Za-z0-9_-]{20}$/);
  assert.equal(auto.body.result, 'created');
  const created = await node.request('PUT', '/docs/_create/c1', { body: { x: 1 } });
  assert.equal(created.status, 201);
  const again = await node.request('PUT', '/docs/_create/c1', { body: { x: 2 } });
  assert.equal(again.status, 409);
  assert.equal(again.body.error.type, 'version_conflict_engine_exception');
  assert.match(again.body.error.reason, /^\[c1\]: version conflict, document already exists \(current version \[1\]\)$/);
  assert.equal(again.body.error.index, 'docs');
  assert.equal(again.body.error.shard, '0');
  const opType = await node.request('PUT', '/docs/_doc/c1?op_type=create', { body: { x: 3 } });
  assert.equal(opType.status, 409);
  const badOpType = await node.request('PUT', '/docs/_doc/c1?op_type=upsert', { body: { x: 3 } });
  assert.equal(badOpType.status, 400);
  assert.equal(badOpType.body.error.reason, "opType must be 'create' or 'index', found: [upsert]");
  const putNoId = await node.request('PUT', '/docs/_doc', { body: { x: 1 } });
  assert.equal(putNoId.status, 405);
});

test('if_seq_no / if_primary_term: a stale pair conflicts with ES reason', async () => {
  const first = await node.request('PUT', '/docs/_doc/cas', { body: { v: 1 } });
  const ok = await node.request('PUT', `/docs/_doc/cas?if_seq_no=${first.body._seq_no}&if_primary_term=1`, { body: { v: 2 } });
  assert.equal(ok.status, 200);
  const stale = await node.request('PUT', `/docs/_doc/cas?if_seq_no=${first.body._seq_no}&if_primary_term=1`, { body: { v: 3 } });
  assert.equal(stale.status, 409);
  assert.equal(
    stale.body.error.reason,
    `[cas]: version conflict, required seqNo [${first.body._seq_no}], primary term [1]. current document has seqNo [${ok.body._seq_no}] and primary term [1]`,
  );
  const missingTerm = await node.request('PUT', '/docs/_doc/cas?if_seq_no=1', { body: { v: 3 } });
  assert.equal(missingTerm.status, 400);
  assert.equal(missingTerm.body.error.type, 'action_request_validation_exception');
  assert.equal(missingTerm.body.error.reason, 'Validation Failed: 1: ifSeqNo is set, but primary term is [0];');
});

test('external versioning and internal version parameter validation', async () => {
  const external = await node.request('PUT', '/docs/_doc/ext?version=10&version_type=external', { body: { v: 1 } });
  assert.equal(external.status, 201);
  assert.equal(external.body._version, 10);
  const lower = await node.request('PUT', '/docs/_doc/ext?version=5&version_type=external', { body: { v: 2 } });
  assert.equal(lower.status, 409);
  assert.equal(lower.body.error.reason, '[ext]: version conflict, current version [10] is higher or equal to the one provided [5]');
  const internal = await node.request('PUT', '/docs/_doc/ext?version=10', { body: { v: 2 } });
  assert.equal(internal.status, 400);
  assert.equal(
    internal.body.error.reason,
    'Validation Failed: 1: internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead;',
  );
  const getVersion = await node.request('GET', '/docs/_doc/ext?version=9');
  assert.equal(getVersion.status, 409);
  assert.equal(getVersion.body.error.reason, '[ext]: version conflict, current version [10] is different than the one provided [9]');
  const badType = await node.request('PUT', '/docs/_doc/ext?version=11&version_type=foo', { body: { v: 2 } });
  assert.equal(badType.status, 400);
  assert.equal(badType.body.error.reason, 'No version type match [foo]');
});

test('DELETE: deleted (200) then not_found (404), both with seq_no', async () => {
  await node.request('PUT', '/docs/_doc/d', { body: { a: 1 } });
  const deleted = await node.request('DELETE', '/docs/_doc/d');
  assert.equal(deleted.status, 200);
  assert.deepEqual(Object.keys(deleted.body), ['_index', '_id', '_version', 'result', '_shards', '_seq_no', '_primary_term']);
  assert.equal(deleted.body.result, 'deleted');
  assert.equal(deleted.body._version, 2);
  const again = await node.request('DELETE', '/docs/_doc/d');
  assert.equal(again.status, 404);
  assert.equal(again.body.result, 'not_found');
  assert.equal((await node.request('GET', '/docs/_doc/d')).status, 404);
  const noIndex = await node.request('DELETE', '/never-created/_doc/1');
  assert.equal(noIndex.status, 404);
  assert.equal(noIndex.body.error.type, 'index_not_found_exception');
  assert.equal((await node.request('HEAD', '/never-created')).status, 404, 'a delete does not auto-create the index');
});

test('refresh=true forces a refresh and says so; wait_for and false do not', async () => {
  const forced = await node.request('PUT', '/docs/_doc/r1?refresh=true', { body: { a: 1 } });
  assert.equal(forced.body.forced_refresh, true);
  assert.deepEqual(Object.keys(forced.body).slice(0, 6), ['_index', '_id', '_version', 'result', 'forced_refresh', '_shards']);
  const empty = await node.request('PUT', '/docs/_doc/r2?refresh', { body: { a: 1 } });
  assert.equal(empty.body.forced_refresh, true);
  const waitFor = await node.request('PUT', '/docs/_doc/r3?refresh=wait_for', { body: { a: 1 } });
  assert.equal(waitFor.status, 201);
  assert.equal(waitFor.body.forced_refresh, undefined);
  const bad = await node.request('PUT', '/docs/_doc/r4?refresh=sometimes', { body: { a: 1 } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.reason, 'Unknown value for refresh: [sometimes].');
});

test('realtime GET sees unrefreshed writes; realtime=false only refreshed ones', async () => {
  await node.request('PUT', '/rt', { body: { settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: -1 } } });
  await node.request('PUT', '/rt/_doc/1', { body: { a: 1 } });
  assert.equal((await node.request('GET', '/rt/_doc/1')).body.found, true);
  assert.equal((await node.request('GET', '/rt/_doc/1?realtime=false')).body.found, false);
  assert.equal((await node.request('GET', '/rt/_doc/1?realtime=false&refresh=true')).body.found, true);
});

test('routing: documents written with routing are found only with it; required routing is enforced', async () => {
  await node.request('PUT', '/routed', { body: { settings: { number_of_shards: 4, number_of_replicas: 0 }, mappings: { _routing: { required: true } } } });
  const missing = await node.request('PUT', '/routed/_doc/1', { body: { a: 1 } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error.type, 'routing_missing_exception');
  assert.equal(missing.body.error.reason, 'routing is required for [routed]/[1]');
  const written = await node.request('PUT', '/routed/_doc/1?routing=user1', { body: { a: 1 } });
  assert.equal(written.status, 201);
  assert.equal(written.headers['location'], '/routed/_doc/1?routing=user1');
  const found = await node.request('GET', '/routed/_doc/1?routing=user1');
  assert.equal(found.body._routing, 'user1');
  assert.equal(found.body.found, true);
  assert.equal((await node.request('GET', '/routed/_doc/1')).body.error.type, 'routing_missing_exception');
});

test('_update: partial doc, noop detection, _source, upsert, doc_as_upsert, missing document', async () => {
  await node.request('PUT', '/docs/_doc/u', { body: { a: 1, nested: { x: 1, y: 2 }, list: [1, 2] } });
  const updated = await node.request('POST', '/docs/_update/u', { body: { doc: { nested: { y: 3 }, list: [9] } } });
  assert.equal(updated.status, 200);
  assert.equal(updated.body.result, 'updated');
  assert.deepEqual((await node.request('GET', '/docs/_source/u')).body, { a: 1, nested: { x: 1, y: 3 }, list: [9] });
  const noop = await node.request('POST', '/docs/_update/u', { body: { doc: { a: 1 } } });
  assert.equal(noop.body.result, 'noop');
  assert.deepEqual(noop.body._shards, { total: 0, successful: 0, failed: 0 });
  assert.equal(noop.body._version, 2);
  const noopStats = await node.request('GET', '/docs/_stats/indexing');
  assert.equal(noopStats.body._all.primaries.indexing.noop_update_total, 1);
  const forced = await node.request('POST', '/docs/_update/u', { body: { doc: { a: 1 }, detect_noop: false } });
  assert.equal(forced.body.result, 'updated');
  assert.equal(forced.body._version, 3);
  const withSource = await node.request('POST', '/docs/_update/u?_source=a', { body: { doc: { a: 2 } } });
  assert.deepEqual(withSource.body.get, { _seq_no: withSource.body._seq_no, _primary_term: 1, found: true, _source: { a: 2 } });
  const missing = await node.request('POST', '/docs/_update/nobody', { body: { doc: { a: 1 } } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, 'document_missing_exception');
  assert.equal(missing.body.error.reason, '[nobody]: document missing');
  const upsert = await node.request('POST', '/docs/_update/up', { body: { doc: { a: 1 }, upsert: { a: 0 } } });
  assert.equal(upsert.status, 201);
  assert.equal(upsert.body.result, 'created');
  assert.deepEqual((await node.request('GET', '/docs/_source/up')).body, { a: 0 });
  const asUpsert = await node.request('POST', '/docs/_update/up2', { body: { doc: { up2: 1 }, doc_as_upsert: true } });
  assert.equal(asUpsert.body.result, 'created');
  assert.deepEqual((await node.request('GET', '/docs/_source/up2')).body, { up2: 1 });
});

test('_update refuses scripts outside the painless subset, versions, and malformed bodies as ES does', async () => {
  await node.request('PUT', '/docs/_doc/s', { body: { a: 1 } });
  const script = await node.request('POST', '/docs/_update/s', { body: { script: { source: 'ctx._source.a = new TreeMap()' } } });
  assert.equal(script.status, 400);
  assert.equal(script.body.error.type, 'illegal_argument_exception');
  assert.equal(script.body.error.reason, 'failed to execute script');
  assert.equal(script.body.error.caused_by.caused_by.reason, 'unsupported painless construct [new [TreeMap]]; only [new HashMap()] and [new ArrayList()] are supported');
  const version = await node.request('POST', '/docs/_update/s?version=2', { body: { doc: { a: 2 } } });
  assert.equal(version.status, 400);
  assert.equal(version.body.error.type, 'action_request_validation_exception');
  const unknown = await node.request('POST', '/docs/_update/s', { body: { doc: { a: 2 }, foo: 1 } });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.type, 'x_content_parse_exception');
  assert.match(unknown.body.error.reason, /\[UpdateRequest\] unknown field \[foo\]$/);
  const nothing = await node.request('POST', '/docs/_update/s', { body: {} });
  assert.equal(nothing.body.error.reason, 'Validation Failed: 1: script or doc is missing;');
  const casRetry = await node.request('POST', '/docs/_update/s?if_seq_no=0&if_primary_term=1&retry_on_conflict=2', { body: { doc: { a: 2 } } });
  assert.equal(casRetry.body.error.reason, 'Validation Failed: 1: compare and write operations can not be retried;');
});

test('_mget: docs and ids forms, per-item errors, validation', async () => {
  await node.request('PUT', '/docs/_doc/m1', { body: { a: 1, m: 2 } });
  const docs = await node.request('POST', '/_mget', {
    body: { docs: [{ _index: 'docs', _id: 'm1', _source: ['a'] }, { _index: 'docs', _id: 'nope' }, { _index: 'missing-index', _id: '1' }] },
  });
  assert.equal(docs.status, 200);
  assert.deepEqual(docs.body.docs[0]._source, { a: 1 });
  assert.deepEqual(docs.body.docs[1], { _index: 'docs', _id: 'nope', found: false });
  assert.equal(docs.body.docs[2].error.type, 'index_not_found_exception');
  assert.equal(docs.body.docs[2].error.root_cause[0].type, 'index_not_found_exception');
  const ids = await node.request('GET', '/docs/_mget', { body: { ids: ['m1'] } });
  assert.equal(ids.body.docs[0]._id, 'm1');
  const noIndex = await node.request('POST', '/_mget', { body: { ids: ['m1'] } });
  assert.equal(noIndex.status, 400);
  assert.equal(noIndex.body.error.reason, 'Validation Failed: 1: index is missing for doc 0;');
  const empty = await node.request('POST', '/_mget', { body: { docs: [] } });
  assert.equal(empty.body.error.reason, 'Validation Failed: 1: no documents to get;');
});

test('wait_for_active_shards beyond the active copies times out with 503 unavailable_shards_exception', async () => {
  // One replica more than there are nodes: one copy can never be assigned (never two copies on one node), so
  // asking for every copy times out on one node and on a cluster alike.
  const nodes = dataNodeCount(node);
  await node.request('PUT', '/wfas', { body: { settings: { number_of_shards: 1, number_of_replicas: nodes } } });
  const settled = await node.request('GET', '/_cluster/health/wfas?wait_for_no_initializing_shards=true&timeout=30s');
  assert.equal(settled.body.active_shards, nodes, settled.text);
  const res = await node.request('PUT', `/wfas/_doc/1?wait_for_active_shards=${nodes + 1}&timeout=200ms`, { body: { a: 1 } });
  assert.equal(res.status, 503);
  assert.equal(res.body.error.type, 'unavailable_shards_exception');
  assert.match(res.body.error.reason, new RegExp(`^\\[wfas\\]\\[0\\] Not enough active copies to meet shard count of \\[${nodes + 1}\\] \\(have ${nodes}, needed ${nodes + 1}\\)\\. Timeout: \\[200ms\\]`));
  const all = await node.request('PUT', '/wfas/_doc/1?wait_for_active_shards=all&timeout=100ms', { body: { a: 1 } });
  assert.equal(all.status, 503);
  const one = await node.request('PUT', '/wfas/_doc/1?wait_for_active_shards=1', { body: { a: 1 } });
  assert.equal(one.status, 201);
  assert.deepEqual(one.body._shards, { total: nodes + 1, successful: nodes, failed: 0 });
});

test('auto-creation on first write, and action.auto_create_index is obeyed', async () => {
  const res = await node.request('PUT', '/auto-made/_doc/1', { body: { a: 1 } });
  assert.equal(res.status, 201);
  const settings = await node.request('GET', '/auto-made/_settings');
  assert.equal(settings.body['auto-made'].settings.index.number_of_shards, '1');
  const invalid = await node.request('PUT', '/Bad-Name/_doc/1', { body: { a: 1 } });
  assert.equal(invalid.status, 400);
  assert.equal(invalid.body.error.type, 'invalid_index_name_exception');
  assert.equal(invalid.body.error.reason, 'Invalid index name [Bad-Name], must be lowercase');
});
