/**
 * `docvalue_fields` against search/10_source_filtering.yml and the field types' DocValueFormat: raw numbers
 * (floats widened to double), DecimalFormat patterns, date formats (epoch_millis and the mapping's), booleans,
 * keywords, and ES's errors for text fields, fields without doc values, custom formats and too many fields.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson } from '../../../../src/common/raw-json.js';
import { EsError } from '../../../../src/common/errors.js';
import { parseMapping } from '../../../../src/mapping/index.js';
import { DocValueFieldsFetcher, type DocValueList } from '../../../../src/search/fetch/docvalue-fields.js';
import type { FieldAndFormat } from '../../../../src/search/fetch/fields.js';

const MAPPING = parseMapping({
  properties: {
    count: { type: 'long' },
    d: { type: 'float' },
    dbl: { type: 'double' },
    s: { type: 'scaled_float', scaling_factor: 100 },
    date: { type: 'date' },
    k: { type: 'keyword' },
    flag: { type: 'boolean' },
    title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
    nodv: { type: 'keyword', doc_values: false },
  },
});

const DOC: Record<string, DocValueList> = {
  count: { kind: 'long', values: [1n] },
  d: { kind: 'double', values: [Math.fround(3.14)] },
  dbl: { kind: 'double', values: [1, 2.5] },
  s: { kind: 'long', values: [123n] },
  date: { kind: 'long', values: [1420070400001] },
  k: { kind: 'bytes', values: ['a', 'b'] },
  flag: { kind: 'long', values: [0, 1] },
  'title.keyword': { kind: 'bytes', values: ['Some Title'] },
};

function fetch(fields: Array<string | FieldAndFormat>): Record<string, string> {
  const fetcher = DocValueFieldsFetcher.create(
    { index: 'test', mapping: MAPPING },
    fields.map((field) => (typeof field === 'string' ? { field } : field)),
  );
  const out: Record<string, string> = {};
  for (const [name, values] of fetcher.fetch({ values: (field) => DOC[field] })) {
    out[name] = `[${values.map((value) => (value instanceof RawJson ? value.text : JSON.stringify(value))).join(',')}]`;
  }
  return out;
}

function fails(fields: FieldAndFormat[], max?: number): EsError {
  try {
    DocValueFieldsFetcher.create({ index: 'test', mapping: MAPPING }, fields, max);
  } catch (err) {
    assert.ok(err instanceof EsError);
    return err;
  }
  assert.fail('expected an error');
}

test('10_source_filtering.yml: docvalue_fields, explicit format, doubles', () => {
  assert.deepEqual(fetch(['count']), { count: '[1]' });
  assert.deepEqual(fetch(['count', 'title.keyword']), { count: '[1]', 'title.keyword': '["Some Title"]' });
  assert.deepEqual(fetch([{ field: 'count', format: '#.0' }]), { count: '["1.0"]' });
  // A float field's doc value is the float widened to double, as ES prints it.
  assert.deepEqual(fetch(['d']), { d: '[3.140000104904175]' });
});

test('raw formats per type', () => {
  assert.deepEqual(fetch(['dbl', 's', 'k', 'flag']), { dbl: '[1.0,2.5]', s: '[1.23]', k: '["a","b"]', flag: '[false,true]' });
});

test('dates: the mapping format, or the requested one (epoch_millis prints a string)', () => {
  assert.deepEqual(fetch(['date']), { date: '["2015-01-01T00:00:00.001Z"]' });
  assert.deepEqual(fetch([{ field: 'date', format: 'epoch_millis' }]), { date: '["1420070400001"]' });
  assert.deepEqual(fetch([{ field: 'date', format: 'yyyy/MM/dd' }]), { date: '["2015/01/01"]' });
});

test('wildcards expand against the mapping; unmapped names are skipped', () => {
  assert.deepEqual(fetch(['c*', 'missing']), { count: '[1]' });
  // A field without values in this document is still there, empty (ES prints nothing for it).
  assert.deepEqual(DocValueFieldsFetcher.create({ index: 'test', mapping: MAPPING }, [{ field: 'count' }]).fetch({ values: () => undefined }).get('count'), []);
});

test('errors: text fields, no doc values, custom formats, too many fields', () => {
  assert.match(fails([{ field: 'title' }]).message, /^Text fields are not optimised for operations that require per-document field data/);
  assert.equal(
    fails([{ field: 'nodv' }]).message,
    "Can't load fielddata on [nodv] because fielddata is unsupported on fields of type [keyword]. Use doc values instead.",
  );
  assert.equal(fails([{ field: 'k', format: 'x' }]).message, 'Field [k] of type [keyword] does not support custom formats');
  const err = fails([{ field: 'count' }, { field: 'k' }], 1);
  assert.equal(err.status, 400);
  assert.equal(
    err.message,
    'Trying to retrieve too many docvalue_fields. Must be less than or equal to: [1] but was [2]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.',
  );
});
