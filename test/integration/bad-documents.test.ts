/**
 * Bad documents get ES errors (4xx, ES types) and leave the index intact: wrong types for mapped fields, deep
 * nesting (past the mapping depth limit and past the 1000-level JSON limit), 10 MB field values, invalid
 * UTF-8, non-object and truncated sources, metadata fields in the body. After each, the earlier documents are
 * still there, new writes succeed and the node keeps answering.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'bad-docs-node' } });
  await node.request('PUT', '/bad', {
    body: { settings: { number_of_replicas: 0 }, mappings: { properties: { n: { type: 'long' }, k: { type: 'keyword' }, t: { type: 'text' }, d: { type: 'date' } } } },
  });
  await node.request('PUT', '/flat', { body: { settings: { number_of_replicas: 0 }, mappings: { dynamic: false } } });
  await node.request('PUT', '/bad/_doc/good', { body: { n: 1, k: 'ok', t: 'fine' } });
});
after(async () => {
  await node.stop();
});

async function assertIntact(): Promise<void> {
  const good = await node.request('GET', '/bad/_doc/good');
  assert.equal(good.body.found, true);
  assert.deepEqual(good.body._source, { n: 1, k: 'ok', t: 'fine' });
  const write = await node.request('PUT', `/bad/_doc/after-${Math.random()}`, { body: { n: 2 } });
  assert.equal(write.status, 201);
  assert.equal((await node.request('GET', '/_cluster/health')).status, 200);
}

function raw(path: string, body: string | Buffer) {
  return node.request('PUT', path, { raw: body, headers: { 'content-type': 'application/json' } });
}

test('wrong types for mapped fields: 400 document_parsing_exception naming the field', async () => {
  const cases: Array<[unknown, string]> = [
    [{ n: 'abc' }, 'n'],
    [{ n: { x: 1 } }, 'n'],
    [{ d: 'not a date' }, 'd'],
    [{ k: { nested: true } }, 'k'],
  ];
  for (const [body, field] of cases) {
    const res = await node.request('PUT', '/bad/_doc/wrong', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.type, 'document_parsing_exception');
    assert.match(res.body.error.reason, new RegExp(`field \\[${field}\\]`));
  }
  assert.equal((await node.request('GET', '/bad/_doc/wrong')).status, 404);
  await assertIntact();
});

test('deep nesting: the mapping depth limit, then the 1000-level JSON limit, then absurd depth', async () => {
  const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  const mapped = await raw('/bad/_doc/deep', nested(50));
  assert.equal(mapped.status, 400);
  assert.equal(mapped.body.error.type, 'document_parsing_exception');
  assert.match(mapped.body.error.reason, /Limit of mapping depth \[20\] has been exceeded/);
  const unmapped = await raw('/flat/_doc/deep', nested(1001));
  assert.equal(unmapped.status, 400);
  assert.match(unmapped.text, /nesting depth/i);
  const absurd = await raw('/flat/_doc/deeper', nested(100_000));
  assert.equal(absurd.status, 400);
  const ok = await raw('/flat/_doc/shallow', nested(500));
  assert.equal(ok.status, 201, 'unmapped content within the JSON limit is kept in _source only');
  await assertIntact();
});

test('10 MB values: accepted in a text field (as ES does), refused in a keyword field', async () => {
  const text = await node.request('PUT', '/bad/_doc/bigtext', { body: { t: 'word '.repeat(2_000_000) } });
  assert.equal(text.status, 201);
  const keyword = await node.request('PUT', '/bad/_doc/bigkeyword', { body: { k: 'x'.repeat(10_000_000) } });
  assert.equal(keyword.status, 400);
  assert.equal(keyword.body.error.type, 'document_parsing_exception');
  assert.equal((await node.request('GET', '/bad/_doc/bigkeyword')).status, 404);
  const stored = await node.request('GET', '/bad/_doc/bigtext?_source=false');
  assert.equal(stored.body.found, true);
  await assertIntact();
});

test('invalid UTF-8 is refused, in a single write and as one bulk item', async () => {
  const single = await raw('/bad/_doc/utf', Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
  assert.equal(single.status, 400);
  assert.equal(single.body.error.type, 'document_parsing_exception');
  assert.match(single.body.error.reason, /Invalid UTF-8 start byte 0xff/);
  assert.equal((await node.request('GET', '/bad/_doc/utf')).status, 404);
  const body = Buffer.concat([
    Buffer.from('{"index":{"_index":"bad","_id":"u1"}}\n{"t":"'),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('"}\n{"index":{"_index":"bad","_id":"u2"}}\n{"t":"fine"}\n'),
  ]);
  const bulk = await node.request('POST', '/_bulk', { raw: body, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.status, 200);
  assert.equal(bulk.body.items[0].index.status, 400);
  assert.match(bulk.body.items[0].index.error.reason, /Invalid UTF-8/);
  assert.equal(bulk.body.items[1].index.status, 201);
  await assertIntact();
});

test('malformed sources: not an object, truncated, empty, metadata fields', async () => {
  const array = await raw('/bad/_doc/m', '[1,2]');
  assert.equal(array.status, 400);
  assert.equal(array.body.error.reason, 'Malformed content, must start with an object');
  const truncated = await raw('/bad/_doc/m', '{"a":1');
  assert.equal(truncated.status, 400);
  assert.equal(truncated.body.error.type, 'document_parsing_exception');
  const empty = await node.request('PUT', '/bad/_doc/m', { headers: { 'content-type': 'application/json' } });
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error.reason, 'request body is required');
  const metadata = await node.request('PUT', '/bad/_doc/m', { body: { _id: 'x' } });
  assert.equal(metadata.status, 400);
  assert.match(metadata.body.error.root_cause[0].reason, /Field \[_id\] is a metadata field and cannot be added inside a document/);
  const trailing = await raw('/bad/_doc/m', '{"a":1} {"b":2}');
  assert.equal(trailing.status, 400);
  assert.equal((await node.request('GET', '/bad/_doc/m')).status, 404);
  await assertIntact();
});

test('too many fields: the total fields limit refuses the document and keeps the mapping', async () => {
  await node.request('PUT', '/limited', { body: { settings: { number_of_replicas: 0, 'index.mapping.total_fields.limit': 5 } } });
  const fields: Record<string, number> = {};
  for (let i = 0; i < 10; i++) fields[`f${i}`] = i;
  const res = await node.request('PUT', '/limited/_doc/1', { body: fields });
  assert.equal(res.status, 400);
  assert.match(res.text, /Limit of total fields \[5\] has been exceeded/);
  const mapping = await node.request('GET', '/limited/_mapping');
  assert.deepEqual(mapping.body.limited.mappings, {});
  assert.equal((await node.request('PUT', '/limited/_doc/2', { body: { a: 1 } })).status, 201);
});
