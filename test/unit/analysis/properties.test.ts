/** Property tests: invariants every token stream must keep, on random input. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StandardTokenizer, standardAnalyzer, whitespaceAnalyzer, englishAnalyzer } from '../../../src/analysis/index.js';
import { collect } from './helpers.js';

test('standard analyzer on ASCII: offsets increase, stay in the text, and slice to the lowercased token', () => {
  const analyzer = standardAnalyzer();
  fc.assert(
    fc.property(fc.string({ unit: 'binary-ascii', maxLength: 300 }), (text) => {
      const out = collect(analyzer.tokenStream(text));
      let previousEnd = 0;
      out.terms.forEach((term, i) => {
        const start = out.starts[i]!;
        const end = out.ends[i]!;
        assert.ok(start >= previousEnd && end > start && end <= text.length);
        assert.equal(text.slice(start, end).toLowerCase(), term);
        assert.equal(out.increments[i], 1);
        previousEnd = end;
      });
      assert.equal(out.finalOffset, text.length);
    }),
    { numRuns: 500 },
  );
});

test('standard tokenizer on any UTF-16: tokens are exact slices, never longer than max_token_length', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 120 }), fc.integer({ min: 1, max: 300 }), (text, max) => {
      const tokenizer = new StandardTokenizer(max);
      tokenizer.setText(text);
      const out = collect(tokenizer);
      let previousEnd = 0;
      out.terms.forEach((term, i) => {
        assert.ok(out.starts[i]! >= previousEnd);
        assert.equal(text.slice(out.starts[i], out.ends[i]), term);
        assert.ok(term.length >= 1 && term.length <= max);
        previousEnd = out.ends[i]!;
      });
    }),
    { numRuns: 500 },
  );
});

test('whitespace analyzer round-trips text without whitespace', () => {
  fc.assert(
    fc.property(fc.array(fc.stringMatching(/^[a-zA-Z0-9.,'-]{1,20}$/), { maxLength: 20 }), (words) => {
      const text = words.join(' ');
      assert.deepEqual(collect(whitespaceAnalyzer().tokenStream(text)).terms, words);
    }),
  );
});

test('english analyzer is deterministic and reuse-safe', () => {
  const shared = englishAnalyzer();
  fc.assert(
    fc.property(fc.string({ maxLength: 100 }), fc.string({ maxLength: 100 }), (a, b) => {
      const first = collect(shared.tokenStream(a));
      collect(shared.tokenStream(b));
      assert.deepEqual(collect(shared.tokenStream(a)), first);
      assert.deepEqual(collect(englishAnalyzer().tokenStream(a)), first);
    }),
    { numRuns: 200 },
  );
});
