import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { acquireParser, JsonPullParser, releaseParser, type JsonToken } from '../../../src/mapping/json-pull-parser.js';
import { JsonSyntaxError } from '../../../src/mapping/json-syntax-error.js';
import {
  javaFloatString,
  javaStringToLong,
  JavaNumberError,
  parseJavaDouble,
  tryParseJavaDouble,
  tryParseJavaLong,
} from '../../../src/mapping/java-numbers.js';
import { javaHashMapOrder, readValuePreview } from '../../../src/mapping/value-preview.js';
import { halfFloatRound } from '../../../src/mapping/numeric-values.js';

function tokens(json: string): Array<[JsonToken, string, string]> {
  const parser = new JsonPullParser(Buffer.from(json));
  const out: Array<[JsonToken, string, string]> = [];
  for (let t = parser.next(); t !== undefined; t = parser.next()) out.push([t, parser.text, `${parser.line}:${parser.column}`]);
  return out;
}

test('the pull parser yields Jackson tokens with 1-based line and byte column', () => {
  assert.deepEqual(tokens('{"a":[1,-2.5e3,"x\\u00e9\\n"],\n "b":{"c":null,"d":true}}').map(([t, text, at]) => `${t}(${text})@${at}`), [
    'START_OBJECT()@1:1',
    'FIELD_NAME(a)@1:2',
    'START_ARRAY(a)@1:6',
    'VALUE_NUMBER(1)@1:7',
    'VALUE_NUMBER(-2.5e3)@1:9',
    'VALUE_STRING(xé\n)@1:16',
    'END_ARRAY(xé\n)@1:27',
    'FIELD_NAME(b)@2:2',
    'START_OBJECT(b)@2:6',
    'FIELD_NAME(c)@2:7',
    'VALUE_NULL(null)@2:11',
    'FIELD_NAME(d)@2:16',
    'VALUE_BOOLEAN(true)@2:20',
    'END_OBJECT(true)@2:24',
    'END_OBJECT(true)@2:25',
  ]);
});

test('skipChildren skips a container without recursion', () => {
  const parser = new JsonPullParser(Buffer.from(`{"a":${'['.repeat(900)}${']'.repeat(900)},"b":1}`));
  parser.next();
  parser.next();
  parser.next();
  parser.skipChildren();
  assert.equal(parser.token, 'END_ARRAY');
  assert.equal(parser.next(), 'FIELD_NAME');
  assert.equal(parser.text, 'b');
});

test('the pull parser rejects malformed JSON with Jackson messages and locations', () => {
  const fault = (json: string): string => {
    try {
      tokens(json);
    } catch (err) {
      if (err instanceof JsonSyntaxError) return `${err.line}:${err.column} ${err.message}`;
      throw err;
    }
    return 'parsed';
  };
  assert.equal(fault('{"a" 1}'), "1:6 Unexpected character ('1' (code 49)): was expecting a colon to separate field name and value");
  assert.equal(fault('{"a":1 "b":2}'), "1:8 Unexpected character ('\"' (code 34)): was expecting comma to separate Object entries");
  assert.equal(fault('[1 2]'), "1:4 Unexpected character ('2' (code 50)): was expecting comma to separate Array entries");
  assert.equal(fault('{"a":01}'), '1:6 Invalid numeric value: Leading zeroes not allowed');
  assert.equal(fault('{"a":nul}'), "1:6 Unrecognized token 'nul': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
  assert.equal(fault('{"a":"x\\q"}'), "1:9 Unrecognized character escape 'q' (code 113)");
  assert.equal(fault('{"a":"x\ny"}'), '1:8 Illegal unquoted character ((CTRL-CHAR, code 10)): has to be escaped using backslash to be included in string value');
  assert.equal(fault('{"a":[1,2'), '1:10 Unexpected end-of-input: expected close marker for Array');
  assert.equal(fault('{"a":1,"a":2}'), "1:8 Duplicate field 'a'");
  assert.equal(fault('{"a":1,"b":{"a":2}}'), 'parsed', 'the same name in another object is not a duplicate');
  // Objects past 16 names switch from a linear scan to a set; nested objects on either side of the switch.
  const many = (count: number, inner: string): string => `{${Array.from({ length: count }, (_, i) => `"f${i}":${i === 3 ? inner : i}`).join(',')}`;
  assert.equal(fault(`${many(40, many(20, '{"f0":1}') + '}')},"x":{"f1":1,"f39":2}}`), 'parsed');
  assert.match(fault(`${many(40, many(20, '1') + '}')},"f39":0}`), /Duplicate field 'f39'/);
  assert.match(fault(`${many(40, many(20, '1') + ',"f19":2}')}}`), /Duplicate field 'f19'/);
  assert.match(fault(`{"a":${many(17, '1')},"f5":1}}`), /Duplicate field 'f5'/);
  assert.match(fault(`{"a":${many(16, '1')},"f2":1}}`), /Duplicate field 'f2'/);
  assert.match(fault('['.repeat(1001)), /^1:1001 Document nesting depth \(1001\) exceeds the maximum allowed \(1000/);
});

test('Java number parsing', () => {
  assert.equal(tryParseJavaLong('+42'), 42n);
  assert.equal(tryParseJavaLong('9223372036854775808'), undefined);
  assert.equal(tryParseJavaLong(' 1'), undefined);
  for (const [text, value] of [[' 1.5 ', 1.5], ['1d', 1], ['2.5f', 2.5], ['.5', 0.5], ['1e3', 1000], ['-Infinity', -Infinity], ['0x1p4', 16]] as const) {
    assert.equal(tryParseJavaDouble(text), value, text);
  }
  assert.ok(Number.isNaN(tryParseJavaDouble('NaN')));
  assert.equal(tryParseJavaDouble('1,5'), undefined);
  assert.throws(() => parseJavaDouble('  '), new JavaNumberError('number_format_exception', 'empty String'));
  assert.throws(() => parseJavaDouble(' abc '), new JavaNumberError('number_format_exception', 'For input string: "abc"'));
  assert.equal(javaStringToLong('12.9', true), 12n);
  assert.equal(javaStringToLong('-12.9', true), -12n);
  assert.equal(javaStringToLong('1e3', false), 1000n);
  assert.equal(javaStringToLong('9223372036854775807.00', false), 9223372036854775807n);
  assert.throws(() => javaStringToLong('12345.6', false), new JavaNumberError('illegal_argument_exception', 'Value [12345.6] has a decimal part'));
  assert.throws(() => javaStringToLong('1e99999999', false), new JavaNumberError('illegal_argument_exception', 'Value [1e99999999] is out of range for a long'));
  assert.throws(() => javaStringToLong('-9223372036854775809', true), new JavaNumberError('illegal_argument_exception', 'Value [-9223372036854775809] is out of range for a long'));
  assert.throws(() => javaStringToLong('x', true), new JavaNumberError('illegal_argument_exception', 'For input string: "x"'));
});

test('Java float printing and half-float rounding', () => {
  assert.equal(javaFloatString(Math.fround(0.1)), '0.1');
  assert.equal(javaFloatString(70000), '70000.0');
  assert.equal(javaFloatString(Math.fround(1e10)), '1.0E10');
  assert.equal(halfFloatRound(Math.fround(0.1)), 0.0999755859375);
  assert.equal(halfFloatRound(65504), 65504);
  assert.equal(halfFloatRound(65520), Infinity);
  assert.equal(halfFloatRound(2049), 2048, 'ties to even');
  assert.equal(halfFloatRound(2051), 2052, 'ties to even');
});

test('value previews print Java objects', () => {
  const preview = (json: string): string => {
    const parser = new JsonPullParser(Buffer.from(json));
    parser.next();
    return readValuePreview(parser);
  };
  assert.equal(preview('[1, 2.50, "x", null, true, [], {}]'), '[1, 2.5, x, null, true, [], {}]');
  assert.equal(preview('1e3'), '1000.0');
  assert.equal(preview('12345678901234567890'), '12345678901234567890');
  assert.equal(preview('{"b":{"c":[1]}}'), '{b={c=[1]}}');
  // 13 keys resize the table from 16 to 32 buckets, as java.util.HashMap does.
  const keys = Array.from({ length: 13 }, (_, i) => `key${i}`);
  assert.deepEqual(javaHashMapOrder(keys), [...javaHashMapOrder(keys)].sort((a, b) => {
    const bucket = (k: string): number => {
      let h = 0;
      for (const c of k) h = (Math.imul(31, h) + c.charCodeAt(0)) | 0;
      return (h ^ (h >>> 16)) & 31;
    };
    return bucket(keys[a]!) - bucket(keys[b]!) || a - b;
  }));
});

test('a reused parser (cached field names, kept stacks) reads every document as a fresh parser does, errors included (fast-check)', () => {
  const read = (parser: JsonPullParser): string[] => {
    const out: string[] = [];
    try {
      for (let t = parser.next(); t !== undefined; t = parser.next()) out.push(`${t} ${parser.text} ${parser.line}:${parser.column} ${parser.depth}`);
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      out.push(`error ${err.message} ${err.line}:${err.column}`);
    }
    return out;
  };
  // Names that share bytes, differ only in length or escapes, repeat (duplicates), and more names than cache slots.
  const name = fc.oneof(
    fc.constantFrom('a', 'ab', 'a\\u0062', 'b', 'summary', 'summar', 'summaryy', 'é', '\\"', 'x\\ny'),
    fc.stringMatching(/^[a-z]{1,3}$/),
    fc.string({ maxLength: 70 }).map((s) => JSON.stringify(s).slice(1, -1)),
  );
  const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('1', '"v"', 'null', 'true', '-2.5e3'),
      fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
      fc.array(fc.tuple(name, tie('value')), { maxLength: 20 }).map((entries) => `{${entries.map(([k, v]) => `"${k}":${v}`).join(',')}}`),
    ),
  })).value;
  const document = fc.oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: value.map((v) => v.slice(0, Math.floor(v.length / 2))) });
  fc.assert(
    fc.property(fc.array(document, { minLength: 1, maxLength: 30 }), (documents) => {
      for (const json of documents) {
        const bytes = Buffer.from(json);
        const reused = acquireParser(bytes);
        const got = read(reused);
        releaseParser(reused);
        assert.deepStrictEqual(got, read(new JsonPullParser(bytes)));
      }
    }),
    { numRuns: 300 },
  );
});
