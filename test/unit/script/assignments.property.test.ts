/**
 * Property: random assignment programs over random documents give the same source (or the same failure) as a
 * small reference model of painless's def arithmetic written independently here (BigInt for int and long
 * wrapping, JS doubles, Java's string forms). Arithmetic between literals is typed when the script compiles, as
 * painless types it: `'x' % 1` is a compile-time class_cast_exception, before any statement runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EsError } from '../../../src/common/errors.js';
import { javaDoubleString } from '../../../src/common/json-float.js';
import { run } from './run-script.js';

type Kind = 'int' | 'long' | 'double';
type Val = { t: Kind; v: bigint | number } | { t: 'string'; v: string } | { t: 'null' };

class Failure {
  constructor(readonly type: string) {}
}

const KEYS = ['a', 'b', 'c'];

type Ex =
  | { e: 'lit'; val: Val; text: string }
  | { e: 'read'; key: string }
  | { e: 'param' }
  | { e: 'bin'; op: '+' | '-' | '*' | '/' | '%'; l: Ex; r: Ex };

type St = { s: 'set' | 'add'; key: string; ex: Ex } | { s: 'inc'; key: string } | { s: 'remove'; key: string };

const intLit = fc.integer({ min: -1000, max: 1000 }).map((n): Ex => ({ e: 'lit', val: { t: 'int', v: BigInt(n) }, text: String(n) }));
const doubleLit = fc.integer({ min: -400, max: 400 }).map((n): Ex => ({ e: 'lit', val: { t: 'double', v: n / 4 }, text: (n / 4).toFixed(2) }));
const stringLit = fc.constantFrom('x', 'yz', '').map((s): Ex => ({ e: 'lit', val: { t: 'string', v: s }, text: `'${s}'` }));
const leaf: fc.Arbitrary<Ex> = fc.oneof(intLit, doubleLit, stringLit, fc.constantFrom(...KEYS).map((key): Ex => ({ e: 'read', key })), fc.constant<Ex>({ e: 'param' }));
const expr: fc.Arbitrary<Ex> = fc.letrec<{ ex: Ex }>((tie) => ({
  ex: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ e: fc.constant('bin' as const), op: fc.constantFrom('+', '-', '*', '/', '%'), l: tie('ex'), r: tie('ex') }) as fc.Arbitrary<Ex>,
  ),
})).ex;

const statement: fc.Arbitrary<St> = fc.oneof(
  fc.record({ s: fc.constantFrom('set' as const, 'add' as const), key: fc.constantFrom(...KEYS), ex: expr }),
  fc.record({ s: fc.constant('inc' as const), key: fc.constantFrom(...KEYS) }),
  fc.record({ s: fc.constant('remove' as const), key: fc.constantFrom(...KEYS) }),
);

const jsonValue = fc.oneof(
  fc.integer({ min: -2147483648, max: 2147483647 }).map(String),
  fc.constantFrom('2147483647', '-2147483648', '4294967296', '-9223372036854775808', '9223372036854775807'),
  fc.integer({ min: -1000, max: 1000 }).map((n) => (n / 8).toFixed(3)),
  fc.constantFrom('"s"', '"7"', 'null'),
);
const doc = fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), jsonValue), { selector: ([key]) => key, maxLength: 3 }).map((entries) => ({
  text: `{${[...entries.map(([k, v]) => `"${k}":${v}`), '"keep":{"n":1.50}'].join(',')}}`,
  values: new Map(entries.map(([k, v]) => [k, fromJson(v)])),
  raw: new Map(entries),
}));

function fromJson(text: string): Val {
  if (text === 'null') return { t: 'null' };
  if (text.startsWith('"')) return { t: 'string', v: JSON.parse(text) as string };
  if (text.includes('.')) return { t: 'double', v: Number(text) };
  const big = BigInt(text);
  return big >= -(2n ** 31n) && big < 2n ** 31n ? { t: 'int', v: big } : { t: 'long', v: big };
}

function show(val: Val): string {
  if (val.t === 'null') return 'null';
  if (val.t === 'string') return val.v;
  if (val.t === 'double') return javaDoubleString(val.v as number);
  return String(val.v);
}

function arith(op: '+' | '-' | '*' | '/' | '%', l: Val, r: Val): Val {
  if (op === '+' && (l.t === 'string' || r.t === 'string')) return { t: 'string', v: show(l) + show(r) };
  if (l.t === 'null' || r.t === 'null') throw new Failure('null_pointer_exception');
  if (l.t === 'string' || r.t === 'string') throw new Failure('class_cast_exception');
  if (l.t === 'double' || r.t === 'double') {
    const x = Number(l.v);
    const y = Number(r.v);
    const v = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : x % y;
    return { t: 'double', v };
  }
  const bits = l.t === 'long' || r.t === 'long' ? 64 : 32;
  const x = l.v as bigint;
  const y = r.v as bigint;
  if ((op === '/' || op === '%') && y === 0n) throw new Failure('arithmetic_exception');
  const v = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : x % y;
  return { t: bits === 64 ? 'long' : 'int', v: BigInt.asIntN(bits, v) };
}

function source(ex: Ex): string {
  switch (ex.e) {
    case 'lit': return ex.text;
    case 'read': return `ctx._source.${ex.key}`;
    case 'param': return 'params.p';
    case 'bin': return `(${source(ex.l)} ${ex.op} ${source(ex.r)})`;
  }
}

function evaluate(ex: Ex, values: Map<string, Val>, param: Val): Val {
  switch (ex.e) {
    case 'lit': return ex.val;
    case 'read': return values.get(ex.key) ?? { t: 'null' };
    case 'param': return param;
    case 'bin': return arith(ex.op, evaluate(ex.l, values, param), evaluate(ex.r, values, param));
  }
}

function programText(statements: St[]): string {
  return statements
    .map((st) => {
      switch (st.s) {
        case 'set': return `ctx._source.${st.key} = ${source(st.ex)}`;
        case 'add': return `ctx._source.${st.key} += ${source(st.ex)}`;
        case 'inc': return `ctx._source.${st.key}++`;
        case 'remove': return `ctx._source.remove('${st.key}')`;
      }
    })
    .join('; ');
}

function json(val: Val): string {
  if (val.t === 'string') return JSON.stringify(val.v);
  if (val.t === 'double' && !Number.isFinite(val.v as number)) return JSON.stringify(show(val));
  return show(val);
}

/** The static type of an expression: a literal's own type, def for document and params reads. */
function staticType(ex: Ex): Val['t'] | 'def' {
  switch (ex.e) {
    case 'lit': return ex.val.t;
    case 'read': case 'param': return 'def';
    case 'bin': {
      const l = staticType(ex.l);
      const r = staticType(ex.r);
      if (ex.op === '+' && (l === 'string' || r === 'string')) return 'string';
      if (l === 'def' || r === 'def' || l === 'null' || r === 'null') return 'def';
      if (l === 'string' || r === 'string') throw new Failure('class_cast_exception');
      return l === 'double' || r === 'double' ? 'double' : l === 'long' || r === 'long' ? 'long' : 'int';
    }
  }
}

/** The expected source text, or the failure type. */
function reference(statements: St[], initial: Map<string, Val>, initialText: Map<string, string>, param: Val): string | Failure {
  try {
    for (const st of statements) if (st.s === 'set' || st.s === 'add') staticType(st.ex);
  } catch (err) {
    if (err instanceof Failure) return err;
    throw err;
  }
  // Insertion order as the document had it, `keep` last; a removed key re-added goes to the end.
  const order = [...initial.keys(), 'keep'];
  const values = new Map(initial);
  // Values the script never wrote keep the document's own text (`0.000` stays `0.000`).
  const untouched = new Map(initialText);
  untouched.set('keep', '{"n":1.50}');
  try {
    for (const st of statements) {
      const current = values.get(st.key) ?? { t: 'null' as const };
      let next: Val | undefined;
      if (st.s === 'set') next = evaluate(st.ex, values, param);
      else if (st.s === 'add') next = arith('+', current, evaluate(st.ex, values, param));
      else if (st.s === 'inc') next = arith('+', current, { t: 'int', v: 1n });
      untouched.delete(st.key);
      if (next === undefined) {
        values.delete(st.key);
        if (order.includes(st.key)) order.splice(order.indexOf(st.key), 1);
      } else {
        if (!order.includes(st.key)) order.push(st.key);
        values.set(st.key, next);
      }
    }
  } catch (err) {
    if (err instanceof Failure) return err;
    throw err;
  }
  return `{${order.map((key) => `"${key}":${untouched.get(key) ?? json(values.get(key)!)}`).join(',')}}`;
}

test('random assignment programs agree with the reference model of painless arithmetic', () => {
  const param = fc.oneof(fc.integer({ min: -5, max: 5 }).map((n) => ({ json: n, val: { t: 'int', v: BigInt(n) } as Val })), fc.constant({ json: 'p', val: { t: 'string', v: 'p' } as Val }));
  fc.assert(
    fc.property(doc, fc.array(statement, { minLength: 1, maxLength: 6 }), param, (document, statements, p) => {
      const script = programText(statements);
      const expected = reference(statements, document.values, document.raw, p.val);
      let actual: string | Failure;
      try {
        actual = run(script, document.text, { p: p.json }).source;
      } catch (err) {
        if (!(err instanceof EsError) || err.type !== 'script_exception' || (err.reason !== 'runtime error' && err.reason !== 'compile error')) throw err;
        actual = new Failure(err.causedBy!.type);
      }
      assert.deepEqual(actual, expected, `script: ${script}\ndoc: ${document.text}`);
    }),
    { numRuns: 500 },
  );
});
