/**
 * Each supported form of the painless subset, and painless's semantics where they differ from JavaScript's:
 * Java int/long/double arithmetic, string concatenation, null reads, List.remove by index, equals() vs `==`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { after, cause, run } from './run-script.js';

test('assignments to ctx._source: dotted, bracketed, nested, compound, ++/--', () => {
  assert.equal(after('ctx._source.a = 1'), '{"a":1}');
  assert.equal(after("ctx._source['b'] = 'x'"), '{"b":"x"}');
  assert.equal(after('ctx._source.o.p = true', '{"o":{}}'), '{"o":{"p":true}}');
  assert.equal(after("ctx._source.o['p'] = null", '{"o":{"p":1}}'), '{"o":{"p":null}}');
  assert.equal(after('ctx._source.n += 2; ctx._source.n -= 1; ctx._source.n *= 10; ctx._source.n /= 4; ctx._source.n %= 3', '{"n":1}'), '{"n":2}');
  assert.equal(after('ctx._source.n++; ++ctx._source.n; ctx._source.m--; --ctx._source.m', '{"n":1,"m":1}'), '{"n":3,"m":-1}');
  assert.equal(after('def x = ctx._source.n++; ctx._source.x = x; def y = ++ctx._source.n; ctx._source.y = y', '{"n":1}'), '{"n":3,"x":1,"y":3}');
  assert.equal(after('ctx._source = ["fresh": 1]', '{"old":1}'), '{"fresh":1}');
});

test('ctx.op, ctx metadata and ctx._now', () => {
  assert.equal(run("ctx.op = 'noop'").op, 'noop');
  assert.equal(run("ctx.op = 'delete'").op, 'delete');
  const meta = run('ctx._source.id = ctx._id; ctx._source.v = ctx._version + 1; ctx._source.late = ctx._now > 1000', '{}', {}, { _id: 'x', _version: 3, _now: 1_700_000_000_000 });
  assert.equal(meta.source, '{"id":"x","v":4,"late":true}');
  // _version and _now are longs, so their arithmetic does not overflow as an int's would.
  assert.equal(run('ctx._source.v = ctx._version + 1', '{}', {}, { _version: 2147483647 }).source, '{"v":2147483648}');
});

test('params: dotted and bracketed reads; params are read-only', () => {
  assert.equal(after("ctx._source.a = params.x; ctx._source.b = params['y'].z", '{}', { x: 1, y: { z: 'w' } }), '{"a":1,"b":"w"}');
  assert.deepEqual(cause('params.x = 2', '{}', { x: 1 }), ['runtime error', 'unsupported_operation_exception', 'params are read-only']);
  assert.deepEqual(cause("params.remove('x')", '{}', { x: 1 }), ['runtime error', 'unsupported_operation_exception', 'params are read-only']);
});

test('literals: strings in both quotes with escapes, numbers by painless type, lists and maps', () => {
  assert.equal(after(`ctx._source.s = 'it\\'s'; ctx._source.t = "a\\"b\\\\"`), '{"s":"it\'s","t":"a\\"b\\\\"}');
  assert.equal(after('ctx._source.l = [1, 2L, 1.5, 2.5f, 3d, 0x10, 010, -2147483648, true, false, null]'), '{"l":[1,2,1.5,2.5,3.0,16,8,-2147483648,true,false,null]}');
  assert.equal(after("ctx._source.m = ['k': [1, 2], 'e': [:]]; ctx._source.e = []"), '{"m":{"k":[1,2],"e":{}},"e":[]}');
});

test('control flow: if/else, ternary, elvis, null-safe access, && || !', () => {
  const script = "if (ctx._source.n > 5) { ctx._source.size = 'big' } else if (ctx._source.n > 1) { ctx._source.size = 'mid' } else ctx._source.size = 'small'";
  assert.equal(after(script, '{"n":9}'), '{"n":9,"size":"big"}');
  assert.equal(after(script, '{"n":3}'), '{"n":3,"size":"mid"}');
  assert.equal(after(script, '{"n":0}'), '{"n":0,"size":"small"}');
  assert.equal(after("ctx._source.t = ctx._source.n == 1 ? 'one' : 'other'", '{"n":1}'), '{"n":1,"t":"one"}');
  assert.equal(after("ctx._source.t = ctx._source.missing ?: 'default'"), '{"t":"default"}');
  assert.equal(after('ctx._source.t = ctx._source.a?.b?.c'), '{"t":null}');
  assert.equal(after('ctx._source.t = !(true && false) || false'), '{"t":true}');
  // && short-circuits: the right side would fail on null.
  assert.equal(after('ctx._source.t = ctx._source.a != null && ctx._source.a.b == 1'), '{"t":false}');
});

test('loops: for, while, do/while, for-each, break and continue', () => {
  assert.equal(after('def s = 0; for (def i = 0; i < 5; i++) { if (i == 3) { continue } s += i } ctx._source.s = s'), '{"s":7}');
  assert.equal(after('def i = 0; while (true) { i++; if (i >= 4) break; } ctx._source.i = i'), '{"i":4}');
  assert.equal(after('def i = 10; do { i++ } while (i < 5); ctx._source.i = i'), '{"i":11}');
  assert.equal(after("def out = []; for (def t : ctx._source.tags) { out.add(t.toUpperCase()) } for (x in out) { ctx._source[x] = 1 }", '{"tags":["a","b"]}'), '{"tags":["a","b"],"A":1,"B":1}');
});

test('Java int arithmetic: overflow wraps, division truncates toward zero, remainder keeps the sign', () => {
  assert.equal(after('ctx._source.a = 2147483647 + 1'), '{"a":-2147483648}');
  assert.equal(after('ctx._source.a = 65536 * 65536'), '{"a":0}');
  assert.equal(after('ctx._source.a = -7 / 2; ctx._source.b = -7 % 2; ctx._source.c = 7 / -2'), '{"a":-3,"b":-1,"c":-3}');
  assert.equal(after('ctx._source.a = -2147483648 / -1'), '{"a":-2147483648}');
  assert.deepEqual(cause('ctx._source.a = 1 / 0'), ['runtime error', 'arithmetic_exception', '/ by zero']);
  assert.deepEqual(cause('ctx._source.a = 1 % 0'), ['runtime error', 'arithmetic_exception', '/ by zero']);
});

test('Java long and double arithmetic and promotion', () => {
  assert.equal(after('ctx._source.a = 9223372036854775807L + 1'), '{"a":-9223372036854775808}');
  assert.equal(after('ctx._source.a = 2147483647 + 1L'), '{"a":2147483648}');
  assert.equal(after('ctx._source.a = ctx._source.big + 1', '{"big":9007199254740993}'), '{"big":9007199254740993,"a":9007199254740994}');
  assert.equal(after('ctx._source.a = 7 / 2.0; ctx._source.b = 1 + 1.0; ctx._source.c = 1.0 / 0; ctx._source.d = 1e20 * 10'), '{"a":3.5,"b":2.0,"c":"Infinity","d":1.0E21}');
  assert.equal(after('ctx._source.f = 0.1f + 0.2f'), '{"f":0.3}');
  assert.deepEqual(cause('ctx._source.a = 1L / 0L'), ['runtime error', 'arithmetic_exception', '/ by zero']);
});

test('numbers from JSON keep their JSON type: 1.0 is a double, 1 an int, beyond int a long', () => {
  assert.equal(after('ctx._source.x = ctx._source.d / 2; ctx._source.y = ctx._source.i / 2', '{"d":5.0,"i":5}'), '{"d":5.0,"i":5,"x":2.5,"y":2}');
  assert.equal(after('ctx._source.x = ctx._source.l * 2', '{"l":4294967296}'), '{"l":4294967296,"x":8589934592}');
  assert.equal(after('ctx._source.t = ctx._source.d instanceof Double && ctx._source.i instanceof Integer && ctx._source.l instanceof Long', '{"d":1.0,"i":1,"l":4294967296}'), '{"d":1.0,"i":1,"l":4294967296,"t":true}');
  // Untouched values keep their original text.
  assert.equal(after('ctx._source.z = 1', '{"d":1.50,"e":1e3}'), '{"d":1.50,"e":1e3,"z":1}');
});

test('string concatenation prints values as Java does', () => {
  assert.equal(after("ctx._source.s = 'n=' + 1 + ', d=' + 2.0 + ', l=' + [1, 'a'] + ', m=' + ['k': 1] + ', ' + null + ', ' + true"), '{"s":"n=1, d=2.0, l=[1, a], m={k=1}, null, true"}');
  assert.equal(after("ctx._source.s = 1 + 2 + 'x' + 1 + 2"), '{"s":"3x12"}');
  assert.equal(after("ctx._source.s += 'x'"), '{"s":"nullx"}');
});

test('comparisons: == promotes numbers, equals() does not; strings and containers compare by value', () => {
  assert.equal(after('ctx._source.t = [1 == 1L, 1 == 1.0, 1 != 2, "a" == "a", [1] == [1], ["k": 1] == ["k": 1], null == null, 2 >= 2, 1.5 < 2]'), '{"t":[true,true,true,true,true,true,true,true,true]}');
  assert.equal(after('ctx._source.t = [[1L].contains(1), [1].contains(1), [1.0].indexOf(1)]'), '{"t":[false,true,-1]}');
});

test('reading a missing field is null; reading a field of null is a null_pointer_exception', () => {
  assert.equal(after('ctx._source.t = ctx._source.missing == null'), '{"t":true}');
  assert.deepEqual(cause('ctx._source.t = ctx._source.missing.field').slice(0, 2), ['runtime error', 'null_pointer_exception']);
  assert.deepEqual(cause('ctx._source.missing.field = 1').slice(0, 2), ['runtime error', 'null_pointer_exception']);
  assert.deepEqual(cause('ctx._source.n += 1').slice(0, 2), ['runtime error', 'null_pointer_exception']);
  assert.deepEqual(cause('ctx._source.missing.add(1)').slice(0, 2), ['runtime error', 'null_pointer_exception']);
});

test('Map methods', () => {
  const doc = '{"m":{"a":1,"b":2}}';
  assert.equal(after("ctx._source.remove('m')", doc), '{}');
  assert.equal(after("ctx._source.r = ctx._source.m.remove('a')", doc), '{"m":{"b":2},"r":1}');
  assert.equal(after("ctx._source.r = [ctx._source.m.containsKey('a'), ctx._source.m.containsKey('z'), ctx._source.m.get('b'), ctx._source.m.size(), ctx._source.m.isEmpty(), ctx._source.m.getOrDefault('z', 9)]", doc), '{"m":{"a":1,"b":2},"r":[true,false,2,2,false,9]}');
  assert.equal(after("ctx._source.m.put('c', 3); ctx._source.k = ctx._source.m.keySet(); ctx._source.v = ctx._source.m.values()", doc), '{"m":{"a":1,"b":2,"c":3},"k":["a","b","c"],"v":[1,2,3]}');
  assert.equal(after("ctx._source.m.clear(); ctx._source.m.putAll(['z': 0])", doc), '{"m":{"z":0}}');
});

test('List methods: add, add at, get, set, remove by index, contains, indexOf, size, negative brace index', () => {
  const doc = '{"l":["a","b","c"]}';
  assert.equal(after("ctx._source.l.add('d'); ctx._source.l.add(0, 'z')", doc), '{"l":["z","a","b","c","d"]}');
  assert.equal(after('ctx._source.r = ctx._source.l.remove(1)', doc), '{"l":["a","c"],"r":"b"}');
  assert.equal(after("ctx._source.r = [ctx._source.l.contains('b'), ctx._source.l.indexOf('c'), ctx._source.l.indexOf('q'), ctx._source.l.size(), ctx._source.l.isEmpty(), ctx._source.l.get(0), ctx._source.l[-1]]", doc), '{"l":["a","b","c"],"r":[true,2,-1,3,false,"a","c"]}');
  assert.equal(after("ctx._source.l[0] = 'A'; ctx._source.l.set(1, 'B'); ctx._source.l.addAll(['x'])", doc), '{"l":["A","B","c","x"]}');
  assert.deepEqual(cause('ctx._source.l.get(5)', doc), ['runtime error', 'index_out_of_bounds_exception', 'Index 5 out of bounds for length 3']);
  assert.deepEqual(cause("ctx._source.l.remove('a')", doc), ['runtime error', 'class_cast_exception', 'Cannot cast [java.lang.String] to [int].']);
});

test('String methods', () => {
  const doc = '{"s":"  Hello World  "}';
  const script = "def s = ctx._source.s.trim(); ctx._source.r = [s.length(), s.toLowerCase(), s.toUpperCase(), s.contains('lo W'), s.startsWith('He'), s.endsWith('ld'), s.substring(6), s.substring(0, 5), s.replace('o', '0'), s.indexOf('o'), s.isEmpty()]";
  assert.equal(after(script, doc), '{"s":"  Hello World  ","r":[11,"hello world","HELLO WORLD",true,true,true,"World","Hello","Hell0 W0rld",4,false]}');
  assert.deepEqual(cause("ctx._source.s.substring(5, 1)", '{"s":"abc"}'), ['runtime error', 'string_index_out_of_bounds_exception', 'begin 5, end 1, length 3']);
  assert.equal(after("ctx._source.r = 'a$&b'.replace('b', '$&')"), '{"r":"a$&$&"}');
});

test('number conversions narrow as Java does', () => {
  assert.equal(after('ctx._source.r = [4294967297L.intValue(), 1.9.intValue(), -1.9.longValue(), 1e300.intValue(), 3.doubleValue(), 5.longValue()]'), '{"r":[1,1,-1,2147483647,3.0,5]}');
});

test('a method missing on the receiver type is painless\'s dynamic method error', () => {
  assert.deepEqual(cause("ctx._source.s.add('x')", '{"s":"a"}'), ['runtime error', 'illegal_argument_exception', 'dynamic method [java.lang.String, add/1] not found']);
  assert.deepEqual(cause('ctx._source.m.size(1)', '{"m":{}}'), ['runtime error', 'illegal_argument_exception', 'dynamic method [java.util.HashMap, size/1] not found']);
});

test('type errors: arithmetic on non-numbers and non-boolean conditions are class_cast_exceptions', () => {
  assert.deepEqual(cause('ctx._source.x = ctx._source.b * 2', '{"b":true}'), ['runtime error', 'class_cast_exception', 'Cannot apply [*] operation to types [java.lang.Boolean] and [java.lang.Integer].']);
  // Between values typed at compile time (literals, typed locals) painless refuses it when the script compiles.
  assert.deepEqual(cause('ctx._source.x = true * 2'), ['compile error', 'class_cast_exception', 'Cannot apply [*] operation to types [boolean] and [int].']);
  assert.deepEqual(cause("if (1) { ctx.op = 'none' }"), ['runtime error', 'class_cast_exception', 'Cannot cast [java.lang.Integer] to [boolean].']);
});

test('return ends the script; comments are ignored', () => {
  assert.equal(after('ctx._source.a = 1; /* block */ return; ctx._source.b = 2 // never'), '{"a":1}');
});
