import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start();
  const put = (index: string, properties: unknown) => node.request('PUT', `/${index}`, { body: { settings: { number_of_replicas: 0 }, mappings: { properties } } });
  await put('test1', {
    text: { type: 'text' },
    keyword: { type: 'keyword' },
    number: { type: 'double' },
    misc: { type: 'text' },
    object: { properties: { nested1: { type: 'text', index: false }, nested2: { type: 'keyword', doc_values: false } } },
  });
  await put('test2', {
    text: { type: 'text', fields: { raw: { type: 'keyword' } } },
    keyword: { type: 'keyword' },
    number: { type: 'double' },
    date: { type: 'date' },
    object: { properties: { nested1: { type: 'text' }, nested2: { type: 'keyword' } } },
  });
  await put('test3', {
    text: { type: 'text' },
    keyword: { type: 'keyword' },
    number: { type: 'long' },
    date: { type: 'date' },
    // Gannet has no nested type: test3's object is a plain object whose nested1 is a long.
    object: { properties: { nested1: { type: 'long', index: false } } },
  });
});
after(async () => {
  await node.stop();
});

test('simple field caps across three indices: indices listed only for fields with more than one type', async () => {
  const res = await node.request('GET', '/test1,test2,test3/_field_caps?fields=text,keyword,number,date');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.indices, ['test1', 'test2', 'test3']);
  assert.deepEqual(res.body.fields.text, { text: { type: 'text', metadata_field: false, searchable: true, aggregatable: false } });
  assert.deepEqual(res.body.fields.keyword, { keyword: { type: 'keyword', metadata_field: false, searchable: true, aggregatable: true } });
  assert.deepEqual(res.body.fields.number, {
    double: { type: 'double', metadata_field: false, searchable: true, aggregatable: true, indices: ['test1', 'test2'] },
    long: { type: 'long', metadata_field: false, searchable: true, aggregatable: true, indices: ['test3'] },
  });
  assert.deepEqual(res.body.fields.date, { date: { type: 'date', metadata_field: false, searchable: true, aggregatable: true } });
  assert.deepEqual(Object.keys(res.body.fields).sort(), ['date', 'keyword', 'number', 'text']);
});

test('wildcards reach objects and their leaves; disagreeing indices are named', async () => {
  const res = await node.request('POST', '/test*/_field_caps', { body: { fields: ['object*'] } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.fields.object, { object: { type: 'object', metadata_field: false, searchable: false, aggregatable: false } });
  assert.deepEqual(res.body.fields['object.nested1'].text, {
    type: 'text', metadata_field: false, searchable: false, aggregatable: false, indices: ['test1', 'test2'], non_searchable_indices: ['test1'],
  });
  assert.deepEqual(res.body.fields['object.nested1'].long, { type: 'long', metadata_field: false, searchable: true, aggregatable: true, indices: ['test3'] });
  assert.deepEqual(res.body.fields['object.nested2'].keyword, {
    type: 'keyword', metadata_field: false, searchable: true, aggregatable: false, non_aggregatable_indices: ['test1'],
  });
});

test('include_unmapped adds an unmapped type naming the indices without the field', async () => {
  const res = await node.request('GET', '/_field_caps?fields=text*,misc&include_unmapped=true');
  assert.deepEqual(res.body.fields.misc, {
    text: { type: 'text', metadata_field: false, searchable: true, aggregatable: false, indices: ['test1'] },
    unmapped: { type: 'unmapped', metadata_field: false, searchable: false, aggregatable: false, indices: ['test2', 'test3'] },
  });
  assert.deepEqual(res.body.fields['text.raw'].unmapped.indices, ['test1', 'test3']);
  assert.deepEqual(res.body.fields.text, { text: { type: 'text', metadata_field: false, searchable: true, aggregatable: false } });
});

test('metadata fields, filters and types', async () => {
  const meta = await node.request('GET', '/test1/_field_caps?fields=_id,_index,_source');
  assert.deepEqual(meta.body.fields, {
    _id: { _id: { type: '_id', metadata_field: true, searchable: true, aggregatable: false } },
    _index: { _index: { type: '_index', metadata_field: true, searchable: true, aggregatable: true } },
    _source: { _source: { type: '_source', metadata_field: true, searchable: false, aggregatable: false } },
  });
  const noMeta = await node.request('GET', '/test2/_field_caps?fields=*&filters=-metadata,-multifield,-parent');
  assert.deepEqual(Object.keys(noMeta.body.fields).sort(), ['date', 'keyword', 'number', 'object.nested1', 'object.nested2', 'text']);
  const keywords = await node.request('GET', '/test2/_field_caps?fields=*&types=keyword');
  assert.deepEqual(Object.keys(keywords.body.fields).sort(), ['keyword', 'object.nested2', 'text.raw']);
});

test('indices options and request errors as the other multi-index APIs', async () => {
  const missing = await node.request('GET', '/nope/_field_caps?fields=*');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, 'index_not_found_exception');
  const lenient = await node.request('GET', '/nope,test1/_field_caps?fields=keyword&ignore_unavailable=true');
  assert.deepEqual(lenient.body.indices, ['test1']);
  const none = await node.request('GET', '/nomatch*/_field_caps?fields=*');
  assert.deepEqual(none.body, { indices: [], fields: {} });
  const noFields = await node.request('GET', '/test1/_field_caps');
  assert.equal(noFields.status, 400);
  assert.equal(noFields.body.error.reason, "Validation Failed: 1: specified fields can't be null or empty;");
});
