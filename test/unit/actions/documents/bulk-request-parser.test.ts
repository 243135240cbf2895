/** The `_bulk` NDJSON parser: items, defaults, and BulkRequestParser's errors, line numbers included. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBulkBody, type BulkDefaults } from '../../../../src/actions/documents/bulk-request-parser.js';

const defaults: BulkDefaults = { index: undefined, routing: undefined, fetchSource: undefined, requireAlias: false };
const parse = (text: string, overrides: Partial<BulkDefaults> = {}) => parseBulkBody(Buffer.from(text), { ...defaults, ...overrides });

test('index, create, update and delete items with their metadata', () => {
  const items = parse(
    [
      '{"index":{"_index":"a","_id":"1","routing":"r","if_seq_no":3,"if_primary_term":1}}',
      '{"x":1}',
      '{"create":{"_index":"a","_id":2}}',
      '{"x":2}',
      '{"update":{"_index":"a","_id":"3","retry_on_conflict":2,"_source":["x"]}}',
      '{"doc":{"x":3},"doc_as_upsert":true}',
      '{"delete":{"_index":"a","_id":"4","version":7,"version_type":"external"}}',
      '',
    ].join('\n'),
  );
  assert.deepEqual(items.map((item) => [item.op, item.index, item.id]), [['index', 'a', '1'], ['create', 'a', '2'], ['update', 'a', '3'], ['delete', 'a', '4']]);
  assert.equal(items[0]!.routing, 'r');
  assert.equal(items[0]!.ifSeqNo, 3);
  assert.equal(Buffer.from(items[0]!.source!).toString(), '{"x":1}');
  assert.equal(items[2]!.update!.retryOnConflict, 2);
  assert.equal(items[2]!.update!.docAsUpsert, true);
  assert.deepEqual(items[2]!.update!.fetchSource, { fetch: true, includes: ['x'], excludes: [] });
  assert.equal(items[3]!.version, 7);
  assert.equal(items[3]!.versionType, 'external');
});

test('request defaults apply; op_type turns index into create; \\r before \\n is dropped; blank lines skipped', () => {
  const items = parse('{"index":{"op_type":"create"}}\r\n{"a":1}\r\n\n{"delete":{"_id":"1"}}\n', { index: 'dflt', routing: 'rr' });
  assert.equal(items.length, 2);
  assert.equal(items[0]!.op, 'create');
  assert.equal(items[0]!.index, 'dflt');
  assert.equal(items[0]!.routing, 'rr');
  assert.equal(Buffer.from(items[0]!.source!).toString(), '{"a":1}');
  assert.equal(items[1]!.op, 'delete');
});

test('an action at the very end without its source line is dropped, as ES does', () => {
  assert.equal(parse('{"index":{"_index":"a"}}\n').length, 0);
});

test("BulkRequestParser's errors", () => {
  const fails = (text: string, message: string) => assert.throws(() => parse(text), (err: Error) => err.message === message, text);
  fails('{"index":{}}\n{"a":1}', 'The bulk request must be terminated by a newline [\\n]');
  fails('{"foo":{}}\n{}\n', 'Malformed action/metadata line [1], expected field [create], [delete], [index] or [update] but found [foo]');
  fails('[]\n', 'Malformed action/metadata line [1], expected START_OBJECT but found [START_ARRAY]');
  fails('{}\n', 'Malformed action/metadata line [1], expected FIELD_NAME but found [END_OBJECT]');
  fails('{"index":"a"}\n{}\n', 'Malformed action/metadata line [1], expected START_OBJECT or END_OBJECT but found [VALUE_STRING]');
  fails('{"index":{},"delete":{}}\n{}\n', 'Malformed action/metadata line [1], expected END_OBJECT but found [FIELD_NAME]');
  fails('{"delete":{"_id":"1"}}\n{"index":{"foo":1}}\n{}\n', 'Action/metadata line [2] contains an unknown parameter [foo]');
  fails('{"index":{"_id":["a"]}}\n{}\n', 'Malformed action/metadata line [1], expected a simple value for field [_id] but found [START_ARRAY]');
  fails('{"index":{"op_type":"upsert"}}\n{}\n', "opType must be 'create' or 'index', found: [upsert]");
  fails('{"update":{"_id":"1","version":2}}\n{"doc":{}}\n', 'Update requests do not support versioning. Please use `if_seq_no` and `if_primary_term` instead');
  fails('{"index":{"version_type":"force"}}\n{}\n', 'No version type match [force]');
  fails('{"index":{"pipeline":"p"}}\n{}\n', 'pipeline with id [p] does not exist: ingest pipelines are not supported yet');
  assert.throws(() => parse('{"index":\n{}\n'), (err: { type?: string }) => err.type === 'x_content_parse_exception');
});

test('index sources stay the exact bytes sent (numbers, spacing, unicode)', () => {
  const source = '{"n" : 1.50, "big": 123456789012345678901, "s": "\\u00e9é"}';
  const [item] = parse(`{"index":{"_index":"a"}}\n${source}\n`);
  assert.equal(Buffer.from(item!.source!).toString('utf8'), source);
});

test('sources of a body that is valid UTF-8 as a whole are marked checked; any invalid byte leaves every source to its own check', () => {
  const valid = parse('{"index":{"_index":"a"}}\n{"x":"é"}\n{"index":{"_index":"a"}}\n{"x":1}\n');
  assert.deepEqual(valid.map((item) => item.sourceIsUtf8), [true, true]);
  const body = Buffer.concat([Buffer.from('{"index":{"_index":"a"}}\n{"x":1}\n{"index":{"_index":"a"}}\n{"x":"'), Buffer.from([0xff]), Buffer.from('"}\n')]);
  const invalid = parseBulkBody(body, defaults);
  assert.deepEqual(invalid.map((item) => item.sourceIsUtf8), [false, false]);
});
