/**
 * Document APIs over HTTP against a real node, as ES 8.19 answers them: a read's `version` must equal the document's
 * for every version type (get/90_versions.yml); `stored_fields` returns `store: true` fields under `fields` for get,
 * mget and search, with `_source` only when listed (mget/20_stored_fields.yml), before and after a refresh; mget
 * refuses the removed `_routing`/`_version` (mget/80_deprecated.yml); ObjectParser's unknown-field errors carry
 * "did you mean" (update, templates, alias actions, scripts); an update body may carry `if_seq_no`.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { assertError } from '../helpers/es-error-assertions.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'documents-compat-node' } });
});
after(async () => {
  await node.stop();
});

test('a read with a version wants exactly that version, whatever the version type', async () => {
  await node.request('PUT', '/versions', { body: { settings: { number_of_replicas: 0 } } });
  await node.request('PUT', '/versions/_doc/1', { body: { n: 1 } });
  await node.request('PUT', '/versions/_doc/1', { body: { n: 2 } });
  for (const versionType of ['internal', 'external', 'external_gte']) {
    for (const version of [1, 10]) {
      const res = await node.request('GET', `/versions/_doc/1?version=${version}&version_type=${versionType}`);
      assertError(res, 409, 'version_conflict_engine_exception', `[1]: version conflict, current version [2] is different than the one provided [${version}]`);
    }
    const ok = await node.request('GET', `/versions/_doc/1?version=2&version_type=${versionType}`);
    assert.equal(ok.status, 200, ok.text);
  }
  const mget = await node.request('POST', '/versions/_mget', { body: { docs: [{ _id: '1', version: 10, version_type: 'external' }] } });
  assert.equal(mget.body.docs[0].error.type, 'version_conflict_engine_exception');
  await node.request('DELETE', '/versions');
});

test('stored_fields returns store: true fields for get, mget and search, _source only when listed', async () => {
  const mappings = {
    properties: {
      foo: { type: 'keyword', store: true },
      count: { type: 'integer', store: true },
      body: { type: 'text', store: true },
      ratio: { type: 'float', store: true },
      flag: { type: 'boolean', store: true },
      day: { type: 'date', store: true },
      plain: { type: 'keyword' },
    },
  };
  await node.request('PUT', '/stored', { body: { settings: { number_of_replicas: 0 }, mappings } });
  const doc = { foo: ['bar', 'baz'], count: '7', body: 'hello', ratio: 1.1, flag: 'true', day: '2020-01-01', plain: 'p' };
  await node.request('PUT', '/stored/_doc/1', { body: doc });
  const expected = { foo: ['bar', 'baz'], count: [7], body: ['hello'], ratio: [1.1], flag: [true], day: ['2020-01-01T00:00:00.000Z'] };

  // Before a refresh (the live version map) and after it (the segment), the same answer.
  for (const phase of ['realtime', 'refreshed']) {
    if (phase === 'refreshed') await node.request('POST', '/stored/_refresh');
    const got = await node.request('GET', '/stored/_doc/1?stored_fields=foo,count,body,ratio,flag,day,plain,missing');
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body.fields, expected, phase);
    assert.equal(got.body._source, undefined, phase);
    const withSource = await node.request('GET', '/stored/_doc/1?stored_fields=foo,_source');
    assert.deepEqual(withSource.body.fields, { foo: ['bar', 'baz'] });
    assert.deepEqual(withSource.body._source, doc);
    // `fields` follows `_source`, as GetResult prints them.
    assert.ok(withSource.text.indexOf('"_source"') < withSource.text.indexOf('"fields"'));
  }
  const notStored = await node.request('GET', '/stored/_doc/1?stored_fields=plain');
  assert.equal(notStored.body.fields, undefined);
  assert.equal(notStored.body.found, true);

  // mget/20_stored_fields.yml: a doc's own stored_fields replace the request's.
  const docs = [{ _id: '1' }, { _id: '1', stored_fields: 'foo' }, { _id: '1', stored_fields: ['foo'] }, { _id: '1', stored_fields: ['foo', '_source'] }];
  const plain = await node.request('POST', '/stored/_mget', { body: { docs } });
  assert.equal(plain.body.docs[0].fields, undefined);
  assert.deepEqual(plain.body.docs[0]._source, doc);
  for (const i of [1, 2]) {
    assert.deepEqual(plain.body.docs[i].fields, { foo: ['bar', 'baz'] });
    assert.equal(plain.body.docs[i]._source, undefined);
  }
  assert.deepEqual(plain.body.docs[3]._source, doc);
  const withParam = await node.request('POST', '/stored/_mget?stored_fields=foo,_source', { body: { docs } });
  assert.deepEqual(withParam.body.docs[0].fields, { foo: ['bar', 'baz'] });
  assert.deepEqual(withParam.body.docs[0]._source, doc);
  assert.equal(withParam.body.docs[1]._source, undefined);

  const search = await node.request('POST', '/stored/_search', { body: { stored_fields: ['foo', '_source'] } });
  assert.deepEqual(search.body.hits.hits[0].fields, { foo: ['bar', 'baz'] });
  assert.deepEqual(search.body.hits.hits[0]._source, doc);
  const searchNoSource = await node.request('POST', '/stored/_search', { body: { stored_fields: ['count'] } });
  assert.deepEqual(searchNoSource.body.hits.hits[0].fields, { count: [7] });
  assert.equal(searchNoSource.body.hits.hits[0]._source, undefined);
  await node.request('DELETE', '/stored');
});

test('mget refuses the fields removed in 7.0 and `fields` (mget/80_deprecated.yml)', async () => {
  await node.request('PUT', '/old-mget/_doc/1', { body: { foo: 'bar' } });
  const routing = await node.request('POST', '/_mget', { body: { docs: [{ _index: 'old-mget', _id: '1', _routing: 'test1' }] } });
  assertError(routing, 400, 'parse_exception', 'failed to parse multi get request. unknown field [_routing]');
  const version = await node.request('POST', '/_mget', { body: { docs: [{ _index: 'old-mget', _id: '1', _version: 1 }] } });
  assertError(version, 400, 'parse_exception', 'failed to parse multi get request. unknown field [_version]');
  const fields = await node.request('POST', '/_mget', { body: { docs: [{ _index: 'old-mget', _id: '1', fields: ['foo'] }] } });
  assertError(fields, 400, 'parsing_exception', 'Unsupported field [fields] used, expected [stored_fields] instead');
  await node.request('DELETE', '/old-mget');
});

test('unknown fields get ObjectParser\'s "did you mean"; an update body may carry if_seq_no', async () => {
  await node.request('PUT', '/hints/_doc/1?refresh=true', { body: { n: 1 } });
  const update = await node.request('POST', '/hints/_update/1', { body: { docs: { n: 2 } } });
  assertError(update, 400, 'x_content_parse_exception', '[1:2] [UpdateRequest] unknown field [docs] did you mean [doc]?');
  const upsert = await node.request('POST', '/hints/_update/1', { body: { doc: { n: 2 }, upsrt: {} } });
  assertError(upsert, 400, 'x_content_parse_exception', '[1:16] [UpdateRequest] unknown field [upsrt] did you mean [upsert]?');
  const many = await node.request('POST', '/hints/_update/1', { body: { doc_as_upsrt: true } });
  assertError(many, 400, 'x_content_parse_exception', '[1:2] [UpdateRequest] unknown field [doc_as_upsrt] did you mean [doc_as_upsert]?');
  const nothingClose = await node.request('POST', '/hints/_update/1', { body: { zzz: 1 } });
  assertError(nothingClose, 400, 'x_content_parse_exception', '[1:2] [UpdateRequest] unknown field [zzz]');
  const script = await node.request('POST', '/hints/_update/1', { body: { script: { sorce: 'ctx._source.n = 3' } } });
  assert.equal(script.status, 400, script.text);
  assert.equal(script.body.error.caused_by.reason, '[script] unknown field [sorce] did you mean [source]?');

  const conflict = await node.request('POST', '/hints/_update/1', { body: { doc: { n: 2 }, if_seq_no: 5, if_primary_term: 1 } });
  assertError(conflict, 409, 'version_conflict_engine_exception', '[1]: version conflict, required seqNo [5], primary term [1]. current document has seqNo [0] and primary term [1]');
  const matching = await node.request('POST', '/hints/_update/1', { body: { doc: { n: 2 }, if_seq_no: 0, if_primary_term: 1 } });
  assert.equal(matching.status, 200, matching.text);
  const bulk = await node.request('POST', '/_bulk', {
    raw: `${JSON.stringify({ update: { _index: 'hints', _id: '1' } })}\n${JSON.stringify({ doc: { n: 3 }, if_seq_no: 0, if_primary_term: 1 })}\n`,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal(bulk.body.items[0].update.status, 409);

  const template = await node.request('PUT', '/_index_template/hint-template', { body: { index_pattern: ['h-*'] } });
  assertError(template, 400, 'x_content_parse_exception', '[index_template] unknown field [index_pattern] did you mean [index_patterns]?');
  const alias = await node.request('POST', '/_aliases', { body: { actions: [{ add: { indice: ['hints'], alias: 'a' } }] } });
  assertError(alias, 400, 'x_content_parse_exception', '[add] unknown field [indice] did you mean [indices]?');
  const action = await node.request('POST', '/_aliases', { body: { actions: [{ ad: { index: 'hints', alias: 'a' } }] } });
  assertError(action, 400, 'x_content_parse_exception', '[alias_action] unknown field [ad] did you mean [add]?');
  await node.request('DELETE', '/hints');
});
