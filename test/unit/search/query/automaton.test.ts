/**
 * The regexp DFA and the sorted-terms Levenshtein walker: both answer as their reference does (the regexp tree
 * matcher, the plain edit distance), their refusals and skips never lose a match, and the work limit refuses
 * the expressions issue 18 measured with Lucene's message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileRegexpDfa, prefixSuccessor, precompileRegexpDfa } from '../../../../src/search/query/multiterm/automaton.js';
import { LuceneRegexp, parseLuceneRegexp } from '../../../../src/search/query/multiterm/lucene-regexp.js';
import { codePoints, editDistance, SortedTermsDistance } from '../../../../src/search/query/multiterm/levenshtein.js';
import { EsError } from '../../../../src/common/errors.js';

test('pathological regexps are refused with Lucene TooComplexToDeterminizeException message', () => {
  for (const pattern of ['[a-z]{1,50}{1,50}', '.*a.{30}']) {
    assert.throws(
      () => new LuceneRegexp(pattern),
      (err: unknown) => err instanceof EsError && err.type === 'too_complex_to_determinize_exception' && err.reason === `Determinizing ${pattern} would require more than 10000 effort.`,
    );
  }
  assert.throws(() => new LuceneRegexp('.*a.{4}', 255, false, 10), /would require more than 10 effort\.$/);
  assert.ok(new LuceneRegexp('.*a.{4}', 255, false, 100).matches('xxaxxxx'));
  assert.ok(new LuceneRegexp('[a-z]{1,50}').matches('abc'));
});

test('a sliced compile pauses while it works and then serves the synchronous compile from its cache', async () => {
  let pauses = 0;
  const pattern = '.*a.{12}';
  await precompileRegexpDfa(parseLuceneRegexp(pattern), pattern, false, 1_000_000, 255, async () => {
    pauses++;
  });
  assert.ok(pauses > 0, 'the powerset construction paused');
  // The synchronous compile is handed another expression's tree under the same pattern: only a cache hit answers
  // with the precompiled automaton. (A bound of 50 ms on its wall time told a hit from a compile on a quiet host,
  // and failed whenever a loaded one took this process off the CPU for 50 ms.)
  const dfa = compileRegexpDfa(parseLuceneRegexp('b'), pattern, false, 1_000_000, 255);
  assert.equal(dfa.run(Buffer.from('xxa123456789012')), 1, 'the second compile is a cache hit');
  assert.notEqual(dfa.run(Buffer.from('b')), 1, "not the automaton of the tree it was handed ('b')");
});

test('a dead automaton reports how many bytes of the term no match can extend', () => {
  const dfa = new LuceneRegexp('ab.*').dfa;
  assert.equal(dfa.run(Buffer.from('abzz')), 1);
  assert.equal(dfa.run(Buffer.from('acdc')), -(2 + 1), 'died after reading "ac"');
  assert.deepEqual([...prefixSuccessor(Buffer.from('ac'))!], [...Buffer.from('ad')]);
  assert.equal(prefixSuccessor(Uint8Array.of(0xff, 0xff)), null);
});

const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é'), maxLength: 7 });

test('property: the walker over sorted terms gives the plain edit distance, and a dead prefix rules out only non-matches', () => {
  fc.assert(
    fc.property(letters, fc.uniqueArray(letters, { maxLength: 40 }), fc.integer({ min: 1, max: 2 }), fc.boolean(), (query, unsorted, maxEdits, transpositions) => {
      const terms = unsorted.map((term) => Buffer.from(term, 'utf8')).sort(Buffer.compare);
      const walker = new SortedTermsDistance(codePoints(query), maxEdits, transpositions);
      for (const term of terms) {
        const expected = editDistance(codePoints(term.toString('utf8')), codePoints(query), maxEdits, transpositions);
        const actual = walker.distance(term, 0);
        assert.equal(actual, expected, `"${term.toString('utf8')}" vs "${query}"`);
        const dead = walker.deadPrefixBytes();
        if (actual > maxEdits && dead > 0) {
          // No term with that prefix is within reach.
          for (const other of terms) {
            if (other.length >= dead && other.subarray(0, dead).equals(term.subarray(0, dead))) {
              assert.ok(editDistance(codePoints(other.toString('utf8')), codePoints(query), maxEdits, transpositions) > maxEdits);
            }
          }
        }
      }
    }),
    { numRuns: 300 },
  );
});
