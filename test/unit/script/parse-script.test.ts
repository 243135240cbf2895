/** ES's Script.parse forms and errors, and compile-time checks of lang. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileScript, parseScript } from '../../../src/script/index.js';
import { EsError } from '../../../src/common/errors.js';
import { RawJson } from '../../../src/common/raw-json.js';

const rejects = (value: unknown, type: string, reason: string): void => {
  assert.throws(() => parseScript(value), (err: unknown) => {
    assert.ok(err instanceof EsError);
    assert.equal(err.type, type);
    assert.equal(err.reason, reason);
    return true;
  });
};

test('a string is an inline painless script without params', () => {
  assert.deepEqual(parseScript('ctx._source.a++'), { source: 'ctx._source.a++', lang: 'painless', params: {} });
});

test('an object gives source, lang and params; RawJson bodies are expanded', () => {
  assert.deepEqual(parseScript({ source: 's', lang: 'painless', params: { n: 1 } }), { source: 's', lang: 'painless', params: { n: 1 } });
  const parsed = parseScript(new RawJson('{"source":"s","params":{"n":1.0}}'));
  assert.equal(parsed.lang, 'painless');
  assert.ok(parsed.params['n'] instanceof RawJson);
  assert.deepEqual(parseScript({ source: 's', options: { content_type: 'application/json' } }).source, 's');
});

test("ES's errors for malformed scripts", () => {
  rejects({ source: 's', id: 'i' }, 'illegal_argument_exception', 'must only use one of [source, id] when specifying a script');
  rejects({}, 'illegal_argument_exception', 'must specify either [source] for an inline script or [id] for a stored script');
  rejects({ source: 's', foo: 1 }, 'x_content_parse_exception', '[script] unknown field [foo]');
  rejects({ source: 's', params: [1] }, 'x_content_parse_exception', '[script] failed to parse field [params]');
  rejects({ source: 's', options: { flag: true } }, 'illegal_argument_exception', 'illegal compiler options [{flag=true}] specified');
  rejects({ id: 'i', lang: 'painless' }, 'illegal_argument_exception', 'illegally specified <lang> for a stored script');
  rejects(3, 'illegal_argument_exception', '[script] expected a string or an object, got [number]');
});

test('stored scripts are missing (Gannet keeps none); other langs are not supported', () => {
  rejects({ id: 'my-script' }, 'resource_not_found_exception', 'unable to find script [my-script] in cluster state');
  assert.throws(() => compileScript({ source: 'x', lang: 'expression', params: {} }), /script_lang not supported \[expression\]/);
});

test('the same source compiles once and runs with each call\'s own params', () => {
  const script = { source: 'ctx._source.cached = params.v', lang: 'painless', params: { v: 1 } };
  const first = { _source: {} as Record<string, unknown>, op: 'index' };
  compileScript(script).execute(first);
  const second = { _source: {} as Record<string, unknown>, op: 'index' };
  compileScript({ ...script, params: { v: 2 } }).execute(second);
  assert.equal(String(first._source['cached']), '1');
  assert.equal(String(second._source['cached']), '2');
});
