/**
 * Slices a point-in-time view by document position (ES's DocIdSliceQuery, the default for a PIT without a
 * slice field): slice `id` holds one contiguous range of the searcher's doc ids, the first `maxDoc % max`
 * slices one doc longer. Only stable over one reader, which a PIT guarantees.
 */
import { AllDocsIterator } from '../../core/bitset.js';
import { ConstantScoreWeight } from '../../core/constant-score-weight.js';
import type { DocIdSetIterator } from '../../core/doc-id-set-iterator.js';
import type { LeafContext } from '../../core/leaf-context.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { SliceQuery } from './slice-query.js';

/** FieldSortBuilder.DOC_FIELD_NAME, the field name ES prints for this query. */
const DOC_FIELD = '_doc';

export class DocIdSliceQuery extends SliceQuery {
  constructor(id: number, max: number) {
    super(DOC_FIELD, id, max);
  }

  /** The searcher-wide doc range [start, end) of this slice. */
  range(maxDoc: number): { start: number; end: number } {
    const quotient = Math.floor(maxDoc / this.max);
    const remainder = maxDoc % this.max;
    if (this.id < remainder) return { start: (quotient + 1) * this.id, end: (quotient + 1) * (this.id + 1) };
    const start = remainder * (quotient + 1) + (this.id - remainder) * quotient;
    return { start, end: start + quotient };
  }

  createWeight(searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    return new DocIdSliceWeight(this, boost, this.range(searcher.maxDoc));
  }
}

/** Docs of a segment in [start, end). */
class RangeIterator implements DocIdSetIterator {
  private readonly all: AllDocsIterator;

  constructor(
    private readonly start: number,
    end: number,
  ) {
    this.all = new AllDocsIterator(end);
  }

  docID(): number {
    return this.all.docID();
  }

  nextDoc(): number {
    return this.all.docID() === -1 ? this.all.advance(this.start) : this.all.nextDoc();
  }

  advance(target: number): number {
    return this.all.advance(Math.max(target, this.start));
  }

  cost(): number {
    return Math.max(0, this.all.cost() - this.start);
  }
}

class DocIdSliceWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: DocIdSliceQuery,
    boost: number,
    private readonly range: { start: number; end: number },
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const start = Math.max(leaf.docBase, this.range.start) - leaf.docBase;
    const end = Math.min(leaf.docBase + leaf.maxDoc, this.range.end) - leaf.docBase;
    if (end <= start) return null;
    return new RangeIterator(start, end);
  }
}

