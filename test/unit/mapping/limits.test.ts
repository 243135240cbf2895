import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../src/common/errors.js';
import { parseMapping } from '../../../src/mapping/index.js';
import { doc, expectError, update, values } from './helpers.js';

function nestedObjects(levels: number, leaf = '1'): string {
  return '{"a":'.repeat(levels) + leaf + '}'.repeat(levels);
}

test('1000 new fields are accepted, the 1001st fails the document', () => {
  const fields: string[] = [];
  for (let i = 0; i < 1000; i++) fields.push(`"f${i}":${i}`);
  assert.equal(doc(`{${fields.join(',')}}`).fields.length, 1000);
  const source = `{${fields.join(',')},"f1000":1}`;
  expectError(() => doc(source), {
    type: 'document_parsing_exception',
    reason: `[1:${source.length - 1}] failed to parse: Limit of total fields [1000] has been exceeded while adding new fields [1001]`,
    cause: { type: 'illegal_argument_exception', reason: 'Limit of total fields [1000] has been exceeded while adding new fields [1001]' },
  });
});

test('fields already mapped count toward the limit', () => {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 999; i++) properties[`m${i}`] = { type: 'long' };
  expectError(() => doc('{"x":"two fields"}', { properties }), {
    type: 'document_parsing_exception',
    reason: '[1:6] failed to parse: Limit of total fields [1000] has been exceeded while adding new fields [2]',
    cause: { type: 'illegal_argument_exception', reason: 'Limit of total fields [1000] has been exceeded while adding new fields [2]' },
  });
  assert.deepEqual(values(doc('{"x":1}', { properties })), { x: [1n] });
});

// nestedObjects(n) has the root object and n - 1 objects named a (the innermost a holds the value).
test('object depth: 19 dynamic objects are fine, the 20th object is depth 21 and fails', () => {
  assert.ok(update(nestedObjects(20)));
  const path = Array(20).fill('a').join('.');
  expectError(() => doc(nestedObjects(21)), {
    type: 'document_parsing_exception',
    reason: `[1:101] failed to parse: Limit of mapping depth [20] has been exceeded due to object field [${path}]`,
    cause: { type: 'illegal_argument_exception', reason: `Limit of mapping depth [20] has been exceeded due to object field [${path}]` },
  });
});

test('a 1000-level document gets an ES error, never a stack overflow', () => {
  expectError(() => doc(nestedObjects(999)), {
    type: 'document_parsing_exception',
    reason: `[1:101] failed to parse: Limit of mapping depth [20] has been exceeded due to object field [${Array(20).fill('a').join('.')}]`,
    cause: { type: 'illegal_argument_exception', reason: `Limit of mapping depth [20] has been exceeded due to object field [${Array(20).fill('a').join('.')}]` },
  });
  // Unmapped content is skipped, not walked: 999 levels under dynamic:false is a valid document.
  assert.deepEqual(doc(nestedObjects(999), { dynamic: false }).fields, []);
  assert.deepEqual(doc(nestedObjects(999), { properties: { a: { enabled: false } } }).fields, []);
  // Arrays nest without objects: 998 levels of arrays inside the root object is still within Jackson's limit.
  const arrays = `{"a":${'['.repeat(998)}7${']'.repeat(998)}}`;
  assert.deepEqual(values(doc(arrays)), { a: [7n] });
  // Past Jackson's 1000 levels the JSON itself is refused, with its message.
  const tooDeep = `{"a":${'['.repeat(1000)}${']'.repeat(1000)}}`;
  assert.throws(() => doc(tooDeep), (err: unknown) => {
    assert.ok(err instanceof EsError);
    assert.equal(err.type, 'document_parsing_exception');
    assert.match(err.reason, /Document nesting depth \(1001\) exceeds the maximum allowed \(1000, from `StreamReadConstraints.getMaxNestingDepth\(\)`\)/);
    return true;
  });
  for (const mapping of [undefined, { dynamic: false }, { dynamic: 'strict' }]) {
    assert.throws(() => doc(nestedObjects(100_000), mapping), EsError, 'a hundred thousand levels fail cleanly');
  }
});

test('a 10 MB string: accepted for text, ignored past ignore_above for keyword, an immense term otherwise', () => {
  const big = 'x'.repeat(10 * 1024 * 1024);
  const started = Date.now();
  const parsed = doc({ t: big }, { properties: { t: { type: 'text' } } });
  assert.equal((parsed.fields[0] as { value: string }).value.length, big.length);
  const dynamic = doc({ t: big });
  assert.deepEqual(dynamic.fields.map((f) => f.field), ['t']);
  assert.deepEqual(dynamic.ignored, ['t.keyword']);
  // Not a speed goal (bench/ has those): a guard against work quadratic in the string's length, which would take
  // minutes. Linear parsing took 8.5 s at load 30 on two cores, hence the wide bound.
  assert.ok(Date.now() - started < 30_000, 'parsing 10 MB is linear in its length');
  assert.throws(
    () => doc({ k: 'é'.repeat(20000) }, { properties: { k: { type: 'keyword' } } }),
    (err: unknown) => {
      assert.ok(err instanceof EsError);
      assert.equal(err.type, 'document_parsing_exception');
      assert.equal(
        err.causedBy?.reason,
        'Document contains at least one immense term in field="k" (whose UTF8 encoding is longer than the max length 32766), all of which were skipped. ' +
          "Please correct the analyzer to not produce such terms. The prefix of the first immense term is: '[" +
          Array(15).fill('-61, -87').join(', ') +
          "]...'",
      );
      return true;
    },
  );
});

test('a mapping nested thousands of levels deep fails with the depth error, not a stack overflow', () => {
  let mapping: Record<string, unknown> = { type: 'long' };
  for (let i = 0; i < 50_000; i++) mapping = { properties: { o: mapping } };
  assert.throws(
    () => parseMapping(mapping),
    (err: unknown) => {
      assert.ok(err instanceof EsError);
      assert.equal(err.type, 'illegal_argument_exception');
      assert.equal(err.reason, `Limit of mapping depth [20] has been exceeded due to object field [${Array(20).fill('o').join('.')}]`);
      return true;
    },
  );
  let template: Record<string, unknown> = {};
  for (let i = 0; i < 50_000; i++) template = { a: template };
  assert.throws(() => parseMapping({ dynamic_templates: [{ t: { mapping: template } }] }), EsError);
});
