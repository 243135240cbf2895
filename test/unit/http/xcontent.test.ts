import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { writeJson, writeYaml } from '../../../src/http/xcontent.js';
import { jsonFloat, javaDoubleString } from '../../../src/common/json-float.js';

test('pretty JSON matches ES layout, empty containers included', () => {
  const text = writeJson({ a: 1, b: { }, c: [], d: [1, { e: 'x' }], f: jsonFloat(100), g: null, skipped: undefined }, true);
  assert.equal(
    text,
    '{\n  "a" : 1,\n  "b" : { },\n  "c" : [ ],\n  "d" : [\n    1,\n    {\n      "e" : "x"\n    }\n  ],\n  "f" : 100.0,\n  "g" : null\n}\n',
  );
});

test('compact JSON prints doubles Java-style and escapes strings', () => {
  assert.equal(writeJson({ p: jsonFloat(100), q: jsonFloat(-1), r: 'a"b\n', s: [jsonFloat(0.5)] }, false), '{"p":100.0,"q":-1.0,"r":"a\\"b\\n","s":[0.5]}');
});

test('javaDoubleString follows Double.toString', () => {
  assert.equal(javaDoubleString(100), '100.0');
  assert.equal(javaDoubleString(66.66666666666666), '66.66666666666666');
  assert.equal(javaDoubleString(1e-5), '1.0E-5');
  assert.equal(javaDoubleString(12345678), '1.2345678E7');
  assert.equal(javaDoubleString(0), '0.0');
  assert.equal(javaDoubleString(Number.NaN), 'NaN');
});

test('YAML output starts with a document marker and quotes what needs quoting', () => {
  assert.equal(writeYaml({ name: 'n1', tagline: 'You Know, for Search', n: 3, list: [{ a: 1, b: 'x' }], empty: {} }),
    '---\nname: n1\ntagline: "You Know, for Search"\nn: 3\nlist:\n- a: 1\n  b: x\nempty: {}\n');
});

test('compact JSON is what JSON.stringify writes, undefined members and Map entries included', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      assert.equal(writeJson(value, false), JSON.stringify(value));
    }),
    { numRuns: 300 },
  );
  const value = { a: 1, gone: undefined, map: new Map<string, unknown>([['x', [1, undefined]], ['skip', undefined], ['y', { z: 'q' }]]), last: null };
  assert.equal(writeJson(value, false), '{"a":1,"map":{"x":[1,null],"y":{"z":"q"}},"last":null}');
});
