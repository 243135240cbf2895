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
  // And an overlap is claimed only when a name matches both: every name short enough is tried (a common name, if
  // any, needs no more characters than the two patterns' literals together).
  const shortPattern = fc.array(alphabet, { maxLength: 4 }).map((chars) => chars.join(''));
  fc.assert(
    fc.property(shortPattern, shortPattern, (a, b) => {
      const limit = a.replaceAll('*', '').length + b.replaceAll('*', '').length;
      let names = [''];
      let found = simpleMatch(a, '') && simpleMatch(b, '');
      for (let length = 1; length <= limit && !found; length++) {
        names = names.flatMap((prefix) => ['a', 'b', '-'].map((char) => prefix + char));
        found = names.some((candidate) => simpleMatch(a, candidate) && simpleMatch(b, candidate));
      }
      assert.equal(twoPatternsOverlap(a, b), found, `${a} / ${b}`);
    }),
  );
});
