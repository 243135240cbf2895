import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  NO_MORE_DOCS,
  POSTINGS_DOCS,
  POSTINGS_FREQS,
  POSTINGS_POSITIONS,
  POSTINGS_VERSION_CURRENT,
  POSTINGS_VERSION_START,
} from '../../../../src/engine/codec/postings/postings-format.js';
import { LENGTH_TABLE } from '../../../../src/engine/codec/norms/small-float.js';
import { AssertingPostingsEnum } from './asserting-postings-enum.js';
import { PostingsReader } from '../../../../src/engine/codec/postings/postings-reader.js';
import { EsError } from '../../../../src/common/errors.js';
import { SEGMENT_ID, termPostings, writeAndOpen, type TermPostings } from './postings-fixtures.js';

const RUNS = 40;
const MAX_DOC = 2 ** 31 - 1;
/** Every format the reader supports: 1 (vInt positions per doc), 2 (packed position blocks across docs). */
const VERSIONS = Array.from({ length: POSTINGS_VERSION_CURRENT - POSTINGS_VERSION_START + 1 }, (_, i) => POSTINGS_VERSION_START + i);

test('postings round-trip: doc ids, freqs and positions via nextDoc, in every format version', () => {
  for (const [withFreqs, withPositions, version] of [
    [false, false, POSTINGS_VERSION_CURRENT],
    [true, false, POSTINGS_VERSION_CURRENT],
    ...VERSIONS.map((v) => [true, true, v] as const),
  ] as const) {
    fc.assert(
      fc.property(fc.array(termPostings(MAX_DOC, withFreqs, withPositions), { minLength: 1, maxLength: 4 }), fc.integer(), (terms, seed) => {
        const { reader, states } = writeAndOpen(terms, withFreqs, withPositions, null, version);
        terms.forEach((term, t) => {
          const state = states[t]!;
          assert.equal(state.docFreq, term.docs.length);
          assert.equal(state.totalTermFreq, withFreqs ? term.freqs.reduce((a, b) => a + b, 0) : term.docs.length);
          const flags = withPositions ? POSTINGS_POSITIONS : withFreqs ? POSTINGS_FREQS : POSTINGS_DOCS;
          const postings = new AssertingPostingsEnum(reader.postings(state, withFreqs, withPositions, flags), withPositions);
          assert.equal(postings.cost(), term.docs.length);
          for (let i = 0; i < term.docs.length; i++) {
            assert.equal(postings.nextDoc(), term.docs[i]);
            assert.equal(postings.freq(), withFreqs ? term.freqs[i] : 1);
            // Read the positions of some docs only, so skipping unread positions is exercised too.
            if (term.positions !== null && ((seed >>> i % 31) & 1) === 1) {
              const read = term.positions[i]!.map(() => postings.nextPosition());
              assert.deepEqual(read, term.positions[i]);
            }
          }
          assert.equal(postings.nextDoc(), NO_MORE_DOCS);
          assert.equal(postings.docID(), NO_MORE_DOCS);
        });
      }),
      { numRuns: RUNS },
    );
  }
});

/** advance() and nextDoc() interleaved, against a cursor over the plain array. */
test('advance() lands where a naive scan does, positions included, in every format version', () => {
  const op = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 5_000_000 }));
  fc.assert(
    fc.property(termPostings(MAX_DOC, true, true), fc.array(op, { minLength: 1, maxLength: 60 }), fc.constantFrom(...VERSIONS), (term, ops, version) => {
      const { reader, states } = writeAndOpen([term], true, true, null, version);
      const postings = new AssertingPostingsEnum(reader.postings(states[0]!, true, true, POSTINGS_POSITIONS), true);
      let index = -1;
      for (const step of ops) {
        const current = index < 0 ? -1 : index >= term.docs.length ? NO_MORE_DOCS : term.docs[index]!;
        if (current === NO_MORE_DOCS) break;
        let got: number;
        if (step === 0) {
          index++;
          got = postings.nextDoc();
        } else {
          const target = Math.min(current + step, NO_MORE_DOCS);
          while (index < term.docs.length && (index < 0 || term.docs[index]! < target)) index++;
          got = postings.advance(target);
        }
        const expected = index >= term.docs.length ? NO_MORE_DOCS : term.docs[index]!;
        assert.equal(got, expected);
        if (expected !== NO_MORE_DOCS) {
          assert.equal(postings.freq(), term.freqs[index]);
          if (step % 2 === 0) assert.deepEqual(term.positions![index]!.map(() => postings.nextPosition()), term.positions![index]);
        }
      }
    }),
    { numRuns: RUNS * 2 },
  );
});

test('advance() on docs-only postings, from a fresh enum and to far targets', () => {
  fc.assert(
    fc.property(termPostings(MAX_DOC, false, false), fc.array(fc.integer({ min: 1, max: 2 ** 31 }), { minLength: 1, maxLength: 20 }), (term, steps) => {
      const { reader, states } = writeAndOpen([term], false, false, null);
      const postings = new AssertingPostingsEnum(reader.postings(states[0]!, false, false, POSTINGS_DOCS), false);
      let current = -1;
      for (const step of steps) {
        const target = Math.min(current + step, NO_MORE_DOCS);
        const expected = term.docs.find((d) => d >= target) ?? NO_MORE_DOCS;
        current = postings.advance(target);
        assert.equal(current, expected);
        if (current === NO_MORE_DOCS) break;
      }
    }),
    { numRuns: RUNS },
  );
});

function randomNorms(maxDoc: number, seed: number): Uint8Array {
  const norms = new Uint8Array(maxDoc);
  let state = seed | 1;
  for (let i = 0; i < maxDoc; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    // Skewed towards short fields, like real text, so frontiers have several pairs.
    norms[i] = 1 + ((state >>> 0) % (i % 3 === 0 ? 255 : 40));
  }
  return norms;
}

/** A BM25 scorer like Lucene's (k1 1.2, b 0.75), to check the impacts bound real scores. */
function bm25(avgdl: number): (freq: number, norm: number) => number {
  const cache = new Float32Array(256);
  for (let i = 0; i < 256; i++) cache[i] = 1 / (1.2 * (0.25 + (0.75 * LENGTH_TABLE[i]!) / avgdl));
  return (freq, norm) => 2.5 - 2.5 / (1 + freq * cache[norm]!);
}

test('block impacts bound every (freq, norm) of their block, and advanceShallow reports block ends', () => {
  const maxDoc = 20_000;
  fc.assert(
    fc.property(
      termPostings(maxDoc, true, false),
      fc.integer(),
      fc.double({ min: 1, max: 500, noNaN: true }),
      (term: TermPostings, seed: number, avgdl: number) => {
        // Norms of docs that contain a term are never 0 (an empty field has no terms): 1..255.
        const norms = randomNorms(maxDoc, seed);
        const { reader, states } = writeAndOpen([term], true, false, norms);
        const postings = reader.postings(states[0]!, true, false, POSTINGS_FREQS);
        const impacts = postings.impacts();
        const score = bm25(avgdl);
        const maxScores = impacts.maxScores(score);
        assert.equal(impacts.blockCount, Math.ceil(term.docs.length / 128));
        for (let i = 0; i < term.docs.length; i++) {
          const block = term.docs.length === 1 ? 0 : Math.floor(i / 128);
          const doc = term.docs[i]!;
          const freq = term.freqs[i]!;
          const norm = norms[doc]!;
          assert.ok(impacts.blockLastDocs[block]! >= doc);
          // Dominance: some competitive pair has freq >= and norm <= this doc's.
          let dominated = false;
          for (let k = impacts.impactStarts[block]!; k < impacts.impactStarts[block + 1]!; k++) {
            if (impacts.impactFreqs[k]! >= freq && impacts.impactNorms[k]! <= norm) dominated = true;
          }
          assert.ok(dominated, `doc ${doc} (freq ${freq}, norm ${norm}) not covered by block ${block}'s impacts`);
          assert.ok(maxScores[block]! >= score(freq, norm));
        }
        // The last doc of every block is exact (not just a bound), and the frontier is strictly monotonic.
        for (let b = 0; b < impacts.blockCount; b++) {
          assert.equal(impacts.blockLastDocs[b], term.docs[Math.min(term.docs.length, (b + 1) * 128) - 1]);
          for (let k = impacts.impactStarts[b]! + 1; k < impacts.impactStarts[b + 1]!; k++) {
            assert.ok(impacts.impactFreqs[k]! > impacts.impactFreqs[k - 1]! && impacts.impactNorms[k]! > impacts.impactNorms[k - 1]!);
          }
        }
        const shallow = reader.postings(states[0]!, true, false, POSTINGS_FREQS);
        for (const target of [0, term.docs[0]!, term.docs[term.docs.length >> 1]!, term.docs[term.docs.length - 1]!, maxDoc]) {
          const upTo = shallow.advanceShallow(target);
          const block = impacts.blockIndexOf(target);
          assert.equal(upTo, block >= impacts.blockCount ? NO_MORE_DOCS : impacts.blockLastDocs[block]);
        }
      },
    ),
    { numRuns: RUNS },
  );
});

test('postings of a docs-only field with dense ids take no bits per doc delta', () => {
  const docs = Array.from({ length: 1280 }, (_, i) => i);
  const term = { docs, freqs: docs.map(() => 1), positions: null };
  const { docBytes } = writeAndOpen([term], false, false, null);
  // 10 full blocks of one header byte each, plus the skip entries; far below a byte per doc.
  assert.ok(docBytes < 100, `dense postings took ${docBytes} bytes`);
});

test('postings writer rejects out-of-order docs, bad freqs and missing positions', () => {
  assert.throws(() => writeAndOpen([{ docs: [5, 5], freqs: [1, 1], positions: null }], true, false, null), /increasing/);
  assert.throws(() => writeAndOpen([{ docs: [1], freqs: [0], positions: null }], true, false, null), /freq/);
  assert.throws(() => writeAndOpen([{ docs: [1], freqs: [2 ** 31], positions: null }], true, false, null), /freq/);
  assert.throws(() => writeAndOpen([{ docs: [NO_MORE_DOCS], freqs: [1], positions: null }], true, false, null), /below/);
  assert.throws(() => writeAndOpen([{ docs: [1, 2], freqs: [2, 1], positions: [[3], [1]] }], true, true, null), /positions/);
  assert.throws(() => writeAndOpen([{ docs: [1], freqs: [1], positions: [[4, 5]] }], true, true, null), /positions/);
  // An empty postings list is not a term: the indexing buffer never emits one, the writer refuses it.
  assert.throws(() => writeAndOpen([{ docs: [], freqs: [], positions: null }], true, false, null), /at least one document/);
});

/** Docs of many positions beside docs of few, so position blocks straddle docs and docs span blocks. */
function mixedPositionsTerm(docCount: number, seed: number, gapBound: (p: number) => number = (p) => (p % 50 === 49 ? 5_000 : 8)): TermPostings {
  let state = seed | 1;
  const random = (bound: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % bound;
  };
  const docs: number[] = [];
  const freqs: number[] = [];
  const positions: number[][] = [];
  for (let i = 0; i < docCount; i++) {
    docs.push(i * 3 + random(3));
    const freq = random(10) === 0 ? 129 + random(300) : 1 + random(4);
    let position = random(20);
    const list: number[] = [];
    // Mostly word-sized gaps, now and then a long one (a block of wide deltas, read from the block in place).
    for (let p = 0; p < freq; p++) list.push((position += random(gapBound(p))));
    freqs.push(freq);
    positions.push(list);
  }
  return { docs, freqs, positions };
}

test('positions spanning packed blocks: docs with more than 128 positions, read whole, in part or skipped', () => {
  for (const version of VERSIONS) {
    for (const seed of [1, 7, 42, 1234]) {
      const term = mixedPositionsTerm(700, seed);
      const { reader, states } = writeAndOpen([term], true, true, null, version);
      const postings = new AssertingPostingsEnum(reader.postings(states[0]!, true, true, POSTINGS_POSITIONS), true);
      for (let i = 0; i < term.docs.length; i++) {
        assert.equal(postings.nextDoc(), term.docs[i]);
        assert.equal(postings.freq(), term.freqs[i]);
        const mode = (i * seed) % 3; // 0: skip the doc, 1: read all, 2: read the first few only
        const count = mode === 0 ? 0 : mode === 1 ? term.freqs[i]! : Math.min(term.freqs[i]!, 1 + (i % 3));
        for (let p = 0; p < count; p++) assert.equal(postings.nextPosition(), term.positions![i]![p], `doc ${i} position ${p} (format ${version})`);
      }
      // advance() over several doc blocks, then positions: located from the skip entries.
      const jumping = reader.postings(states[0]!, true, true, POSTINGS_POSITIONS);
      for (let i = 5; i < term.docs.length; i += 97 + (seed % 60)) {
        assert.equal(jumping.advance(term.docs[i]!), term.docs[i]);
        assert.deepEqual(term.positions![i]!.map(() => jumping.nextPosition()), term.positions![i]);
      }
    }
  }
});

test('a singleton term with more positions than a block', () => {
  const positions = Array.from({ length: 300 }, (_, i) => i * 7 + (i % 3));
  for (const version of VERSIONS) {
    const { reader, states } = writeAndOpen([{ docs: [12345], freqs: [300], positions: [positions] }], true, true, null, version);
    assert.equal(states[0]!.singletonDoc, 12345);
    const postings = reader.postings(states[0]!, true, true, POSTINGS_POSITIONS);
    assert.equal(postings.nextDoc(), 12345);
    assert.deepEqual(positions.map(() => postings.nextPosition()), positions);
  }
});

test('format 2 packs positions: smaller than format 1 vInts for text-like gaps', () => {
  const term = mixedPositionsTerm(2_000, 99, () => 8);
  const v1 = writeAndOpen([term], true, true, null, POSTINGS_VERSION_START).posBytes;
  const v2 = writeAndOpen([term], true, true, null, POSTINGS_VERSION_CURRENT).posBytes;
  assert.ok(v2 < v1, `format 2 took ${v2} bytes, format 1 ${v1}`);
});

test('a doc file and a positions file of different formats are refused as corrupt', () => {
  const term = mixedPositionsTerm(300, 5);
  const v1 = writeAndOpen([term], true, true, null, POSTINGS_VERSION_START);
  const v2 = writeAndOpen([term], true, true, null, POSTINGS_VERSION_CURRENT);
  assert.throws(
    () => new PostingsReader(v2.files.doc, 'test.doc', v1.files.pos, 'test.pos', SEGMENT_ID),
    (error: unknown) => error instanceof EsError && error.type === 'corrupt_index_exception' && /postings format 2 with positions format 1/.test(error.message),
  );
});

test('impacts decoded later by a positions enum (skip entries first walked over) equal those decoded at once', () => {
  const maxDoc = 5_000;
  fc.assert(
    fc.property(termPostings(maxDoc, true, true), fc.integer(), fc.integer({ min: 0, max: maxDoc }), fc.constantFrom(...VERSIONS), (term, seed, target, version) => {
      const norms = randomNorms(maxDoc, seed);
      const { reader, states } = writeAndOpen([term], true, true, norms, version);
      const eager = reader.postings(states[0]!, true, true, POSTINGS_FREQS).impacts();
      const lazy = new AssertingPostingsEnum(reader.postings(states[0]!, true, true, POSTINGS_POSITIONS), true);
      // Move the enum through its skip data (positions need it) before the impacts are asked for.
      const expected = term.docs.find((doc) => doc >= target) ?? NO_MORE_DOCS;
      assert.equal(lazy.advance(target), expected);
      if (expected !== NO_MORE_DOCS) {
        const index = term.docs.indexOf(expected);
        assert.deepEqual(term.positions![index]!.map(() => lazy.nextPosition()), term.positions![index]);
      }
      const late = lazy.impacts();
      assert.equal(late.blockCount, eager.blockCount);
      assert.deepEqual([...late.blockLastDocs], [...eager.blockLastDocs]);
      assert.deepEqual([...late.impactStarts], [...eager.impactStarts]);
      assert.deepEqual([...late.impactFreqs], [...eager.impactFreqs]);
      assert.deepEqual([...late.impactNorms], [...eager.impactNorms]);
    }),
    { numRuns: RUNS },
  );
});
