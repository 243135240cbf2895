/**
 * The generated Unicode 12.1 class table and the scanner built from it. The table was checked once, outside
 * the test suite, against Lucene 9's generated StandardTokenizerImpl: same partition of all code points,
 * and an isomorphic 59-state DFA with the same actions. These tests keep the cheap invariants of that.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLASS_MASKS, PROPERTY_NAMES } from '../../../src/analysis/standard/word-break-classes.js';
import { standardScanner } from '../../../src/analysis/standard/standard-tokenizer.js';
import { buildStandardScanner } from '../../../src/analysis/standard/standard-grammar.js';
import * as unicode121 from '../../../src/analysis/standard/word-break-classes.js';

const scanner = standardScanner();
const has = (cp: number, property: string): boolean => (CLASS_MASKS[scanner.classOf[cp]!]! & (1 << PROPERTY_NAMES.indexOf(property))) !== 0;

test('the minimized scanner has as many states as Lucene 9 generated StandardTokenizerImpl (59)', () => {
  assert.equal(scanner.dfa.accept.length, 59);
  assert.equal(scanner.classOf.length, 0x110000);
});

test('the precompiled scanner (standard-dfa.ts) is what the grammar compiles to (else: run generate-standard-dfa.mjs)', () => {
  const compiled = buildStandardScanner(unicode121);
  assert.equal(scanner.dfa.numClasses, compiled.dfa.numClasses);
  assert.deepEqual(scanner.dfa.transitions, compiled.dfa.transitions);
  assert.deepEqual(scanner.dfa.accept, compiled.dfa.accept);
  assert.deepEqual(scanner.dfa.terminal, compiled.dfa.terminal);
  assert.deepEqual(scanner.classOf, compiled.classOf);
});

test('spot checks of Unicode 12.1 word-break properties', () => {
  assert.ok(has(0x41, 'ALetter'));
  assert.ok(has(0x5d0, 'Hebrew_Letter'));
  assert.ok(has(0x30, 'Numeric') && has(0x30, 'KeyCapBase'));
  assert.ok(has(0xff10, 'Numeric'), 'fullwidth digits are WB Numeric since Unicode 11');
  assert.ok(has(0x2c, 'MidNum') && has(0x2e, 'MidNumLet') && has(0x3a, 'MidLetter') && has(0x27, 'Single_Quote'));
  assert.ok(has(0x5f, 'ExtendNumLet') && has(0x200d, 'ZWJ') && has(0x308, 'Extend') && has(0xad, 'Format'));
  assert.ok(has(0xe01, 'Complex_Context') && has(0x30ab, 'Katakana') && has(0x3042, 'Hiragana') && has(0x4e00, 'Han'));
  assert.ok(has(0xac00, 'Hangul') && has(0xac00, 'ALetter'));
  assert.ok(has(0x1f9a9, 'Extended_Pictographic'), 'U+1F9A9 FLAMINGO (Unicode 12.0)');
  assert.ok(has(0x1fa80, 'Emoji'), 'U+1FA80 YO-YO (Emoji 12.0)');
  assert.ok(!has(0x1fa7b, 'Emoji'), 'U+1FA7B X-RAY is emoji only from Unicode 15');
  // U+2388 HELM SYMBOL was Extended_Pictographic in Unicode 12.1 (and later dropped): Lucene 9 sees it as emoji.
  assert.ok(has(0x2388, 'Extended_Pictographic'));
});

test('the table agrees with the JavaScript engine on script and regional-indicator properties (stable once assigned)', () => {
  const checks: [string, RegExp][] = [
    ['Han', /^\p{Script=Han}$/u],
    ['Hiragana', /^\p{Script=Hiragana}$/u],
    ['Hangul', /^\p{Script=Hangul}$/u],
    ['Regional_Indicator', /^\p{Regional_Indicator}$/u],
  ];
  for (const [property, regex] of checks) {
    let count = 0;
    for (let cp = 0; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (has(cp, property)) {
        count++;
        assert.ok(regex.test(String.fromCodePoint(cp)), `U+${cp.toString(16)} has ${property} in the table but not in this engine`);
      }
    }
    assert.ok(count > 0, property);
  }
});
