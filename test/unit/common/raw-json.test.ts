/** RawJson: a document's source carried into responses byte for byte, and expanded where a writer must look inside. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson, expandRawJson, stringifyWithRaw } from '../../../src/common/raw-json.js';
import { writeJson, writeYaml } from '../../../src/http/xcontent.js';
import { applyFilterPath, parseFilterPath } from '../../../src/http/filter-path.js';

const source = new RawJson('{"price" : 1.0, "big": 12345678901234567890, "nested":{"list":[1,{"x":"é\\"q"}]}}');

test('compact output is the text as sent; pretty output re-indents but keeps number literals', () => {
  assert.equal(writeJson({ _source: source }, false), `{"_source":${source.text}}`);
  const pretty = writeJson({ _source: source }, true);
  assert.match(pretty, /"price" : 1\.0,\n {4}"big" : 12345678901234567890,/);
  assert.match(writeYaml({ _source: source }), /\n {2}price: 1\.0\n {2}big: 12345678901234567890\n/);
});

test('filter_path reaches inside a source', () => {
  assert.equal(writeJson(applyFilterPath({ _source: source }, parseFilterPath('_source.nested.list.x')), false), '{"_source":{"nested":{"list":[{"x":"é\\"q"}]}}}');
  assert.equal(writeJson(applyFilterPath({ a: 1, _source: source }, parseFilterPath('-_source')), false), '{"a":1}');
});

test('expand and stringify round-trip, numbers untouched, __proto__ an ordinary key', () => {
  const tree = expandRawJson(new RawJson('{"a":1.50,"__proto__":{"b":[true,null,-2e3]}}')) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(tree), Object.prototype);
  assert.ok(Object.hasOwn(tree, '__proto__'));
  assert.equal(stringifyWithRaw(tree), '{"a":1.50,"__proto__":{"b":[true,null,-2e3]}}');
  assert.throws(() => expandRawJson(new RawJson('{"a":1,}')), SyntaxError);
  assert.throws(() => expandRawJson(new RawJson('{"a":1} x')), SyntaxError);
});
