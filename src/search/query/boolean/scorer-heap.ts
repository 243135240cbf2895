/**
 * A min-heap of scorers by current doc id (Lucene's DisiPriorityQueue), with the doc ids cached beside the
 * heap so sifting does not call into the scorers. The scorers sitting on the top doc can be listed without
 * popping (a walk of the subtree whose docs equal the top's).
 */
import type { Scorer } from '../../core/scorer.js';

export class ScorerHeap {
  private readonly heap: Int32Array;
  private readonly docs: Int32Array;
  private readonly stack: Int32Array;
  readonly size: number;

  constructor(readonly scorers: readonly Scorer[]) {
    this.size = scorers.length;
    this.heap = new Int32Array(this.size);
    this.docs = new Int32Array(this.size);
    this.stack = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) {
      this.heap[i] = i;
      this.docs[i] = scorers[i]!.docID();
    }
    for (let i = (this.size >>> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  topDoc(): number {
    return this.docs[0]!;
  }

  top(): Scorer {
    return this.scorers[this.heap[0]!]!;
  }

  /** Call after the top scorer moved. */
  updateTop(): void {
    this.docs[0] = this.scorers[this.heap[0]!]!.docID();
    this.siftDown(0);
  }

  /** Moves every scorer before `target` to it or beyond; returns the new top doc. */
  advanceTo(target: number): number {
    while (this.docs[0]! < target) {
      this.scorers[this.heap[0]!]!.advance(target);
      this.updateTop();
    }
    return this.docs[0]!;
  }

  /** Writes the indexes (into `scorers`) of every scorer on the top doc into `out`; returns how many. */
  topList(out: Int32Array): number {
    const size = this.size;
    if (size === 0) return 0;
    const doc = this.docs[0]!;
    const stack = this.stack;
    let count = 0;
    let depth = 0;
    stack[depth++] = 0;
    while (depth > 0) {
      const slot = stack[--depth]!;
      out[count++] = this.heap[slot]!;
      const left = slot * 2 + 1;
      if (left < size && this.docs[left] === doc) stack[depth++] = left;
      if (left + 1 < size && this.docs[left + 1] === doc) stack[depth++] = left + 1;
    }
    return count;
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    const docs = this.docs;
    const size = this.size;
    const entry = heap[start]!;
    const doc = docs[start]!;
    let i = start;
    for (;;) {
      let child = i * 2 + 1;
      if (child >= size) break;
      if (child + 1 < size && docs[child + 1]! < docs[child]!) child++;
      if (docs[child]! >= doc) break;
      heap[i] = heap[child]!;
      docs[i] = docs[child]!;
      i = child;
    }
    heap[i] = entry;
    docs[i] = doc;
  }
}
