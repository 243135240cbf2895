/**
 * What the subset refuses and how: every unsupported construct is a compile error naming it, JavaScript's globals
 * and prototype names are plain unknown names, hostile input (long, deep, looping, growing) is bounded, and
 * errors carry painless's script_stack/position shapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileScript, MAX_LOOP_ITERATIONS, MAX_NESTING, MAX_SCRIPT_SIZE } from '../../../src/script/index.js';
import { after, cause, failure, run } from './run-script.js';

const TYPES = 'int, long, float, double, boolean, String, Object, Map, HashMap, List, ArrayList';

const compileCause = (script: string): string => {
  const [phase, type, reason] = cause(script);
  assert.equal(phase, 'compile error', `${script}: ${reason}`);
  assert.equal(type, 'illegal_argument_exception');
  return reason;
};

test('every unsupported construct is a compile error that names it', () => {
  const refusals: Array<[string, string]> = [
    ['short x = 1', `unsupported painless construct [typed declaration [short]]; declare locals with [def] or one of [${TYPES}]`],
    ['Integer i = 1', `unsupported painless construct [typed declaration [Integer]]; declare locals with [def] or one of [${TYPES}]`],
    ['for (Set s = null; ;) {}', `unsupported painless construct [typed declaration [Set]]; declare locals with [def] or one of [${TYPES}]`],
    ['int[] a = null', 'unsupported painless construct [array type [int[]]]'],
    ['def a = new int[3]', 'unsupported painless construct [array type [int[]]]'],
    ['ctx._source.a = (short) 1', 'unsupported painless construct [cast to [short]]'],
    ['ctx._source.a = new TreeMap()', 'unsupported painless construct [new [TreeMap]]; only [new HashMap()] and [new ArrayList()] are supported'],
    ['ctx._source.a = new HashMap(1, 2)', 'unsupported painless construct [constructor [HashMap/2]]'],
    ['ctx._source.l.removeIf(x -> x == 1)', 'unsupported painless construct [lambda]'],
    ['ctx._source.l.sort(Integer::compare)', 'unsupported painless construct [class [Integer]]'],
    ['ctx._source.a = Math.max(1, 2)', 'unsupported painless construct [class [Math]]'],
    ['ctx._source.a = 1 & 2', 'unsupported painless construct [bitwise operator [&]]'],
    ['ctx._source.a = 1 | 2', 'unsupported painless construct [bitwise operator [|]]'],
    ['ctx._source.a = 1 << 2', 'unsupported painless construct [shift operator [<<]]'],
    ['ctx._source.a = ~1', 'unsupported painless construct [bitwise operator [~]]'],
    ['ctx._source.a |= 1', 'unsupported painless construct [compound assignment [|=]]'],
    ['ctx._source.a = ctx._source.b === null', 'unsupported painless construct [identity comparison [===]]'],
    ["ctx._source.a = ctx._source.b =~ 'x'", 'unsupported painless construct [regex find [=~]]'],
    ['try { ctx.op = "none" } catch (Exception e) {}', 'unsupported painless construct [try statement]'],
    ['throw 1', 'unsupported painless construct [throw statement]'],
    ['return 1', 'unsupported painless construct [return with a value]'],
    ['foo(1)', 'unsupported painless construct [function call [foo]]'],
    ['ctx._source.a = 1 instanceof Runnable', 'unsupported painless construct [instanceof [Runnable]]'],
    ['def x = 1, y = 2', 'unsupported painless construct [multiple declarations in one statement]'],
    ['ctx._source.a = this', 'unsupported painless construct [this]'],
  ];
  for (const [script, reason] of refusals) assert.equal(compileCause(script), reason, script);
});

test('unknown methods are refused at compile time; syntax errors use painless wording', () => {
  assert.equal(compileCause('ctx._source.foo()'), 'unknown method [foo/0]: this painless subset supports only the whitelisted Map, List and String methods');
  assert.equal(compileCause('ctx._source.a = 1 +'), 'unexpected end of script.');
  assert.equal(compileCause('ctx._source.a = = 1'), "invalid sequence of tokens near ['='].");
  assert.equal(compileCause('ctx._source.a = 2147483648'), 'Invalid int constant [2147483648].');
  assert.equal(compileCause('ctx._source.a = 9223372036854775808L'), 'Invalid long constant [9223372036854775808L].');
  assert.equal(compileCause("ctx._source.a = '\\q'"), 'unexpected character [\\q].');
  assert.equal(compileCause('ctx._source.a = #'), 'unexpected character [#].');
  assert.equal(compileCause('ctx._source.a'), 'not a statement: result not used from expression');
  assert.equal(compileCause('ctx = [:]'), 'variable [ctx] is read-only');
  assert.equal(compileCause('def x = 1; def x = 2'), 'variable [x] is already defined');
  assert.equal(compileCause('break'), '[break] outside of a loop');
  assert.equal(compileCause('1 = 2'), 'invalid assignment: cannot assign a value to this expression');
  // A local is scoped to its block.
  assert.equal(compileCause('if (true) { def x = 1 } ctx._source.x = x'), 'cannot resolve symbol [x]');
});

test('JavaScript globals and prototype names are plain unknown names or missing keys', () => {
  for (const name of ['constructor', '__proto__', 'process', 'globalThis', 'require', 'eval', 'Function', 'window', 'prototype']) {
    assert.equal(compileCause(`ctx._source.x = ${name}`), `cannot resolve symbol [${name}]`, name);
  }
  // As map keys they are ordinary, missing keys; writing them creates own keys and leaves prototypes alone.
  assert.equal(after('ctx._source.c = ctx._source.constructor; ctx._source.p = ctx._source.__proto__; ctx._source.t = ctx._source.toString'), '{"c":null,"p":null,"t":null}');
  assert.equal(after("ctx._source.__proto__ = ['polluted': true]"), '{"__proto__":{"polluted":true}}');
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.equal(after("ctx._source['constructor'] = 1; ctx._source.hasOwnProperty = 2"), '{"constructor":1,"hasOwnProperty":2}');
  // Methods dispatch on a whitelist, never on JavaScript properties.
  assert.equal(compileCause('ctx._source.constructor()'), 'unknown method [constructor/0]: this painless subset supports only the whitelisted Map, List and String methods');
  assert.equal(compileCause("ctx._source.s.valueOf()"), 'unknown method [valueOf/0]: this painless subset supports only the whitelisted Map, List and String methods');
  assert.deepEqual(cause("ctx._source.x = ctx._source.s.length", '{"s":"abc"}'), ['runtime error', 'illegal_argument_exception', 'dynamic getter [java.lang.String, length] not found']);
  assert.deepEqual(cause("ctx._source.x = ctx._source.l.length", '{"l":[]}'), ['runtime error', 'illegal_argument_exception', 'dynamic getter [java.util.ArrayList, length] not found']);
});

test('the source length is capped at script.max_size_in_bytes', () => {
  const big = `ctx._source.a = '${'x'.repeat(MAX_SCRIPT_SIZE)}'`;
  const error = assert.throws(() => compileScript({ source: big, lang: 'painless', params: {} }), (err: Error & { type?: string }) => {
    assert.equal(err.type, 'illegal_argument_exception');
    assert.match(err.message, /^exceeded max allowed inline script size in bytes \[65535\] with size \[65553\] for script \[/);
    return true;
  });
  void error;
});

test('nesting is capped: deep parentheses, long operator chains and deep blocks are compile errors, not stack overflows', () => {
  const tooDeep = `script is nested too deeply: more than [${MAX_NESTING}] levels`;
  assert.equal(compileCause(`ctx._source.a = ${'('.repeat(5000)}1${')'.repeat(5000)}`), tooDeep);
  assert.equal(compileCause(`ctx._source.a = 1${' + 1'.repeat(10000)}`), tooDeep);
  assert.equal(compileCause(`${'if (true) { '.repeat(3000)}ctx.op = 'none'${' }'.repeat(3000)}`), tooDeep);
  assert.equal(compileCause(`ctx._source.a = ${'['.repeat(5000)}${']'.repeat(5000)}`), tooDeep);
  assert.equal(compileCause(`ctx._source.a = ${'- '.repeat(5000)}1`), tooDeep);
  assert.equal(compileCause(`ctx._source.a = ${'!'.repeat(5000)}true`), tooDeep);
  // Within the cap, fine.
  assert.equal(after(`ctx._source.a = ${'('.repeat(30)}1${' + 1'.repeat(30)}${')'.repeat(30)}`), '{"a":31}');
});

test("loops stop at painless's loop counter; strings cannot grow without bound", () => {
  assert.equal(MAX_LOOP_ITERATIONS, 1_000_000);
  assert.deepEqual(cause('while (true) {}'), ['runtime error', 'painless_error', 'The maximum number of statements that can be executed in a loop has been reached.']);
  assert.deepEqual(cause('for (;;) { ctx._source.n = 1 }').slice(0, 2), ['runtime error', 'painless_error']);
  // The budget is shared by every loop of one execution.
  assert.deepEqual(cause('for (def i = 0; i < 1000; i++) { for (def j = 0; j < 1000; j++) {} }').slice(0, 2), ['runtime error', 'painless_error']);
  assert.equal(after('def n = 0; for (def i = 0; i < 900; i++) { for (def j = 0; j < 1000; j++) { n++ } } ctx._source.n = n'), '{"n":900000}');
  assert.deepEqual(cause("def s = 'x'; while (true) { s += s }"), ['runtime error', 'illegal_argument_exception', 'string would be longer than [16777216] characters']);
});

test('shared and self-containing structures cannot hang the node: printing, comparing and storing them is bounded', () => {
  // Direct self-reference prints as Java prints it.
  assert.equal(after("def m = [:]; m.put('self', m); ctx._source.s = '' + m"), '{"s":"{self=(this Map)}"}');
  // A list shared 2^40 times would print for ever: the string cap stops it.
  const doubling = "def l = ['x']; for (def i = 0; i < 40; i++) { l = [l, l] }";
  assert.deepEqual(cause(`${doubling}; ctx._source.s = '' + l`), ['runtime error', 'illegal_argument_exception', 'string would be longer than [16777216] characters']);
  // Comparing two such structures is bounded too.
  assert.deepEqual(cause(`${doubling}; def k = ['x']; for (def i = 0; i < 40; i++) { k = [k, k] } ctx._source.t = l == k`), [
    'runtime error', 'illegal_argument_exception', 'comparing these values would visit more than [1000000] values',
  ]);
  assert.equal(after(`${doubling}; ctx._source.t = l == l`), '{"t":true}');
  // Storing them is refused before anything serialises the source.
  assert.deepEqual(cause(`${doubling}; ctx._source.l = l`), ['runtime error', 'illegal_argument_exception', '[ctx._source] holds more than [5000000] values and cannot be stored']);
  assert.deepEqual(cause("def m = [:]; m.put('self', m); ctx._source.m = m"), [
    'runtime error', 'illegal_argument_exception', '[ctx._source] is nested more than [1000] levels deep (or contains itself) and cannot be stored',
  ]);
  assert.deepEqual(cause('ctx._source.self = ctx._source').slice(0, 2), ['runtime error', 'illegal_argument_exception']);
});

test('a compile error shows 25 characters either side of the offset, with ellipses where cut', () => {
  const source = "ctx._source.first = 1; ctx._source.second = 2 +; ctx._source.third = 3; ctx._source.fourth = 4";
  const error = failure(source);
  assert.equal(error.reason, 'compile error');
  const offset = source.indexOf('+;') + 1;
  assert.deepEqual(error.metadata, {
    script_stack: [`... ${source.slice(offset - 25, offset + 25)} ...`, `${' '.repeat(4 + 25)}^---- HERE`],
    script: source,
    lang: 'painless',
    position: { offset, start: offset - 25, end: offset + 25 },
  });
  assert.equal(error.causedBy!.reason, "invalid sequence of tokens near [';'].");
  assert.equal(error.status, 400);
});

test('a runtime error shows the statement that failed and points at the failing node', () => {
  const source = "ctx._source.a = 1; ctx._source.b = ctx._source.missing.x; ctx._source.c = 3";
  const error = failure(source);
  assert.equal(error.reason, 'runtime error');
  const start = source.indexOf('ctx._source.b');
  const end = source.indexOf('ctx._source.c');
  const offset = source.indexOf('x;');
  assert.deepEqual(error.metadata, {
    script_stack: [source.slice(start, end), `${' '.repeat(offset - start)}^---- HERE`],
    script: source,
    lang: 'painless',
    position: { offset, start, end },
  });
  assert.equal(error.causedBy!.type, 'null_pointer_exception');
});

test('a failed execution leaves earlier writes in ctx (as painless does) and the compiled script reusable', () => {
  const outcome = { _source: {} as Record<string, unknown>, op: 'index' };
  const compiled = compileScript({ source: 'ctx._source.a = 1; ctx._source.b = 1 / params.d', lang: 'painless', params: { d: 0 } });
  assert.throws(() => compiled.execute(outcome));
  assert.equal(JSON.stringify(Object.keys(outcome._source)), '["a"]');
  const ok = compileScript({ source: 'ctx._source.a = 1; ctx._source.b = 1 / params.d', lang: 'painless', params: { d: 1 } });
  assert.equal(run('ctx._source.z = 0').source, '{"z":0}');
  const ctx = { _source: {} as Record<string, unknown>, op: 'index' };
  ok.execute(ctx);
  assert.deepEqual(Object.keys(ctx._source), ['a', 'b']);
});
