import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XContentParser } from '../../../../src/search/dsl/index.js';
import { suggest } from '../../../../src/search/dsl/xcontent/object-parser.js';
import { thrown } from './helpers.js';

/** A parser positioned on the value of the only key of `{"v": <value>}`. */
function on(value: string): XContentParser {
  const parser = XContentParser.fromString(`{"v":${value}}`);
  parser.nextToken();
  parser.nextToken();
  parser.nextToken();
  return parser;
}

test('tokens, names and locations', () => {
  const parser = XContentParser.fromString('{"a":{"b":[1,{"c":true}]},\n "d":null}');
  const seen: string[] = [];
  for (let token = parser.nextToken(); token !== undefined; token = parser.nextToken()) {
    const { line, column } = parser.tokenLocation();
    seen.push(`${token}:${parser.currentName() ?? '-'}@${line}:${column}`);
  }
  assert.deepEqual(seen, [
    'START_OBJECT:-@1:1',
    'FIELD_NAME:a@1:2',
    'START_OBJECT:a@1:6',
    'FIELD_NAME:b@1:7',
    'START_ARRAY:b@1:11',
    'VALUE_NUMBER:-@1:12',
    'START_OBJECT:-@1:14',
    'FIELD_NAME:c@1:15',
    'VALUE_BOOLEAN:c@1:19',
    'END_OBJECT:-@1:23',
    'END_ARRAY:b@1:24',
    'END_OBJECT:a@1:25',
    'FIELD_NAME:d@2:2',
    'VALUE_NULL:d@2:6',
    'END_OBJECT:-@2:10',
  ]);
});

test('numbers: exact integers, strings coerced where ES coerces them', () => {
  assert.equal(on('12').objectText(), 12);
  assert.equal(on('12345678901234567890').objectText(), 12345678901234567890n);
  assert.equal(on('1.5e3').objectText(), 1500);
  assert.equal(on('"7"').intValue(), 7);
  assert.equal(on('"7.9"').intValue(), 7);
  assert.equal(on('7.9').intValue(), 7);
  assert.equal(on('"1.1"').floatValue(), Math.fround(1.1));
  assert.equal(on('"9223372036854775807"').longValue(), 9223372036854775807n);
  assert.equal(on('" 3 "').doubleValue(), 3);
  assert.deepEqual(thrown(() => on('"x"').intValue()), { type: 'number_format_exception', reason: 'For input string: "x"' });
  assert.deepEqual(thrown(() => on('""').floatValue()), { type: 'number_format_exception', reason: 'empty String' });
  assert.deepEqual(thrown(() => on('"9223372036854775808"').longValue()), { type: 'illegal_argument_exception', reason: 'Value [9223372036854775808] is out of range for a long' });
  assert.deepEqual(thrown(() => on('2147483648').intValue()), {
    type: 'x_content_parse_exception',
    reason: '[1:6] Numeric value (2147483648) out of range of int (-2147483648 - 2147483647)',
  });
  assert.deepEqual(thrown(() => on('null').floatValue()), {
    type: 'x_content_parse_exception',
    reason: '[1:6] Current token (VALUE_NULL) not numeric, can not use numeric value accessors',
  });
});

test('booleans and text', () => {
  assert.equal(on('"true"').booleanValue(), true);
  assert.equal(on('false').booleanValue(), false);
  assert.deepEqual(thrown(() => on('"True"').booleanValue()), { type: 'illegal_argument_exception', reason: 'Failed to parse value [True] as only [true] or [false] are allowed.' });
  assert.deepEqual(thrown(() => on('0').booleanValue()), { type: 'x_content_parse_exception', reason: '[1:6] Current token (VALUE_NUMBER_INT) not of boolean type' });
  assert.equal(on('1.50').text(), '1.50');
  assert.equal(on('null').textOrNull(), null);
  assert.deepEqual(thrown(() => on('{}').text()), { type: 'illegal_argument_exception', reason: 'Expected text at 1:6 but found START_OBJECT' });
});

test('map() and readValue() keep order and exact numbers; skipChildren() skips a subtree', () => {
  const parser = on('{"z":1,"a":[1,2.5,{"__proto__":"x"}],"n":null,"big":18446744073709551616}');
  const map = parser.map();
  assert.deepEqual(Object.keys(map), ['z', 'a', 'n', 'big']);
  assert.deepEqual(map['a'], [1, 2.5, Object.defineProperty({}, '__proto__', { value: 'x', enumerable: true, writable: true, configurable: true })]);
  assert.equal(map['big'], 18446744073709551616n);
  assert.equal(parser.currentToken(), 'END_OBJECT');
  const skipping = on('{"a":{"b":[1,2]}}');
  skipping.skipChildren();
  assert.equal(skipping.currentToken(), 'END_OBJECT');
  assert.equal(skipping.nextToken(), 'END_OBJECT');
  assert.equal(skipping.nextToken(), undefined);
});

test('suggestions as SuggestingErrorOnUnknown makes them', () => {
  assert.equal(suggest('foo', []), '');
  assert.equal(suggest('foo', ['bar', 'baz']), '');
  assert.equal(suggest('foo', ['bar', 'fop']), ' did you mean [fop]?');
  assert.equal(suggest('foo', ['bar', 'fop', 'fou', 'baz']), ' did you mean any of [fop, fou]?');
  assert.equal(suggest('must_nto', ['must', 'must_not', 'should']), ' did you mean [must_not]?');
});
