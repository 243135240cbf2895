/**
 * The first k hits in a sort order (Lucene's TopFieldCollector): a bounded heap of slots ordered by the
 * sort fields, then by doc id ascending. Every match is visited and counted exactly; scores are computed
 * only when the sort uses them or `trackScores` asks for them.
 */
import type { LeafContext } from '../core/leaf-context.js';
import type { Scorable } from '../core/scorer.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { Collector, LeafCollector } from './collector.js';
import { createComparator, type FieldComparator } from './field-comparators.js';
import { sortNeedsScores, type SortSpec } from './sort.js';
import type { FieldDoc, TopDocs } from './top-docs.js';

export class TopFieldCollector implements Collector {
  readonly scoreMode: ScoreMode;
  private readonly comparators: readonly FieldComparator[];
  private readonly docs: Int32Array;
  private readonly scores: Float64Array;
  /** 1-based heap of slots, worst on top. */
  private readonly heap: Int32Array;
  private filled = 0;
  private totalHits = 0;
  private maxScore = NaN;
  private readonly needsScores: boolean;

  constructor(
    private readonly numHits: number,
    sort: SortSpec,
    private readonly trackScores: boolean,
  ) {
    if (!Number.isInteger(numHits) || numHits < 1) throw new RangeError(`numHits must be at least 1, got ${numHits}`);
    if (sort.length === 0) throw new RangeError('a sort needs at least one field');
    this.comparators = sort.map((field) => createComparator(field, numHits));
    this.docs = new Int32Array(numHits);
    this.scores = new Float64Array(numHits).fill(NaN);
    this.heap = new Int32Array(numHits + 1);
    this.needsScores = trackScores || sortNeedsScores(sort);
    this.scoreMode = this.needsScores ? 'complete' : 'complete_no_scores';
  }

  getLeafCollector(leaf: LeafContext): LeafCollector {
    for (const comparator of this.comparators) comparator.setLeaf(leaf);
    let scorer: Scorable | null = null;
    const docBase = leaf.docBase;
    return {
      setScorer: (s) => (scorer = s),
      collect: (doc) => this.collect(doc, docBase, this.needsScores ? scorer!.score() : NaN),
    };
  }

  private collect(doc: number, docBase: number, score: number): void {
    this.totalHits++;
    if (this.trackScores && !(score <= this.maxScore)) this.maxScore = score;
    const comparators = this.comparators;
    if (this.filled === this.numHits) {
      // Compare with the worst kept hit; on a full tie the later doc loses.
      let cmp = 0;
      for (let i = 0; i < comparators.length && cmp === 0; i++) cmp = comparators[i]!.compareBottom(doc, score);
      if (cmp >= 0) return;
      const slot = this.heap[1]!;
      this.fill(slot, doc, docBase, score);
      this.downHeap(1);
      this.setBottom();
      return;
    }
    const slot = this.filled++;
    this.fill(slot, doc, docBase, score);
    this.upHeap(this.filled);
    if (this.filled === this.numHits) this.setBottom();
  }

  private fill(slot: number, doc: number, docBase: number, score: number): void {
    for (const comparator of this.comparators) comparator.copy(slot, doc, score);
    this.docs[slot] = doc + docBase;
    this.scores[slot] = score;
  }

  private setBottom(): void {
    const bottom = this.heap[1]!;
    for (const comparator of this.comparators) comparator.setBottom(bottom);
  }

  /** Slot a sorts after slot b (is a worse hit). */
  private worse(a: number, b: number): boolean {
    for (const comparator of this.comparators) {
      const cmp = comparator.compareSlots(a, b);
      if (cmp !== 0) return cmp > 0;
    }
    return this.docs[a]! > this.docs[b]!;
  }

  private upHeap(position: number): void {
    const heap = this.heap;
    const slot = heap[position] = position - 1;
    let i = position;
    let parent = i >>> 1;
    while (parent > 0 && this.worse(slot, heap[parent]!)) {
      heap[i] = heap[parent]!;
      i = parent;
      parent >>>= 1;
    }
    heap[i] = slot;
  }

  private downHeap(position: number): void {
    const heap = this.heap;
    const size = this.filled;
    const slot = heap[position]!;
    let i = position;
    for (;;) {
      let child = i * 2;
      if (child > size) break;
      if (child < size && this.worse(heap[child + 1]!, heap[child]!)) child++;
      if (!this.worse(heap[child]!, slot)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = slot;
  }

  topDocs(terminatedEarly = false): TopDocs<FieldDoc> {
    const slots = Array.from({ length: this.filled }, (_, i) => i);
    slots.sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
    const scoreDocs: FieldDoc[] = slots.map((slot) => ({
      doc: this.docs[slot]!,
      score: this.scores[slot]!,
      sortValues: this.comparators.map((comparator) => comparator.sortValue(slot)),
    }));
    return { totalHits: { value: this.totalHits, relation: 'eq' }, scoreDocs, maxScore: this.maxScore, terminatedEarly };
  }
}
