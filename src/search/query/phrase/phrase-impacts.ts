/**
 * Score bounds of an exact phrase over a range of docs, from its terms' block impacts (Lucene's
 * ExactPhraseMatcher.mergeImpacts). An occurrence uses one position of every term, so in a doc whose norm
 * byte is n the phrase frequency is at most, for each term, the largest freq its impacts allow at a norm
 * <= n (a doc (f, n) is covered by an impact (F, N) with F >= f and N <= n); the phrase's bound is the best
 * score of (smallest such freq over the terms, n) over the norms where one of those steps changes.
 *
 * This is tighter than the smallest of the terms' own block bounds (what BlockMaxScores gives) whenever the
 * terms reach their high frequencies at different norms, which is what lets a phrase of two common words
 * skip most of its candidate docs once the top hits are known.
 */
import type { TermImpacts } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';

/** Scores a (phrase freq, norm byte) pair with the phrase's scorer. */
export type PhraseImpactScorer = (freq: number, norm: number) => number;

export class PhraseImpacts {
  /** Per term, the block holding the last advanceShallow target. */
  private readonly blocks: Int32Array;
  /** Per term, the last block of the range being bounded (set by maxScore). */
  private readonly lastBlocks: Int32Array;
  /** Scratch of maxScoreOneBlockEach, per term: next impact, end of its block's impacts, freq allowed so far. */
  private readonly cursors: Int32Array;
  private readonly cursorEnds: Int32Array;
  private readonly termFreqs: Int32Array;

  constructor(
    private readonly terms: readonly TermImpacts[],
    private readonly score: PhraseImpactScorer,
  ) {
    this.blocks = new Int32Array(terms.length);
    this.lastBlocks = new Int32Array(terms.length);
    this.cursors = new Int32Array(terms.length);
    this.cursorEnds = new Int32Array(terms.length);
    this.termFreqs = new Int32Array(terms.length);
  }

  /**
   * Moves every term to its block holding `target`; returns the smallest of those blocks' last docs (the
   * range over which one block per term applies), or NO_MORE_DOCS once a term has no doc >= target.
   */
  advanceShallow(target: number): number {
    const terms = this.terms;
    let upTo = NO_MORE_DOCS;
    for (let t = 0; t < terms.length; t++) {
      const impacts = terms[t]!;
      let block = this.blocks[t]!;
      if (block < impacts.blockCount && impacts.blockLastDocs[block]! < target) {
        // Windows mostly move on to the next block: look there before searching.
        block++;
        if (block < impacts.blockCount && impacts.blockLastDocs[block]! < target) block = impacts.blockIndexOf(target, block + 1);
      }
      this.blocks[t] = block;
      if (block >= impacts.blockCount) return NO_MORE_DOCS;
      const lastDoc = impacts.blockLastDocs[block]!;
      if (lastDoc < upTo) upTo = lastDoc;
    }
    return upTo;
  }

  /**
   * A bound of the phrase's score over [last advanceShallow target, upTo]. With `enough`, stops as soon as
   * the bound reaches it (the caller only asks whether the range can compete).
   */
  maxScore(upTo: number, enough = Infinity): number {
    const terms = this.terms;
    let oneBlockEach = true;
    for (let t = 0; t < terms.length; t++) {
      const impacts = terms[t]!;
      const first = this.blocks[t]!;
      if (first >= impacts.blockCount) return 0;
      let last = first;
      while (last + 1 < impacts.blockCount && impacts.blockLastDocs[last]! < upTo) last++;
      this.lastBlocks[t] = last;
      if (last !== first) oneBlockEach = false;
    }
    if (!oneBlockEach) return this.maxScoreAnyBlocks(enough);
    return terms.length === 2 ? this.maxScoreTwoTerms(enough) : this.maxScoreOneBlockEach(enough);
  }

  /** maxScoreOneBlockEach for the most common phrase, two terms, with its cursors in locals. */
  private maxScoreTwoTerms(enough: number): number {
    const first = this.terms[0]!;
    const second = this.terms[1]!;
    const norms0 = first.impactNorms;
    const norms1 = second.impactNorms;
    let k0 = first.impactStarts[this.blocks[0]!]!;
    const end0 = first.impactStarts[this.blocks[0]! + 1]!;
    let k1 = second.impactStarts[this.blocks[1]!]!;
    const end1 = second.impactStarts[this.blocks[1]! + 1]!;
    let freq0 = 0;
    let freq1 = 0;
    let best = 0;
    let scoredFreq = 0;
    while (k0 < end0 || k1 < end1) {
      const next0 = k0 < end0 ? norms0[k0]! : 256;
      const next1 = k1 < end1 ? norms1[k1]! : 256;
      const norm = next0 < next1 ? next0 : next1;
      if (next0 === norm) freq0 = first.impactFreqs[k0++]!;
      if (next1 === norm) freq1 = second.impactFreqs[k1++]!;
      const phraseFreq = freq0 < freq1 ? freq0 : freq1;
      if (phraseFreq <= scoredFreq) continue;
      scoredFreq = phraseFreq;
      const score = this.score(phraseFreq, norm);
      if (score > best) {
        best = score;
        if (best >= enough) return best;
      }
    }
    return best;
  }

  /**
   * The usual case (the range is one block of every term), in one merge pass: each term's impacts are
   * sorted by norm with freq ascending, so walking the union of their norms in order, a term's allowed
   * freq at norm n is that of its last impact passed. The same bound as maxScoreAnyBlocks, in O(impacts)
   * rather than O(impacts^2), scoring only where the allowed freq grows.
   */
  private maxScoreOneBlockEach(enough: number): number {
    const terms = this.terms;
    const count = terms.length;
    const cursors = this.cursors;
    const freqs = this.termFreqs;
    for (let t = 0; t < count; t++) {
      const impacts = terms[t]!;
      const block = this.blocks[t]!;
      cursors[t] = impacts.impactStarts[block]!;
      this.cursorEnds[t] = impacts.impactStarts[block + 1]!;
      freqs[t] = 0;
    }
    let best = 0;
    let scoredFreq = 0;
    for (;;) {
      // The smallest norm not yet passed by any term.
      let norm = 256;
      for (let t = 0; t < count; t++) {
        if (cursors[t]! < this.cursorEnds[t]!) {
          const next = terms[t]!.impactNorms[cursors[t]!]!;
          if (next < norm) norm = next;
        }
      }
      if (norm === 256) return best;
      let phraseFreq = 0x7fffffff;
      for (let t = 0; t < count; t++) {
        const impacts = terms[t]!;
        const k = cursors[t]!;
        if (k < this.cursorEnds[t]! && impacts.impactNorms[k]! === norm) {
          freqs[t] = impacts.impactFreqs[k]!;
          cursors[t] = k + 1;
        }
        if (freqs[t]! < phraseFreq) phraseFreq = freqs[t]!;
      }
      // The allowed freq only grows with the norm, and at a larger norm the same freq scores no more: only
      // a norm where it grows can raise the bound.
      if (phraseFreq <= scoredFreq) continue;
      scoredFreq = phraseFreq;
      const score = this.score(phraseFreq, norm);
      if (score > best) {
        best = score;
        if (best >= enough) return best;
      }
    }
  }

  private maxScoreAnyBlocks(enough: number): number {
    const terms = this.terms;
    let best = 0;
    // The bound can only step up where some term's allowed freq does: at the norms of its impacts.
    for (let t = 0; t < terms.length; t++) {
      const impacts = terms[t]!;
      const end = impacts.impactStarts[this.lastBlocks[t]! + 1]!;
      for (let k = impacts.impactStarts[this.blocks[t]!]!; k < end; k++) {
        const norm = impacts.impactNorms[k]!;
        const freq = this.maxFreqAtNorm(norm);
        if (freq === 0) continue;
        const score = this.score(freq, norm);
        if (score > best) {
          best = score;
          if (best >= enough) return best;
        }
      }
    }
    return best;
  }

  /** The largest phrase freq a doc of norm byte `norm` can have in the range: the smallest over the terms. */
  private maxFreqAtNorm(norm: number): number {
    const terms = this.terms;
    let phraseFreq = 0x7fffffff;
    for (let t = 0; t < terms.length; t++) {
      const impacts = terms[t]!;
      const { impactStarts, impactFreqs, impactNorms } = impacts;
      let termFreq = 0;
      for (let block = this.blocks[t]!; block <= this.lastBlocks[t]!; block++) {
        // Impacts are sorted by norm ascending with freq ascending: the last one at a norm <= n is the best.
        const end = impactStarts[block + 1]!;
        for (let k = impactStarts[block]!; k < end && impactNorms[k]! <= norm; k++) {
          if (impactFreqs[k]! > termFreq) termFreq = impactFreqs[k]!;
        }
      }
      if (termFreq < phraseFreq) phraseFreq = termFreq;
      if (phraseFreq === 0) return 0;
    }
    return phraseFreq;
  }
}
