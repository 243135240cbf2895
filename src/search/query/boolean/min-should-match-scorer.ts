/**
 * Docs matching at least `minimumShouldMatch` of the clauses, scored by the sum of those that match
 * (Lucene's MinShouldMatchSumScorer, here as a union that counts the clauses on each candidate doc).
 */
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import type { Scorer } from '../../core/scorer.js';
import { DisjunctionSumScorer } from './disjunction-sum-scorer.js';

export class MinShouldMatchScorer extends DisjunctionSumScorer {
  constructor(
    subs: readonly Scorer[],
    private readonly minimumShouldMatch: number,
  ) {
    super(subs);
  }

  override advance(target: number): number {
    for (;;) {
      const doc = this.heap.advanceTo(target);
      if (doc === NO_MORE_DOCS || this.heap.topList(this.onDoc) >= this.minimumShouldMatch) return (this.doc = doc);
      target = doc + 1;
    }
  }

  override cost(): number {
    // Matching `min` clauses means following at least the cheapest-but-(n - min) ones.
    const costs = this.subs.map((sub) => sub.cost()).sort((a, b) => a - b);
    return costs.slice(0, costs.length - this.minimumShouldMatch + 1).reduce((sum, cost) => sum + cost, 0);
  }
}
