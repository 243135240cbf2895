/**
 * function_score through the DSL: scores against ES's formulas computed by hand here, each citing the ES
 * source it follows (org.elasticsearch.common.lucene.search.function.*, index.query.functionscore.*).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { floatToString } from '../../../../src/search/index.js';
import { thrown } from '../dsl/helpers.js';
import { dslSearcher, executionQuery, scores } from './dsl-fixture.js';

const f = Math.fround;
const DAY = 86_400_000;

function assertClose(actual: number | undefined, expected: number, message: string): void {
  assert.ok(actual !== undefined, `${message}: no hit`);
  assert.ok(Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected)), `${message}: ${actual} != ${expected}`);
}

test('field_value_factor: modifier(value * factor) times the query score; missing stands in; first value of several', async () => {
  const searcher = await dslSearcher();
  const sub = scores(searcher, { match: { title: 'quick' } });
  const got = scores(searcher, { function_score: { query: { match: { title: 'quick' } }, field_value_factor: { field: 'age', factor: 1.2, modifier: 'log1p', missing: 1 } } });
  // FieldValueFactorFunction.score: Modifier.LOG1P.apply(value * boostFactor) = log10(v * 1.2f + 1);
  // CombineFunction.MULTIPLY: (float) (queryScore * min(factor, maxBoost)).
  const expected = (doc: number, value: number) => f(sub.get(doc)! * Math.log10(value * f(1.2) + 1));
  assert.deepEqual([...got.keys()].sort(), [0, 1, 3]);
  assertClose(got.get(0), expected(0, 10), 'doc 0');
  assertClose(got.get(1), expected(1, 20), 'doc 1');
  assertClose(got.get(3), expected(3, 1), 'doc 3 (missing)');
  const multi = scores(searcher, { function_score: { field_value_factor: { field: 'age' }, boost_mode: 'replace', query: { term: { tag: 'b' } } } });
  // The lowest of a document's values (SortedNumericDoubleValues.nextValue() after advanceExact).
  assert.equal(multi.get(2), 5);
  assert.equal(multi.get(1), 20);
});

test('field_value_factor errors as ES: a missing value without `missing`, a negative result', async () => {
  const searcher = await dslSearcher();
  const run = (body: object) => searcher.topDocs(executionQuery(body), 10);
  assert.deepEqual(thrown(() => run({ function_score: { field_value_factor: { field: 'age' } } })), { type: 'exception', reason: 'Missing value for field [age]' });
  assert.deepEqual(thrown(() => run({ function_score: { query: { term: { tag: 'b' } }, field_value_factor: { field: 'price', modifier: 'ln' } } })), {
    type: 'illegal_argument_exception',
    reason:
      'field value function must not produce negative scores, but got: [-0.6931471805599453] for field value: [0.5]; consider using ln1p or ln2p instead of ln to avoid negative scores',
  });
});

test('decay functions on numbers: gauss, exp, linear with offset and multi_value_mode; no value scores 1', async () => {
  const searcher = await dslSearcher();
  const decay = (shape: string, params: object, mode?: string) =>
    scores(searcher, { function_score: { [shape]: { age: params, ...(mode && { multi_value_mode: mode }) }, boost_mode: 'replace' } });
  // GaussDecayFunctionBuilder: processScale = 0.5 * scale^2 / ln(decay); evaluate = exp(0.5 * d^2 / scale').
  const gaussScale = (0.5 * 10 ** 2) / Math.log(0.5);
  const gauss = (d: number) => f(Math.exp((0.5 * d ** 2) / gaussScale));
  const g = decay('gauss', { origin: 20, scale: 10 });
  assert.deepEqual([...g.entries()].sort((a, b) => a[0] - b[0]), [
    [0, gauss(10)],
    [1, gauss(0)],
    [2, gauss(10)], // values 5 and 30: distances 15 and 10, min
    [3, 1], // no value: distance 0 (FieldData.replaceMissing(..., 0))
    [4, gauss(20)],
  ]);
  assert.equal(g.get(0), 0.5, 'at scale distance the score is the decay');
  assert.equal(decay('gauss', { origin: 20, scale: 10 }, 'max').get(2), gauss(15));
  assert.equal(decay('gauss', { origin: 20, scale: 10 }, 'avg').get(2), gauss(12.5));
  // ExponentialDecayFunctionBuilder: processScale = ln(decay) / scale; evaluate = exp(scale' * d).
  const expScale = Math.log(0.3) / 8;
  const e = decay('exp', { origin: 20, scale: 8, offset: 2, decay: 0.3 });
  assert.equal(e.get(0), f(Math.exp(expScale * 8)), 'distance max(0, |10 - 20| - 2) = 8');
  assert.equal(e.get(1), 1);
  assert.equal(e.get(4), f(Math.exp(expScale * 18)));
  // LinearDecayFunctionBuilder: processScale = scale / (1 - decay); evaluate = max(0, (s' - d) / s').
  const linearScale = 10 / (1 - 0.5);
  const l = decay('linear', { origin: 20, scale: 10 });
  assert.equal(l.get(0), f((linearScale - 10) / linearScale));
  assert.equal(l.get(4), 0, 'beyond scale / (1 - decay) the score is 0');
});

test('decay on a date field: origin and scale as dates and time values', async () => {
  const searcher = await dslSearcher();
  const got = scores(searcher, { function_score: { exp: { date: { origin: '2020-01-15', scale: '5d', offset: '1d' } }, boost_mode: 'replace' } });
  const scale = Math.log(0.5) / (5 * DAY);
  const distance = (iso: string) => Math.max(0, Math.abs(Date.parse(iso) - Date.UTC(2020, 0, 15)) - DAY);
  assert.equal(got.get(0), f(Math.exp(scale * distance('2020-01-10T00:00:00Z'))));
  assert.equal(got.get(1), 1);
  assert.equal(got.get(2), f(Math.exp(scale * distance('2020-01-20T00:00:00Z'))));
  assert.equal(got.get(3), 1, 'no date: distance 0');
  assert.equal(got.get(0), f(Math.exp(Math.log(0.5) * 0.8)));
});

test('filters, score_mode, boost_mode, max_boost and min_score', async () => {
  const searcher = await dslSearcher();
  const functions = [
    { filter: { term: { tag: 'a' } }, weight: 2 },
    { filter: { term: { tag: 'b' } }, weight: 3 },
  ];
  const run = (extra: object) => scores(searcher, { function_score: { functions, ...extra } });
  // match_all scores 1 (boost); docs 0: a, 1: a+b, 2: b, 3 and 4: neither ("No function matched": factor 1).
  assert.deepEqual([...run({ score_mode: 'sum' }).entries()].sort((a, b) => a[0] - b[0]), [[0, 2], [1, 5], [2, 3], [3, 1], [4, 1]]);
  assert.deepEqual([...run({ score_mode: 'multiply' }).entries()].sort((a, b) => a[0] - b[0]), [[0, 2], [1, 6], [2, 3], [3, 1], [4, 1]]);
  assert.deepEqual([...run({ score_mode: 'max' }).entries()].sort((a, b) => a[0] - b[0]), [[0, 2], [1, 3], [2, 3], [3, 1], [4, 1]]);
  assert.deepEqual([...run({ score_mode: 'min' }).entries()].sort((a, b) => a[0] - b[0]), [[0, 2], [1, 2], [2, 3], [3, 1], [4, 1]]);
  assert.deepEqual([...run({ score_mode: 'first' }).entries()].sort((a, b) => a[0] - b[0]), [[0, 2], [1, 2], [2, 3], [3, 1], [4, 1]]);
  // avg divides by the summed weights of the matching functions: (2 + 3) / (2 + 3) (FunctionFactorScorer.computeScore).
  assert.deepEqual([...run({ score_mode: 'avg' }).entries()].sort((a, b) => a[0] - b[0]), [[0, 1], [1, 1], [2, 1], [3, 1], [4, 1]]);
  assert.equal(run({ score_mode: 'sum', max_boost: 2.5 }).get(1), 2.5);
  assert.equal(run({ score_mode: 'sum', boost_mode: 'sum' }).get(1), 6);
  assert.equal(run({ score_mode: 'sum', boost_mode: 'avg' }).get(1), 3);
  assert.equal(run({ score_mode: 'sum', boost_mode: 'min' }).get(1), 1);
  assert.equal(run({ score_mode: 'sum', boost_mode: 'max' }).get(1), 5);
  assert.deepEqual([...run({ score_mode: 'sum', min_score: 3 }).keys()].sort(), [1, 2]);
  const sub = scores(searcher, { match: { title: 'quick fox' } });
  const replaced = scores(searcher, { function_score: { query: { match: { title: 'quick fox' } }, functions, score_mode: 'sum', boost_mode: 'replace' } });
  assert.deepEqual([...replaced.keys()].sort(), [...sub.keys()].sort());
  assert.equal(replaced.get(3), 1);
});

test('property: a lone `weight` multiplies the query score as a boost does (to float rounding)', async () => {
  const searcher = await dslSearcher();
  await fc.assert(
    fc.asyncProperty(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.constantFrom('quick', 'fox', 'quick fox', 'lazy dog'), async (weight, text) => {
      const weighted = scores(searcher, { function_score: { query: { match: { title: text } }, weight } });
      const boosted = scores(searcher, { match: { title: { query: text, boost: weight } } });
      assert.deepEqual([...weighted.keys()].sort(), [...boosted.keys()].sort());
      for (const [doc, score] of boosted) assertClose(weighted.get(doc), score, `weight ${weight} doc ${doc}`);
    }),
    { numRuns: 60 },
  );
});

test('explain prints ES\'s text and agrees with the score', async () => {
  const searcher = await dslSearcher();
  const query = executionQuery({
    function_score: {
      query: { term: { tag: 'a' } },
      functions: [{ filter: { term: { tag: 'b' } }, field_value_factor: { field: 'age', factor: 2, modifier: 'sqrt' }, weight: 3 }, { gauss: { age: { origin: 0, scale: 10 } } }],
      score_mode: 'sum',
      max_boost: 100,
    },
  });
  const explanation = searcher.explain(query, 1);
  const top = searcher.topDocs(query, 10).scoreDocs.find((hit) => hit.doc === 1)!;
  assert.equal(explanation.value, top.score);
  const lines = explanation.toString().split('\n');
  assert.equal(lines[0], `${explanation.valueString()} = function score, product of:`);
  assert.match(lines[1]!, /^  [0-9.]+ = weight\(tag:a in 1\) \[PerFieldSimilarity\], result of:$/);
  const rest = lines.slice(lines.findIndex((line) => line.startsWith('  ') && line.includes('min of:')));
  const gaussScale = (0.5 * 100) / Math.log(0.5);
  const decayDouble = Math.exp((0.5 * 20 ** 2) / gaussScale);
  const decayValue = f(decayDouble);
  const fvf = f(Math.sqrt(20 * 2));
  // The functions' factors are doubles, summed in double (computeScore); explanations round each to float.
  const factor = f(Math.sqrt(20 * 2) * 3 + decayDouble);
  const weightedFvf = f(f(fvf) * 3);
  const text = floatToString;
  assert.deepEqual(rest.slice(0, 11), [
    `  ${text(factor)} = min of:`,
    `    ${text(factor)} = function score, score mode [sum]`,
    `      ${text(weightedFvf)} = function score, product of:`,
    '        1.0 = match filter: tag:b',
    `        ${text(weightedFvf)} = product of:`,
    `          ${text(fvf)} = field value function: sqrt(doc['age'].value * factor=2.0)`,
    '          3.0 = weight',
    `      ${text(decayValue)} = Function for field age:`,
    `        ${text(decayValue)} = exp(-0.5*pow(MIN[Math.max(Math.abs(20.0(=doc value) - 0.0(=origin))) - 0.0(=offset), 0)],2.0)/${-gaussScale})`,
    '    100.0 = maxBoost',
    '',
  ]);
});

test('min_score explains why a document is dropped', async () => {
  const searcher = await dslSearcher();
  const query = executionQuery({ function_score: { functions: [{ filter: { term: { tag: 'b' } }, weight: 3 }], min_score: 2 } });
  const explanation = searcher.explain(query, 0);
  assert.equal(explanation.isMatch, false);
  assert.equal(explanation.description, 'Score value is too low, expected at least 2.0 but got 1.0');
});
