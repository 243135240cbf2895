/**
 * A bounded min-heap of (score, doc) in typed arrays (Lucene's HitQueue, pre-filled with sentinels): the
 * top is the worst hit kept. Lower score is worse; at equal scores the higher doc id is worse, so ties go
 * to the document indexed first, as in Lucene.
 */
export class HitQueue {
  readonly scores: Float64Array;
  readonly docs: Int32Array;
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
    this.scores = new Float64Array(size + 1).fill(-Infinity);
    this.docs = new Int32Array(size + 1).fill(0x7fffffff);
  }

  get topScore(): number {
    return this.scores[1]!;
  }

  get topDoc(): number {
    return this.docs[1]!;
  }

  /** Replaces the worst entry and restores the heap. */
  replaceTop(score: number, doc: number): void {
    const scores = this.scores;
    const docs = this.docs;
    const size = this.size;
    let i = 1;
    for (;;) {
      let child = i * 2;
      if (child > size) break;
      if (child < size && lessThan(scores[child + 1]!, docs[child + 1]!, scores[child]!, docs[child]!)) child++;
      if (!lessThan(scores[child]!, docs[child]!, score, doc)) break;
      scores[i] = scores[child]!;
      docs[i] = docs[child]!;
      i = child;
    }
    scores[i] = score;
    docs[i] = doc;
  }

  /** The real hits (sentinels dropped), best first. */
  sorted(): Array<{ doc: number; score: number }> {
    const hits: Array<{ doc: number; score: number }> = [];
    for (let i = 1; i <= this.size; i++) {
      if (this.scores[i] !== -Infinity) hits.push({ doc: this.docs[i]!, score: this.scores[i]! });
    }
    hits.sort((a, b) => (a.score !== b.score ? b.score - a.score : a.doc - b.doc));
    return hits;
  }
}

function lessThan(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA === scoreB ? docA > docB : scoreA < scoreB;
}
