/**
 * Union of clauses, scoring the sum of the clauses on the doc (Lucene's DisjunctionSumScorer): used when
 * every match is wanted (counting, `complete` scoring); top-k searches use WandScorer instead. Scores are
 * summed in double and rounded to float once, as Lucene does.
 */
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer } from '../../core/scorer.js';
import { fround } from '../../float32.js';
import { ScorerHeap } from './scorer-heap.js';

export class DisjunctionSumScorer extends Scorer {
  protected readonly heap: ScorerHeap;
  protected readonly onDoc: Int32Array;
  private readonly totalCost: number;
  protected doc = -1;

  constructor(protected readonly subs: readonly Scorer[]) {
    super();
    this.heap = new ScorerHeap(subs);
    this.onDoc = new Int32Array(subs.length);
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
    return (this.doc = this.heap.advanceTo(target));
  }

  score(): number {
    const count = this.heap.topList(this.onDoc);
    let sum = 0;
    for (let i = 0; i < count; i++) sum += this.subs[this.onDoc[i]!]!.score();
    return fround(sum);
  }

  override advanceShallow(target: number): number {
    let upTo = NO_MORE_DOCS;
    for (const sub of this.subs) if (sub.docID() <= target) upTo = Math.min(upTo, sub.advanceShallow(target));
    return upTo;
  }

  override getMaxScore(upTo: number): number {
    let sum = 0;
    for (const sub of this.subs) if (sub.docID() <= upTo) sum += sub.getMaxScore(upTo);
    return sum;
  }
}
