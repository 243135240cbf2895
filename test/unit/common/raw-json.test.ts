/** RawJson: a document's source carried into responses byte for byte, and expanded where a writer must look inside. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson, expandRawJson, stringifyWithRaw } from '../../../src/common/raw-json.js';
import { writeJson, writeJsonBytes, writeJsonChunks, writeYaml } from '../../../src/http/xcontent.js';
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

test('JSON given as UTF-8 bytes goes into a compact response as those bytes, and reads as text everywhere else', () => {
  const bytes = Buffer.from(source.text, 'utf8');
  const raw = () => RawJson.ofUtf8(bytes.subarray(0));
  const body = () => ({ before: 'é', nodes: { n1: { tasks: raw(), after: [1, 'ü'] }, n2: raw() } });
  const asText = { before: 'é', nodes: { n1: { tasks: source, after: [1, 'ü'] }, n2: source } };
  const compact = writeJsonBytes(body(), false);
  assert.equal(compact.toString('utf8'), writeJson(asText, false));
  assert.equal(writeJson(body(), false), writeJson(asText, false));
  assert.equal(writeJsonBytes(body(), true).toString('utf8'), writeJson(asText, true));
  assert.equal(writeYaml(body()), writeYaml(asText));
  assert.equal(writeJson(applyFilterPath(body(), parseFilterPath('nodes.*.tasks.price')), false), '{"nodes":{"n1":{"tasks":{"price":1.0}}}}');
  assert.equal(raw().text, source.text);
  // Plain bodies still come out as one encoding of the joined text.
  assert.equal(writeJsonBytes({ a: 'é', b: [source] }, false).toString('utf8'), writeJson({ a: 'é', b: [source] }, false));
});

test('JSON given as several UTF-8 byte parts is written as those parts (large ones as chunks of their own), and reads as text everywhere else', () => {
  const whole = Buffer.from(`{"big":"${'é'.repeat(700)}","n":[1.50,-2e3],"s":"ü"}`, 'utf8');
  // Cut between characters only, the large middle part over 1 KB.
  const cuts = [0, 8, whole.length - 20, whole.length];
  const parts = () => cuts.slice(1).map((end, i) => whole.subarray(cuts[i], end));
  const body = () => ({ before: 'é', nodes: RawJson.ofUtf8Parts(parts()), after: [RawJson.ofUtf8(Buffer.from('{}'))] });
  const asText = { before: 'é', nodes: new RawJson(whole.toString('utf8')), after: [new RawJson('{}')] };
  const expected = writeJson(asText, false);
  const chunks = writeJsonChunks(body());
  assert.equal(Buffer.concat(chunks).toString('utf8'), expected);
  assert.equal(chunks.length, 3);
  assert.equal(chunks[1]!.buffer, whole.buffer);
  assert.equal(writeJsonBytes(body(), false).toString('utf8'), expected);
  assert.equal(writeJson(body(), false), expected);
  assert.equal(writeJsonBytes(body(), true).toString('utf8'), writeJson(asText, true));
  assert.equal(writeYaml(body()), writeYaml(asText));
  assert.equal(writeJson(applyFilterPath(body(), parseFilterPath('nodes.n')), false), '{"nodes":{"n":[1.50,-2e3]}}');
  assert.equal(RawJson.ofUtf8Parts(parts()).text, whole.toString('utf8'));
  // Without a large byte part, one chunk: the bytes writeJsonBytes makes.
  assert.deepEqual(writeJsonChunks({ a: 'é', b: [source] }), [writeJsonBytes({ a: 'é', b: [source] }, false)]);
});
