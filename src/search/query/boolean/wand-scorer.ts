/**
 * Block-max WAND over the clauses of a disjunction (Lucene's WANDScorer, after Ding & Suel), for top-k
 * searches. Until a minimum competitive score is set it is a plain union. Once it is set:
 *
 * 1. Cursors are kept sorted by doc. Walking them in that order and adding each clause's best score over
 *    the whole segment, the first cursor where the sum reaches the minimum is the pivot: no doc before the
 *    pivot's doc can compete, since only the clauses before the pivot could match it.
 * 2. For the clauses on or before the pivot doc, the best scores of their current postings blocks are
 *    summed; if even that is below the minimum, no doc up to the nearest block end can compete, and every
 *    such cursor jumps past it without decoding the docs in between.
 * 3. Otherwise, when the first cursor is already on the pivot doc, that doc is a candidate and is returned
 *    (the collector scores it); else the lagging cursors are advanced to the pivot doc and the loop repeats.
 *
 * Scores are the double sum of the clauses on the doc, rounded to float once, as Lucene computes them.
 */
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer, sumUpperBound } from '../../core/scorer.js';
import { fround } from '../../float32.js';

export class WandScorer extends Scorer {
  private readonly size: number;
  /** Clause indexes sorted by their cursor's doc. */
  private readonly order: Int32Array;
  /** Current doc of each clause, by clause index. */
  private readonly docs: Int32Array;
  private globalMaxScores: Float64Array | null = null;
  private minCompetitiveScore = 0;
  private readonly totalCost: number;
  private doc = -1;

  constructor(private readonly subs: readonly Scorer[]) {
    super();
    this.size = subs.length;
    this.order = Int32Array.from(subs, (_, i) => i);
    this.docs = Int32Array.from(subs, (sub) => sub.docID());
    this.totalCost = subs.reduce((sum, sub) => sum + sub.cost(), 0);
  }

  docID(): number {
    return this.doc;
  }

  cost(): number {
    return this.totalCost;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    const docs = this.docs;
    const order = this.order;
    // Cursors are sorted by doc: the ones behind the target are at the front.
    let moved = false;
    for (let i = 0; i < this.size; i++) {
      const clause = order[i]!;
      if (docs[clause]! >= target) break;
      docs[clause] = this.subs[clause]!.advance(target);
      moved = true;
    }
    if (moved) this.sortCursors();
    return (this.doc = this.nextCandidate());
  }

  private nextCandidate(): number {
    const order = this.order;
    const docs = this.docs;
    const size = this.size;
    for (;;) {
      const minimum = this.minCompetitiveScore;
      if (minimum === 0) return docs[order[0]!]!;
      const globalMax = this.globalMaxScores!;

      // 1. pivot: the first cursor at which the clauses' global maxima can reach the minimum.
      let accumulated = 0;
      let pivot = -1;
      for (let i = 0; i < size; i++) {
        const clause = order[i]!;
        if (docs[clause] === NO_MORE_DOCS) break;
        accumulated += globalMax[clause]!;
        if (sumUpperBound(accumulated) >= minimum) {
          pivot = i;
          break;
        }
      }
      if (pivot < 0) return NO_MORE_DOCS;
      const pivotDoc = docs[order[pivot]!]!;
      let last = pivot;
      while (last + 1 < size && docs[order[last + 1]!] === pivotDoc) last++;

      // 2. block maxima of the clauses that can match docs in [pivotDoc, nearest block end].
      let blockSum = 0;
      let windowEnd = NO_MORE_DOCS;
      for (let i = 0; i <= last; i++) {
        const sub = this.subs[order[i]!]!;
        const upTo = sub.advanceShallow(pivotDoc);
        if (upTo < windowEnd) windowEnd = upTo;
        blockSum += sub.getMaxScore(upTo);
      }
      if (sumUpperBound(blockSum) < minimum) {
        let next = windowEnd === NO_MORE_DOCS ? NO_MORE_DOCS : windowEnd + 1;
        if (last + 1 < size && docs[order[last + 1]!]! < next) next = docs[order[last + 1]!]!;
        for (let i = 0; i <= last; i++) {
          const clause = order[i]!;
          if (docs[clause]! < next) docs[clause] = this.subs[clause]!.advance(next);
        }
        this.sortCursors();
        continue;
      }

      // 3. a candidate, or catch the lagging cursors up with the pivot.
      if (docs[order[0]!] === pivotDoc) return pivotDoc;
      for (let i = 0; i < pivot; i++) {
        const clause = order[i]!;
        if (docs[clause]! < pivotDoc) docs[clause] = this.subs[clause]!.advance(pivotDoc);
      }
      this.sortCursors();
    }
  }

  /** Insertion sort by doc: cursors move a little at a time, so the order is nearly sorted already. */
  private sortCursors(): void {
    const order = this.order;
    const docs = this.docs;
    for (let i = 1; i < this.size; i++) {
      const clause = order[i]!;
      const doc = docs[clause]!;
      let j = i - 1;
      while (j >= 0 && docs[order[j]!]! > doc) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = clause;
    }
  }

  score(): number {
    // The cursors on the current doc are the first ones in doc order.
    const doc = this.doc;
    const docs = this.docs;
    const order = this.order;
    let sum = 0;
    for (let i = 0; i < this.size; i++) {
      const clause = order[i]!;
      if (docs[clause] !== doc) break;
      sum += this.subs[clause]!.score();
    }
    return fround(sum);
  }

  override advanceShallow(target: number): number {
    let upTo = NO_MORE_DOCS;
    for (let i = 0; i < this.size; i++) if (this.docs[i]! <= target) upTo = Math.min(upTo, this.subs[i]!.advanceShallow(target));
    return upTo;
  }

  override getMaxScore(upTo: number): number {
    let sum = 0;
    for (let i = 0; i < this.size; i++) if (this.docs[i]! <= upTo) sum += this.subs[i]!.getMaxScore(upTo);
    return sum;
  }

  override setMinCompetitiveScore(minScore: number): void {
    if (minScore <= this.minCompetitiveScore) return;
    if (this.globalMaxScores === null) {
      this.globalMaxScores = Float64Array.from(this.subs, (sub) => {
        sub.advanceShallow(Math.max(0, sub.docID()));
        return sub.getMaxScore(NO_MORE_DOCS);
      });
    }
    this.minCompetitiveScore = minScore;
  }
}
