/** Phrase queries: exact and sloppy frequencies as Lucene counts them, BM25 with summed idfs, explain. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EsError } from '../../../src/common/errors.js';
import { BM25Similarity, IndexSearcher, MatchNoDocsQuery, NO_MORE_DOCS, PhraseQuery, TermQuery } from '../../../src/search/index.js';
import { bm25 } from './helpers/bm25-reference.js';
import { smallSearcher } from './helpers/small-corpus.js';
import { buildSearcher } from './helpers/test-indexer.js';
import { TermImpacts } from '../../../src/engine/codec/index.js';
import { PhraseImpacts } from '../../../src/search/query/phrase/phrase-impacts.js';

async function searcherOf(bodies: readonly string[]): Promise<IndexSearcher> {
  const reader = await buildSearcher([bodies.map((body, i) => ({ id: String(i), source: { body } }))], { body: { type: 'text' } });
  return new IndexSearcher(reader, { similarity: new BM25Similarity({ legacyK1Factor: false }) });
}

const lengthsOf = (bodies: readonly string[]) => bodies.map((body) => body.split(' ').length);
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

test('exact phrases: frequency is the number of occurrences; idf is the sum of the terms idfs', async () => {
  const searcher = await smallSearcher();
  const top = searcher.topDocs(new PhraseQuery('body', ['brown', 'fox']), 10).scoreDocs;
  // brown: docs 0 1 3 9; fox: docs 0 2 3 4 6 7 9; "brown fox" occurs 3 times in doc 3, once in 9 and 0.
  const stats = { docCount: 9, sumTotalTermFreq: 47, docFreqs: [4, 7] };
  assert.deepEqual(top, [
    { doc: 3, score: bm25({ ...stats, freq: 3, length: 6 }) },
    { doc: 9, score: bm25({ ...stats, freq: 1, length: 5 }) },
    { doc: 0, score: bm25({ ...stats, freq: 1, length: 9 }) },
  ]);
});

test('a repeated term counts every alignment, as Lucene does ("a a" occurs twice in "a a a")', async () => {
  const bodies = ['a a a', 'a b a', 'b a a b a a'];
  const searcher = await searcherOf(bodies);
  const top = searcher.topDocs(new PhraseQuery('body', ['a', 'a']), 10).scoreDocs;
  const lengths = lengthsOf(bodies);
  const stats = { docCount: 3, sumTotalTermFreq: sum(lengths), docFreqs: [3, 3] };
  assert.deepEqual(top, [
    { doc: 0, score: bm25({ ...stats, freq: 2, length: 3 }) },
    { doc: 2, score: bm25({ ...stats, freq: 2, length: 6 }) },
  ]);
});

test('sloppy phrases add 1 / (1 + distance) per occurrence; reversed terms cost 2 moves', async () => {
  const searcher = await smallSearcher();
  const top = searcher.topDocs(new PhraseQuery('body', ['fox', 'quick'], { slop: 2 }), 10).scoreDocs;
  // doc 7 "jumps over quick fox lazy" and doc 4 "... fox and the quick cat": both need distance 2.
  const third = Math.fround(1 / 3);
  const stats = { docCount: 9, sumTotalTermFreq: 47, docFreqs: [7, 5] };
  assert.deepEqual(top, [
    { doc: 7, score: bm25({ ...stats, freq: third, length: 5 }) },
    { doc: 4, score: bm25({ ...stats, freq: third, length: 9 }) },
  ]);
  assert.equal(searcher.topDocs(new PhraseQuery('body', ['fox', 'quick'], { slop: 1 }), 10).scoreDocs.length, 0);
  // Matches are minimal-width: in "quick quick brown" only the closest pair counts (Lucene's matcher).
  const closest = searcher.explain(new PhraseQuery('body', ['quick', 'brown'], { slop: 1 }), 1);
  assert.match(closest.toString(), /1\.0 = phraseFreq=1\.0/);
});

test('sloppy occurrences add up', async () => {
  const searcher = await searcherOf(['x a b x a b', 'a x b', 'b a']);
  const query = new PhraseQuery('body', ['a', 'b'], { slop: 1 });
  assert.match(searcher.explain(query, 0).toString(), /2\.0 = phraseFreq=2\.0/);
  assert.match(searcher.explain(query, 1).toString(), /0\.5 = phraseFreq=0\.5/);
  // Reversed terms need 2 moves.
  assert.equal(searcher.explain(query, 2).isMatch, false);
  assert.match(searcher.explain(new PhraseQuery('body', ['a', 'b'], { slop: 2 }), 2).toString(), /0\.33333334 = phraseFreq=0\.33333334/);
});

test('positions with gaps match across removed tokens', async () => {
  const searcher = await smallSearcher();
  const gap = new PhraseQuery('body', ['quick', 'fox'], { positions: [0, 2] });
  assert.equal(gap.toString(), 'body:"quick ? fox"');
  assert.deepEqual(searcher.topDocs(gap, 10).scoreDocs.map((hit) => hit.doc), [0]);
  // Positions are relative: shifting them all changes nothing.
  const shifted = new PhraseQuery('body', ['quick', 'fox'], { positions: [3, 5] });
  assert.deepEqual(searcher.topDocs(shifted, 10).scoreDocs, searcher.topDocs(gap, 10).scoreDocs);
});

test('rewrites and printing', async () => {
  const searcher = await smallSearcher();
  assert.ok(searcher.rewrite(new PhraseQuery('body', [])) instanceof MatchNoDocsQuery);
  assert.ok(searcher.rewrite(new PhraseQuery('body', ['fox'])).equals(new TermQuery('body', 'fox')));
  assert.equal(new PhraseQuery('body', ['a', 'b'], { slop: 2 }).toString(), 'body:"a b"~2');
  assert.equal(new PhraseQuery('body', ['a', 'b']).toString('body'), '"a b"');
  assert.ok(new PhraseQuery('body', ['a', 'b']).equals(new PhraseQuery('body', ['a', 'b'])));
  assert.ok(!new PhraseQuery('body', ['a', 'b']).equals(new PhraseQuery('body', ['a', 'b'], { slop: 1 })));
  assert.throws(() => new PhraseQuery('body', ['a', 'b'], { positions: [2, 1] }), RangeError);
});

test('a phrase on a field without positions is an illegal state, with Lucene message', async () => {
  const searcher = await smallSearcher();
  assert.throws(
    () => searcher.topDocs(new PhraseQuery('tag', ['a', 'b']), 10),
    (err: unknown) =>
      err instanceof EsError &&
      err.type === 'illegal_state_exception' &&
      err.message === 'field "tag" was indexed without position data; cannot run PhraseQuery (phrase=tag:"a b")',
  );
});

test('explain gives the phrase frequency and the same value as the score', async () => {
  const searcher = await smallSearcher();
  const query = new PhraseQuery('body', ['brown', 'fox']);
  const explanation = searcher.explain(query, 3);
  assert.equal(explanation.description, 'weight(body:"brown fox" in 3) [BM25Similarity], result of:');
  assert.equal(explanation.value, searcher.topDocs(query, 1).scoreDocs[0]!.score);
  assert.match(explanation.toString(), /3\.0 = phraseFreq=3\.0/);
  assert.match(explanation.toString(), /idf, sum of:/);
  assert.equal(searcher.explain(query, 2).description, 'no matching terms');
  assert.equal(searcher.explain(new PhraseQuery('body', ['fox', 'brown']), 0).description, 'no matching phrase');
});

test('top-k phrase search with skipping returns what exhaustive search returns', async () => {
  const bodies = Array.from({ length: 3000 }, (_, i) => {
    const filler = Array.from({ length: (i * 7) % 23 }, (_, j) => `w${(i + j) % 11}`).join(' ');
    return i % 3 === 0 ? `red fox ${filler} red fox` : i % 3 === 1 ? `fox red ${filler}` : `red ${filler} fox`;
  });
  const searcher = await searcherOf(bodies);
  const query = new PhraseQuery('body', ['red', 'fox']);
  const exhaustive = searcher.topDocs(query, 10, { trackTotalHitsUpTo: Infinity });
  const pruned = searcher.topDocs(query, 10, { trackTotalHitsUpTo: 10 });
  assert.deepEqual(pruned.scoreDocs, exhaustive.scoreDocs);
  const matching = searcher.count(query);
  assert.ok(matching > 1000);
  assert.deepEqual(exhaustive.totalHits, { value: matching, relation: 'eq' });
  assert.equal(pruned.totalHits.relation, 'gte');
  assert.ok(pruned.totalHits.value < matching, `${pruned.totalHits.value} of ${matching} scored: nothing was skipped`);
});

/** Docs of a few words in skewed proportions and varied lengths: terms' high freqs land at different norms. */
const multiBlockCorpus = fc
  .tuple(fc.integer({ min: 300, max: 700 }), fc.integer())
  .map(([count, seed]) => {
    let state = seed | 1;
    const random = (bound: number): number => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % bound;
    };
    const words = ['a', 'a', 'a', 'b', 'b', 'c', 'd'];
    return Array.from({ length: count }, () => Array.from({ length: 1 + random(random(4) === 0 ? 60 : 8) }, () => words[random(words.length)]!).join(' '));
  });

test('exact phrases: the merged-impacts bound covers every doc of its window, and pruned top-k equals exhaustive', async () => {
  await fc.assert(
    fc.asyncProperty(multiBlockCorpus, fc.constantFrom(['a', 'b'], ['b', 'a'], ['a', 'a'], ['a', 'b', 'c'], ['c', 'd']), fc.constantFrom(1, 5, 10), async (bodies, words, k) => {
      const searcher = await searcherOf(bodies);
      const query = new PhraseQuery('body', words);
      const weight = searcher.createWeight(searcher.rewrite(query), 'top_scores', 1);
      const leaf = searcher.leaves[0]!;
      const scorer = weight.scorer(leaf);
      if (scorer === null) return;
      const bounds = weight.scorer(leaf)!;
      for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
        const upTo = bounds.advanceShallow(doc);
        assert.ok(upTo >= doc);
        assert.ok(bounds.getMaxScore(upTo) >= scorer.score(), `doc ${doc}: bound ${bounds.getMaxScore(upTo)} < score ${scorer.score()}`);
      }
      const exhaustive = searcher.topDocs(query, k, { trackTotalHitsUpTo: Infinity });
      for (const threshold of [0, 10]) assert.deepEqual(searcher.topDocs(query, k, { trackTotalHitsUpTo: threshold }).scoreDocs, exhaustive.scoreDocs);
    }),
    { numRuns: 25 },
  );
});

/** One term's impacts over 1-4 blocks: block ends ascending, each block's pairs a strict frontier (norm and freq ascending). */
const termImpacts = fc
  .array(
    fc.tuple(
      fc.integer({ min: 1, max: 40 }),
      fc.uniqueArray(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 8 }),
      fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { minLength: 8, maxLength: 8 }),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((blocks) => {
    const lastDocs: number[] = [];
    const starts = [0];
    const freqs: number[] = [];
    const norms: number[] = [];
    let doc = -1;
    for (const [gap, blockNorms, blockFreqs] of blocks) {
      lastDocs.push((doc += gap));
      const sortedNorms = [...blockNorms].sort((a, b) => a - b);
      const sortedFreqs = blockFreqs.slice(0, sortedNorms.length).sort((a, b) => a - b);
      norms.push(...sortedNorms);
      freqs.push(...sortedFreqs);
      starts.push(freqs.length);
    }
    return new TermImpacts(lastDocs.length, Int32Array.from(lastDocs), Int32Array.from(starts), Int32Array.from(freqs), Uint8Array.from(norms));
  });

test('merged phrase impacts: the bound over a range is the best score of (smallest allowed freq, norm) over every norm', () => {
  const score = (freq: number, norm: number): number => freq / (freq + 1 + norm / 16);
  fc.assert(
    fc.property(fc.array(termImpacts, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (terms, target, span) => {
      const impacts = new PhraseImpacts(terms, score);
      const upTo = impacts.advanceShallow(target);
      if (upTo === NO_MORE_DOCS) {
        assert.ok(terms.some((term) => term.blockLastDocs[term.blockCount - 1]! < target));
        return;
      }
      // Either the window advanceShallow gives (one block per term) or a wider range (several blocks of some).
      for (const rangeEnd of [upTo, upTo + span]) {
        let expected = 0;
        for (let norm = 0; norm < 256; norm++) {
          let phraseFreq = Infinity;
          for (const term of terms) {
            let block = term.blockIndexOf(target);
            let termFreq = 0;
            for (;;) {
              for (let k = term.impactStarts[block]!; k < term.impactStarts[block + 1]!; k++) {
                if (term.impactNorms[k]! <= norm) termFreq = Math.max(termFreq, term.impactFreqs[k]!);
              }
              if (block + 1 >= term.blockCount || term.blockLastDocs[block]! >= rangeEnd) break;
              block++;
            }
            phraseFreq = Math.min(phraseFreq, termFreq);
          }
          if (phraseFreq > 0) expected = Math.max(expected, score(phraseFreq, norm));
        }
        assert.equal(impacts.maxScore(rangeEnd), expected);
        // Asked only whether the range reaches `enough`: the answer agrees, and the value still bounds.
        for (const enough of [expected / 2, expected, expected * 0.999, expected * 1.5, 0.9]) {
          const bound = impacts.maxScore(rangeEnd, enough);
          assert.equal(bound >= enough, expected >= enough);
          assert.ok(bound >= expected || bound >= enough);
        }
      }
    }),
    { numRuns: 300 },
  );
});
