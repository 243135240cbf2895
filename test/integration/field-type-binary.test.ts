/**
 * The `binary` field type over HTTP, as ES 8 answers (its YAML test 350_binary_field and BinaryFieldMapper):
 * base64 in, never searchable, doc values off unless asked (then docvalue_fields and `fields` print base64),
 * `store` for stored_fields, `_source` untouched, Jackson's errors for bad base64, and field caps.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'binary-node' } });
  const created = await node.request('PUT', '/blobs', {
    body: {
      mappings: {
        properties: {
          binary: { type: 'binary', doc_values: true },
          plain: { type: 'binary' },
          stored: { type: 'binary', store: true },
        },
      },
    },
  });
  assert.equal(created.status, 200, created.text);
  await node.request('PUT', '/blobs/_doc/1?refresh=true', { body: { binary: 'U29tZSBiaW5hcnkgYmxvYg==', plain: 'AQID', stored: 'c3RvcmVk' } });
  await node.request('PUT', '/blobs/_doc/2?refresh=true', { body: { binary: ['Yg==', 'YQ==', 'Yg=='] } });
  await node.request('PUT', '/blobs/_doc/3?refresh=true', { body: { other: 'x' } });
});

after(async () => {
  await node.stop();
});

async function hits(body: unknown): Promise<Record<string, any>> {
  const res = await node.request('POST', '/blobs/_search', { body: { sort: ['_doc'], ...(body as object) } });
  assert.equal(res.status, 200, res.text);
  return Object.fromEntries(res.body.hits.hits.map((hit: { _id: string }) => [hit._id, hit]));
}

test('docvalue_fields, fields and _source as ES 8 prints them (350_binary_field)', async () => {
  const dv = await hits({ docvalue_fields: ['binary'] });
  assert.deepEqual(dv['1'].fields, { binary: ['U29tZSBiaW5hcnkgYmxvYg=='] });
  // Doc values hold the distinct values in unsigned byte order.
  assert.deepEqual(dv['2'].fields, { binary: ['YQ==', 'Yg=='] });
  assert.equal(dv['3'].fields, undefined);
  const fetched = await hits({ fields: ['binary', 'plain'] });
  assert.deepEqual(fetched['1'].fields, { binary: ['U29tZSBiaW5hcnkgYmxvYg=='], plain: ['AQID'] });
  assert.deepEqual(fetched['2'].fields, { binary: ['Yg==', 'YQ==', 'Yg=='] });
  const source = await hits({ _source: ['binary'] });
  assert.deepEqual(source['1']._source, { binary: 'U29tZSBiaW5hcnkgYmxvYg==' });
});

test('stored_fields returns a stored binary in base64', async () => {
  const stored = await hits({ stored_fields: ['stored'] });
  assert.deepEqual(stored['1'].fields, { stored: ['c3RvcmVk'] });
});

test('binary fields are never searched; exists follows doc values or the stored copy', async () => {
  const res = await node.request('POST', '/blobs/_search', { body: { query: { term: { binary: 'YQ==' } } } });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.root_cause[0].reason, 'failed to create query: Binary fields do not support searching');
  const terms = await node.request('POST', '/blobs/_search', { body: { query: { terms: { binary: ['YQ=='] } } } });
  assert.equal(terms.body.error.root_cause[0].reason, 'failed to create query: Binary fields do not support searching');
  const exists = async (field: string) => Object.keys(await hits({ query: { exists: { field } }, _source: false }));
  assert.deepEqual(await exists('binary'), ['1', '2']);
  assert.deepEqual(await exists('stored'), ['1']);
  // Neither stored nor doc values: ES keeps nothing of it.
  assert.deepEqual(await exists('plain'), []);
});

test('sorting and aggregating follow ES: no doc values is fielddata refused, doc values cannot sort', async () => {
  let res = await node.request('POST', '/blobs/_search', { body: { sort: ['plain'] } });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.root_cause[0].reason, "Can't load fielddata on [plain] because fielddata is unsupported on fields of type [binary]. Use doc values instead.");
  res = await node.request('POST', '/blobs/_search', { body: { sort: ['binary'] } });
  assert.equal(res.body.error.root_cause[0].reason, "can't sort on binary field");
  res = await node.request('POST', '/blobs/_search', { body: { size: 0, aggs: { t: { terms: { field: 'binary' } }, n: { value_count: { field: 'binary' } } } } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.aggregations.t.buckets, [
    { key: 'U29tZSBiaW5hcnkgYmxvYg==', doc_count: 1 },
    { key: 'YQ==', doc_count: 1 },
    { key: 'Yg==', doc_count: 1 },
  ]);
  assert.equal(res.body.aggregations.n.value, 3);
});

test('bad base64 is refused with Jackson\'s message; a field that keeps nothing is not even read', async () => {
  let res = await node.request('PUT', '/blobs/_doc/bad', { body: { binary: 'not base64!' } });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.type, 'document_parsing_exception');
  assert.equal(res.body.error.reason, "[1:11] failed to parse field [binary] of type [binary] in document with id 'bad'. Preview of field's value: 'not base64!'");
  assert.deepEqual(res.body.error.caused_by, {
    type: 'x_content_parse_exception',
    reason: "[1:11] Failed to decode VALUE_STRING as base64 (MIME-NO-LINEFEEDS): Illegal white space character (code 0x20) as character #4 of 4-char base64 unit: can only used between units",
  });
  res = await node.request('PUT', '/blobs/_doc/unpadded', { body: { binary: 'YWI' } });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.caused_by.reason, "[1:11] Unexpected end of base64-encoded String: base64 variant 'MIME-NO-LINEFEEDS' expects padding (one or more '=' characters) at the end");
  res = await node.request('PUT', '/blobs/_doc/ignored', { body: { plain: 'not base64!' } });
  assert.equal(res.status, 201, res.text);
  await node.request('DELETE', '/blobs/_doc/ignored?refresh=true');
});

test('_field_caps: binary is not searchable, aggregatable only with doc values; dynamic mapping never picks binary', async () => {
  const res = await node.request('GET', '/blobs/_field_caps?fields=binary,plain');
  assert.deepEqual(res.body.fields.binary, { binary: { type: 'binary', metadata_field: false, searchable: false, aggregatable: true } });
  assert.deepEqual(res.body.fields.plain, { binary: { type: 'binary', metadata_field: false, searchable: false, aggregatable: false } });
  await node.request('PUT', '/dyn/_doc/1', { body: { blob: 'U29tZQ==', addr: '10.0.0.1' } });
  const mapping = await node.request('GET', '/dyn/_mapping');
  assert.equal(mapping.body.dyn.mappings.properties.blob.type, 'text');
  assert.equal(mapping.body.dyn.mappings.properties.addr.type, 'text');
});
