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
import type { LiveDocs } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer, sumUpperBound, type ScoredCollector } from '../../core/scorer.js';
import { fround } from '../../float32.js';

export class WandScorer extends Scorer {
  private readonly size: number;
  /** Clause indexes sorted by their cursor's doc. */
  private readonly order: Int32Array;
  /** Current doc of each clause, by clause index. */
  private readonly docs: Int32Array;
  /** Per clause, a bound of its score over the current window (valid for docs <= upTo). */
  private readonly windowMax: Float64Array;
  /** Last doc of the current window; -1 before the first. */
  private upTo = -1;
  private minCompetitiveScore = 0;
  private readonly totalCost: number;
  private doc = -1;

  constructor(private readonly subs: readonly Scorer[]) {
    super();
    this.size = subs.length;
    this.order = Int32Array.from(subs, (_, i) => i);
    this.docs = Int32Array.from(subs, (sub) => sub.docID());
    this.windowMax = new Float64Array(subs.length);
    this.totalCost = subs.reduce((sum, sub) => sum + sub.cost(), 0);
  }

  docID(): number {
    return this.doc;
  }

  cost(): number {
    return this.totalCost;
  }

  nextDoc(): number {
    // The cursors on the current doc step to their next doc (cheaper than an advance); then as advance().
    const doc = this.doc;
    if (doc === NO_MORE_DOCS) return doc;
    const docs = this.docs;
    const order = this.order;
    let moved = false;
    for (let i = 0; i < this.size; i++) {
      const clause = order[i]!;
      if (docs[clause]! > doc) break;
      docs[clause] = this.subs[clause]!.nextDoc();
      moved = true;
    }
    if (moved) this.sortCursors();
    return (this.doc = this.nextCandidate());
  }

  advance(target: number): number {
    this.advanceCursorsBefore(target);
    return (this.doc = this.nextCandidate());
  }

  private nextCandidate(): number {
    const order = this.order;
    const docs = this.docs;
    const size = this.size;
    const windowMax = this.windowMax;
    for (;;) {
      const minimum = this.minCompetitiveScore;
      const first = docs[order[0]!]!;
      if (minimum === 0 || first === NO_MORE_DOCS) return first;
      if (first > this.upTo) this.updateWindow();
      const upTo = this.upTo;

      // 1. pivot: the first cursor, in doc order, at which the clauses' window bounds can reach the minimum.
      let accumulated = 0;
      let pivot = -1;
      for (let i = 0; i < size; i++) {
        const clause = order[i]!;
        if (docs[clause]! > upTo) break;
        accumulated += windowMax[clause]!;
        if (sumUpperBound(accumulated) >= minimum) {
          pivot = i;
          break;
        }
      }

      if (pivot < 0) {
        // No doc left in the window can compete: move every cursor in it past the window.
        this.advanceCursorsBefore(upTo === NO_MORE_DOCS ? NO_MORE_DOCS : upTo + 1);
        continue;
      }
      const pivotDoc = docs[order[pivot]!]!;
      // 2. a candidate, or catch the lagging cursors up with the pivot (docs before it cannot compete).
      if (first === pivotDoc) return pivotDoc;
      this.advanceCursorsBefore(pivotDoc);
    }
  }

  /**
   * Starts a window at the first cursor's doc: it ends at the nearest end of the clauses' current score blocks,
   * and each clause's bound over it is the best score of its blocks there (0 for a clause with no doc in it).
   * Bounds stay valid until the first cursor passes the window, whatever the minimum does meanwhile.
   */
  private updateWindow(): void {
    const docs = this.docs;
    const subs = this.subs;
    let upTo = NO_MORE_DOCS;
    for (let clause = 0; clause < this.size; clause++) {
      const doc = docs[clause]!;
      if (doc === NO_MORE_DOCS) continue;
      const blockEnd = subs[clause]!.advanceShallow(doc);
      if (blockEnd < upTo) upTo = blockEnd;
    }
    for (let clause = 0; clause < this.size; clause++) {
      const doc = docs[clause]!;
      this.windowMax[clause] = doc <= upTo ? subs[clause]!.getMaxScore(upTo) : 0;
    }
    this.upTo = upTo;
  }

  /** Advances every cursor before `target` to it, and restores the doc order. */
  private advanceCursorsBefore(target: number): void {
    const order = this.order;
    const docs = this.docs;
    for (let i = 0; i < this.size; i++) {
      const clause = order[i]!;
      if (docs[clause]! >= target) break;
      docs[clause] = this.subs[clause]!.advance(target);
    }
    this.sortCursors();
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

  override scoreRange(collector: ScoredCollector, liveDocs: LiveDocs | null, doc: number, end: number): number {
    // This class's own copy of the loop, on purpose: see Scorer.scoreRange.
    while (doc < end) {
      if (liveDocs === null || liveDocs.isLive(doc)) collector.collectScored(doc, this.score());
      doc = this.nextDoc();
    }
    return doc;
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
    this.minCompetitiveScore = minScore;
  }
}
