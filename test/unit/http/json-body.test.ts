import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonBytes, parseJsonText } from '../../../src/http/json-body.js';
import { EsError } from '../../../src/common/errors.js';

function parseError(fn: () => unknown): EsError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof EsError);
    return err;
  }
  assert.fail('expected a parse error');
}

test('malformed JSON is an x_content_parse_exception with a [line:column] location', () => {
  const error = parseError(() => parseJsonText('{\n  "a": ,\n}'));
  assert.equal(error.type, 'x_content_parse_exception');
  assert.equal(error.status, 400);
  assert.match(error.reason, /^\[2:\d+\] /);
});

test('nesting deeper than 1000 is refused before parsing', () => {
  const deep = '['.repeat(1001) + ']'.repeat(1001);
  assert.match(parseError(() => parseJsonText(deep)).reason, /nesting depth \(1001\) exceeds the maximum allowed \(1000\)/);
  assert.doesNotThrow(() => parseJsonText('['.repeat(1000) + ']'.repeat(1000)));
  // Brackets inside strings do not count.
  assert.deepEqual(parseJsonText(JSON.stringify({ s: '['.repeat(5000) })), { s: '['.repeat(5000) });
});

test('invalid UTF-8 is refused, not replaced', () => {
  const bytes = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
  assert.match(parseError(() => parseJsonBytes(bytes)).reason, /Invalid UTF-8 start byte 0xff/);
});

test('the syntax scanner agrees with JSON.parse on what is valid', async () => {
  const { findJsonSyntaxFault } = await import('../../../src/http/json-syntax.js');
  const fc = (await import('fast-check')).default;
  fc.assert(
    fc.property(fc.json(), (text) => findJsonSyntaxFault(text) === undefined),
    { numRuns: 300 },
  );
  for (const bad of ['{', '{"a"}', '[1,]', '{"a":1,}', 'tru', '"abc', '{"a":1 "b":2}', '[1 2]', '{} x', '']) {
    assert.throws(() => JSON.parse(bad));
    assert.notEqual(findJsonSyntaxFault(bad), undefined, bad);
  }
  assert.equal(findJsonSyntaxFault('{"a": ,}')?.message, "Unexpected character (',' (code 44)): expected a value");
});

test('root_cause stops above a wrapped x_content_parse_exception, as ES does', async () => {
  const { errorBody } = await import('../../../src/http/error-response.js');
  const wrapped = new EsError('parsing_exception', '[match_all] unknown field [x]', {
    causedBy: new EsError('x_content_parse_exception', '[1:14] [match_all] unknown field [x]'),
  });
  const body = errorBody(wrapped) as { error: { root_cause: Array<{ type: string }> } };
  assert.deepEqual(body.error.root_cause.map((c) => c.type), ['parsing_exception']);
});
