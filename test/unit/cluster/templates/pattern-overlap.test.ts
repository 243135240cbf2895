import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { twoPatternsOverlap } from '../../../../src/cluster/metadata/templates/pattern-overlap.js';
import { simpleMatch } from '../../../../src/common/wildcards.js';

test('examples of overlapping and disjoint patterns', () => {
  assert.equal(twoPatternsOverlap('logs-*', 'logs-app-*'), true);
  assert.equal(twoPatternsOverlap('*', 'anything'), true);
  assert.equal(twoPatternsOverlap('a*', 'b*'), false);
  assert.equal(twoPatternsOverlap('*-x', '*-y'), false);
  assert.equal(twoPatternsOverlap('a*z', '*b*'), true);
  assert.equal(twoPatternsOverlap('abc', 'abc'), true);
  assert.equal(twoPatternsOverlap('abc', 'abd'), false);
  assert.equal(twoPatternsOverlap('x*', 'x'), true);
});

test('property: a name both patterns match proves the overlap', () => {
  const alphabet = fc.constantFrom('a', 'b', '-', '*');
  const pattern = fc.array(alphabet, { maxLength: 6 }).map((chars) => chars.join(''));
  const name = fc.array(fc.constantFrom('a', 'b', '-'), { maxLength: 8 }).map((chars) => chars.join(''));
  fc.assert(
    fc.property(pattern, pattern, name, (a, b, candidate) => {
      if (simpleMatch(a, candidate) && simpleMatch(b, candidate)) assert.equal(twoPatternsOverlap(a, b), true);
    }),
  );
  // And an overlap is found only when some name matches both: fill each star with nothing or one letter.
  fc.assert(
    fc.property(pattern, pattern, (a, b) => {
      if (!twoPatternsOverlap(a, b)) return;
      const witnesses = (p: string): string[] => p.split('*').reduce<string[]>((acc, part, i) => (i === 0 ? [part] : acc.flatMap((prefix) => ['', 'a', 'b', '-', 'ab', 'a-', '-b'].map((fill) => prefix + fill + part))), []);
      const found = [...witnesses(a), ...witnesses(b)].some((candidate) => simpleMatch(a, candidate) && simpleMatch(b, candidate));
      assert.ok(found, `no witness for ${a} / ${b}`);
    }),
  );
});
