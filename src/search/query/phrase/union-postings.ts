/**
 * Several terms' postings read as one (Lucene's MultiPhraseQuery.UnionPostingsEnum): a doc matches when any
 * term occurs in it, its freq is the sum of theirs, and its positions are all of theirs in increasing
 * order (a position two terms share is returned twice, as in Lucene). It only serves phrase matching:
 * there are no impacts, so no block-max bounds.
 */
import type { PostingsEnum, TermImpacts } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';

export class UnionPostingsEnum implements PostingsEnum {
  private doc = -1;
  private positions: number[] = [];
  private upTo = 0;
  private readonly totalCost: number;

  constructor(private readonly subs: readonly PostingsEnum[]) {
    this.totalCost = subs.reduce((sum, sub) => sum + sub.cost(), 0);
  }

  docID(): number {
    return this.doc;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    let min = NO_MORE_DOCS;
    for (const sub of this.subs) {
      let doc = sub.docID();
      if (doc < target) doc = sub.advance(target);
      if (doc < min) min = doc;
    }
    this.doc = min;
    this.positions = [];
    this.upTo = 0;
    if (min !== NO_MORE_DOCS) {
      for (const sub of this.subs) {
        if (sub.docID() !== min) continue;
        const freq = sub.freq();
        for (let i = 0; i < freq; i++) this.positions.push(sub.nextPosition());
      }
      this.positions.sort((a, b) => a - b);
    }
    return min;
  }

  freq(): number {
    return this.positions.length;
  }

  nextPosition(): number {
    return this.positions[this.upTo++]!;
  }

  cost(): number {
    return this.totalCost;
  }

  advanceShallow(_target: number): number {
    return NO_MORE_DOCS;
  }

  shallowBlock(): number {
    return 0;
  }

  impacts(): TermImpacts {
    throw new Error('a union of postings has no impacts');
  }
}
