/** BM25 as Lucene computes it: the formula in float arithmetic, the norm cache, ES's legacy factor, explain. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LENGTH_TABLE, intToByte4 } from '../../../src/engine/codec/index.js';
import { EsError } from '../../../src/common/errors.js';
import { BM25Similarity, Explanation, floatToJsonNumber, floatToString, nextUpFloat } from '../../../src/search/index.js';
import { bm25, idf, quantizedLength } from './helpers/bm25-reference.js';

const collection = (docCount: number, sumTotalTermFreq: number) => ({ field: 'body', maxDoc: docCount, docCount, sumTotalTermFreq, sumDocFreq: sumTotalTermFreq });
const termStats = (docFreq: number) => ({ term: Buffer.from('t'), docFreq, totalTermFreq: docFreq });

test('a one-document index scores the famous 0.2876821 under ES (legacy) BM25', () => {
  // "quick brown fox", query "quick": idf = ln(1 + 0.5 / 1.5), dl = avgdl = 3, tf = 1 / (1 + 1.2) * 2.2 = 1.
  const scorer = new BM25Similarity().scorer(1, collection(1, 3), [termStats(1)]);
  assert.equal(scorer.score(1, intToByte4(3)), Math.fround(0.2876821));
  // Plain Lucene 8/9 BM25 has no (1 + k1) factor: the same score divided by 2.2, in float.
  const plain = new BM25Similarity({ legacyK1Factor: false }).scorer(1, collection(1, 3), [termStats(1)]);
  assert.equal(plain.score(1, intToByte4(3)), Math.fround(0.13076457));
});

test('idf is ln(1 + (N - n + 0.5) / (n + 0.5)) computed in double and rounded to float', () => {
  assert.equal(BM25Similarity.idf(1, 1), Math.fround(Math.log(4 / 3)));
  assert.equal(BM25Similarity.idf(7, 9), Math.fround(0.2876821)); // recorded from Lucene 8.7 (see lucene-oracle.ts)
  assert.equal(BM25Similarity.idf(5, 9), Math.fround(0.597837));
  // A term in every document still gets a small positive idf.
  assert.ok(BM25Similarity.idf(100, 100) > 0);
});

test('scores equal the formula, with Lucene float rounding, for every norm byte and small frequencies', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 10_000 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 5_000 }),
      fc.integer({ min: 1, max: 40 }),
      fc.double({ min: 0.1, max: 10, noNaN: true }),
      fc.boolean(),
      (docCount, avgLength, length, freq, boost, legacy) => {
        const docFreq = Math.max(1, Math.floor(docCount / 3));
        const sum = docCount * avgLength;
        const scorer = new BM25Similarity({ legacyK1Factor: legacy }).scorer(boost, collection(docCount, sum), [termStats(docFreq)]);
        const expected = bm25({ freq, length, docCount, sumTotalTermFreq: sum, docFreqs: [docFreq], boost, legacy });
        assert.equal(scorer.score(freq, intToByte4(length)), expected);
      },
    ),
    { numRuns: 300 },
  );
});

test('the norm cache follows LENGTH_TABLE: longer documents never score higher', () => {
  const scorer = new BM25Similarity().scorer(1, collection(100, 1000), [termStats(10)]);
  let previous = Infinity;
  for (let norm = 1; norm < 256; norm++) {
    const score = scorer.score(2, norm);
    assert.ok(score <= previous, `norm ${norm} scores ${score} above norm ${norm - 1}`);
    previous = score;
  }
  for (const length of [...Array.from({ length: 3000 }, (_, i) => i + 1), 65_537, 1_000_000, 123_456_789]) {
    assert.equal(LENGTH_TABLE[intToByte4(length)], quantizedLength(length), `length ${length}`);
  }
  // A 100-token document is scored as 96 tokens long (the norm's quantisation).
  assert.equal(LENGTH_TABLE[intToByte4(100)], 96);
  assert.equal(quantizedLength(100), 96);
});

test('a phrase sums the float idfs of its terms in double, rounded once', () => {
  const scorer = new BM25Similarity({ legacyK1Factor: false }).scorer(1, collection(9, 47), [termStats(5), termStats(7)]);
  const expected = bm25({ freq: 1, length: 4, docCount: 9, sumTotalTermFreq: 47, docFreqs: [5, 7] });
  assert.equal(scorer.score(1, intToByte4(4)), expected);
  const explanation = scorer.explain(Explanation.match(1, 'phraseFreq=1.0'), intToByte4(4));
  const idfNode = explanation.details[0]!;
  assert.equal(idfNode.description, 'idf, sum of:');
  assert.equal(idfNode.value, Math.fround(idf(5, 9) + idf(7, 9)));
  assert.equal(idfNode.details.length, 2);
});

test('explain prints the formula the way Lucene does, and its value is the score', () => {
  const scorer = new BM25Similarity().scorer(1, collection(9, 47), [termStats(7)]);
  const freq = Explanation.match(3, 'freq, occurrences of term within document');
  const explanation = scorer.explain(freq, intToByte4(6));
  assert.equal(explanation.value, scorer.score(3, intToByte4(6)));
  assert.equal(
    explanation.toString(),
    [
      '0.43809026 = score(freq=3.0), computed as boost * idf * tf from:',
      '  2.2 = boost',
      '  0.2876821 = idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:',
      '    7 = n, number of documents containing term',
      '    9 = N, total number of documents with field',
      '  0.6921944 = tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
      '    3.0 = freq, occurrences of term within document',
      '    1.2 = k1, term saturation parameter',
      '    0.75 = b, length normalization parameter',
      '    6.0 = dl, length of field',
      '    5.2222223 = avgdl, average length of field',
      '',
    ].join('\n'),
  );
  // Long documents have approximate lengths (norm bytes above 39), and say so.
  const long = scorer.explain(freq, intToByte4(100));
  assert.match(long.toString(), /96\.0 = dl, length of field \(approximate\)/);
  // ES's JSON: floats print with their shortest digits.
  assert.deepEqual(explanation.toJSON().details[0], { value: 2.2, description: 'boost', details: [] });
});

test('k1 and b are validated with Lucene messages', () => {
  assert.throws(() => new BM25Similarity({ k1: -1 }), (err: unknown) => err instanceof EsError && /illegal k1 value: -1.0/.test(err.message));
  assert.throws(() => new BM25Similarity({ b: 1.5 }), (err: unknown) => err instanceof EsError && /illegal b value: 1.5, must be between 0 and 1/.test(err.message));
  assert.doesNotThrow(() => new BM25Similarity({ k1: 0, b: 0 }));
});

test('Java float printing and float steps', () => {
  assert.equal(floatToString(1), '1.0');
  assert.equal(floatToString(0.2876821), '0.2876821');
  assert.equal(floatToString(2.2), '2.2');
  assert.equal(floatToString(1e-4), '1.0E-4');
  assert.equal(floatToString(12345678), '1.2345678E7');
  assert.equal(floatToString(-0.5), '-0.5');
  assert.equal(floatToJsonNumber(Math.fround(2.2)), 2.2);
  assert.equal(nextUpFloat(1), 1 + 2 ** -23);
  assert.ok(nextUpFloat(0.2876821) > Math.fround(0.2876821));
  assert.equal(Math.fround(nextUpFloat(0.3)), nextUpFloat(0.3));
});
