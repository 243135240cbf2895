/**
 * Typed locals, casts and `new HashMap()` / `new ArrayList()` with painless's semantics: a local converts what it is
 * given to its declared type (int arithmetic wraps, a long stays a long, a double local prints `1.0`), conversions
 * the compiler refuses are compile errors with painless's messages, and values from def (ctx, params) are checked
 * when they arrive, as Def.defTo*Implicit checks them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { after, cause } from './run-script.js';

test('typed declarations compile and hold values of their type', () => {
  assert.equal(after('int x = 1; long l = 2; double d = 3; float f = 1.5f; boolean b = true; String s = "s"; ctx._source.v = [x, l, d, f, b, s]'), '{"v":[1,2,3.0,1.5,true,"s"]}');
  assert.equal(after("Map m = new HashMap(); m.put('a', 1); List l = new ArrayList(); l.add(m); Object o = l; def d = o; ctx._source.v = d"), '{"v":[{"a":1}]}');
  assert.equal(after("HashMap m = ['k': 1]; ArrayList l = [1, 2]; Map copy = new HashMap(m); copy.k = 2; ctx._source.v = [m, copy, new ArrayList(l), new ArrayList(5)]"), '{"v":[{"k":1},{"k":2},[1,2],[]]}');
  // Without an initialiser a local has Java's default.
  assert.equal(after('int i; double d; boolean b; String s; ctx._source.v = [i, d, b, s]'), '{"v":[0,0.0,false,null]}');
});

test('int arithmetic wraps, a long local does not, and compound assignment casts back as Java does', () => {
  assert.equal(after('int x = 2147483647; x++; ctx._source.v = x'), '{"v":-2147483648}');
  assert.equal(after('long y = 2147483647; y++; ctx._source.v = y'), '{"v":2147483648}');
  assert.equal(after('int x = 7; x /= 2; int y = 5; y += 0.9; ctx._source.v = [x, y, 7 / 2, x * 1.0]'), '{"v":[3,5,3,3.0]}');
  assert.equal(after('int sum = 0; for (int i = 0; i < 10; i++) { sum += i } ctx._source.v = sum'), '{"v":45}');
  assert.equal(after('String s = "a"; s += 1; s += 2.0; ctx._source.v = s'), '{"v":"a12.0"}');
});

test('explicit casts convert numbers with Java\'s rules', () => {
  assert.equal(after('ctx._source.v = [(int) 7.9, (int) -7.9, (long) 1e30, (int) 3000000000L, (double) 1, (float) 0.1, (int) (5 / 2.0)]'), '{"v":[7,-7,9223372036854775807,-1294967296,1.0,0.1,2]}');
  assert.equal(after('def d = 41.7; int y = (int) d; ctx._source.v = y'), '{"v":41}');
  assert.equal(after('ctx._source.v = (String) ctx._source.s', '{"s":"x"}'), '{"s":"x","v":"x"}');
});

test('a typed local takes from def only what widens to it; a value of another type fails as painless fails', () => {
  assert.equal(after('int n = ctx._source.n; long l = ctx._source.n; double d = ctx._source.n; ctx._source.v = [n * 2, l, d]', '{"n":5}'), '{"n":5,"v":[10,5,5.0]}');
  assert.equal(after('for (String s : ctx._source.l) { ctx._source.last = s }', '{"l":["a","b"]}'), '{"l":["a","b"],"last":"b"}');
  assert.deepEqual(cause('int n = ctx._source.f', '{"f":2.5}'), ['runtime error', 'class_cast_exception', 'cannot implicitly cast def [double] to int']);
  assert.deepEqual(cause('int n = ctx._source.n', '{"n":3000000000}'), ['runtime error', 'class_cast_exception', 'cannot implicitly cast def [long] to int']);
  assert.deepEqual(cause('boolean b = ctx._source.n', '{"n":1}'), ['runtime error', 'class_cast_exception', 'cannot cast def [int] to boolean']);
  assert.deepEqual(cause('int n = (int) ctx._source.s', '{"s":"x"}'), ['runtime error', 'class_cast_exception', 'cannot explicitly cast def [java.lang.String] to int']);
  assert.deepEqual(cause('String s = ctx._source.n', '{"n":1}'), [
    'runtime error',
    'class_cast_exception',
    "class java.lang.Integer cannot be cast to class java.lang.String (java.lang.Integer and java.lang.String are in module java.base of loader 'bootstrap')",
  ]);
  assert.deepEqual(cause('Map m = ctx._source.l', '{"l":[]}')[2], "class java.util.ArrayList cannot be cast to class java.util.Map (java.util.ArrayList and java.util.Map are in module java.base of loader 'bootstrap')");
  assert.deepEqual(cause('for (int i : ctx._source.l) {}', '{"l":[1.5]}')[2], 'cannot implicitly cast def [double] to int');
  assert.equal(cause('int n = ctx._source.missing')[1], 'null_pointer_exception');
});

test('conversions the compiler refuses are compile errors with painless\'s messages', () => {
  const compileError = (script: string): [string, string] => {
    const [phase, type, reason] = cause(script);
    assert.equal(phase, 'compile error', `${script}: ${reason}`);
    return [type, reason];
  };
  assert.deepEqual(compileError('int x = 1.5'), ['class_cast_exception', 'Cannot cast from [double] to [int].']);
  assert.deepEqual(compileError('float f = 1.5'), ['class_cast_exception', 'Cannot cast from [double] to [float].']);
  assert.deepEqual(compileError('long l = 1; int x = l'), ['class_cast_exception', 'Cannot cast from [long] to [int].']);
  assert.deepEqual(compileError('String s = 1'), ['class_cast_exception', 'Cannot cast from [int] to [java.lang.String].']);
  assert.deepEqual(compileError("int x = 'a'"), ['class_cast_exception', 'Cannot cast from [java.lang.String] to [int].']);
  assert.deepEqual(compileError('Map m = [1, 2]'), ['class_cast_exception', 'Cannot cast from [java.util.ArrayList] to [java.util.Map].']);
  assert.deepEqual(compileError('Map m = [:]; HashMap h = m'), ['class_cast_exception', 'Cannot cast from [java.util.Map] to [java.util.HashMap].']);
  assert.deepEqual(compileError('int x = 1; x = 2.5'), ['class_cast_exception', 'Cannot cast from [double] to [int].']);
  assert.deepEqual(compileError('int x = null'), ['illegal_argument_exception', 'Cannot cast null to a primitive type [int].']);
  assert.deepEqual(compileError('boolean b = true; int x = (int) b'), ['class_cast_exception', 'Cannot cast from [boolean] to [int].']);
  assert.deepEqual(compileError('boolean b = true; ctx._source.x = b + 1'), ['class_cast_exception', 'Cannot apply [+] operation to types [boolean] and [int].']);
  assert.deepEqual(compileError('String s = "a"; s++'), ['class_cast_exception', 'Cannot apply [+] operation to types [java.lang.String] and [int].']);
  assert.deepEqual(compileError('int String = 1'), ['illegal_argument_exception', 'invalid declaration: [String] is a type and cannot be used as a variable name']);
  // Widening, boxing into Object and down-casts with an explicit cast are fine.
  assert.equal(after('int i = 1; long l = i; float f = l; double d = f; Object o = d; Map m = [:]; HashMap h = (HashMap) m; ctx._source.v = [l, d, o, h]'), '{"v":[1,1.0,1.0,{}]}');
});
