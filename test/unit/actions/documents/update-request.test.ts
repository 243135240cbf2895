/** The update API's merge (XContentHelper.update) and noop detection, keeping number literals. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeInto, parseUpdateBody, treeFromSource, treeToBytes, updateProblems } from '../../../../src/actions/documents/update-request.js';

const tree = (json: string) => treeFromSource(Buffer.from(json));

test('objects merge deeply; everything else, arrays included, is replaced', () => {
  const source = tree('{"a":1,"o":{"x":1,"y":[1,2]},"keep":1.0}');
  const changed = mergeInto(source, tree('{"o":{"y":[3]},"b":"new"}'), true);
  assert.equal(changed, true);
  assert.equal(Buffer.from(treeToBytes(source)).toString(), '{"a":1,"o":{"x":1,"y":[3]},"keep":1.0,"b":"new"}');
});

test('noop detection compares values the way Java does (1 and 1.0 differ, 1.0 and 1.00 do not)', () => {
  assert.equal(mergeInto(tree('{"a":1,"o":{"x":"s"}}'), tree('{"a":1,"o":{"x":"s"}}'), true), false);
  assert.equal(mergeInto(tree('{"a":1}'), tree('{"a":1.0}'), true), true);
  assert.equal(mergeInto(tree('{"a":1.0}'), tree('{"a":1.00}'), true), false);
  assert.equal(mergeInto(tree('{"a":[1,{"b":2}]}'), tree('{"a":[1,{"b":2}]}'), true), false);
  assert.equal(mergeInto(tree('{"a":1}'), tree('{"a":1}'), false), true, 'without detection every update counts as a change');
});

test('the body: fields, defaults, and UpdateRequest validation', () => {
  const spec = parseUpdateBody('{"doc":{"a":1},"upsert":{"a":0},"detect_noop":false,"_source":true}', 0);
  assert.equal(spec.detectNoop, false);
  assert.equal(spec.hasScript, false);
  assert.deepEqual(spec.fetchSource, { fetch: true, includes: [], excludes: [] });
  assert.throws(() => parseUpdateBody('{"doc":{},\n "bogus":1}', 0), (err: Error) => err.message === '[2:2] [UpdateRequest] unknown field [bogus]');
  assert.deepEqual(updateProblems(parseUpdateBody('{}', 0), undefined), ['script or doc is missing']);
  assert.deepEqual(updateProblems(parseUpdateBody('{"doc":{},"script":"x"}', 0), undefined), ["can't provide both script and doc"]);
  assert.deepEqual(updateProblems(parseUpdateBody('{"upsert":{},"doc_as_upsert":true}', 0), undefined), ['script or doc is missing', 'doc must be specified if doc_as_upsert is enabled']);
  assert.deepEqual(updateProblems(parseUpdateBody('{"doc":{},"upsert":{}}', 1), 3), [
    'compare and write operations can not be retried',
    "upsert requests don't support `if_seq_no` and `if_primary_term`",
  ]);
});
