/**
 * Equivalences checked on random inputs: term ranges against a brute-force byte comparison over the terms,
 * Lucene regexps against JavaScript's RegExp on the syntax both share (and complement against negation),
 * and a phrase prefix without expansion against the plain phrase.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IndexSearcher, PhraseQuery } from '../../../../src/search/index.js';
import { LuceneRegexp, REGEXP_ALL } from '../../../../src/search/query/multiterm/lucene-regexp.js';
import { termInRange, TermRangeQuery } from '../../../../src/search/query/multiterm/term-range-query.js';
import { MultiPhrasePrefixQuery } from '../../../../src/search/query/phrase/multi-phrase-prefix-query.js';
import { buildSearcher } from '../helpers/test-indexer.js';
import { smallSearcher } from '../helpers/small-corpus.js';

const term = fc.string({ unit: fc.constantFrom('a', 'b', 'z', 'A', 'é', '中', '😀', '\u0000'), maxLength: 4 });

test('property: term_range matches exactly the terms a byte comparison puts within the bounds', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(term, { minLength: 1, maxLength: 12 }),
      fc.option(term, { nil: undefined }),
      fc.option(term, { nil: undefined }),
      fc.boolean(),
      fc.boolean(),
      async (values, lower, upper, includeLower, includeUpper) => {
        const docs = values.map((value, i) => ({ id: String(i), source: { tag: value } }));
        const searcher = new IndexSearcher(await buildSearcher([docs], { tag: { type: 'keyword' } }));
        const query = new TermRangeQuery('tag', { ...(lower !== undefined && { lower }), ...(upper !== undefined && { upper }), includeLower, includeUpper });
        const got = searcher.topDocs(query, 100).scoreDocs.map((hit) => hit.doc).sort((a, b) => a - b);
        const bytes = (text: string | undefined) => (text === undefined ? undefined : Buffer.from(text, 'utf8'));
        const expected = values.flatMap((value, i) => (termInRange(Buffer.from(value, 'utf8'), bytes(lower), bytes(upper), includeLower, includeUpper) ? [i] : []));
        assert.deepEqual(got, expected);
        // The predicate itself against a direct definition: lower <(=) term <(=) upper in unsigned byte order.
        for (const value of values) {
          const t = Buffer.from(value, 'utf8');
          const aboveLower = lower === undefined || (includeLower ? Buffer.compare(t, bytes(lower)!) >= 0 : Buffer.compare(t, bytes(lower)!) > 0);
          const belowUpper = upper === undefined || (includeUpper ? Buffer.compare(t, bytes(upper)!) <= 0 : Buffer.compare(t, bytes(upper)!) < 0);
          assert.equal(termInRange(t, bytes(lower), bytes(upper), includeLower, includeUpper), aboveLower && belowUpper);
        }
      },
    ),
    { numRuns: 40 },
  );
});

/** What `build` returns, or undefined when it refuses the pattern as too complex to determinize. */
function unlessTooComplex(build: () => LuceneRegexp): LuceneRegexp | undefined {
  try {
    return build();
  } catch (error) {
    if ((error as { type?: string }).type === 'too_complex_to_determinize_exception') return undefined;
    throw error;
  }
}

/** A pattern in the syntax Lucene and JavaScript read alike: literals, `.`, classes, groups, `|`, `?*+{n,m}`. */
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string; atom: string; seq: string }>((tie) => ({
  atom: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'c') },
    { weight: 1, arbitrary: fc.constant('.') },
    { weight: 1, arbitrary: fc.constantFrom('[ab]', '[^a]', '[a-c]') },
    { weight: 1, arbitrary: tie('node').map((inner) => `(${inner})`) },
  ),
  seq: fc
    .array(fc.tuple(tie('atom'), fc.constantFrom('', '', '', '?', '*', '+', '{1,2}', '{2}')), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.map(([atom, repeat]) => atom + repeat).join('')),
  node: fc.oneof({ weight: 3, arbitrary: tie('seq') }, { weight: 1, arbitrary: fc.tuple(tie('seq'), tie('seq')).map(([a, b]) => `${a}|${b}`) }),
})).node;

const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 });

test('property: Lucene regexps match as JavaScript RegExp on their common syntax; ~ is the negation', () => {
  fc.assert(
    fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 8 }), (source, texts) => {
      const reference = new RegExp(`^(?:${source})$`, 'su');
      // A pattern whose automaton needs more than the determinize work limit is refused as Lucene refuses it
      // (e.g. `(((b|.{2}a)+(a|c)){1,2}.){2}a`, drawn by seed -961553015): no matching to compare, so the case is
      // discarded; any other error still fails the property.
      const lucene = unlessTooComplex(() => new LuceneRegexp(source));
      const folded = unlessTooComplex(() => new LuceneRegexp(source, REGEXP_ALL, true));
      const complement = unlessTooComplex(() => new LuceneRegexp(`~(${source})`, REGEXP_ALL));
      fc.pre(lucene !== undefined && folded !== undefined && complement !== undefined);
      for (const value of texts) {
        assert.equal(lucene.matches(value), reference.test(value), `/${source}/ on "${value}"`);
        assert.equal(lucene.matchesOnTree(value), reference.test(value), `tree: /${source}/ on "${value}"`);
        assert.equal(complement.matches(value), !reference.test(value), `~(${source}) on "${value}"`);
        const upper = value.toUpperCase();
        assert.equal(folded.matches(upper), folded.matchesOnTree(upper), `case-insensitive /${source}/ on "${upper}"`);
        // Lucene folds characters, not ranges: without a range, folding makes the upper-cased text match alike.
        if (!source.includes('-')) assert.equal(folded.matches(upper), reference.test(value), `ASCII folding: /${source}/ on "${upper}"`);
      }
    }),
    { numRuns: 300 },
  );
});

test('Lucene regexp syntax details: intervals, intersection, escapes, flags, errors', () => {
  const matches = (source: string, value: string, flags = REGEXP_ALL) => new LuceneRegexp(source, flags).matches(value);
  assert.ok(matches('<1-10>', '7') && matches('<1-10>', '007') && !matches('<1-10>', '11'), 'any number of leading zeros');
  assert.ok(matches('<01-10>', '07') && !matches('<01-10>', '7'), 'same digit counts: fixed width');
  assert.ok(matches('a.*&.*b', 'axb') && !matches('a.*&.*b', 'ax'));
  assert.ok(matches('\\d\\w\\s', '1a ') && !matches('\\D', '1'));
  assert.ok(matches('"a.b"', 'a.b') && !matches('"a.b"', 'axb'));
  assert.ok(matches('^a$', '^a$'), '^ and $ are plain characters');
  assert.ok(matches('a#', 'a#', 0) && !matches('a#', 'a#'), '# is the empty language unless EMPTY is off');
  assert.ok(matches('()', ''));
  assert.ok(new LuceneRegexp('QU.CK', REGEXP_ALL, true).matches('quick'));
  assert.ok(new LuceneRegexp('[Q]', REGEXP_ALL, true).matches('q'), 'a class character folds as any character does');
  assert.throws(() => new LuceneRegexp('(ab'), /expected '\)' at position 3/);
  assert.throws(() => new LuceneRegexp('ab)'), /end-of-string expected at position 2/);
  assert.throws(() => new LuceneRegexp('a{'), /integer expected at position 2/);
  assert.throws(() => new LuceneRegexp('[z-a]'), /invalid range: from \(122\) cannot be > to \(97\)/);
  assert.throws(() => new LuceneRegexp('\\q'), /invalid character class \\q/);
  assert.throws(() => new LuceneRegexp('[ab'), /expected '\]' at position 3/);
});

test('property: a phrase prefix whose prefix is a whole, unique term scores as the plain phrase', async () => {
  const searcher = await smallSearcher(true);
  const phrases: Array<[string, string]> = [
    ['brown', 'fox'],
    ['quick', 'brown'],
    ['lazy', 'dog'],
    ['jumps', 'over'],
  ];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...phrases), fc.integer({ min: 0, max: 3 }), async ([first, second], slop) => {
      const prefix = new MultiPhrasePrefixQuery('body', [[first], [second]], [0, 1], { slop, maxExpansions: 1 });
      const rewritten = searcher.rewrite(prefix);
      if (!rewritten.toString().includes(`"${first} ${second}"`)) return; // the prefix expanded to another term first
      const phrase = new PhraseQuery('body', [first, second], { slop });
      const a = searcher.topDocs(prefix, 20).scoreDocs;
      const b = searcher.topDocs(phrase, 20).scoreDocs;
      assert.deepEqual(a, b);
    }),
    { numRuns: 20 },
  );
});
