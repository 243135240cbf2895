import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, expectError, values } from './helpers.js';

const MAPPING = {
  properties: {
    title: { type: 'text', analyzer: 'english', position_increment_gap: 50 },
    tag: { type: 'keyword', ignore_above: 5, null_value: 'NONE' },
    plain: { type: 'keyword' },
    l: { type: 'long', null_value: -1 },
    i: { type: 'integer' },
    s: { type: 'short' },
    by: { type: 'byte' },
    d: { type: 'double' },
    f: { type: 'float' },
    h: { type: 'half_float' },
    sf: { type: 'scaled_float', scaling_factor: 100 },
    b: { type: 'boolean', null_value: true },
    at: { type: 'date' },
    day: { type: 'date', format: 'yyyy-MM-dd', null_value: '2000-01-01' },
  },
};

function fieldError(column: number, field: string, type: string, preview: string, cause: { type: string; reason: string; cause?: { type: string; reason: string } }) {
  return {
    type: 'document_parsing_exception',
    reason: `[1:${column}] failed to parse field [${field}] of type [${type}] in document with id '1'. Preview of field's value: '${preview}'`,
    cause,
  };
}

test('each field type yields Gannet typed fields with the mapping options', () => {
  const parsed = doc(
    '{"title":"Hello World","tag":"abc","l":9007199254740993,"i":7,"s":3,"by":-5,"d":0.1,"f":0.1,"h":0.1,"sf":1.234,"b":false,"at":"2015-01-01T00:00:00Z","day":"2015-01-02"}',
    MAPPING,
  );
  assert.deepEqual(parsed.fields[0], {
    kind: 'text',
    field: 'title',
    value: 'Hello World',
    indexed: true,
    stored: false,
    analyzer: 'english',
    positionIncrementGap: 50,
    indexOptions: 'positions',
    norms: true,
  });
  assert.deepEqual(parsed.fields[1], {
    kind: 'keyword',
    field: 'tag',
    value: 'abc',
    indexed: true,
    docValues: true,
    stored: false,
    normalizer: null,
    norms: false,
    indexOptions: 'docs',
  });
  const byField = values(parsed);
  assert.deepEqual(byField['i'], [7n]);
  assert.deepEqual(byField['s'], [3n]);
  assert.deepEqual(byField['by'], [-5n]);
  assert.deepEqual(byField['d'], [0.1]);
  assert.deepEqual(byField['f'], [Math.fround(0.1)]);
  assert.deepEqual(byField['h'], [0.0999755859375], 'half float precision');
  assert.deepEqual(byField['sf'], [1.23]);
  assert.deepEqual(byField['b'], [false]);
  assert.deepEqual(byField['at'], [Date.UTC(2015, 0, 1)]);
  assert.deepEqual(byField['day'], [Date.UTC(2015, 0, 2)]);
  assert.equal(parsed.mappingUpdate, undefined);
  assert.equal(parsed.id, '1');
  const long = parsed.fields.find((f) => f.field === 'l');
  assert.equal(long?.kind === 'long' ? long.value : undefined, 9007199254740993n, 'JSON source parsed without losing long precision');
  const sf = parsed.fields.find((f) => f.field === 'sf');
  assert.equal(sf?.kind === 'double' ? sf.scaledValue : undefined, 123n);
});

test('arrays of values give one field per element; text gets the position gap from its options', () => {
  const parsed = doc({ title: ['a b', 'c'], l: [1, [2, [3]], null], tag: ['x', null] }, MAPPING);
  assert.deepEqual(values(parsed), { title: ['a b', 'c'], l: [1n, 2n, 3n, -1n], tag: ['x', 'NONE'] });
});

test('null and null_value', () => {
  assert.deepEqual(values(doc({ title: null, tag: null, plain: null, l: null, b: null, day: null, at: null }, MAPPING)), {
    tag: ['NONE'],
    l: [-1n],
    b: [true],
    day: [Date.UTC(2000, 0, 1)],
  });
});

test('ignore_above skips the value into _ignored; multi-fields still get it', () => {
  const parsed = doc({ tag: 'abcdefg', name: 'x'.repeat(300) }, MAPPING);
  assert.deepEqual(values(parsed), { name: ['x'.repeat(300)] });
  assert.deepEqual(parsed.ignored, ['name.keyword', 'tag']);
});

test('coercion: numeric strings and truncated decimals when coerce is on (the default)', () => {
  assert.deepEqual(values(doc({ l: '10', i: 10.9, s: '-3.7', by: '12', d: '1.5', f: '2', l2: 1 }, MAPPING)), {
    l: [10n],
    i: [10n],
    s: [-3n],
    by: [12n],
    d: [1.5],
    f: [2],
    l2: [1n],
  });
  assert.deepEqual(values(doc({ l: '10.5' }, MAPPING)), { l: [10n] });
  assert.deepEqual(values(doc({ l: '' }, MAPPING)), { l: [-1n] }, 'empty string is null when coercing');
});

test('coerce: false rejects strings and decimals into integer types', () => {
  const mapping = { properties: { l: { type: 'long', coerce: false }, i: { type: 'integer', coerce: false }, d: { type: 'double', coerce: false } } };
  expectError(() => doc('{"l":"10"}', mapping), fieldError(6, 'l', 'long', '10', { type: 'illegal_argument_exception', reason: 'Long value passed as String' }));
  expectError(() => doc('{"i":10.5}', mapping), fieldError(6, 'i', 'integer', '10.5', { type: 'illegal_argument_exception', reason: '10.5 cannot be converted to Integer without data loss' }));
  expectError(() => doc('{"d":"1.5"}', mapping), fieldError(6, 'd', 'double', '1.5', { type: 'illegal_argument_exception', reason: 'Double value passed as String' }));
  assert.deepEqual(values(doc('{"i":10.0,"d":1}', mapping)), { i: [10n], d: [1] });
});

test('wrong types fail with ES reasons and caused_by', () => {
  expectError(() => doc('{"l":"abc"}', MAPPING), fieldError(6, 'l', 'long', 'abc', { type: 'illegal_argument_exception', reason: 'For input string: "abc"' }));
  expectError(() => doc('{"d":"abc"}', MAPPING), fieldError(6, 'd', 'double', 'abc', { type: 'number_format_exception', reason: 'For input string: "abc"' }));
  expectError(() => doc('{"i":"abc"}', MAPPING), fieldError(6, 'i', 'integer', 'abc', { type: 'number_format_exception', reason: 'For input string: "abc"' }));
  expectError(() => doc('{"i":3000000000}', MAPPING), fieldError(6, 'i', 'integer', '3000000000', {
    type: 'x_content_parse_exception',
    reason: '[1:6] Numeric value (3000000000) out of range of int (-2147483648 - 2147483647)',
  }));
  expectError(() => doc('{"i":"3000000000"}', MAPPING), fieldError(6, 'i', 'integer', '3000000000', { type: 'illegal_argument_exception', reason: 'Value [3000000000] is out of range for an integer' }));
  expectError(() => doc('{"s":40000}', MAPPING), fieldError(6, 's', 'short', '40000', { type: 'x_content_parse_exception', reason: '[1:6] Numeric value (40000) out of range of Java short' }));
  expectError(() => doc('{"by":200}', MAPPING), fieldError(7, 'by', 'byte', '200', { type: 'illegal_argument_exception', reason: 'Value [200] is out of range for a byte' }));
  expectError(() => doc('{"l":"9223372036854775808"}', MAPPING), fieldError(6, 'l', 'long', '9223372036854775808', { type: 'illegal_argument_exception', reason: 'Value [9223372036854775808] is out of range for a long' }));
  expectError(() => doc('{"d":1e400}', MAPPING), fieldError(6, 'd', 'double', 'Infinity', { type: 'illegal_argument_exception', reason: '[double] supports only finite values, but got [Infinity]' }));
  expectError(() => doc('{"f":"NaN"}', MAPPING), fieldError(6, 'f', 'float', 'NaN', { type: 'illegal_argument_exception', reason: '[float] supports only finite values, but got [NaN]' }));
  expectError(() => doc('{"h":70000}', MAPPING), fieldError(6, 'h', 'half_float', '70000', { type: 'illegal_argument_exception', reason: '[half_float] supports only finite values, but got [70000.0]' }));
  expectError(() => doc('{"l":true}', MAPPING), fieldError(6, 'l', 'long', 'true', { type: 'x_content_parse_exception', reason: '[1:6] Current token (VALUE_TRUE) not numeric, can not use numeric value accessors' }));
  expectError(() => doc('{"l":{"a":1,"b":[2,3]}}', MAPPING), fieldError(22, 'l', 'long', '{a=1, b=[2, 3]}', { type: 'illegal_argument_exception', reason: 'Cannot parse object as number' }));
  expectError(() => doc('{"b":"yes"}', MAPPING), fieldError(6, 'b', 'boolean', 'yes', { type: 'illegal_argument_exception', reason: 'Failed to parse value [yes] as only [true] or [false] are allowed.' }));
  expectError(() => doc('{"b":1}', MAPPING), fieldError(6, 'b', 'boolean', '1', { type: 'x_content_parse_exception', reason: '[1:6] Current token (VALUE_NUMBER_INT) not of boolean type' }));
  expectError(() => doc('{"plain":{"x":"y"}}', MAPPING), fieldError(18, 'plain', 'keyword', '{x=y}', { type: 'illegal_state_exception', reason: "Can't get text on a START_OBJECT at 1:10" }));
  expectError(() => doc('{"title":{"x":1}}', MAPPING), fieldError(16, 'title', 'text', '{x=1}', { type: 'illegal_state_exception', reason: "Can't get text on a START_OBJECT at 1:10" }));
  expectError(() => doc('{"at":"2015-13-01"}', MAPPING), fieldError(7, 'at', 'date', '2015-13-01', {
    type: 'illegal_argument_exception',
    reason: 'failed to parse date field [2015-13-01] with format [strict_date_optional_time||epoch_millis]',
    cause: { type: 'date_time_parse_exception', reason: 'Failed to parse with all enclosed parsers' },
  }));
  expectError(() => doc('{"day":"15-01-2015"}', MAPPING), fieldError(8, 'day', 'date', '15-01-2015', {
    type: 'illegal_argument_exception',
    reason: 'failed to parse date field [15-01-2015] with format [yyyy-MM-dd]',
    cause: { type: 'date_time_parse_exception', reason: "Text '15-01-2015' could not be parsed at index 0" },
  }));
  expectError(() => doc('{"at":""}', MAPPING), fieldError(7, 'at', 'date', '', { type: 'illegal_argument_exception', reason: 'cannot parse empty datetime' }));
  // Booleans accept "true"/"false" strings and treat "" as false; numbers and booleans are text for text fields.
  assert.deepEqual(values(doc('{"b":"true","title":12.50,"plain":false}', MAPPING)), { b: [true], title: ['12.50'], plain: ['false'] });
  assert.deepEqual(values(doc('{"b":""}', MAPPING)), { b: [false] });
  // Dates accept epoch millis as numbers and numeric strings.
  assert.deepEqual(values(doc('{"at":1420070400001}', MAPPING)), { at: [1420070400001] });
  assert.deepEqual(values(doc('{"at":"1420070400001"}', MAPPING)), { at: [1420070400001] });
});

test('the preview prints maps in java.util.HashMap order', () => {
  expectError(() => doc('{"l":{"zebra":1,"apple":2,"mango":3}}', MAPPING), fieldError(36, 'l', 'long', '{zebra=1, apple=2, mango=3}', { type: 'illegal_argument_exception', reason: 'Cannot parse object as number' }));
});

test('ignore_malformed (field or index setting) records the field in _ignored and keeps the document', () => {
  const mapping = {
    properties: {
      n: { type: 'long', ignore_malformed: true, fields: { raw: { type: 'keyword' } } },
      d: { type: 'date', ignore_malformed: true },
      b: { type: 'boolean', ignore_malformed: true },
      strict: { type: 'long' },
    },
  };
  const parsed = doc({ n: 'abc', d: 'nope', b: 'maybe', strict: 1 }, mapping);
  assert.deepEqual(values(parsed), { 'n.raw': ['abc'], strict: [1n] });
  assert.deepEqual(parsed.ignored, ['b', 'd', 'n']);
  // An object is never "malformed": it still fails.
  expectError(() => doc('{"n":{"a":1}}', mapping), fieldError(12, 'n', 'long', '{a=1}', { type: 'illegal_argument_exception', reason: 'Cannot parse object as number' }));
  const settings = { totalFieldsLimit: 1000, depthLimit: 20, fieldNameLengthLimit: 1000, ignoreDynamicBeyondLimit: false, ignoreMalformed: true, coerce: true };
  const lenient = doc({ strict: 'x' }, mapping, settings);
  assert.deepEqual(lenient.ignored, ['strict']);
});

test('index.mapping.coerce: false changes the default', () => {
  const settings = { totalFieldsLimit: 1000, depthLimit: 20, fieldNameLengthLimit: 1000, ignoreDynamicBeyondLimit: false, ignoreMalformed: false, coerce: false };
  expectError(() => doc('{"l":"1"}', { properties: { l: { type: 'long' } } }, settings), fieldError(6, 'l', 'long', '1', { type: 'illegal_argument_exception', reason: 'Long value passed as String' }));
});

test('dotted names resolve through mapped objects; a dotted name into a leaf is an object for it', () => {
  const mapping = { properties: { user: { properties: { name: { type: 'keyword' } } }, k: { type: 'keyword' } } };
  assert.deepEqual(values(doc({ 'user.name': 'a', user: { name: 'b' } }, mapping)), { 'user.name': ['a', 'b'] });
  expectError(() => doc('{"k.x":"v"}', mapping), fieldError(2, 'k', 'keyword', '{x=v}', { type: 'illegal_state_exception', reason: "Can't get text on a START_OBJECT at 1:2" }));
  expectError(() => doc('{"x.y":1}', { dynamic: 'strict' }), {
    type: 'strict_dynamic_mapping_exception',
    reason: '[1:2] mapping set to strict, dynamic introduction of [x] within [_doc] is not allowed',
  });
});

test('field name errors', () => {
  expectError(() => doc('{"":1}'), {
    type: 'document_parsing_exception',
    reason: '[1:2] failed to parse: field name cannot be an empty string',
    cause: { type: 'illegal_argument_exception', reason: 'field name cannot be an empty string' },
  });
  expectError(() => doc('{"a..b":1}'), {
    type: 'document_parsing_exception',
    reason: "[1:2] failed to parse: field name cannot contain only whitespace: ['a..b']",
    cause: { type: 'illegal_argument_exception', reason: "field name cannot contain only whitespace: ['a..b']" },
  });
  expectError(() => doc('{"...":1}'), {
    type: 'document_parsing_exception',
    reason: '[1:2] failed to parse: field name cannot contain only dots',
    cause: { type: 'illegal_argument_exception', reason: 'field name cannot contain only dots' },
  });
  expectError(() => doc('{"o":{"  ":1}}'), { type: 'document_parsing_exception', reason: '[1:7] Field name cannot contain only whitespace: [o.  ]' });
});

test('metadata fields may not be set inside a document', () => {
  expectError(() => doc('{"_id":"x"}'), fieldError(8, '_id', '_id', 'x', {
    type: 'document_parsing_exception',
    reason: '[1:8] Field [_id] is a metadata field and cannot be added inside a document. Use the index API request parameters.',
  }));
  // Only at the root: "a._id" is an ordinary field.
  assert.deepEqual(values(doc({ a: { _id: 'x' } })), { 'a._id': ['x'], 'a._id.keyword': ['x'] });
  assert.equal(doc({ _doc_count: 3 }).docCount, 3);
});

test('copy_to copies values into the target fields', () => {
  const mapping = {
    properties: {
      first: { type: 'text', copy_to: ['full', 'meta.all'] },
      last: { type: 'text', copy_to: 'full' },
      full: { type: 'text' },
    },
  };
  const parsed = doc({ first: 'John', last: 'Smith' }, mapping);
  assert.deepEqual(values(parsed), {
    first: ['John'],
    full: ['John', 'Smith'],
    'meta.all': ['John'],
    'meta.all.keyword': ['John'],
    last: ['Smith'],
  });
  expectError(() => doc('{"first":{"a":"b"}}', mapping), fieldError(18, 'first', 'text', '{a=b}', { type: 'illegal_state_exception', reason: "Can't get text on a START_OBJECT at 1:10" }));
});

test('_source: stored as sent, filtered by includes/excludes, or not at all', () => {
  const source = '{"a":1,"secret":{"x":0.10000000000000000001},"b":{"c":"d","e":[1,2]}}';
  assert.equal(Buffer.from(doc(source).storedSource!).toString(), source);
  assert.equal(doc(source, { _source: { enabled: false } }).storedSource, undefined);
  assert.equal(Buffer.from(doc(source, { _source: { excludes: ['secret'] } }).storedSource!).toString(), '{"a":1,"b":{"c":"d","e":[1,2]}}');
  assert.equal(Buffer.from(doc(source, { _source: { includes: ['b.c', 'secret'] } }).storedSource!).toString(), '{"secret":{"x":0.10000000000000000001},"b":{"c":"d"}}');
  assert.equal(Buffer.from(doc(source, { _source: { includes: ['b.*'], excludes: ['b.e'] } }).storedSource!).toString(), '{"b":{"c":"d"}}');
});

test('malformed documents', () => {
  expectError(() => doc(''), { type: 'document_parsing_exception', reason: '[0:0] failed to parse, document is empty' });
  expectError(() => doc('[1]'), { type: 'document_parsing_exception', reason: 'Malformed content, must start with an object' });
  expectError(() => doc('"x"'), { type: 'document_parsing_exception', reason: 'Malformed content, must start with an object' });
  expectError(() => doc('{"a":1} {"b":2}'), { type: 'illegal_argument_exception', reason: 'Malformed content, found extra data after parsing: START_OBJECT' });
  expectError(() => doc('{"a":1,}'), {
    type: 'document_parsing_exception',
    reason: "[1:8] failed to parse: [1:8] Unexpected character ('}' (code 125)): was expecting double-quote to start field name",
    cause: { type: 'x_content_parse_exception', reason: "[1:8] Unexpected character ('}' (code 125)): was expecting double-quote to start field name" },
  });
  expectError(() => doc('{"a":1,"a":2}'), {
    type: 'document_parsing_exception',
    reason: "[1:8] failed to parse: [1:8] Duplicate field 'a'",
    cause: { type: 'x_content_parse_exception', reason: "[1:8] Duplicate field 'a'" },
  });
  expectError(() => doc('{"a":tru}'), {
    type: 'document_parsing_exception',
    reason: "[1:6] failed to parse: [1:6] Unrecognized token 'tru': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
    cause: { type: 'x_content_parse_exception', reason: "[1:6] Unrecognized token 'tru': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')" },
  });
  // Locations count lines and UTF-8 bytes, like Jackson's byte parser.
  const longField = { properties: { l: { type: 'long' } } };
  const cause = { type: 'illegal_argument_exception', reason: 'For input string: "abc"' };
  expectError(() => doc('{\n  "x":"y",\n  "l":"abc"}', longField), {
    type: 'document_parsing_exception',
    reason: "[3:7] failed to parse field [l] of type [long] in document with id '1'. Preview of field's value: 'abc'",
    cause,
  });
  expectError(() => doc('{"é":"x","l":"abc"}', longField), fieldError(15, 'l', 'long', 'abc', cause));
});

test('an empty document and a disabled root parse to no fields', () => {
  assert.deepEqual(doc({}).fields, []);
  assert.deepEqual(doc({ a: 1 }, { enabled: false }).fields, []);
});
