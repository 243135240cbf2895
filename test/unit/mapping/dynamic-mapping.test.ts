import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, expectError, update, values } from './helpers.js';

const TEXT_WITH_KEYWORD = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };

test('each JSON type gets ES dynamic mapping', () => {
  assert.deepEqual(
    update('{"s":"hello","i":42,"f":1.5,"e":1e3,"b":true,"o":{"x":"y"},"n":null,"empty":{},"list":[]}'),
    {
      properties: {
        b: { type: 'boolean' },
        e: { type: 'float' },
        empty: { type: 'object' },
        f: { type: 'float' },
        i: { type: 'long' },
        o: { properties: { x: TEXT_WITH_KEYWORD } },
        s: TEXT_WITH_KEYWORD,
      },
    },
  );
});

test('a value outside long range is mapped long, then fails to parse as ES does', () => {
  expectError(() => doc('{"big":12345678901234567890}'), {
    type: 'document_parsing_exception',
    reason: "[1:8] failed to parse field [big] of type [long] in document with id '1'. Preview of field's value: '12345678901234567890'",
    cause: {
      type: 'x_content_parse_exception',
      reason: '[1:8] Numeric value (12345678901234567890) out of range of long (-9223372036854775808 - 9223372036854775807)',
    },
  });
});

test('date detection: default formats, numbers excluded, can be disabled or customised', () => {
  assert.deepEqual(update({ a: '2015-01-01', b: '2015/09/02', c: '2015-01-01T12:10:30Z', d: '1420070400001', e: '2015' }), {
    properties: {
      a: { type: 'date' },
      b: { type: 'date', format: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis' },
      c: { type: 'date' },
      d: TEXT_WITH_KEYWORD,
      e: TEXT_WITH_KEYWORD,
    },
  });
  assert.deepEqual(update({ a: '2015-01-01' }, { date_detection: false }), { properties: { a: TEXT_WITH_KEYWORD } });
  assert.deepEqual(update({ a: '01/02/2015', b: '2015-01-01' }, { dynamic_date_formats: ['MM/dd/yyyy'] }), {
    properties: { a: { type: 'date', format: 'MM/dd/yyyy' }, b: TEXT_WITH_KEYWORD },
  });
  assert.deepEqual(values(doc({ a: '2015/09/02 10:11:12' })), { a: [Date.UTC(2015, 8, 2, 10, 11, 12)] });
});

test('numeric detection maps numeric strings to long and float', () => {
  assert.deepEqual(update({ a: '42', b: '1.5', c: 'x' }, { numeric_detection: true }), {
    properties: { a: { type: 'long' }, b: { type: 'float' }, c: TEXT_WITH_KEYWORD },
  });
  assert.deepEqual(values(doc({ a: '42', b: '1.5' }, { numeric_detection: true })), { a: [42n], b: [1.5] });
});

test('arrays take the type of their first non-null element; incompatible elements conflict', () => {
  assert.deepEqual(update({ a: [null, 1, 2], b: [[true], false] }), { properties: { a: { type: 'long' }, b: { type: 'boolean' } } });
  assert.deepEqual(values(doc({ a: [null, 1, 2] })), { a: [1n, 2n] });
  expectError(() => doc({ a: [1, 'x'] }), { type: 'illegal_argument_exception', reason: 'mapper [a] cannot be changed from type [long] to [text]' });
  expectError(() => doc({ a: [1, 2.5] }), { type: 'illegal_argument_exception', reason: 'mapper [a] cannot be changed from type [long] to [float]' });
});

test('objects inside arrays are merged into one object mapping (no nested)', () => {
  assert.deepEqual(update({ users: [{ name: 'a', age: 1 }, { name: 'b', city: 'x' }] }), {
    properties: { users: { properties: { age: { type: 'long' }, city: TEXT_WITH_KEYWORD, name: TEXT_WITH_KEYWORD } } },
  });
  assert.deepEqual(values(doc({ users: [{ name: 'a', age: 1 }, { name: 'b', age: 2 }] })), {
    'users.name': ['a', 'b'],
    'users.name.keyword': ['a', 'b'],
    'users.age': [1n, 2n],
  });
});

test('dotted field names are object paths', () => {
  assert.deepEqual(update({ 'a.b.c': 1, 'a.d': 'x' }), { properties: { a: { properties: { b: { properties: { c: { type: 'long' } } }, d: TEXT_WITH_KEYWORD } } } });
  assert.deepEqual(values(doc({ 'a.b': 1, a: { c: 2 } })), { 'a.b': [1n], 'a.c': [2n] });
  // A trailing dot is dropped, as ES's dot expander does.
  assert.deepEqual(update({ 'a.': 1 }), { properties: { a: { type: 'long' } } });
});

test('dynamic: strict rejects new fields at any level, with the object path', () => {
  const mapping = { dynamic: 'strict', properties: { o: { properties: { a: { type: 'long' } } }, free: { dynamic: true, properties: {} } } };
  expectError(() => doc('{"x":1}', mapping), {
    type: 'strict_dynamic_mapping_exception',
    reason: '[1:6] mapping set to strict, dynamic introduction of [x] within [_doc] is not allowed',
  });
  expectError(() => doc('{"o":{"a":1,"b":2}}', mapping), {
    type: 'strict_dynamic_mapping_exception',
    reason: '[1:17] mapping set to strict, dynamic introduction of [b] within [o] is not allowed',
  });
  // Null and empty arrays still introduce a field name.
  expectError(() => doc('{"x":null}', mapping), {
    type: 'strict_dynamic_mapping_exception',
    reason: '[1:6] mapping set to strict, dynamic introduction of [x] within [_doc] is not allowed',
  });
  expectError(() => doc('{"x":[]}', mapping), {
    type: 'strict_dynamic_mapping_exception',
    reason: '[1:6] mapping set to strict, dynamic introduction of [x] within [_doc] is not allowed',
  });
  expectError(() => doc('{"o.b":{}}', mapping), {
    type: 'strict_dynamic_mapping_exception',
    reason: '[1:8] mapping set to strict, dynamic introduction of [b] within [o] is not allowed',
  });
  // An object with dynamic: true inside a strict root accepts new fields.
  assert.deepEqual(update({ free: { x: 1 } }, mapping), { properties: { free: { properties: { x: { type: 'long' } } } } });
});

test('dynamic: false keeps unknown fields in _source only, inherited by children', () => {
  const mapping = { dynamic: false, properties: { o: { properties: { a: { type: 'long' } } }, on: { dynamic: 'true', properties: {} } } };
  const parsed = doc({ x: 1, y: { z: [1, { w: 2 }] }, o: { a: 1, b: 2 }, on: { c: 3 } }, mapping);
  assert.deepEqual(values(parsed), { 'o.a': [1n], 'on.c': [3n] });
  assert.deepEqual(update({ x: 1, on: { c: 3 } }, mapping), { properties: { on: { properties: { c: { type: 'long' } } } } });
  // Strict below a non-strict root.
  expectError(() => doc('{"s":{"q":1}}', { properties: { s: { dynamic: 'strict', properties: {} } } }), {
    type: 'strict_dynamic_mapping_exception',
    reason: '[1:11] mapping set to strict, dynamic introduction of [q] within [s] is not allowed',
  });
});

test('enabled: false objects are not parsed at all', () => {
  const parsed = doc({ meta: { anything: [1, 'two', { three: true }] }, meta2: 'a concrete value' }, { properties: { meta: { enabled: false }, meta2: { type: 'object', enabled: false } } });
  assert.deepEqual(parsed.fields, []);
  assert.equal(parsed.mappingUpdate, undefined);
});

test('a concrete value for an object field is an error', () => {
  expectError(() => doc('{"o":"x"}', { properties: { o: { properties: { a: { type: 'long' } } } } }), {
    type: 'document_parsing_exception',
    reason: '[1:6] object mapping for [o] tried to parse field [o] as object, but found a concrete value',
  });
});

test('dynamic templates: match, unmatch, path_match, match_mapping_type, {name} and {dynamic_type}', () => {
  const mapping = {
    dynamic_templates: [
      { ids: { match: '*_id', mapping: { type: 'keyword' } } },
      { longs_as_ints: { match_mapping_type: 'long', unmatch: 'big_*', mapping: { type: 'integer' } } },
      { strings: { match_mapping_type: 'string', path_match: 'labels.*', mapping: { type: 'keyword', ignore_above: 5 } } },
      { dates: { match_mapping_type: 'date', mapping: { type: 'date', format: 'yyyy-MM-dd' } } },
      { typed: { match: 't_*', unmatch: '*_copy', match_mapping_type: 'double', mapping: { type: '{dynamic_type}', copy_to: '{name}_copy' } } },
      { objects: { match_mapping_type: 'object', match: 'flat', mapping: { type: 'object', enabled: false } } },
      { regex: { match_pattern: 'regex', match: '^r\\d+$', mapping: { type: 'keyword' } } },
    ],
  };
  assert.deepEqual(
    update({ user_id: 12, n: 1, big_n: 2, labels: { env: 'production' }, day: '2015-01-01', t_x: 1.5, t_x_copy: 2.5, flat: { q: 1 }, r12: 'v', other: 'text' }, mapping),
    {
      properties: {
        big_n: { type: 'long' },
        day: { type: 'date', format: 'yyyy-MM-dd' },
        flat: { type: 'object', enabled: false },
        labels: { properties: { env: { type: 'keyword', ignore_above: 5 } } },
        n: { type: 'integer' },
        other: TEXT_WITH_KEYWORD,
        r12: { type: 'keyword' },
        t_x: { type: 'float', copy_to: ['t_x_copy'] },
        t_x_copy: { type: 'float' },
        user_id: { type: 'keyword' },
      },
    },
  );
  const parsed = doc({ labels: { env: 'production' } }, mapping);
  assert.deepEqual(parsed.ignored, ['labels.env'], 'ignore_above from the template applies');
  // A template for dates keeps the detected format when it sets none.
  assert.deepEqual(update({ d: '2015/09/02' }, { dynamic_templates: [{ d: { match_mapping_type: 'date', mapping: { store: true } } }] }), {
    properties: { d: { type: 'date', store: true, format: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis' } },
  });
});

test('total fields limit is checked while parsing, counting multi-fields', () => {
  const source: Record<string, string> = { productId: 'p' };
  const attributes: Record<string, string> = {};
  for (let i = 0; i < 600; i++) attributes[`f${i}`] = 'yes';
  expectError(() => doc({ ...source, attributes }), {
    type: 'document_parsing_exception',
    reason: expect1001(),
    cause: { type: 'illegal_argument_exception', reason: 'Limit of total fields [1000] has been exceeded while adding new fields [1001]' },
  });
});

function expect1001(): string {
  // productId (2) + attributes (1) + 498 text/keyword pairs = 999; the next pair (f498) makes 1001.
  const prefix = JSON.stringify({ productId: 'p', attributes: Object.fromEntries(Array.from({ length: 498 }, (_, i) => [`f${i}`, 'yes'])) }).slice(0, -2);
  const column = Buffer.byteLength(prefix) + `,"f498":`.length + 1;
  return `[1:${column}] failed to parse: Limit of total fields [1000] has been exceeded while adding new fields [1001]`;
}

test('ignore_dynamic_beyond_limit drops the extra fields into _ignored', () => {
  const settings = { totalFieldsLimit: 3, depthLimit: 20, fieldNameLengthLimit: 1000, ignoreDynamicBeyondLimit: true, ignoreMalformed: false, coerce: true };
  const parsed = doc({ a: 1, b: 2, c: 3, d: 4, e: 'x' }, undefined, settings);
  assert.deepEqual(values(parsed), { a: [1n], b: [2n], c: [3n] });
  assert.deepEqual(parsed.ignored, ['d', 'e']);
});
