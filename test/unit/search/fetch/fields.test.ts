/**
 * The `fields` option against ES's REST tests (search/330_fetch_fields.yml, 520_fetch_fields.yml) and the
 * field types' value fetchers: formats, Java-typed numbers, null_value, ignored values, multi-fields, copy_to,
 * include_unmapped, and the hash-map order ES prints a hit's fields in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson } from '../../../../src/common/raw-json.js';
import { EsError } from '../../../../src/common/errors.js';
import { AnalysisRegistry } from '../../../../src/analysis/index.js';
import { parseMapping } from '../../../../src/mapping/index.js';
import { FieldsFetcher, type FieldAndFormat } from '../../../../src/search/fetch/fields.js';
import { hitFields } from '../../../../src/search/fetch/hit-fields.js';
import { parseSource } from '../../../../src/search/fetch/source-tree.js';

const HIT = { id: '1', index: 'test' };

/** Values as plain JSON text, so numbers show exactly how they would print. */
function show(values: readonly unknown[] | undefined): string | undefined {
  if (values === undefined) return undefined;
  return `[${values.map((value) => (value instanceof RawJson ? value.text : JSON.stringify(value))).join(',')}]`;
}

function fetch(mapping: unknown, source: unknown, fields: Array<string | FieldAndFormat>, analysis?: AnalysisRegistry): Record<string, string> {
  const fetcher = FieldsFetcher.create(
    { index: 'test', mapping: parseMapping(mapping), analysis },
    fields.map((field) => (typeof field === 'string' ? { field } : field)),
  );
  const result = fetcher.fetch(parseSource(Buffer.from(typeof source === 'string' ? source : JSON.stringify(source))), HIT);
  const out: Record<string, string> = {};
  for (const [name, field] of result) {
    if (field.values.length > 0) out[name] = show(field.values)!;
    if (field.ignoredValues.length > 0) out[`ignored:${name}`] = show(field.ignoredValues)!;
  }
  return out;
}

function fetchError(mapping: unknown, fields: FieldAndFormat[], sourceEnabled = true): EsError {
  try {
    FieldsFetcher.create({ index: 'test', mapping: parseMapping(mapping), sourceEnabled }, fields);
  } catch (err) {
    assert.ok(err instanceof EsError);
    return err;
  }
  assert.fail('expected an error');
}

test('basic retrieval: arrays stay arrays, values come from _source', () => {
  assert.deepEqual(fetch({ properties: { keyword: { type: 'keyword' } } }, { keyword: ['a', 'b'] }, ['keyword']), { keyword: '["a","b"]' });
});

test('dates: the mapping format by default, or the requested one', () => {
  const mapping = { properties: { date: { type: 'date' }, keyword: { type: 'keyword' } } };
  const source = { keyword: 'value', date: '1990-12-29T22:30:00.000Z' };
  assert.deepEqual(fetch(mapping, source, [{ field: 'date', format: 'yyyy/MM/dd' }]), { date: '["1990/12/29"]' });
  assert.deepEqual(fetch(mapping, source, ['date']), { date: '["1990-12-29T22:30:00.000Z"]' });
  assert.deepEqual(fetch(mapping, { date: 1420070400001 }, ['date']), { date: '["2015-01-01T00:00:00.001Z"]' });
  assert.deepEqual(fetch({ properties: { d: { type: 'date', format: 'yyyy-MM-dd' } } }, { d: '2015-01-01' }, ['d']), { d: '["2015-01-01"]' });
  assert.deepEqual(fetch({ properties: { d: { type: 'date', format: 'yyyy-MM-dd' } } }, { d: '2015-01-01' }, [{ field: 'd', format: 'epoch_millis' }]), {
    d: '["1420070400000"]',
  });
});

test('a format on a type that takes none is a 400 naming the field (and the pattern it matched)', () => {
  const mapping = { properties: { keyword: { type: 'keyword' }, count: { type: 'long' }, title: { type: 'text' } } };
  let err = fetchError(mapping, [{ field: 'keyword', format: 'yyyy/MM/dd' }]);
  assert.equal(err.type, 'illegal_argument_exception');
  assert.equal(err.status, 400);
  assert.equal(err.message, "error fetching [keyword]: Field [keyword] of type [keyword] doesn't support formats.");
  err = fetchError(mapping, [{ field: 'c*', format: '#.0' }]);
  assert.equal(err.message, "error fetching [count] which matched [c*]: Field [count] of type [long] doesn't support formats.");
  err = fetchError(mapping, [{ field: 'title', format: 'x' }]);
  assert.equal(err.message, "error fetching [title]: Field [title] doesn't support formats.");
});

test('_source disabled: fields cannot be retrieved', () => {
  const err = fetchError({ properties: { keyword: { type: 'keyword' } } }, [{ field: 'keyword' }], false);
  assert.equal(err.message, 'Unable to retrieve the requested [fields] since _source is disabled in the mappings for index [test]');
});

test('malformed values are ignored, valid ones kept in source order', () => {
  const mapping = { properties: { number: { type: 'long', ignore_malformed: true }, integer: { type: 'integer', ignore_malformed: true } } };
  assert.deepEqual(fetch(mapping, { number: [1, 2, '3', 'four', 5, 6] }, ['*']), { number: '[1,2,3,5,6]', 'ignored:number': '["four"]' });
  assert.deepEqual(fetch(mapping, { integer: 'not an integer' }, ['integer']), { 'ignored:integer': '["not an integer"]' });
});

test('numbers print as the field type prints them', () => {
  const mapping = {
    properties: {
      l: { type: 'long' },
      i: { type: 'integer' },
      d: { type: 'double' },
      f: { type: 'float' },
      h: { type: 'half_float' },
      s: { type: 'scaled_float', scaling_factor: 100 },
      b: { type: 'byte' },
    },
  };
  const source = '{"l": [3.7, "42", 9007199254740993], "i": 12.9, "d": [1, "2.5", 1e21], "f": 3.14, "h": 3.14, "s": 1.234, "b": [127, 128]}';
  assert.deepEqual(fetch(mapping, source, ['*']), {
    l: '[3,42,9007199254740993]',
    i: '[12]',
    d: '[1.0,2.5,1.0E21]',
    f: '[3.14]',
    h: '[3.140625]',
    s: '[1.23]',
    b: '[127]',
    'ignored:b': '[128]',
  });
});

test('coerce: false rejects fractions', () => {
  assert.deepEqual(fetch({ properties: { l: { type: 'long', coerce: false } } }, { l: [1.5, 2] }, ['l']), { l: '[2]', 'ignored:l': '[1.5]' });
});

test('keyword and text values are Java toString of the source value', () => {
  const mapping = { properties: { k: { type: 'keyword' }, t: { type: 'text' } } };
  assert.deepEqual(fetch(mapping, '{"k": [1.50, true, 7, 1e2], "t": 2.0}', ['k', 't']), { k: '["1.5","true","7","100.0"]', t: '["2.0"]' });
});

test('keyword: ignore_above and normalizer apply to fetched values', () => {
  const analysis = AnalysisRegistry.global();
  const mapping = { properties: { k: { type: 'keyword', ignore_above: 3 }, n: { type: 'keyword', normalizer: 'lowercase' } } };
  assert.deepEqual(fetch(mapping, { k: ['123', '1234'], n: 'MiXeD' }, ['k', 'n'], analysis), { k: '["123"]', 'ignored:k': '["1234"]', n: '["mixed"]' });
});

test('null_value stands in for source nulls', () => {
  const mapping = {
    properties: { k: { type: 'keyword', null_value: 'NULL' }, l: { type: 'long', null_value: 7 }, b: { type: 'boolean', null_value: true }, x: { type: 'keyword' } },
  };
  assert.deepEqual(fetch(mapping, { k: null, l: [null, 1], b: null, x: null }, ['*']), { b: '[true]', k: '["NULL"]', l: '[7,1]' });
});

test('booleans: true/false and their strings; "" is false', () => {
  assert.deepEqual(fetch({ properties: { b: { type: 'boolean' } } }, { b: [true, 'false', '', 'yes'] }, ['b']), { b: '[true,false,false]', 'ignored:b': '["yes"]' });
});

test('nested arrays unwrap breadth first, as ES queues them', () => {
  assert.deepEqual(fetch({ properties: { l: { type: 'long' } } }, { l: [[1, 2], 3] }, ['l']), { l: '[3,1,2]' });
});

test('dotted source keys and object paths both answer a field path', () => {
  const mapping = { properties: { a: { properties: { b: { type: 'keyword' } } } } };
  assert.deepEqual(fetch(mapping, { 'a.b': 'x', a: { b: 'y' } }, ['a.b']), { 'a.b': '["y","x"]' });
  assert.deepEqual(fetch(mapping, { a: [{ b: 'x' }, { b: ['y', 'z'] }] }, ['a.*']), { 'a.b': '["x","y","z"]' });
});

test('multi-fields read their parent; wildcards resolve both', () => {
  const mapping = { properties: { title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 5 } } } } };
  assert.deepEqual(fetch(mapping, { title: ['short', 'longer one'] }, ['title*']), {
    title: '["short","longer one"]',
    'title.keyword': '["short"]',
    'ignored:title.keyword': '["longer one"]',
  });
});

test('copy_to targets read their sources too', () => {
  const mapping = { properties: { first: { type: 'text', copy_to: 'full' }, last: { type: 'text', copy_to: 'full' }, full: { type: 'text' } } };
  const result = fetch(mapping, { first: 'John', last: 'Smith' }, ['full']);
  // The source paths are a Java HashSet {full, first, last}: iteration by hash bucket.
  assert.deepEqual(result, { full: '["Smith","John"]' });
});

test('metadata fields only by exact name', () => {
  const mapping = { properties: { k: { type: 'keyword' } } };
  assert.deepEqual(fetch(mapping, { k: 'v' }, ['_id', '_index', 'k']), { _id: '["1"]', _index: '["test"]', k: '["v"]' });
  assert.deepEqual(fetch(mapping, { k: 'v' }, ['*']), { k: '["v"]' });
  assert.deepEqual(fetch(mapping, { k: 'v' }, ['_*']), {});
  // 520_fetch_fields.yml: internal metadata fields are a 400.
  const err = fetchError(mapping, [{ field: '_seq_no' }]);
  assert.equal(err.type, 'illegal_argument_exception');
  assert.equal(err.message, 'error fetching [_seq_no]: Cannot fetch values for internal field [_seq_no].');
  assert.deepEqual(FieldsFetcher.create({ index: 'test', mapping: parseMapping(mapping) }, [{ field: '_ignored' }]).fetch(parseSource(Buffer.from('{}')), { ...HIT, ignored: ['a', 'b'] }).get('_ignored')?.values, ['a', 'b']);
});

test('unmapped fields (330_fetch_fields.yml "Test unmapped field")', () => {
  const mapping = { dynamic: false, properties: { f1: { type: 'keyword' }, f2: { type: 'object', enabled: false }, f3: { type: 'object' } } };
  const source = { f1: 'some text', f2: { a: 'foo', b: 'bar' }, f3: { c: 'baz' }, f4: 'some other text' };
  assert.deepEqual(fetch(mapping, source, ['f1', { field: 'f4', includeUnmapped: true }]), { f1: '["some text"]', f4: '["some other text"]' });
  assert.deepEqual(fetch(mapping, source, [{ field: 'f*', includeUnmapped: true }]), {
    f1: '["some text"]',
    'f2.a': '["foo"]',
    'f2.b': '["bar"]',
    'f3.c': '["baz"]',
    f4: '["some other text"]',
  });
  // Without include_unmapped, unmapped values stay out.
  assert.deepEqual(fetch(mapping, source, ['f*']), { f1: '["some text"]' });
});

test('unmapped fields inside disabled objects: inner lists land first (330_fetch_fields.yml)', () => {
  const mapping = { properties: { f1: { type: 'object', enabled: false } } };
  const source = { f1: ['some text', { a: 'b' }, [1, 2, 3]] };
  assert.deepEqual(fetch(mapping, source, [{ field: '*', includeUnmapped: true }]), { f1: '[1,2,3,"some text"]', 'f1.a': '["b"]' });
});

test('unmapped values keep their JSON types, nulls in arrays included', () => {
  const mapping = { dynamic: false, properties: {} };
  assert.deepEqual(fetch(mapping, '{"u": [1.0, null, "x", true], "v": null}', [{ field: '*', includeUnmapped: true }]), { u: '[1.0,null,"x",true]' });
});

test('hit fields print in java.util.HashMap order, doc value fields put first', () => {
  // "a" (97) and "q" (113) share bucket 1 of 16; "b" (98) is bucket 2. q was put first, so it stays first.
  const merged = hitFields(new Map([['q', ['dv']]]), new Map([
    ['a', { values: ['x'], ignoredValues: [] }],
    ['b', { values: [], ignoredValues: ['bad'] }],
  ]));
  assert.deepEqual([...merged.fields.keys()], ['q', 'a']);
  assert.deepEqual([...merged.ignoredFieldValues.keys()], ['b']);
  // A field from both phases keeps its place and the `fields` option's values.
  const both = hitFields(new Map([['a', ['dv']]]), new Map([['a', { values: ['src'], ignoredValues: [] }]]));
  assert.deepEqual([...both.fields], [['a', ['src']]]);
});
