import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GOLDEN } from './option-matrix.golden.js';
import { matrixCases, outcome } from './option-matrix-cases.js';

test('the option matrix covers the inputs the golden file recorded', () => {
  assert.deepEqual(
    matrixCases().map(({ input }) => input),
    GOLDEN.map(([input]) => input),
  );
});

test('every option of every hand-written query parser, with every kind of token, parses as recorded', () => {
  const differences: string[] = [];
  const cases = matrixCases();
  for (const [index, [input, expected]] of GOLDEN.entries()) {
    const actual = outcome(cases[index]!);
    if (actual !== expected) differences.push(`${input}\n  expected ${expected}\n  actual   ${actual}`);
  }
  assert.equal(differences.length, 0, `${differences.length} cases differ:\n${differences.slice(0, 20).join('\n')}`);
});
