import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SortedTermBytes } from '../../../src/engine/indexing/sorted-term-bytes.js';
import { TermDictionary } from '../../../src/engine/indexing/term-postings.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Terms as the indexing buffer's dictionary holds them: distinct, in first-seen order. */
function dictionaryOf(terms: readonly string[]): TermDictionary {
  const dictionary = new TermDictionary();
  for (const term of terms) if (!dictionary.ids.has(term)) dictionary.add(term);
  return dictionary;
}

test('a field\'s terms come out in UTF-8 byte order, each encoded as Buffer.from would', () => {
  // Surrogate pairs (U+10000 and up) sort after U+E000..U+FFFF in byte order but before them in UTF-16 order.
  const term = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom('a', '', 'é', '😀', '\uffff', '\ue000', 'ab', 'zz'));
  fc.assert(
    fc.property(fc.array(term, { maxLength: 60 }), (values) => {
      // Lone surrogates become U+FFFD in UTF-8, so two different strings could share bytes: not a dictionary's terms.
      const wellFormed = values.filter((value) => !LONE_SURROGATE.test(value));
      const dictionary = dictionaryOf(wellFormed);
      const sorted = SortedTermBytes.encode(dictionary.terms, dictionary.needsByteOrderSort, 'utf8');
      const expected = dictionary.terms.map((t) => Buffer.from(t, 'utf8')).sort(Buffer.compare);
      assert.equal(sorted.size, expected.length);
      for (let i = 0; i < sorted.size; i++) {
        assert.deepEqual(Buffer.from(sorted.term(i)), expected[i]);
        assert.deepEqual(Buffer.from(dictionary.terms[sorted.order[i]!]!, 'utf8'), expected[i]);
      }
    }),
    { numRuns: 200 },
  );
});

test('raw byte terms (ip, binary doc values: one latin1 character per byte) keep their bytes and byte order', () => {
  const values = ['\u00ff\u0000', '\u0000\u00ff', 'abc', '\u0080', 'ab\u00e9'];
  const dictionary = dictionaryOf(values);
  const sorted = SortedTermBytes.encode(dictionary.terms, dictionary.needsByteOrderSort, 'latin1');
  const expected = values.map((value) => Buffer.from(value, 'latin1')).sort(Buffer.compare);
  assert.deepEqual(Array.from({ length: sorted.size }, (_, i) => Buffer.from(sorted.term(i))), expected);
});
